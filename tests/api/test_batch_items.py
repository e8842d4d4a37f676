"""schemas/batch_items.py: a batch's scanned items, loaded a field at a time when every item
carries the same fields (as a scanner sends them), else item by item. Both ways must refuse
the same values, name the same item and field, and load the same items."""
import pytest
from marshmallow import ValidationError

from helpers import REFUSED_ITEMS, batch, item
from schemas import batch_create_schema, batch_items, check_timestamp

TS = "2026-11-01T10:00:00.000+0100"
# An item as a scanner sends it, every field filled in: good values, to give a refused item
# neighbours with the same fields.
FULL = {"product_code": "P1", "amount": "2", "amount_base_unit": "2", "unit": "pc", "barcode": "400",
        "date_exp": "2027-06-30", "lot": "", "name": "Scanned", "palette": 1, "status": 1,
        "timestamp_client": TS, "wplace": "A-01"}


def load_items(items):
    return batch_create_schema.load(batch(1, items))["batch_items"]


def refusal(items):
    with pytest.raises(ValidationError) as refused:
        load_items(items)
    return refused.value.messages["batch_items"]


def test_items_alike_load_as_the_same_items_among_others():
    alike = [{**FULL, "product_code": f"P{n}"} for n in range(1, 6)]
    loaded = load_items(alike)
    assert loaded == load_items(alike + [item("P1", 1)])[:5]  # the other item sends them item by item
    assert loaded[0] == {"product_code": "P1", "amount_milli": 2000, "amount_base_milli": 2000, "unit": "pc",
                         "barcode": "400", "date_exp": "2027-06-30", "lot": "", "name": "Scanned",
                         "palette": 1, "status": 1, "timestamp_client": TS, "wplace": "A-01"}
    assert alike[0]["amount"] == "2"  # the request stays as it came


def test_items_alike_are_loaded_a_field_at_a_time_and_items_that_differ_one_by_one(monkeypatch):
    real, by_column = batch_items._load_by_column, []
    monkeypatch.setattr(batch_items, "_load_by_column",
                        lambda names, raws: by_column.append(real(names, raws)) or by_column[-1])
    load_items([FULL, {**FULL, "product_code": "P2"}])
    assert len(by_column) == 1 and len(by_column[0]) == 2
    load_items([FULL, item("P2", 1)])
    assert len(by_column) == 1


def test_amounts_written_differently_load_alike():
    loaded = load_items([item("P1", amount) for amount in ("1.5", "1.500", 1, "0001")])
    assert [i["amount_milli"] for i in loaded] == [1500, 1500, 1000, 1000]


# The refusals of a value, not of a missing or unknown field.
VALUE_REFUSALS = [case for case in REFUSED_ITEMS
                  if set(case[1]) <= set(FULL) and {"product_code", "amount", "unit"} <= set(case[1])]


@pytest.mark.parametrize("case, bad, field", VALUE_REFUSALS, ids=[case for case, _, _ in VALUE_REFUSALS])
def test_a_refused_value_among_items_alike_is_named_as_among_items_that_differ(case, bad, field):
    alike = {name: FULL[name] for name in bad}
    among_alike = refusal([alike, bad, alike])
    assert list(among_alike) == [1] and field in among_alike[1]
    assert among_alike[1] == refusal([item("P9", 1, lot="L"), bad, alike])[1]


@pytest.mark.parametrize("text, good", [
    ("2024-02-29T23:59:59.999-1130", True), ("2023-02-29T10:00:00.000+0000", False),
    ("2024-04-30T10:00:00.000+0000", True), ("2024-04-31T10:00:00.000+0000", False),
    ("2024-12-31T00:00:00.000+2359", True), ("0000-01-01T10:00:00.000+0000", False),
    ("", True), (" ", False), (5, False), (None, False),
])
def test_client_timestamps_among_items_alike_are_checked_against_the_calendar(text, good):
    items = [item("P1", 1, timestamp_client=TS), item("P1", 1, timestamp_client=text)]
    if good:
        assert load_items(items)[1]["timestamp_client"] == text
    else:
        assert list(refusal(items)) == [1]


@pytest.mark.parametrize("field, value", [
    ("barcode", ["x"]), ("lot", {"a": 1}), ("date_exp", ["2027-01-01"]), ("palette", True),
    ("amount", [1]), ("product_code", None), ("name", "x" * 1001), ("lot", "L\x07"),
])
def test_a_value_of_another_type_among_items_alike_is_named(field, value):
    assert field in refusal([FULL, {**FULL, field: value}, FULL])[1]


def test_items_load_alike_whatever_the_order_of_their_fields():
    reordered = dict(reversed(list(FULL.items())))
    short = {"product_code": "P1", "unit": "box", "amount": 1.5}
    first, second, third = load_items([FULL, reordered, short])
    assert first == second == load_items([FULL])[0]
    assert third == {"product_code": "P1", "unit": "box", "amount_milli": 1500}


def test_every_fault_of_every_item_is_named_after_good_items_of_the_same_shape():
    unknown = {**FULL, "colour": "red"}
    missing = {key: value for key, value in FULL.items() if key != "unit"}
    two_faults = {**FULL, "amount": "1.0001", "date_exp": "2027-02-30"}
    with pytest.raises(ValidationError) as raised:
        load_items([FULL, unknown, missing, two_faults, "P1", FULL])
    assert raised.value.messages == {"batch_items": {
        1: {"colour": ["Unknown field."]},
        2: {"unit": ["Missing data for required field."]},
        3: {"amount": ["At most 3 decimal places."], "date_exp": ["Not a valid calendar date."]},
        4: {"_schema": ["Invalid input type."]},
    }}


def test_only_short_amounts_are_remembered():
    padded = "1" + " " * 100_000
    assert load_items([{**FULL, "amount": padded}])[0]["amount_milli"] == 1000
    assert padded not in batch_items._KNOWN_QUANTITIES
    assert load_items([{**FULL, "amount": " 7 "}])[0]["amount_milli"] == 7000
    assert " 7 " in batch_items._KNOWN_QUANTITIES


def test_an_amount_seen_before_is_read_as_exactly_as_the_first_time():
    assert [item["amount_milli"] for item in load_items([{**FULL, "amount": "2"}] * 3)] == [2000] * 3
    with pytest.raises(ValidationError) as raised:
        load_items([{**FULL, "amount": "2"}, {**FULL, "amount": " 2.0001"}])
    assert raised.value.messages == {"batch_items": {1: {"amount": ["At most 3 decimal places."]}}}


@pytest.mark.parametrize("text, good", [
    ("2024-05-01T10:00:00.000+0200", True), ("2024-02-29T23:59:59.999-1130", True),
    ("2023-02-29T10:00:00.000+0000", False), ("2024-04-31T10:00:00.000+0000", False),
    ("2024-12-31T00:00:00.000+2359", True), ("0000-01-01T10:00:00.000+0000", False),
    ("2024-13-01T10:00:00.000+0000", False), ("2024-01-00T10:00:00.000+0000", False),
    ("2024-01-01T24:00:00.000+0000", False), ("2024-01-01T10:60:00.000+0000", False),
    ("2024-01-01T10:00:60.000+0000", False), ("2024-01-01T10:00:00.000+2400", False),
    ("2024-01-01T10:00:00.000+0060", False), ("2024-01-01T10:00:00.000Z", False),
])
def test_a_client_timestamp_alone_is_checked_against_the_calendar(text, good):
    if good:
        assert check_timestamp(text) == text
    else:
        with pytest.raises(ValidationError):
            check_timestamp(text)
