"""Operations 15-16 over HTTP: list and delete stocktakings.

The HTTP layer: the list's shape, order and headers flag, the answers of a delete (200, 404,
409, 422, 403) and the keys. The counting rules of DESIGN §8 themselves (counts adding up,
snapshots, adjustment documents, what a delete puts back) are tested on a session in
test_stocktaking.py.
"""
from decimal import Decimal

import pytest

from conftest import Scanner
from helpers import product
from identity import api_keys
from storage.db import db

DAY = "2026-03-02"
LATER = "2026-03-09"


class Depot(Scanner):
    """Books batches (items: code, amount[, lot]) in pieces, and reads stock and stocktakings."""

    day = DAY

    def stock(self, code, lot="", warehouse=1):
        r = self.api.post("/v1/inventory/filter", {"id_warehouses": [warehouse], "product_code": code,
                                                   "level": 1})
        assert r.status_code == 200, r.json
        return sum(row["amount"] for row in r.json["list"] if row["lot"] == lot)

    def stocktakings(self, api=None, headers=None):
        path = "/v1/stocktakings/list" + (f"?headers={headers}" if headers is not None else "")
        r = (api or self.api).get(path)
        assert r.status_code == 200, r.json
        return r.json["list"]

    def stocktaking(self, day=DAY, warehouse=1):
        found = [s for s in self.stocktakings() if s["date"] == day and s["id_warehouse"] == warehouse]
        assert len(found) == 1
        return found[0]

    def items(self, day=DAY, warehouse=1):
        return {(i["product_code"], i["lot"]): (i["amount_real"], i["amount_snap"], i["amount_diff"])
                for i in self.stocktaking(day, warehouse)["stocktaking_items"]}

    def delete(self, day=DAY, warehouse=1, api=None):
        return (api or self.api).delete(f"/v1/stocktakings/?date={day}&id_warehouse={warehouse}")

    def document(self, doc_number):
        return self.api.get(f"/v1/docs/{doc_number}")


@pytest.fixture
def depot(api):
    for body in (product("P1"), product("Q1"), product("L1", lot_level=1)):
        assert api.post("/v1/products/", body).status_code == 201
    return Depot(api)


# --- amounts in JSON -------------------------------------------------------------------------

def test_counted_amounts_are_exact_decimals(depot):
    for _ in range(10):
        depot.receive(("P1", "0.1"))
    depot.count(("P1", 0.3))
    # The test client reads JSON fractions as Decimal: exact equality, no float noise.
    assert depot.items() == {("P1", ""): (Decimal("0.3"), 1, Decimal("-0.7"))}


# --- listing --------------------------------------------------------------------------------

def test_list_shape_and_order(depot):
    depot.receive(("P1", 10), day="2026-03-01")
    depot.receive(("P1", 10), day="2026-03-01", warehouse=2)
    depot.count(("P1", 9), day=LATER, warehouse=1)  # posted first: the snapshot is current book stock
    depot.count(("P1", 8), day=DAY, warehouse=2)
    depot.count(("P1", 7), day=DAY, warehouse=1)
    listed = depot.stocktakings()
    assert [(s["date"], s["id_warehouse"]) for s in listed] == [(DAY, 1), (DAY, 2), (LATER, 1)]
    first = listed[0]
    assert set(first) == {"id_warehouse", "date", "status", "in_doc", "out_doc", "in_ufid", "out_ufid",
                          "stocktaking_items"}
    assert first["status"] == 1
    assert first["stocktaking_items"] == [{
        "id_warehouse": 1, "date": DAY, "product_code": "P1", "lot": "", "date_exp": "",
        "name": "Product P1", "amount_real": 7, "amount_snap": 9, "amount_diff": -2}]


def test_list_items_are_sorted_by_product_and_lot(depot):
    depot.count(("L1", 1, "B"), ("P1", 1), ("L1", 1, "A"))
    assert [(i["product_code"], i["lot"]) for i in depot.stocktaking()["stocktaking_items"]] == \
        [("L1", "A"), ("L1", "B"), ("P1", "")]


@pytest.mark.parametrize("flag", ["1", "true"])
def test_list_with_headers_only_leaves_the_items_empty(depot, flag):
    depot.receive(("P1", 10))
    depot.count(("P1", 7))
    [header] = depot.stocktakings(headers=flag)
    assert header["stocktaking_items"] == []
    assert header["out_ufid"].startswith("O-")


@pytest.mark.parametrize("flag", ["0", "false", ""])
def test_list_with_headers_off_gives_the_items(depot, flag):
    depot.count(("P1", 7))
    [header] = depot.stocktakings(headers=flag)
    assert len(header["stocktaking_items"]) == 1


@pytest.mark.parametrize("flag", ["yes", "TRUE", "%201", "%1D", "1%20"])
def test_list_refuses_another_headers_value(depot, flag):
    r = depot.api.get(f"/v1/stocktakings/list?headers={flag}")
    assert r.status_code == 422
    assert "headers" in r.json["error"]["fields"]


def test_list_empty(depot):
    assert depot.stocktakings() == []


# --- deleting -------------------------------------------------------------------------------

def test_delete_puts_book_stock_back_and_removes_the_documents(depot):
    depot.receive(("P1", 10), ("Q1", 1))
    depot.count(("P1", 4), ("Q1", 3))
    stocktaking = depot.stocktaking()
    r = depot.delete()
    assert (r.status_code, r.json) == (200, {})
    assert (depot.stock("P1"), depot.stock("Q1")) == (10, 1)
    assert depot.stocktakings() == []
    for doc_number in (stocktaking["in_doc"], stocktaking["out_doc"]):
        assert depot.document(doc_number).status_code == 404


def test_delete_of_no_stocktaking_is_404(depot):
    assert depot.delete().status_code == 404
    depot.count(("P1", 1))
    assert depot.delete(day=LATER).status_code == 404
    assert depot.delete(warehouse=2).status_code == 404
    assert depot.delete().status_code == 200
    assert depot.delete().status_code == 404


def test_delete_that_would_take_stock_below_zero_is_409_and_changes_nothing(depot):
    depot.receive(("P1", 10))
    depot.count(("P1", 15))  # +5 on the goods-in document
    depot.ship(("P1", 12))  # book 3
    before = depot.stocktakings()
    r = depot.delete()
    assert r.status_code == 409
    assert r.json["error"]["code"] == "conflict"
    assert depot.stocktakings() == before
    assert depot.stock("P1") == 3


@pytest.mark.parametrize("query", [
    "", "?date=2026-03-02", "?id_warehouse=1", "?date=2026-02-30&id_warehouse=1",
    "?date=02.03.2026&id_warehouse=1", "?date=2026-03-02&id_warehouse=x",
    "?date=2026-03-02&id_warehouse=-1", "?date=2026-03-02&id_warehouse=1&extra=1",
])
def test_delete_validates_its_query(depot, query):
    depot.count(("P1", 1))
    r = depot.api.delete(f"/v1/stocktakings/{query}")
    assert r.status_code == 422, r.json
    assert r.json["error"]["code"] == "validation_error"
    assert len(depot.stocktakings()) == 1


# --- keys -----------------------------------------------------------------------------------

def test_a_key_limited_to_one_warehouse_lists_only_its_stocktakings(depot, api_as):
    depot.count(("P1", 1), warehouse=1)
    depot.count(("P1", 2), warehouse=2)
    listed = depot.stocktakings(api=api_as("read_w1"))
    assert [s["id_warehouse"] for s in listed] == [1]
    assert [s["id_warehouse"] for s in depot.stocktakings(api=api_as("read"))] == [1, 2]


def test_delete_needs_an_admin_key(depot, api_as):
    depot.count(("P1", 1))
    for name in ("read", "scan", "read_w1"):
        assert depot.delete(api=api_as(name)).status_code == 403
    assert len(depot.stocktakings()) == 1


def test_a_key_limited_to_one_warehouse_may_not_delete_in_another(app, depot, api_as):
    with app.app_context():
        key = api_keys.create_key(db.session, "admin_w1", "admin", [1])
        db.session.remove()
    depot.count(("P1", 1), warehouse=1)
    depot.count(("P1", 2), warehouse=2)
    r = depot.delete(warehouse=2, api=api_as(key))
    assert r.status_code == 403
    assert r.json["error"]["code"] == "forbidden"
    # Also where there is nothing to delete: the key learns nothing about warehouse 2.
    assert depot.delete(day=LATER, warehouse=2, api=api_as(key)).status_code == 403
    assert depot.delete(warehouse=1, api=api_as(key)).status_code == 200
    assert [s["id_warehouse"] for s in depot.stocktakings()] == [2]


def test_list_needs_a_key(client, depot):
    assert client.get("/v1/stocktakings/list").status_code == 401
