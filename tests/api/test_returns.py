"""POST /v1/returns/ (DESIGN 28): goods a customer sent back against a delivered order, booked as a
goods-in of the order's warehouse; never more than was delivered less what came back; retry-safe by
return_id; the order's delivered amounts unchanged; the event and the audit trail."""
import json

import pytest
from sqlalchemy import select

from conftest import Scanner
from helpers import add_products, created, error_fields, item, order, order_item
from models import AuditEntry, CustomerReturn, OutboxEvent, WarehouseDocument
from storage.db import db


def customer(number, name, city):
    return {"id_customer": number, "name": name,
            "address": {"street": "Marktweg 3", "city": city, "zip": "04109", "country": "DE"}}


@pytest.fixture
def delivered(api):
    """Order SO-1 of customer 17 delivered 6 of LOT lot A and 2 of P1 from warehouse 1."""
    add_products(api)
    created(api.post("/v1/customers/", customer(17, "Fresh Foods Ltd", "Leipzig")))
    scanner = Scanner(api)
    scanner.book("R", "I", [item("LOT", 10, lot="A", date_exp="2030-01-31"), item("LOT", 5, lot="B"), item("P1", 5)])
    created(api.post("/v1/documents/", order("SO-1", [order_item(1, "LOT", 10), order_item(2, "P1", 2)],
                                             directions=("O",), id_customer=17)))
    scanner.book("R", "O", [item("LOT", 4, lot="A"), item("P1", 2)], document_number="SO-1")
    scanner.book("R", "O", [item("LOT", 2, lot="A")], document_number="SO-1")
    return scanner


def a_return(return_id="r-1", items=None, number="SO-1", reason="crate broken", **more):
    return {"return_id": return_id, "document_number": number, "reason": reason,
            "items": items if items is not None else [{"product_code": "LOT", "lot": "A", "amount": 2}], **more}


def stock_of(api, code="LOT", warehouse=1):
    r = api.post("/v1/inventory/filter", {"id_warehouses": [warehouse], "level": 1})
    return {row["lot"]: row["amount"] for row in r.json["list"] if row["product_code"] == code}


def documents(app):
    with app.app_context():
        count = db.session.query(WarehouseDocument).count()
        db.session.remove()
    return count


def delivered_lines(api):
    return [(line["product_code"], line["amount_delivered"]) for line in
            api.get("/v1/documents/SO-1").json["item"]["items"]]


def test_a_return_is_a_goods_in_for_the_orders_customer(app, api, delivered):
    before = delivered_lines(api)
    created(api.post("/v1/returns/", a_return()))
    assert stock_of(api)["A"] == 6
    assert delivered_lines(api) == before == [("LOT", 6), ("P1", 2)]
    with app.app_context():
        row = db.session.scalars(select(CustomerReturn)).one()
        doc = db.session.get(WarehouseDocument, row.document_id)
        assert (row.document_number, row.reason, row.id_warehouse, row.location) == ("SO-1", "crate broken", 1, "")
        assert (doc.direction, doc.id_warehouse, doc.id_customer) == ("I", 1, 17)
        db.session.remove()


def test_never_more_than_delivered_less_what_came_back(app, api, delivered):
    created(api.post("/v1/returns/", a_return("r-1", [{"product_code": "LOT", "lot": "A", "amount": 5}])))
    before = documents(app)
    fields = error_fields(api.post("/v1/returns/", a_return("r-2", [
        {"product_code": "P1", "amount": 2}, {"product_code": "LOT", "lot": "A", "amount": 2}])))
    assert list(fields["data"]["items"]) == ["1"]
    message = fields["data"]["items"]["1"]["amount"][0]
    assert "6 delivered, 5 returned already, at most 1" in message
    # Lot B was never delivered on this order; two lines of one lot are summed.
    fields = error_fields(api.post("/v1/returns/", a_return("r-3", [{"product_code": "LOT", "lot": "B", "amount": 1}])))
    assert "delivered nothing" in fields["data"]["items"]["0"]["amount"][0]
    fields = error_fields(api.post("/v1/returns/", a_return("r-4", [{"product_code": "P1", "amount": 1},
                                                                     {"product_code": "P1", "amount": "1.5"}])))
    assert set(fields["data"]["items"]) == {"0", "1"}
    assert documents(app) == before
    created(api.post("/v1/returns/", a_return("r-5", [{"product_code": "LOT", "lot": "A", "amount": 1},
                                                      {"product_code": "P1", "amount": 2}])))
    assert error_fields(api.post("/v1/returns/", a_return("r-6", [{"product_code": "LOT", "lot": "A", "amount": 1}])))


def test_the_same_return_again_books_nothing_and_other_content_is_409(app, api, delivered):
    created(api.post("/v1/returns/", a_return()))
    before = documents(app)
    created(api.post("/v1/returns/", a_return()))
    assert documents(app) == before and stock_of(api)["A"] == 6
    r = api.post("/v1/returns/", a_return(reason="wrong goods"))
    assert r.status_code == 409 and "r-1" in r.json["error"]["message"]
    assert documents(app) == before


@pytest.mark.parametrize("case, body, path", [
    ("unknown order", a_return(number="SO-9"), ("document_number",)),
    ("no reason", a_return(reason=""), ("reason",)),
    ("no items", a_return(items=[]), ("items",)),
    ("unknown product", a_return(items=[{"product_code": "NOPE", "amount": 1}]), ("items", "0", "product_code")),
    ("lot missing", a_return(items=[{"product_code": "LOT", "amount": 1}]), ("items", "0", "lot")),
    ("zero", a_return(items=[{"product_code": "P1", "amount": 0}]), ("items", "0", "amount")),
    ("a location where there are none", a_return(location="RET-1"), ("location",)),
    ("id missing", {k: v for k, v in a_return().items() if k != "return_id"}, ("return_id",)),
])
def test_bad_returns_are_422_naming_the_field_and_book_nothing(app, api, delivered, case, body, path):
    before = documents(app)
    node = error_fields(api.post("/v1/returns/", body))["data"]
    for key in path:
        node = node[key]
    assert node, case
    assert documents(app) == before


def test_an_order_not_yet_delivered_takes_no_return(app, api, delivered):
    created(api.post("/v1/documents/", order("SO-2", [order_item(1, "LOT", 10)], directions=("O",))))
    fields = error_fields(api.post("/v1/returns/", a_return(number="SO-2")))
    assert "delivered nothing" in fields["data"]["items"]["0"]["amount"][0]


def test_a_limited_key_returns_only_in_its_warehouses(app, api, api_as, delivered):
    created(api.post("/v1/documents/", order("SO-2", [order_item(1, "P1", 1)], directions=("O",), id_warehouse=2)))
    delivered.book("R", "I", [item("P1", 1)], warehouse=2)
    delivered.book("R", "O", [item("P1", 1)], warehouse=2, document_number="SO-2")
    body = a_return("r-2", [{"product_code": "P1", "amount": 1}], number="SO-2")
    fields = error_fields(api_as("scan_w1").post("/v1/returns/", body))
    assert fields["data"]["document_number"]
    assert api_as("read").post("/v1/returns/", body).status_code == 403
    created(api_as("scan").post("/v1/returns/", body))
    created(api_as("scan_w1").post("/v1/returns/", a_return()))


def test_the_event_and_the_audit_trail_name_who_took_it_back(app, api_as, delivered):
    created(api_as("scan_w1").post("/v1/returns/", a_return()))
    with app.app_context():
        events = [json.loads(e.data) for e in db.session.scalars(
            select(OutboxEvent).where(OutboxEvent.event == "return.booked"))]
        entry = db.session.scalars(select(AuditEntry).where(AuditEntry.kind == "return.book")).one()
        row = db.session.scalars(select(CustomerReturn)).one()
        doc_number = db.session.get(WarehouseDocument, row.document_id).doc_number
        assert (entry.who, entry.who_kind, entry.record, entry.warehouses) == ("scan_w1", "key", "r-1", "1")
        db.session.remove()
    assert len(events) == 1
    assert events[0] == {"return_id": "r-1", "document_number": "SO-1", "id_warehouse": 1, "id_customer": 17,
                         "reason": "crate broken", "location": "", "date": events[0]["date"],
                         "doc_number": doc_number, "booked_by": "scan_w1", "booked_by_kind": "key",
                         "items": [{"product_code": "LOT", "lot": "A", "amount": 2}]}
