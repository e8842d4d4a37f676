"""stock/pick_plan.py and stock/locations.py on plain data: where picks are taken, and the
natural order of location codes."""
import pytest

from stock.locations import sort_key
from stock.pick_plan import in_walking_order, plan_places

FIRST = (-1, "", "")


def walk(sequence, code):
    return (sequence, sort_key(code), code)


def test_a_lot_is_taken_from_the_first_places_in_walking_order_and_not_offered_twice():
    places = {("P1", "X"): [(FIRST, "", 1000), (walk(0, "A-2"), "A-2", 3000), (walk(0, "A-10"), "A-10", 5000)]}
    lines = [{"item_number": 1, "product_code": "P1", "picks": [{"lot": "X", "date_exp": "", "amount_milli": 2500}]},
             {"item_number": 2, "product_code": "P1", "picks": [{"lot": "X", "date_exp": "", "amount_milli": 3000}]}]
    rows = plan_places(lines, places)
    assert [(row["item_number"], row["location"], row["amount_milli"]) for row in rows] == [
        (1, "", 1000), (1, "A-2", 1500), (2, "A-2", 1500), (2, "A-10", 1500)]
    assert [(row["location"], row["amount_milli"]) for row in in_walking_order(rows)] == [
        ("", 1000), ("A-2", 3000), ("A-10", 1500)]


def test_rows_of_several_products_are_listed_in_walking_order():
    places = {("P1", ""): [(walk(0, "B-1"), "B-1", 5000)], ("P2", ""): [(walk(0, "A-1"), "A-1", 5000)]}
    lines = [{"item_number": 1, "product_code": "P1", "picks": [{"lot": "", "date_exp": "", "amount_milli": 1000}]},
             {"item_number": 2, "product_code": "P2", "picks": [{"lot": "", "date_exp": "", "amount_milli": 1000}]}]
    assert [row["location"] for row in in_walking_order(plan_places(lines, places))] == ["A-1", "B-1"]


@pytest.mark.parametrize("codes", [
    ["A-1", "A-2", "A-10", "A-100", "B-1"],
    ["1", "2", "10", "A"],
    ["A-01-1", "A-01-2", "A-02-1", "A-10-1"],
    ["A.9/1", "A.10/1"],
])
def test_codes_sort_in_natural_order(codes):
    assert sorted(reversed(codes), key=sort_key) == codes


def test_case_and_leading_zeros_do_not_change_the_order():
    assert sort_key("a-2") == sort_key("A-2") == sort_key("A-02")
