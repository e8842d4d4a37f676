"""schemas/batch_items.py: a batch's scanned items, loaded a field at a time when every item
carries the same fields (as a scanner sends them), else item by item. Both ways must refuse
the same values, name the same item and field, and load the same items."""
import pytest
from marshmallow import ValidationError

from helpers import REFUSED_ITEMS, batch, item
from schemas import batch_create_schema

TS = "2026-11-23T10:00:00.000+0100"
# What a scanner fills in besides product, amount and unit.
EVERY_FIELD = {"amount_base_unit": "2", "barcode": "4006381333931", "date_exp": "2027-06-30", "lot": "",
               "name": "Milk 1 l", "palette": 3, "status": 1, "timestamp_client": TS, "wplace": "A-01"}
# A good value for every field, to give a refused item neighbours with the same fields.
GOOD = {"product_code": "P1", "amount": 2, "unit": "pc", **EVERY_FIELD}


def load_items(items):
    return batch_create_schema.load(batch(1, items))["batch_items"]


def refusal(items):
    with pytest.raises(ValidationError) as refused:
        load_items(items)
    return refused.value.messages["batch_items"]


def test_items_alike_load_as_the_same_items_among_others():
    alike = [item(f"P{n}", "2", **EVERY_FIELD) for n in range(1, 6)]
    loaded = load_items(alike)
    assert loaded == load_items(alike + [item("P1", 1)])[:5]  # the other item sends them item by item
    assert loaded[0] == {"product_code": "P1", "amount_milli": 2000, "unit": "pc", "amount_base_milli": 2000,
                         "barcode": "4006381333931", "date_exp": "2027-06-30", "lot": "", "name": "Milk 1 l",
                         "palette": 3, "status": 1, "timestamp_client": TS, "wplace": "A-01"}
    assert alike[0]["amount"] == "2"  # the request stays as it came


def test_amounts_written_differently_load_alike():
    loaded = load_items([item("P1", amount) for amount in ("1.5", "1.500", 1, "0001")])
    assert [i["amount_milli"] for i in loaded] == [1500, 1500, 1000, 1000]


VALUE_REFUSALS = [case for case in REFUSED_ITEMS if set(case[1]) <= set(GOOD) and {"product_code", "amount", "unit"} <= set(case[1])]


@pytest.mark.parametrize("case, bad, field", VALUE_REFUSALS, ids=[case for case, _, _ in VALUE_REFUSALS])
def test_a_refused_value_among_items_alike_is_named_as_among_items_that_differ(case, bad, field):
    alike = {name: GOOD[name] for name in bad}
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
    assert field in refusal([GOOD, {**GOOD, field: value}, GOOD])[1]
