"""schemas/batch_items.py on its own: the item table's quick path answers as its long path does."""
import pytest
from marshmallow import ValidationError

from schemas import batch_create_schema

SETTINGS = {"batch_number": "7", "id_warehouse": "1", "direction": "I", "type": "R"}
FULL = {"product_code": "P1", "amount": "2", "amount_base_unit": "2", "unit": "pc", "barcode": "400",
        "date_exp": "2027-06-30", "lot": "", "name": "Scanned", "palette": 1, "status": 1,
        "timestamp_client": "2026-11-01T10:00:00.000+0100", "wplace": "A-01"}


def load(items):
    return batch_create_schema.load({"batch_settings": SETTINGS, "batch_items": items})["batch_items"]


def test_items_load_alike_whatever_the_order_of_their_fields():
    reordered = dict(reversed(list(FULL.items())))
    short = {"product_code": "P1", "unit": "box", "amount": 1.5}
    first, second, third = load([FULL, reordered, short])
    assert first == second == {
        "product_code": "P1", "amount_milli": 2000, "amount_base_milli": 2000, "unit": "pc",
        "barcode": "400", "date_exp": "2027-06-30", "lot": "", "name": "Scanned", "palette": 1,
        "status": 1, "timestamp_client": "2026-11-01T10:00:00.000+0100", "wplace": "A-01"}
    assert third == {"product_code": "P1", "unit": "box", "amount_milli": 1500}


def test_every_fault_of_every_item_is_named_after_good_items_of_the_same_shape():
    unknown = {**FULL, "colour": "red"}
    missing = {key: value for key, value in FULL.items() if key != "unit"}
    two_faults = {**FULL, "amount": "1.0001", "date_exp": "2027-02-30"}
    with pytest.raises(ValidationError) as raised:
        load([FULL, unknown, missing, two_faults, "P1", FULL])
    assert raised.value.messages == {"batch_items": {
        1: {"colour": ["Unknown field."]},
        2: {"unit": ["Missing data for required field."]},
        3: {"amount": ["At most 3 decimal places."], "date_exp": ["Not a valid calendar date."]},
        4: {"_schema": ["Invalid input type."]},
    }}


def test_an_amount_seen_before_is_read_as_exactly_as_the_first_time():
    assert [item["amount_milli"] for item in load([{**FULL, "amount": "2"}] * 3)] == [2000] * 3
    with pytest.raises(ValidationError) as raised:
        load([{**FULL, "amount": "2"}, {**FULL, "amount": " 2.0001"}])
    assert raised.value.messages == {"batch_items": {1: {"amount": ["At most 3 decimal places."]}}}
