"""Write-offs, returns and a lot's story in warehouses with locations (DESIGN 27 with 28), through
HTTP: a return goes to the location named, else the first hold location, else unplaced; a
write-off takes from its line's location or as a goods-out without one takes; the trace lists
the stock per location and the lot's moves, and still adds up."""
import json

import pytest
from sqlalchemy import select

from conftest import Scanner
from helpers import add_products, created, error_fields, item, order, order_item
from identity import api_keys
from models import CustomerReturn, OutboxEvent, WarehouseDocument
from schemas.lots import trace_out, trace_schema
from stock import lot_story
from stock.caller import Caller
from storage.db import db


def customer(number):
    return {"id_customer": number, "name": "Fresh Foods Ltd",
            "address": {"street": "Marktweg 3", "city": "Leipzig", "zip": "04109", "country": "DE"}}


def add_locations(api, warehouse, *codes, hold=()):
    for code in codes:
        created(api.post("/v1/locations/", {"id_warehouse": warehouse, "code": code, "hold": int(code in hold)}))


def stock(api, warehouse=1, code=None):
    """(location, product, lot, amount) of the warehouse, unplaced first, then walking order."""
    return [(row["location"], row["product_code"], row["lot"], row["amount"])
            for row in api.get(f"/v1/locations/stock?id_warehouse={warehouse}").json["list"]
            if code is None or row["product_code"] == code]


def documents(app):
    with app.app_context():
        count = db.session.query(WarehouseDocument).count()
        db.session.remove()
    return count


@pytest.fixture
def delivered(api):
    """Warehouse 1 with shelves A-1, A-2 and the hold locations Q-2, Q-1 (Q-1 first in walking
    order); order SO-1 of customer 17 delivered 6 of LOT lot A from A-1."""
    add_products(api)
    created(api.post("/v1/customers/", customer(17)))
    add_locations(api, 1, "A-1", "A-2", "Q-2", "Q-1", hold=("Q-1", "Q-2"))
    scanner = Scanner(api)
    scanner.book("R", "I", [item("LOT", 10, lot="A", date_exp="2030-01-31", wplace="A-1")])
    created(api.post("/v1/documents/", order("SO-1", [order_item(1, "LOT", 6)], directions=("O",), id_customer=17)))
    scanner.book("R", "O", [item("LOT", 6, lot="A", wplace="A-1")], document_number="SO-1")
    return scanner


def a_return(return_id="r-1", amount=1, **more):
    return {"return_id": return_id, "document_number": "SO-1", "reason": "crate broken",
            "items": [{"product_code": "LOT", "lot": "A", "amount": amount}], **more}


def recorded_locations(app):
    with app.app_context():
        found = [(row.return_id, row.location) for row in db.session.scalars(
            select(CustomerReturn).order_by(CustomerReturn.id))]
        db.session.remove()
    return found


def test_a_return_goes_to_the_location_named_else_the_first_hold_location(app, api, delivered):
    created(api.post("/v1/returns/", a_return("r-1", 1, location="a-2")))  # any case, kept as the location is
    created(api.post("/v1/returns/", a_return("r-2", 2)))
    assert stock(api) == [("A-1", "LOT", "A", 4), ("A-2", "LOT", "A", 1), ("Q-1", "LOT", "A", 2)]
    assert recorded_locations(app) == [("r-1", "A-2"), ("r-2", "Q-1")]
    with app.app_context():
        events = [json.loads(event.data) for event in db.session.scalars(
            select(OutboxEvent).where(OutboxEvent.event == "return.booked").order_by(OutboxEvent.id))]
        db.session.remove()
    assert [event["location"] for event in events] == ["A-2", "Q-1"]


def test_a_return_without_hold_locations_stays_unplaced(app, api, delivered):
    for code in ("Q-1", "Q-2"):
        assert api.post(f"/v1/locations/1/{code}", {"hold": 0}).status_code == 200
    created(api.post("/v1/returns/", a_return()))
    assert stock(api) == [("", "LOT", "A", 1), ("A-1", "LOT", "A", 4)]
    assert recorded_locations(app) == [("r-1", "")]


def test_an_inactive_hold_location_takes_no_return(app, api, delivered):
    assert api.post("/v1/locations/1/Q-1", {"active": 0}).status_code == 200
    created(api.post("/v1/returns/", a_return()))
    assert recorded_locations(app) == [("r-1", "Q-2")]


@pytest.mark.parametrize("location, words", [("NOPE", "No location 'NOPE'"), ("B-9", "No location 'B-9'"),
                                             ("OLD", "not active")])
def test_a_return_to_a_location_the_warehouse_has_not_active_is_422(app, api, delivered, location, words):
    add_locations(api, 2, "B-9")
    add_locations(api, 1, "OLD")
    assert api.post("/v1/locations/1/OLD", {"active": 0}).status_code == 200
    before = documents(app)
    fields = error_fields(api.post("/v1/returns/", a_return(location=location)))
    assert words in fields["data"]["location"][0]
    assert documents(app) == before and recorded_locations(app) == []
    assert stock(api) == [("A-1", "LOT", "A", 4)]


def test_a_return_names_no_location_where_the_warehouse_has_none(app, api):
    add_products(api)
    created(api.post("/v1/customers/", customer(17)))
    scanner = Scanner(api)
    scanner.book("R", "I", [item("LOT", 5, lot="A", wplace="shelf by the door")], warehouse=2)
    created(api.post("/v1/documents/", order("SO-2", [order_item(1, "LOT", 5)], directions=("O",), id_customer=17,
                                             id_warehouse=2)))
    scanner.book("R", "O", [item("LOT", 5, lot="A")], document_number="SO-2", warehouse=2)
    body = {**a_return(), "document_number": "SO-2"}
    fields = error_fields(api.post("/v1/returns/", {**body, "location": "shelf by the door"}))
    assert "no locations" in fields["data"]["location"][0]
    created(api.post("/v1/returns/", body))
    assert stock(api, 2) == [("", "LOT", "A", 1)] and recorded_locations(app) == [("r-1", "")]


@pytest.fixture
def placed(api):
    """Warehouse 1: LOT lot A 4 unplaced, 3 on B-1, 2 on A-1 and 5 on the hold location H-1
    (walking order A-1, B-1, H-1); P1 5 on A-1."""
    add_products(api)
    add_locations(api, 1, "H-1", "B-1", "A-1", hold=("H-1",))
    Scanner(api).book("R", "I", [item("LOT", 4, lot="A"), item("LOT", 3, lot="A", wplace="B-1"),
                                 item("LOT", 2, lot="A", wplace="A-1"), item("LOT", 5, lot="A", wplace="H-1"),
                                 item("P1", 5, wplace="A-1")])
    return api


def write_off(*lines, write_off_id="w-1"):
    return {"write_off_id": write_off_id, "id_warehouse": 1, "reason": "damaged",
            "items": [{"product_code": code, "lot": lot, "amount": amount, **({"location": at} if at else {})}
                      for code, lot, amount, at in lines]}


def test_a_write_off_takes_from_the_location_its_line_names(placed):
    created(placed.post("/v1/write_offs/", write_off(("LOT", "A", 4, "h-1"), ("P1", "", 2, "A-1"))))
    assert stock(placed) == [("", "LOT", "A", 4), ("A-1", "LOT", "A", 2), ("A-1", "P1", "", 3),
                             ("B-1", "LOT", "A", 3), ("H-1", "LOT", "A", 1)]


def test_a_write_off_without_a_location_takes_unplaced_then_walking_order_hold_last(placed):
    created(placed.post("/v1/write_offs/", write_off(("LOT", "A", 7, None))))
    assert stock(placed, code="LOT") == [("B-1", "LOT", "A", 2), ("H-1", "LOT", "A", 5)]
    created(placed.post("/v1/write_offs/", write_off(("LOT", "A", 3, None), write_off_id="w-2")))
    assert stock(placed, code="LOT") == [("H-1", "LOT", "A", 4)]


def test_short_at_the_location_is_409_naming_the_line_and_books_nothing(app, placed):
    before = documents(app)
    # Enough in the warehouse (14), not on B-1 (3): the two lines taking from B-1 are summed.
    r = placed.post("/v1/write_offs/", write_off(("P1", "", 1, "A-1"), ("LOT", "A", 2, "B-1"), ("LOT", "A", 2, "B-1")))
    fields = error_fields(r, 409)
    assert set(fields["data"]["items"]) == {"1", "2"}
    message = fields["data"]["items"]["1"]["location"][0]
    assert "at location B-1" in message and "3 there, short by 1" in message
    assert documents(app) == before
    assert stock(placed, code="LOT") == [("", "LOT", "A", 4), ("A-1", "LOT", "A", 2), ("B-1", "LOT", "A", 3),
                                         ("H-1", "LOT", "A", 5)]


def test_a_write_off_from_an_unknown_or_inactive_location_is_422_naming_the_line(app, placed):
    add_locations(placed, 1, "OLD")
    assert placed.post("/v1/locations/1/OLD", {"active": 0}).status_code == 200
    before = documents(app)
    fields = error_fields(placed.post("/v1/write_offs/", write_off(("LOT", "A", 1, "A-1"), ("LOT", "A", 1, "NOPE"),
                                                                     ("P1", "", 1, "OLD"))))
    assert set(fields["data"]["items"]) == {"1", "2"}
    assert "No location 'NOPE'" in fields["data"]["items"]["1"]["location"][0]
    assert "not active" in fields["data"]["items"]["2"]["location"][0]
    assert documents(app) == before


def trace(client, code="LOT", lot="A"):
    r = client.get(f"/v1/lots/trace?product_code={code}&lot={lot}")
    assert r.status_code == 200, r.json
    return r.json["item"]


def adds_up(told) -> bool:
    came = sum(e["amount"] for kind in ("received", "returned", "counted") for e in told[kind])
    went = sum(e["amount"] for kind in ("delivered", "written_off", "in_stock") for e in told[kind])
    return round(came + sum(e["change"] for e in told["moved"]), 3) == round(went, 3)


@pytest.fixture
def moved(placed):
    """From `placed`: 2 of LOT lot A moved from B-1 to A-1 within warehouse 1, 3 from unplaced
    to warehouse 2's C-1 (two documents), and 1 of lot B (another lot: not in A's story)."""
    add_locations(placed, 2, "C-1")
    Scanner(placed).book("R", "I", [item("LOT", 1, lot="B", wplace="B-1")], number=2)
    for move_id, source, target, lot, amount in (("m-1", (1, "B-1"), (1, "a-1"), "A", 2),
                                                 ("m-2", (1, ""), (2, "C-1"), "A", 3),
                                                 ("m-3", (1, "B-1"), (1, "A-1"), "B", 1)):
        created(placed.post("/v1/moves/", {
            "move_id": move_id, "from": {"id_warehouse": source[0], "location": source[1]},
            "to": {"id_warehouse": target[0], "location": target[1]}, "note": f"note {move_id}",
            "items": [{"product_code": "LOT", "lot": lot, "amount": amount}]}))
    return placed


def test_the_trace_tells_the_stock_per_location_and_the_lots_moves(moved):
    told = trace(moved)
    assert told["in_stock"] == [{"id_warehouse": 1, "location": "", "amount": 1},
                                {"id_warehouse": 1, "location": "A-1", "amount": 4},
                                {"id_warehouse": 1, "location": "B-1", "amount": 1},
                                {"id_warehouse": 1, "location": "H-1", "amount": 5},
                                {"id_warehouse": 2, "location": "C-1", "amount": 3}]
    assert [(m["move_id"], m["from"], m["to"], m["amount"], m["change"], m["note"]) for m in told["moved"]] == [
        ("m-1", {"id_warehouse": 1, "location": "B-1"}, {"id_warehouse": 1, "location": "A-1"}, 2, 0, "note m-1"),
        ("m-2", {"id_warehouse": 1, "location": ""}, {"id_warehouse": 2, "location": "C-1"}, 3, 0, "note m-2")]
    within, between = told["moved"]
    assert (within["out_doc"], within["in_doc"]) == (0, 0) and between["out_doc"] and between["in_doc"]
    # The move's two documents are the move, not a goods-in and a delivery.
    assert [e["amount"] for e in told["received"]] == [14] and told["delivered"] == []
    assert adds_up(told)
    assert [m["move_id"] for m in trace(moved, lot="B")["moved"]] == ["m-3"]


def test_the_trace_of_a_key_limited_to_one_warehouse_still_adds_up(app, moved, api_as):
    with app.app_context():
        key = api_keys.create_key(db.session, "read_w2", "read", [2])
        db.session.remove()
    into = trace(api_as(key))
    assert into["in_stock"] == [{"id_warehouse": 2, "location": "C-1", "amount": 3}]
    assert [(m["move_id"], m["change"], m["out_doc"]) for m in into["moved"]] == [("m-2", 3, 0)]
    assert into["moved"][0]["in_doc"] and into["received"] == [] and adds_up(into)
    out_of = trace(api_as("read_w1"))
    assert [(m["move_id"], m["change"], m["in_doc"]) for m in out_of["moved"]] == [("m-1", 0, 0), ("m-2", -3, 0)]
    assert adds_up(out_of)


def test_write_offs_and_returns_in_the_trace_by_location(app, api, delivered):
    created(api.post("/v1/returns/", a_return("r-1", 2)))
    created(api.post("/v1/write_offs/", {"write_off_id": "w-1", "id_warehouse": 1, "reason": "damaged",
                                         "items": [{"product_code": "LOT", "lot": "A", "amount": 1,
                                                    "location": "Q-1"}]}))
    told = trace(api)
    assert told["in_stock"] == [{"id_warehouse": 1, "location": "A-1", "amount": 4},
                                {"id_warehouse": 1, "location": "Q-1", "amount": 1}]
    assert adds_up(told)



def test_the_moves_are_written_as_the_schema_dumps_them(app, moved):
    with app.app_context():
        told = lot_story.trace(db.session, Caller(None, "x", "read", None), "LOT", "A")
        db.session.remove()
    assert len(told["moved"]) == 2 and trace_out(told) == trace_schema.dump(told)
