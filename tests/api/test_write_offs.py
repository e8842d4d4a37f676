"""POST and GET /v1/write_offs/ (DESIGN 28): stock written off for a reason, booked as a goods-out
document; retry-safe by write_off_id; short stock 409 naming the line; a limited key only in its
warehouses; the event and the audit trail."""
import json
from datetime import date

import pytest
from sqlalchemy import select

from conftest import Scanner
from helpers import add_products, created, error_fields, item
from models import AuditEntry, OutboxEvent, WarehouseDocument, WriteOff
from schemas.write_offs import REASONS as SCHEMA_REASONS
from stock.write_offs import REASONS
from storage.db import db

TODAY = date.today().isoformat()


@pytest.fixture
def stocked(api):
    add_products(api)
    scanner = Scanner(api)
    scanner.book("R", "I", [item("LOT", 10, lot="A", date_exp="2026-01-31"), item("P1", 5)])
    scanner.book("R", "I", [item("LOT", 4, lot="A")], warehouse=2)
    return scanner


def write_off(write_off_id="w-1", reason="expired", items=None, warehouse=1, **more):
    return {"write_off_id": write_off_id, "id_warehouse": warehouse, "reason": reason,
            "items": items if items is not None else [{"product_code": "LOT", "lot": "A", "amount": 3}], **more}


def stock_of(api, code="LOT", warehouse=1):
    r = api.post("/v1/inventory/filter", {"id_warehouses": [warehouse], "level": 1})
    assert r.status_code == 200, r.json
    return {row["lot"]: row["amount"] for row in r.json["list"] if row["product_code"] == code}


def documents(app):
    with app.app_context():
        count = db.session.query(WarehouseDocument).count()
        db.session.remove()
    return count


def test_reasons_are_one_list():
    assert tuple(SCHEMA_REASONS) == REASONS == ("expired", "damaged", "lost", "sample", "other")


def test_a_write_off_is_a_goods_out_document_with_its_reason(app, api, stocked):
    created(api.post("/v1/write_offs/", write_off(note="past its date", items=[
        {"product_code": "LOT", "lot": "A", "amount": 3}, {"product_code": "P1", "amount": 2}])))
    assert stock_of(api)["A"] == 7
    listed = api.get("/v1/write_offs/").json["list"]
    assert len(listed) == 1
    entry = listed[0]
    assert entry["write_off_id"] == "w-1" and entry["reason"] == "expired" and entry["note"] == "past its date"
    assert entry["id_warehouse"] == 1 and entry["date"] == TODAY and entry["booked_by"] == "admin"
    assert [(line["product_code"], line["lot"], line["amount"], line["date_exp"]) for line in entry["items"]] == [
        ("LOT", "A", 3, "2026-01-31"), ("P1", "", 2, "")]
    doc = api.get(f"/v1/docs/{entry['doc_number']}").json["item"]
    assert doc["direction"] == "O" and doc["id_warehouse"] == 1
    assert [(line["product_code"], line["amount_base_unit"]) for line in doc["wh_doc_items"]] == [("LOT", 3), ("P1", 2)]


def test_the_same_write_off_again_books_nothing_and_other_content_is_409(app, api, stocked):
    created(api.post("/v1/write_offs/", write_off()))
    before = documents(app)
    created(api.post("/v1/write_offs/", write_off()))
    assert documents(app) == before and stock_of(api)["A"] == 7
    r = api.post("/v1/write_offs/", write_off(reason="damaged"))
    assert r.status_code == 409 and "w-1" in r.json["error"]["message"]
    r = api.post("/v1/write_offs/", write_off(items=[{"product_code": "LOT", "lot": "A", "amount": 4}]))
    assert r.status_code == 409
    assert documents(app) == before and stock_of(api)["A"] == 7


def test_short_stock_is_409_naming_the_line_and_books_nothing(app, api, stocked):
    before = documents(app)
    r = api.post("/v1/write_offs/", write_off(items=[{"product_code": "P1", "amount": 1},
                                                     {"product_code": "LOT", "lot": "A", "amount": 11}]))
    fields = error_fields(r, 409)
    assert list(fields["data"]["items"]) == ["1"]
    message = fields["data"]["items"]["1"]["amount"][0]
    assert "10 in stock, short by 1" in message and "lot A" in message
    assert documents(app) == before and stock_of(api)["A"] == 10
    # Two lines of one lot are summed before the check.
    fields = error_fields(api.post("/v1/write_offs/", write_off(items=[
        {"product_code": "LOT", "lot": "A", "amount": 6}, {"product_code": "LOT", "lot": "A", "amount": 6}])), 409)
    assert set(fields["data"]["items"]) == {"0", "1"}


@pytest.mark.parametrize("case, body, path", [
    ("unknown reason", write_off(reason="stolen"), ("reason",)),
    ("no items", write_off(items=[]), ("items",)),
    ("unknown product", write_off(items=[{"product_code": "NOPE", "amount": 1}]), ("items", "0", "product_code")),
    ("inactive product", write_off(items=[{"product_code": "OFF", "amount": 1}]), ("items", "0", "product_code")),
    ("lot missing", write_off(items=[{"product_code": "LOT", "amount": 1}]), ("items", "0", "lot")),
    ("lot on a product without", write_off(items=[{"product_code": "P2", "lot": "X", "amount": 1}]),
     ("items", "0", "lot")),
    ("zero", write_off(items=[{"product_code": "P1", "amount": 0}]), ("items", "0", "amount")),
    ("negative", write_off(items=[{"product_code": "P1", "amount": -1}]), ("items", "0", "amount")),
    ("a location where there are none", write_off(items=[{"product_code": "P1", "amount": 1, "location": "A-1"}]),
     ("items", "0", "location")),
    ("unknown warehouse", write_off(warehouse=99), ("id_warehouse",)),
    ("id missing", {k: v for k, v in write_off().items() if k != "write_off_id"}, ("write_off_id",)),
    ("id empty", write_off(write_off_id=""), ("write_off_id",)),
])
def test_bad_write_offs_are_422_naming_the_field_and_book_nothing(app, api, stocked, case, body, path):
    before = documents(app)
    node = error_fields(api.post("/v1/write_offs/", body))["data"]
    for key in path:
        node = node[key]
    assert node, case
    assert documents(app) == before


def test_a_limited_key_writes_off_only_in_its_warehouses(app, api, api_as, stocked):
    r = api_as("scan_w1").post("/v1/write_offs/", write_off(warehouse=2))
    assert r.status_code == 403
    r = api_as("read").post("/v1/write_offs/", write_off())
    assert r.status_code == 403
    created(api_as("scan_w1").post("/v1/write_offs/", write_off()))
    created(api_as("scan").post("/v1/write_offs/", write_off("w-2", "damaged", warehouse=2)))
    assert [w["write_off_id"] for w in api_as("read_w1").get("/v1/write_offs/").json["list"]] == ["w-1"]
    assert [w["write_off_id"] for w in api_as("read_w1").get("/v1/write_offs/?id_warehouse=2").json["list"]] == []
    assert [w["write_off_id"] for w in api.get("/v1/write_offs/").json["list"]] == ["w-1", "w-2"]


def test_the_list_filters_by_warehouse_day_and_reason(api, stocked):
    created(api.post("/v1/write_offs/", write_off("w-1", "expired")))
    created(api.post("/v1/write_offs/", write_off("w-2", "damaged", warehouse=2)))
    ids = lambda query: [w["write_off_id"] for w in api.get(f"/v1/write_offs/{query}").json["list"]]  # noqa: E731
    assert ids("?reason=damaged") == ["w-2"]
    assert ids("?id_warehouse=1") == ["w-1"]
    assert ids(f"?since={TODAY}&until={TODAY}") == ["w-1", "w-2"]
    assert ids("?until=2020-01-01") == []
    assert ids("?since=2999-01-01") == []
    assert api.get("/v1/write_offs/?reason=stolen").status_code == 422
    assert api.get("/v1/write_offs/?since=yesterday").status_code == 422


def test_the_event_and_the_audit_trail_name_who_wrote_it_off(app, api_as, stocked):
    created(api_as("scan").post("/v1/write_offs/", write_off(reason="sample")))
    with app.app_context():
        events = [json.loads(e.data) for e in db.session.scalars(
            select(OutboxEvent).where(OutboxEvent.event == "write_off.booked"))]
        entry = db.session.scalars(select(AuditEntry).where(AuditEntry.kind == "write_off.book")).one()
        row = db.session.scalars(select(WriteOff)).one()
        doc_number = db.session.get(WarehouseDocument, row.document_id).doc_number
        assert (entry.who, entry.who_kind, entry.record, entry.warehouses) == ("scan", "key", "w-1", "1")
        db.session.remove()
    assert events == [{"write_off_id": "w-1", "id_warehouse": 1, "reason": "sample", "note": "", "date": TODAY,
                       "doc_number": doc_number, "booked_by": "scan", "booked_by_kind": "key",
                       "items": [{"product_code": "LOT", "lot": "A", "amount": 3}]}]
