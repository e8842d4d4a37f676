"""Operations 17-18: inventory from the balances, and movements (DESIGN §9)."""
import json
from decimal import Decimal

import pytest
from sqlalchemy import event

from conftest import Scanner
from helpers import database_gone, product
from stock.caller import Caller
from models import Balance
from schemas import inventory_row_out, inventory_rows_schema, movement_row_out, movement_rows_schema
from stock import catalog, reports
from storage.db import db, writing


BASE_UNITS = {"P1": "pc", "L1": "kg", "BOX": "pc", "J1": "pc"}


class Depot(Scanner):
    """Books batches (items: code, amount[, lot[, unit]]) and reads the reports."""

    def booked(self, type_, direction, items, day="2026-03-02", **kw):
        self.book(type_, direction, [{"product_code": code, "amount": amount, "unit": unit, "lot": lot,
                                      "timestamp_client": "2026-03-02T08:00:00.000+0100"}
                                     for code, amount, lot, unit in
                                     (item + ("", BASE_UNITS[item[0]])[len(item) - 2:] for item in items)],
                  date=day, **kw)
        return self.number

    def receive(self, *items, **kw):
        return self.booked("R", "I", items, **kw)

    def ship(self, *items, **kw):
        return self.booked("R", "O", items, **kw)

    def inventory(self, api=None, **filters):
        r = (api or self.api).post("/v1/inventory/filter", filters)
        assert r.status_code == 200, r.json
        return r.json["list"]

    def movements(self, api=None, **filters):
        r = (api or self.api).post("/v1/inventory/movements/filter", filters)
        assert r.status_code == 200, r.json
        return r.json["list"]


@pytest.fixture
def depot(api):
    bodies = [product("P1"), product("L1", lot_level=1, base_unit="kg"),
              product("BOX", packaging=[{"unit": "box", "amount_base_units": 12}])]
    for body in bodies:
        assert api.post("/v1/products/", body).status_code == 201
    return Depot(api)


def rows(listed, *fields):
    return [tuple(row[f] for f in fields) for row in listed]


# --- inventory ------------------------------------------------------------------------------

@pytest.fixture
def stocked(depot):
    depot.receive(("P1", 10), ("L1", 3, "B"), ("L1", 4, "A"))
    depot.receive(("L1", 2, "A"), warehouse=2)
    return depot


def test_level_1_gives_one_row_per_lot(stocked):
    assert rows(stocked.inventory(level=1), "id_warehouse", "product_code", "lot", "level", "amount") == [
        (1, "L1", "A", 1, 4), (1, "L1", "B", 1, 3), (1, "P1", "", 1, 10), (2, "L1", "A", 1, 2)]


def test_level_0_gives_one_row_per_product(stocked):
    assert rows(stocked.inventory(level=0), "id_warehouse", "product_code", "lot", "level", "amount") == [
        (1, "L1", "", 0, 7), (1, "P1", "", 0, 10), (2, "L1", "", 0, 2)]


@pytest.mark.parametrize("filters", [{"level": -1}, {}])
def test_level_minus_1_keeps_each_product_at_its_own_level(stocked, filters):
    assert rows(stocked.inventory(**filters), "id_warehouse", "product_code", "lot", "level", "amount") == [
        (1, "L1", "A", 1, 4), (1, "L1", "B", 1, 3), (1, "P1", "", 0, 10), (2, "L1", "A", 1, 2)]


def test_inventory_row_shape(stocked):
    row = stocked.inventory(product_code="L1", id_warehouses=[2])[0]
    assert row == {"id_warehouse": 2, "product_code": "L1", "product_name": "Product L1",
                   "name": "Product L1", "lot": "A", "level": 1, "amount": 2, "unit": "kg"}


def test_amounts_are_in_base_units_and_exact(depot):
    depot.receive(("BOX", 2, "", "box"), ("P1", "0.001"))
    for _ in range(3):
        depot.receive(("P1", "0.1"))
    assert rows(depot.inventory(), "product_code", "amount", "unit") == [
        ("BOX", 24, "pc"), ("P1", Decimal("0.301"), "pc")]


def test_rows_of_amount_0_are_left_out(stocked):
    stocked.ship(("P1", 10), ("L1", 4, "A"))
    assert rows(stocked.inventory(level=1, id_warehouses=[1]), "product_code", "lot", "amount") == [
        ("L1", "B", 3)]
    stocked.ship(("L1", 3, "B"))
    assert stocked.inventory(id_warehouses=[1]) == []
    assert stocked.inventory(level=0, id_warehouses=[1]) == []


def test_product_code_filter(stocked):
    assert rows(stocked.inventory(product_code="P1"), "id_warehouse", "product_code") == [(1, "P1")]
    assert rows(stocked.inventory(product_code=""), "product_code") == [("L1",), ("L1",), ("P1",), ("L1",)]
    assert stocked.inventory(product_code="NOPE") == []


def test_warehouse_filter_and_key_narrowing(stocked, api_as):
    assert {row["id_warehouse"] for row in stocked.inventory(id_warehouses=[2])} == {2}
    assert {row["id_warehouse"] for row in stocked.inventory(id_warehouses=[])} == {1, 2}
    limited = api_as("read_w1")
    assert {row["id_warehouse"] for row in stocked.inventory(api=limited)} == {1}
    assert stocked.inventory(api=limited, id_warehouses=[2]) == []
    assert {row["id_warehouse"] for row in stocked.inventory(api=limited, id_warehouses=[1, 2])} == {1}


@pytest.mark.unbalanced
def test_inventory_is_read_from_the_balances(stocked, session):
    with writing(session):
        session.get(Balance, (1, "P1", "")).amount_milli = 99_500
    assert rows(stocked.inventory(product_code="P1"), "amount") == [(Decimal("99.5"),)]


@pytest.mark.parametrize("data, field", [
    ({"level": 2}, "level"), ({"level": "1"}, "level"), ({"id_warehouses": [1, "x"]}, "id_warehouses"),
    ({"id_warehouses": 1}, "id_warehouses"), ({"product_code": 5}, "product_code"),
    ({"product": "P1"}, "product"),
])
def test_inventory_filter_is_validated(depot, data, field):
    r = depot.api.post("/v1/inventory/filter", data)
    assert r.status_code == 422
    assert field in r.json["error"]["fields"]["data"]


def test_inventory_takes_an_empty_body(stocked):
    r = stocked.api.post("/v1/inventory/filter", body={})
    assert r.status_code == 200 and len(r.json["list"]) == 4
    assert stocked.api.post("/v1/inventory/filter", body={"filter": {}}).status_code == 400


def test_inventory_needs_a_read_key(client, depot, api_as):
    assert client.post("/v1/inventory/filter", json={}).status_code == 401
    assert depot.inventory(api=api_as("read")) == []


# --- movements ------------------------------------------------------------------------------

def test_movements_are_signed_one_row_per_document_item(depot):
    first = depot.receive(("P1", 5), ("BOX", 1, "", "box"))
    depot.ship(("P1", 2))
    listed = depot.movements()
    assert rows(listed, "doc_number", "item_number", "product_code", "amount_base_unit", "unit") == [
        (1, 1, "P1", 5, "pc"), (1, 2, "BOX", 12, "pc"), (2, 1, "P1", -2, "pc")]
    assert first == 1


def test_movement_row_shape(depot):
    depot.receive(("L1", "1.5", "A"))
    [row] = depot.movements()
    doc = depot.api.get(f"/v1/docs/{row['doc_number']}").json["item"]
    assert row == {
        "doc_number": doc["doc_number"], "item_number": 1, "user_visible_item_number": 1,
        "ufid": doc["ufid"], "id_customer": 0, "customer_name": "", "product_code": "L1",
        "name": "Product L1", "lot": "A", "date_exp": "", "doc_created_date": doc["doc_created_date"],
        "timestamp_from_client": "2026-03-02T08:00:00.000+0100", "amount_base_unit": Decimal("1.5"),
        "unit": "kg"}


def test_movements_carry_the_customer_of_the_order(depot, session):
    catalog.save_customers(session, [{"id_customer": 7, "name": "Acme Ltd"}])
    session.remove()
    order = {"document_number": "SO-1", "id_warehouse": 1, "id_customer": 7,
             "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
             "items": [{"item_number": 1, "product_code": "P1", "amount_ordered": 2}]}
    assert depot.api.post("/v1/documents/", order).status_code == 201
    depot.receive(("P1", 5))
    depot.ship(("P1", 2), document_number="SO-1")
    assert rows(depot.movements(), "id_customer", "customer_name", "amount_base_unit") == [
        (0, "", 5), (7, "Acme Ltd", -2)]


def test_movements_of_a_customer_unknown_by_name_show_an_empty_name(depot, session):
    catalog.save_customers(session, [{"id_customer": 8, "name": ""}])
    session.remove()
    order = {"document_number": "SO-2", "id_warehouse": 1, "id_customer": 8,
             "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["I"]},
             "items": [{"item_number": 1, "product_code": "P1", "amount_ordered": 2}]}
    assert depot.api.post("/v1/documents/", order).status_code == 201
    depot.receive(("P1", 2), document_number="SO-2")
    assert rows(depot.movements(), "id_customer", "customer_name") == [(8, "")]


@pytest.fixture
def history(depot):
    depot.receive(("P1", 10), ("L1", 5, "A"), day="2026-01-31")
    depot.ship(("P1", 1), day="2026-02-01")
    depot.receive(("P1", 3), day="2026-02-01", warehouse=2)
    depot.ship(("L1", 2, "A"), ("P1", 1), day="2026-02-15")
    return depot


def test_movements_by_level(history):
    assert rows(history.movements(level=1), "doc_number", "product_code") == [(1, "L1"), (4, "L1")]
    assert rows(history.movements(level=0), "doc_number", "product_code") == [
        (1, "P1"), (2, "P1"), (3, "P1"), (4, "P1")]
    assert len(history.movements(level=-1)) == 6


def test_movements_by_direction(history):
    assert {row["amount_base_unit"] > 0 for row in history.movements(doc_direction="I")} == {True}
    assert rows(history.movements(doc_direction="O"), "doc_number", "item_number") == [(2, 1), (4, 1), (4, 2)]
    assert len(history.movements(doc_direction="")) == 6


def test_movements_by_business_date_bounds_inclusive(history):
    one_day = history.movements(date_from="2026-02-01", date_to="2026-02-01")
    assert rows(one_day, "doc_number") == [(2,), (3,)]
    assert rows(history.movements(date_from="2026-02-01"), "doc_number") == [(2,), (3,), (4,), (4,)]
    assert rows(history.movements(date_to="2026-01-31"), "doc_number") == [(1,), (1,)]
    assert len(history.movements(date_from="", date_to="")) == 6
    assert history.movements(date_from="2026-02-16") == []


def test_movements_by_warehouse_and_key(history, api_as):
    assert rows(history.movements(id_warehouses=[2]), "doc_number") == [(3,)]
    limited = api_as("read_w1")
    assert 3 not in {row["doc_number"] for row in history.movements(api=limited)}
    assert history.movements(api=limited, id_warehouses=[2]) == []


def test_movements_combine_filters(history):
    listed = history.movements(id_warehouses=[1], doc_direction="O", level=0, date_from="2026-02-01")
    assert rows(listed, "doc_number", "item_number", "amount_base_unit") == [(2, 1, -1), (4, 2, -1)]


@pytest.mark.parametrize("data, field", [
    ({"doc_direction": "X"}, "doc_direction"), ({"date_from": "2026-02-30"}, "date_from"),
    ({"date_to": "yesterday"}, "date_to"), ({"level": 5}, "level"), ({"product_code": "P1"}, "product_code"),
])
def test_movement_filter_is_validated(depot, data, field):
    r = depot.api.post("/v1/inventory/movements/filter", data)
    assert r.status_code == 422
    assert field in r.json["error"]["fields"]["data"]


# --- whole lists, written as they are read ----------------------------------------------------

EVERY_WAREHOUSE = Caller(None, "office", "read", None)
LOTS = 2_600  # more than routes/streaming.py CHUNK twice over: the list goes out in three pieces


def number(milli):
    return milli // 1000 if milli % 1000 == 0 else milli / 1000


@pytest.fixture
def many_lots(depot):
    """L1 received in LOTS lots over two warehouses, in batches of 650 lines, amounts with and
    without fractions; what the books must say is kept beside."""
    assert depot.api.post("/v1/products/", product("J1", name="Jogurt čokolada 🍫", lot_level=1)).status_code == 201
    booked = {}
    lines = [(1 + n % 2, "L1" if n % 3 else "J1", f"A{n:05d}", 1000 + n * 7 if n % 4 else 2500 + n * 1000)
             for n in range(LOTS)]
    for start in range(0, LOTS, 650):
        for warehouse in (1, 2):
            items = [(code, str(Decimal(milli) / 1000), lot) for w, code, lot, milli in lines[start:start + 650]
                     if w == warehouse]
            depot.receive(*items, warehouse=warehouse)
    for warehouse, code, lot, milli in lines:
        booked[(warehouse, code, lot)] = milli
    depot.booked_lots = booked
    return depot


def test_the_whole_stock_list_is_streamed_and_is_what_the_books_say(many_lots, api):
    names = {"L1": ("Product L1", "kg"), "J1": ("Jogurt čokolada 🍫", "pc")}
    expected = [{"id_warehouse": warehouse, "product_code": code, "product_name": names[code][0],
                 "name": names[code][0], "lot": lot, "level": 1, "amount": number(milli), "unit": names[code][1]}
                for (warehouse, code, lot), milli in sorted(many_lots.booked_lots.items())]
    r = api.post("/v1/inventory/filter", {"level": 1})
    # Written as it is read: no length is known before the last row.
    assert r.status_code == 200 and "Content-Length" not in r.headers and r.mimetype == "application/json"
    # Byte for byte what Flask's JSON wrote for the whole list: compact, ASCII, a newline at the end.
    assert r.data == (json.dumps({"list": expected}, separators=(",", ":")) + "\n").encode()
    assert api.post("/v1/inventory/filter", {}).data == r.data  # level -1: each product kept by lot


def test_a_short_list_and_an_empty_one_are_written_whole(many_lots, api):
    r = api.post("/v1/inventory/filter", {"level": 0})
    assert r.status_code == 200 and r.headers["Content-Length"] == str(len(r.data))
    assert [(row["id_warehouse"], row["product_code"]) for row in r.json["list"]] == [
        (1, "J1"), (1, "L1"), (2, "J1"), (2, "L1")]
    r = api.post("/v1/inventory/filter", {"product_code": "NOPE"})
    assert r.status_code == 200 and r.data == b'{"list":[]}\n'


def test_the_whole_movement_list_is_streamed_and_is_what_was_booked(many_lots, api):
    listed = api.post("/v1/inventory/movements/filter", {})
    assert listed.status_code == 200 and "Content-Length" not in listed.headers
    rows_ = listed.json["list"]
    assert len(rows_) == LOTS
    assert sorted((r["product_code"], r["lot"], r["amount_base_unit"]) for r in rows_) == sorted(
        (code, lot, Decimal(milli) / 1000) for (_, code, lot), milli in many_lots.booked_lots.items())
    assert [(r["doc_number"], r["item_number"]) for r in rows_] == sorted(
        (r["doc_number"], r["item_number"]) for r in rows_)
    # The same bytes as the rows dumped whole through the schema, as the answer was written before.
    with api.client.application.app_context():
        whole = reports.movements(db.session, EVERY_WAREHOUSE, {})
        db.session.remove()
    assert listed.data == (json.dumps({"list": movement_rows_schema.dump(whole)}, separators=(",", ":"),
                                      default=str) + "\n").encode()


def test_the_hand_written_rows_are_the_schemas_dump(many_lots, api, session):
    whole = reports.inventory(session, EVERY_WAREHOUSE, {"level": -1})
    assert [inventory_row_out(row) for row in whole] == inventory_rows_schema.dump(whole)
    movements = reports.movements(session, EVERY_WAREHOUSE, {})
    assert [movement_row_out(row) for row in movements] == movement_rows_schema.dump(movements)


def test_a_database_that_fails_before_the_first_byte_is_the_normal_error(many_lots, api, app):
    def refuse(conn, cursor, statement, parameters, context, executemany):
        if "FROM balances" in statement:
            raise database_gone(conn)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", refuse)
    try:
        r = api.post("/v1/inventory/filter", {"level": 1})
    finally:
        event.remove(engine, "before_cursor_execute", refuse)
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert r.json["error"]["code"] == "unavailable"


def test_a_fault_after_the_first_byte_cuts_the_answer_and_is_logged(many_lots, api, monkeypatch, caplog):
    written = []

    def fails_at_the_second_piece(row):
        if len(written) == 1500:
            raise RuntimeError("the database went away")
        written.append(row)
        return inventory_row_out(row)

    monkeypatch.setattr("routes.inventory.inventory_row_out", fails_at_the_second_piece)
    r = api.client.open("/v1/inventory/filter", method="POST", json={"data": {"level": 1}},
                        headers={"TS-Apikey": api.key}, buffered=False)
    try:
        assert r.status_code == 200  # the first thousand rows were already on their way
        with pytest.raises(RuntimeError, match="went away"):
            b"".join(r.response)
    finally:
        r.close()  # as the server does however an answer ends: the session it read on is closed
    assert "/v1/inventory/filter broke off after 1000 rows" in caplog.text
