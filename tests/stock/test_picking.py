"""stock/picking.py: which lots a picker takes for each open line of an order, and how much."""
from datetime import date, timedelta

import pytest

from helpers import add_order, item, order, order_item
from models import OrderDocument
from stock.errors import NotFound
from stock.picking import pick_list, plan_picks
from storage.db import writing

TODAY = date.today()


def day(days: int) -> str:
    return (TODAY + timedelta(days=days)).isoformat()


def lot(name, date_exp, amount):
    return {"lot": name, "date_exp": date_exp, "amount_milli": amount * 1000}


def line(number, code, open_amount, lot_name=""):
    return {"item_number": number, "product_code": code, "lot": lot_name, "open_milli": open_amount * 1000}


def picks(planned):
    return [([(p["lot"], p["amount_milli"] // 1000) for p in entry["picks"]], entry["short_milli"] // 1000)
            for entry in planned]


# --- the rule on plain rows ----------------------------------------------------------------------

def test_first_expiring_first_and_undated_last():
    stock = {"LOT": [lot("LATE", "2031-01-01", 5), lot("NODATE", "", 5), lot("SOON", "2030-01-01", 3)]}
    assert picks(plan_picks([line(1, "LOT", 10)], stock, None)) == [([("SOON", 3), ("LATE", 5), ("NODATE", 2)], 0)]


def test_exactly_enough_and_not_enough():
    stock = {"LOT": [lot("A", "2030-01-01", 4), lot("B", "2030-02-01", 6)]}
    assert picks(plan_picks([line(1, "LOT", 10)], stock, None)) == [([("A", 4), ("B", 6)], 0)]
    assert picks(plan_picks([line(1, "LOT", 13)], stock, None)) == [([("A", 4), ("B", 6)], 3)]
    assert picks(plan_picks([line(1, "P1", 1)], stock, None)) == [([], 1)]


def test_a_lot_taken_for_one_line_is_not_offered_to_the_next():
    stock = {"LOT": [lot("A", "2030-01-01", 4), lot("B", "2030-02-01", 6)]}
    planned = plan_picks([line(1, "LOT", 3), line(2, "LOT", 5), line(3, "LOT", 5, "B")], stock, None)
    # Line 3 names lot B, so it takes first (as a booking fills lines naming a lot first).
    assert picks(planned) == [([("A", 3)], 0), ([("A", 1), ("B", 1)], 3), ([("B", 5)], 0)]


def test_the_expiration_limit_leaves_out_lots_that_keep_too_short_or_have_no_date():
    stock = {"LOT": [lot("PAST", "2029-12-31", 5), lot("EDGE", "2030-01-01", 2), lot("NODATE", "", 9),
                     lot("LATER", "2030-06-01", 9)]}
    assert picks(plan_picks([line(1, "LOT", 5)], stock, date(2030, 1, 1))) == [([("EDGE", 2), ("LATER", 3)], 0)]


# --- on the database -------------------------------------------------------------------------------

@pytest.fixture
def stocked(session, catalog_products, scanner):
    scanner.book("R", "I", [item("LOT", 5, lot="W1-LATE", date_exp=day(60)), item("LOT", 2, lot="W1-SOON", date_exp=day(3)),
                            item("LOT", 4, lot="W1-OLD", date_exp=day(-2)), item("P1", 8)])
    scanner.book("R", "I", [item("LOT", 50, lot="W2-SOONEST", date_exp=day(1))], warehouse=2)
    return scanner


def test_only_lots_in_the_orders_warehouse_and_in_stock(session, callers, stocked):
    stocked.book("R", "O", [item("LOT", 4, lot="W1-OLD")])
    add_order(session, callers["alice"], order("D1", [order_item(1, "LOT", 6, direction="O"),
                                                      order_item(2, "P1", 10, direction="O"),
                                                      order_item(3, "P2", 1, direction="I")], directions=("I", "O")))
    found = pick_list(session, callers["alice"], "D1")
    assert found["limit"] is None
    assert [(entry["item_number"], [(p["lot"], p["amount_milli"]) for p in entry["picks"]], entry["short_milli"])
            for entry in found["lines"]] == [
        (1, [("W1-SOON", 2000), ("W1-LATE", 4000)], 0),
        (2, [("", 8000)], 2000)]  # the goods-in line is no picking


def test_the_orders_expiration_limit_and_what_is_delivered(session, callers, stocked):
    add_order(session, callers["alice"], order("D2", [order_item(1, "LOT", 7, direction="O")],
                                               directions=("O",), expiration_limit=10))
    stocked.book("R", "O", [item("LOT", 1, lot="W1-LATE", date_exp=day(60))], document_number="D2")
    found = pick_list(session, callers["alice"], "D2")
    assert found["limit"] == TODAY + timedelta(days=10)
    entry = found["lines"][0]
    assert (entry["open_milli"], entry["name"]) == (6000, "Product LOT")
    assert [(p["lot"], p["amount_milli"]) for p in entry["picks"]] == [("W1-LATE", 4000)]
    assert entry["short_milli"] == 2000


def test_an_order_out_of_sight_is_not_found(session, callers, stocked):
    add_order(session, callers["alice"], order("D3", [order_item(1, "LOT", 1, direction="O")], directions=("O",),
                                               id_warehouse=2))
    with pytest.raises(NotFound):
        pick_list(session, callers["carol"], "D3")
    with pytest.raises(NotFound):
        pick_list(session, callers["alice"], "NOPE")


def test_a_closed_order_has_nothing_to_pick(session, callers, stocked):
    add_order(session, callers["alice"], order("D4", [order_item(1, "P1", 2, direction="O")], directions=("O",)))
    stocked.book("R", "O", [item("P1", 1)], document_number="D4")
    assert [entry["open_milli"] for entry in pick_list(session, callers["alice"], "D4")["lines"]] == [1000]
    session.rollback()
    with writing(session, [1]):  # closed by the office (DESIGN 18) with one piece still open
        session.get(OrderDocument, "D4").state = 0
    assert pick_list(session, callers["alice"], "D4")["lines"] == []
