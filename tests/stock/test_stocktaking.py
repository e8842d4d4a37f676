"""stock/stocktaking.py on a session, the rule layer of the counting rules (DESIGN §8): counts
add up, snapshots, adjustment documents, and deleting a stocktaking.

Counts are type V batches booked through post_batch (conftest.Scanner on a session); reads
go to stock.reports and stock.records as the routes' do. Amounts read back in base units
(stock.quantities.from_milli), the numbers the service answers. What only HTTP shows
(the list's shape and headers, status codes, keys, the query of a delete) is in
test_stocktakings.py.
"""
from datetime import date

import pytest
from sqlalchemy import select

from conftest import Scanner
from helpers import product
from models import Balance
from schemas import product_schema
from stock import catalog, records, reports, stocktaking
from stock.errors import NotFound
from stock.policy import Policy
from stock.quantities import from_milli

DAY = "2026-03-02"
LATER = "2026-03-09"


class Counter(Scanner):
    """Books batches (items: code, amount[, lot]) in pieces on the session, and reads book
    stock, stocktakings and documents there."""

    day = DAY

    def stock(self, code, lot="", warehouse=1):
        """Book stock in base units (0 where there is no balance, as the inventory answers)."""
        self.session.rollback()
        milli = self.session.scalar(select(Balance.amount_milli).where(
            Balance.id_warehouse == warehouse, Balance.product_code == code, Balance.lot == lot))
        return from_milli(milli or 0)

    def stocktakings(self):
        self.session.rollback()
        return reports.list_stocktakings(self.session, self.caller, headers_only=False)

    def stocktaking(self, day=DAY, warehouse=1):
        found = [s for s in self.stocktakings()
                 if s["date"] == date.fromisoformat(day) and s["id_warehouse"] == warehouse]
        assert len(found) == 1
        return found[0]

    def items(self, day=DAY, warehouse=1):
        return {(i["product_code"], i["lot"]): (from_milli(i["amount_real_milli"]),
                                                from_milli(i["amount_snap_milli"]),
                                                from_milli(i["amount_diff_milli"]))
                for i in self.stocktaking(day, warehouse)["stocktaking_items"]}

    def delete(self, day=DAY, warehouse=1, policy=None):
        stocktaking.delete_stocktaking(self.session, self.caller, warehouse, date.fromisoformat(day),
                                       policy or self.policy)

    def document(self, doc_number):
        self.session.rollback()
        return records.get_document(self.session, self.caller, doc_number)


@pytest.fixture
def depot(session, callers):
    for body in (product("P1"), product("Q1"), product("L1", lot_level=1)):
        catalog.create_product(session, product_schema.load(body))
    return Counter(session=session, caller=callers["alice"])


def doc_items(document):
    return [(i["product_code"], from_milli(i["amount_base_milli"])) for i in document["wh_doc_items"]]


# --- counting -------------------------------------------------------------------------------

def test_counts_of_one_day_add_up_per_product_and_lot(depot):
    depot.receive(("P1", 10), ("L1", 5, "A"), ("L1", 5, "B"), day="2026-03-01")
    depot.count(("P1", 4), ("L1", 2, "A"))
    depot.count(("P1", 3), ("L1", 1, "A"), ("L1", 5, "B"))
    assert depot.items() == {("P1", ""): (7, 10, -3), ("L1", "A"): (3, 5, -2), ("L1", "B"): (5, 5, 0)}
    assert (depot.stock("P1"), depot.stock("L1", "A"), depot.stock("L1", "B")) == (7, 3, 5)


def test_the_same_product_twice_in_one_count_batch_adds_up(depot):
    depot.receive(("P1", 10))
    depot.count(("P1", 2), ("P1", 0.5))
    assert depot.items() == {("P1", ""): (2.5, 10, -7.5)}
    assert depot.stock("P1") == 2.5


def test_snapshot_leaves_out_the_stocktakings_own_adjustments(depot):
    depot.receive(("P1", 10))
    depot.count(("P1", 4))
    assert depot.stock("P1") == 4
    depot.count(("P1", 2))
    # Book stock is 4 now, but 6 of it came from this stocktaking: the snapshot stays 10.
    assert depot.items() == {("P1", ""): (6, 10, -4)}
    assert depot.stock("P1") == 6


def test_a_count_after_goods_moved_absorbs_the_movement(depot):
    depot.receive(("P1", 10))
    depot.count(("P1", 4))
    depot.ship(("P1", 1))
    assert depot.stock("P1") == 3
    depot.count(("P1", 1))
    # Book without the stocktaking: 10 - 1 = 9; counted 4 + 1 = 5.
    assert depot.items() == {("P1", ""): (5, 9, -4)}
    assert depot.stock("P1") == 5


def test_a_later_count_of_other_goods_snaps_the_earlier_items_again(depot):
    depot.receive(("P1", 10), ("Q1", 3))
    depot.count(("P1", 4))
    depot.receive(("P1", 2))
    depot.count(("Q1", 3))
    assert depot.items() == {("P1", ""): (4, 12, -8), ("Q1", ""): (3, 3, 0)}
    assert depot.stock("P1") == 4


def test_counts_on_two_dates_are_two_stocktakings(depot):
    depot.receive(("P1", 10), day="2026-03-01")
    depot.count(("P1", 6), day=DAY)
    depot.count(("P1", 8), day=LATER)
    assert depot.items(DAY) == {("P1", ""): (6, 10, -4)}
    # The later stocktaking sees the earlier one's adjustment as ordinary book stock.
    assert depot.items(LATER) == {("P1", ""): (8, 6, 2)}
    assert depot.stock("P1") == 8
    assert [(s["date"].isoformat(), s["id_warehouse"]) for s in depot.stocktakings()] == [(DAY, 1), (LATER, 1)]


def test_a_count_of_a_product_never_in_stock(depot):
    depot.count(("P1", 3), ("Q1", 0))
    assert depot.items() == {("P1", ""): (3, 0, 3), ("Q1", ""): (0, 0, 0)}
    assert depot.stock("P1") == 3


def test_uncounted_products_are_untouched(depot):
    depot.receive(("P1", 10), ("Q1", 7), ("L1", 2, "A"))
    depot.count(("P1", 3))
    assert set(depot.items()) == {("P1", "")}
    assert (depot.stock("Q1"), depot.stock("L1", "A")) == (7, 2)


def test_book_stock_equals_the_count_after_every_count_batch(depot):
    depot.receive(("P1", 10), ("L1", 4, "A"))
    steps = [[("P1", 2)], [("L1", 1, "A")], [("P1", 5), ("L1", 6, "A")], [("P1", 0)]]
    for step in steps:
        depot.count(*step)
        for (code, lot), (real, _, _) in depot.items().items():
            assert depot.stock(code, lot) == real
        depot.ship(("P1", 1))  # goods keep moving between the counts of the day


# --- adjustment documents -------------------------------------------------------------------

def test_positive_differences_go_on_a_goods_in_document(depot):
    depot.receive(("P1", 10), ("Q1", 5), day="2026-03-01")
    depot.count(("P1", 12), ("Q1", 5))
    found = depot.stocktaking()
    assert found["out_doc"] == 0 and found["out_ufid"] == ""
    assert found["in_ufid"].startswith("I-2026-")
    doc = depot.document(found["in_doc"])
    assert (doc["direction"], doc["date"].isoformat(), doc["batch_number"], doc["ufid"]) == \
        ("I", DAY, -1, found["in_ufid"])
    assert doc_items(doc) == [("P1", 2)]


def test_negative_differences_go_on_a_goods_out_document(depot):
    depot.receive(("P1", 10), ("Q1", 5), day="2026-03-01")
    depot.count(("P1", 7), ("Q1", 6))
    found = depot.stocktaking()
    out_doc = depot.document(found["out_doc"])
    in_doc = depot.document(found["in_doc"])
    assert out_doc["direction"] == "O" and out_doc["ufid"] == found["out_ufid"]
    assert doc_items(out_doc) == [("P1", 3)]
    assert doc_items(in_doc) == [("Q1", 1)]


def test_a_document_left_without_items_is_removed(depot):
    depot.receive(("P1", 10))
    depot.count(("P1", 12))
    first = depot.stocktaking()
    assert first["in_doc"] and not first["out_doc"]
    depot.receive(("P1", 5))  # book 17, of which +2 from the stocktaking
    depot.count(("P1", 0))  # counted 12 against a snapshot of 15
    second = depot.stocktaking()
    assert (second["in_doc"], second["in_ufid"]) == (0, "")
    with pytest.raises(NotFound):
        depot.document(first["in_doc"])
    assert second["out_doc"] > first["in_doc"]  # a new number, never one reused
    assert depot.items() == {("P1", ""): (12, 15, -3)}
    assert depot.stock("P1") == 12


def test_a_count_with_no_difference_makes_no_document(depot):
    depot.receive(("P1", 4))
    depot.count(("P1", 4))
    found = depot.stocktaking()
    assert [found[k] for k in ("in_doc", "out_doc", "in_ufid", "out_ufid")] == [0, 0, "", ""]


# --- deleting -------------------------------------------------------------------------------

def test_delete_allowed_below_zero_when_negative_stock_is_allowed(depot):
    depot.receive(("P1", 10))
    depot.count(("P1", 15))
    depot.ship(("P1", 12))
    depot.delete(policy=Policy(allow_negative_stock=True))
    assert depot.stock("P1") == -2


def test_retry_of_a_count_batch_after_delete_books_nothing(depot):
    depot.receive(("P1", 10))
    body = depot.count(("P1", 4))
    depot.delete()
    assert depot.post(body) is False
    assert depot.stocktakings() == []
    assert depot.stock("P1") == 10
    # The count batch itself stays on record.
    number = int(body["batch_settings"]["batch_number"])
    assert records.get_batch(depot.session, depot.caller, number)["batch_settings"].batch_number == number


def test_delete_leaves_other_dates_and_warehouses_untouched(depot):
    depot.receive(("P1", 10), day="2026-03-01")
    depot.receive(("P1", 10), day="2026-03-01", warehouse=2)
    depot.count(("P1", 6), day=DAY)
    depot.count(("P1", 9), day=LATER)
    depot.count(("P1", 1), day=DAY, warehouse=2)
    later = depot.stocktaking(LATER)
    depot.delete(DAY)
    assert [(s["date"].isoformat(), s["id_warehouse"]) for s in depot.stocktakings()] == [(DAY, 2), (LATER, 1)]
    assert depot.stocktaking(LATER) == later
    # Without the first stocktaking's -4, the later one's +3 leaves 13.
    assert depot.stock("P1") == 13
    assert depot.stock("P1", warehouse=2) == 1


def test_a_new_count_after_delete_starts_a_fresh_stocktaking(depot):
    depot.receive(("P1", 10))
    depot.count(("P1", 4))
    depot.delete()
    depot.count(("P1", 8))
    assert depot.items() == {("P1", ""): (8, 10, -2)}
    assert depot.stock("P1") == 8
