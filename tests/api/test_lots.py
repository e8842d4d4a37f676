"""GET /v1/lots/trace (DESIGN 28): a lot's story, both directions, as the bookings tell it; 404 for
a lot never booked; a limited key sees its warehouses only; every lot of the demo depot adds up."""
from datetime import date

import pytest

from conftest import Scanner
from helpers import add_products, created, error_fields, item, order, order_item
from schemas.lots import trace_out, trace_schema
from stock import lot_story
from stock.caller import Caller
from storage.db import db

TODAY = date.today().isoformat()


def customer(number, name, city):
    return {"id_customer": number, "name": name,
            "address": {"street": "Marktweg 3", "city": city, "zip": "04109", "country": "DE"}}


@pytest.fixture
def story(api):
    """LOT lot A: 10 in on PO-1 and 3 without an order in warehouse 1, 4 in warehouse 2; 6 out to
    customer 17 on SO-1, 1 out without order; 1 came back; 2 written off; a count found one less."""
    add_products(api)
    created(api.post("/v1/customers/", customer(17, "Fresh Foods Ltd", "Leipzig")))
    scanner = Scanner(api)
    created(api.post("/v1/documents/", order("PO-1", [order_item(1, "LOT", 10)])))
    scanner.book("R", "I", [item("LOT", 10, lot="A", date_exp="2030-01-31")], document_number="PO-1")
    scanner.book("R", "I", [item("LOT", 3, lot="A"), item("LOT", 5, lot="B")])
    scanner.book("R", "I", [item("LOT", 4, lot="A")], warehouse=2)
    created(api.post("/v1/documents/", order("SO-1", [order_item(1, "LOT", 6)], directions=("O",), id_customer=17)))
    scanner.book("R", "O", [item("LOT", 4, lot="A"), item("LOT", 2, lot="A")], document_number="SO-1")
    scanner.book("R", "O", [item("LOT", 1, lot="A")])
    created(api.post("/v1/returns/", {"return_id": "r-1", "document_number": "SO-1", "reason": "crate broken",
                                      "items": [{"product_code": "LOT", "lot": "A", "amount": 1}]}))
    created(api.post("/v1/write_offs/", {"write_off_id": "w-1", "id_warehouse": 1, "reason": "damaged",
                                         "items": [{"product_code": "LOT", "lot": "A", "amount": 2}]}))
    scanner.book("V", "I", [item("LOT", 4, lot="A"), item("LOT", 5, lot="B")])  # 5 in the books: one missing
    return scanner


def trace(api, code="LOT", lot="A"):
    r = api.get(f"/v1/lots/trace?product_code={code}&lot={lot}")
    assert r.status_code == 200, r.json
    return r.json["item"]


def amounts(events):
    return [event["amount"] for event in events]


def test_the_story_tells_both_directions(api, story):
    told = trace(api)
    assert (told["product_code"], told["lot"], told["date_exp"]) == ("LOT", "A", "2030-01-31")
    assert [(e["id_warehouse"], e["amount"], e["document_number"], e["date_exp"]) for e in told["received"]] == [
        (1, 10, "PO-1", "2030-01-31"), (1, 3, "", ""), (2, 4, "", "")]
    assert [(e["id_warehouse"], e["amount"], e["document_number"], e["customer"]) for e in told["delivered"]] == [
        (1, 6, "SO-1", {"id_customer": 17, "name": "Fresh Foods Ltd", "city": "Leipzig"}),
        (1, 1, "", {"id_customer": 0, "name": "", "city": ""})]
    assert [(e["return_id"], e["amount"], e["reason"], e["document_number"], e["customer"]["name"])
            for e in told["returned"]] == [("r-1", 1, "crate broken", "SO-1", "Fresh Foods Ltd")]
    assert [(e["write_off_id"], e["amount"], e["reason"]) for e in told["written_off"]] == [("w-1", 2, "damaged")]
    assert amounts(told["counted"]) == [-1]
    assert told["moved"] == []
    assert told["in_stock"] == [{"id_warehouse": 1, "location": "", "amount": 4},
                                {"id_warehouse": 2, "location": "", "amount": 4}]
    for kind in ("received", "delivered", "counted", "written_off", "returned"):
        for event in told[kind]:
            assert event["date"] == TODAY and event["doc_number"] > 0 and event["ufid"]
    received, returned, counted = sum(amounts(told["received"])), sum(amounts(told["returned"])), sum(
        amounts(told["counted"]))
    out = sum(amounts(told["delivered"])) + sum(amounts(told["written_off"])) + sum(amounts(told["in_stock"]))
    assert received + returned + counted == out == 17


def test_the_answer_is_written_as_its_schema_dumps_it(app, api, story):
    with app.app_context():
        told = lot_story.trace(db.session, Caller(None, "x", "read", None), "LOT", "A")
        assert trace_out(told) == trace_schema.dump(told)
        db.session.remove()


def test_a_count_that_finds_more_is_positive(api, story):
    story.book("V", "I", [item("LOT", 2, lot="B")])  # the day's counts add up: 7 where the books say 5
    assert amounts(trace(api, lot="B")["counted"]) == [2]


def test_a_lot_never_booked_is_404(api, story):
    r = api.get("/v1/lots/trace?product_code=LOT&lot=Z")
    assert r.status_code == 404 and "lot Z" in r.json["error"]["message"]
    assert api.get("/v1/lots/trace?product_code=NOPE&lot=A").status_code == 404


@pytest.mark.parametrize("query, field", [("product_code=LOT", "lot"), ("lot=A", "product_code"),
                                          ("product_code=LOT&lot=", "lot"), ("product_code=LOT&lot=A&x=1", "x")])
def test_a_bad_query_is_422_naming_it(api, story, query, field):
    assert field in error_fields(api.get(f"/v1/lots/trace?{query}"))


def test_a_limited_key_sees_its_warehouses_only(api, api_as, story):
    told = trace(api_as("read_w1"))
    assert {e["id_warehouse"] for kind in ("received", "in_stock") for e in told[kind]} == {1}
    assert amounts(told["received"]) == [10, 3]
    story.book("R", "I", [item("LOT", 1, lot="C")], warehouse=2)
    assert api_as("read_w1").get("/v1/lots/trace?product_code=LOT&lot=C").status_code == 404
    assert trace(api, lot="C")["in_stock"] == [{"id_warehouse": 2, "location": "", "amount": 1}]


@pytest.mark.live
def test_every_lot_of_the_demo_depot_adds_up(demo_depot):
    server, _ = demo_depot
    status, body = server.post("/v1/docs/filter", {"level": 1})
    assert status == 200, body
    lots = sorted({(line["product_code"], line["lot"]) for doc in body["list"] for line in doc["wh_doc_items"]})
    assert len(lots) > 20
    status, stock = server.post("/v1/inventory/filter", {"level": 1})
    in_stock = {}
    for row in stock["list"]:
        key = (row["product_code"], row["lot"])
        in_stock[key] = in_stock.get(key, 0) + row["amount"]
    # A write-off and a return of the demo's own lots join the story first.
    code, lot = next(key for key, amount in sorted(in_stock.items()) if amount >= 2)
    home = next(row["id_warehouse"] for row in stock["list"] if (row["product_code"], row["lot"]) == (code, lot)
                and row["amount"] >= 2)
    status, body = server.post("/v1/write_offs/", {"write_off_id": "demo-1", "id_warehouse": home, "reason": "expired",
                                                    "items": [{"product_code": code, "lot": lot, "amount": 1}]})
    assert status == 201, body
    in_stock[(code, lot)] -= 1
    for (code, lot) in lots:
        status, body = server.get(f"/v1/lots/trace?product_code={code}&lot={lot}")
        assert status == 200, body
        told = body["item"]
        # A move counts by what it changed in the warehouses seen (all here: 0 for every move).
        total = {kind: round(sum(event["change" if kind == "moved" else "amount"] for event in told[kind]), 3)
                 for kind in ("received", "delivered", "moved", "counted", "written_off", "returned", "in_stock")}
        assert round(total["received"] + total["returned"] + total["counted"] + total["moved"], 3) == round(
            total["delivered"] + total["written_off"] + total["in_stock"], 3), (code, lot, total)
        assert total["in_stock"] == round(in_stock.get((code, lot), 0), 3), (code, lot)
        assert total["received"] > 0 or total["counted"] > 0, (code, lot)
        for event in told["delivered"]:
            assert event["document_number"] and event["customer"]["name"], (code, lot, event)
