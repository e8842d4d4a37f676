"""stock/reports.py on its own: the read functions and the balance check, without HTTP."""
from contextlib import contextmanager
from datetime import date

import pytest
from sqlalchemy import delete, event

from helpers import planned_on_own_rows, product
from stock.caller import Caller
from models import Balance
from schemas import batch_create_schema, product_schema
from stock import catalog, reports
from stock.policy import Policy
from stock.posting import post_batch
from stock.stocktaking import delete_stocktaking
from storage.db import writing

EVERYWHERE = Caller(1, "test", "admin", None)
ONLY_W1 = Caller(2, "test_w1", "read", frozenset({1}))
W1_AND_W2 = Caller(3, "test_w12", "read", frozenset({1, 2}))


class Book:
    """Posts batches through post_batch, as the route would after parsing."""

    def __init__(self, session):
        self.session, self.number = session, 0

    def post(self, type_, direction, items, day="2026-03-02", warehouse=1):
        self.number += 1
        batch = batch_create_schema.load({
            "batch_settings": {"batch_number": self.number, "id_warehouse": warehouse,
                               "direction": direction, "type": type_, "date": day},
            "batch_items": [{"product_code": code, "amount": amount, "unit": "pc", "lot": lot}
                            for code, amount, lot in (item + ("",) * (3 - len(item)) for item in items)]})
        assert post_batch(self.session, EVERYWHERE, batch, Policy())

    def receive(self, *items, **kw):
        self.post("R", "I", items, **kw)

    def ship(self, *items, **kw):
        self.post("R", "O", items, **kw)

    def count(self, *items, **kw):
        self.post("V", "I", items, **kw)


@pytest.fixture
def book(session):
    for body in (product("P1"), product("L1", lot_level=1)):
        catalog.create_product(session, product_schema.load(body))
    return Book(session)


@contextmanager
def statements(session):
    """Collect the SQL statements run inside the block."""
    seen = []

    def grab(conn, cursor, statement, parameters, context, executemany):
        seen.append((statement, parameters))

    engine = session.get_bind()
    event.listen(engine, "before_cursor_execute", grab)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", grab)


# --- stocktakings ---------------------------------------------------------------------------

def test_list_stocktakings_in_thousandths_with_differences_and_ufids(book, session):
    book.receive(("P1", 10), day="2026-03-01")
    book.count(("P1", "7.5"), ("L1", 2, "A"))
    [listed] = reports.list_stocktakings(session, EVERYWHERE, headers_only=False)
    assert (listed["id_warehouse"], listed["date"], listed["status"]) == (1, date(2026, 3, 2), 1)
    assert listed["in_ufid"].startswith("I-2026-") and listed["out_ufid"].startswith("O-2026-")
    fields = ("product_code", "lot", "amount_real_milli", "amount_snap_milli", "amount_diff_milli")
    assert [tuple(i[f] for f in fields) for i in listed["stocktaking_items"]] == [
        ("L1", "A", 2000, 0, 2000), ("P1", "", 7500, 10000, -2500)]


def test_list_stocktakings_headers_only_and_narrowed(book, session):
    book.count(("P1", 1), warehouse=1)
    book.count(("P1", 1), warehouse=2, day="2026-03-01")
    assert [(s["id_warehouse"], s["stocktaking_items"]) for s in
            reports.list_stocktakings(session, EVERYWHERE, headers_only=True)] == [(2, []), (1, [])]
    assert [s["id_warehouse"] for s in reports.list_stocktakings(session, ONLY_W1, False)] == [1]


def test_list_stocktakings_takes_two_statements_however_many_there_are(book, session):
    for day in range(1, 6):
        book.count(("P1", day), ("L1", 1, "A"), day=f"2026-03-{day:02d}")
    session.rollback()
    with statements(session) as seen:
        listed = reports.list_stocktakings(session, EVERYWHERE, False)
    assert len(listed) == 5
    assert len([s for s, _ in seen if s.lstrip().upper().startswith("SELECT")]) == 2


# --- inventory ------------------------------------------------------------------------------

def test_inventory_levels_in_thousandths(book, session):
    book.receive(("P1", "1.25"), ("L1", 2, "A"), ("L1", 3, "B"))

    def listed(level):
        return [(r["product_code"], r["lot"], r["level"], r["amount_milli"])
                for r in reports.inventory(session, EVERYWHERE, {"level": level})]

    assert listed(0) == [("L1", "", 0, 5000), ("P1", "", 0, 1250)]
    assert listed(1) == [("L1", "A", 1, 2000), ("L1", "B", 1, 3000), ("P1", "", 1, 1250)]
    assert listed(-1) == [("L1", "A", 1, 2000), ("L1", "B", 1, 3000), ("P1", "", 0, 1250)]


def test_inventory_sorts_text_by_code_point(session):
    for code in ("b", "B", "a", "É", "Z"):
        catalog.create_product(session, product_schema.load(product(code)))
    book = Book(session)
    book.receive(*((code, 1) for code in ("b", "B", "a", "É", "Z")))
    listed = reports.inventory(session, EVERYWHERE, {})
    assert [r["product_code"] for r in listed] == ["B", "Z", "a", "b", "É"]


def test_inventory_level_0_leaves_out_products_whose_lots_sum_to_zero(book, session):
    book.receive(("L1", 2, "A"))
    session.execute(Balance.__table__.insert().values(id_warehouse=1, product_code="L1", lot="B",
                                                      amount_milli=-2000))
    assert [r["lot"] for r in reports.inventory(session, EVERYWHERE, {"level": 1})] == ["A", "B"]
    assert reports.inventory(session, EVERYWHERE, {"level": 0}) == []
    session.rollback()


def test_inventory_narrowed_to_the_key(book, session):
    book.receive(("P1", 1), warehouse=1)
    book.receive(("P1", 1), warehouse=2)
    assert [r["id_warehouse"] for r in reports.inventory(session, ONLY_W1, {})] == [1]
    assert reports.inventory(session, ONLY_W1, {"id_warehouses": [2]}) == []


# --- movements ------------------------------------------------------------------------------

def test_movements_signed_in_thousandths(book, session):
    book.receive(("P1", "2.5"), day="2026-03-01")
    book.ship(("P1", "0.5"))
    listed = reports.movements(session, EVERYWHERE, {})
    assert [(m["doc_number"], m["item_number"], m["amount_base_milli"], m["unit"], m["customer_name"])
            for m in listed] == [(1, 1, 2500, "pc", ""), (2, 1, -500, "pc", "")]
    day = date(2026, 3, 1)
    one_day = reports.movements(session, EVERYWHERE, {"date_from": day, "date_to": day})
    assert [m["doc_number"] for m in one_day] == [1]


def test_a_one_day_movement_filter_is_an_index_range_scan(book, session):
    book.receive(("P1", 1), day="2026-03-01")
    book.receive(("P1", 1), day="2026-03-02", warehouse=2)
    session.rollback()
    filters = {"id_warehouses": [1], "date_from": date(2026, 3, 1), "date_to": date(2026, 3, 1)}
    with statements(session) as seen:
        assert len(reports.movements(session, EVERYWHERE, filters)) == 1
    statement, parameters = seen[-1]
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        plan = " ".join(row[-1] for row in connection.exec_driver_sql(
            "EXPLAIN QUERY PLAN " + statement, parameters))
        assert "SEARCH warehouse_document_items USING INDEX ix_movements_warehouse_date" in plan, plan
    else:
        # On a few rows the planner would rightly scan the table; what matters is that an
        # index serves the warehouse/date range once scanning is the expensive way.
        connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
        plan = " ".join(row[0] for row in connection.exec_driver_sql("EXPLAIN " + statement, parameters))
        assert "ix_movements_" in plan, plan  # an Index Scan or a Bitmap Index Scan
        assert "Seq Scan on warehouse_document_items" not in plan, plan
    session.rollback()


def test_movements_take_one_statement(book, session):
    for _ in range(4):
        book.receive(("P1", 1), ("L1", 1, "A"))
    session.rollback()
    with statements(session) as seen:
        assert len(reports.movements(session, EVERYWHERE, {"level": 1})) == 4
    assert len([s for s, _ in seen if s.lstrip().upper().startswith("SELECT")]) == 1


# --- movement lines (the page's list) -------------------------------------------------------

def line_keys(rows) -> list[tuple]:
    return [(r["date"].isoformat(), r["doc_number"], r["item_number"], r["id_warehouse"], r["product_code"],
             r["amount_milli"]) for r in rows]


@pytest.fixture
def history(book):
    """Lines in three warehouses over three days, booked out of date order."""
    book.receive(("P1", 5), ("L1", 2, "A"), day="2026-03-02")
    book.receive(("P1", 7), day="2026-03-01", warehouse=2)
    book.ship(("P1", 1), day="2026-03-03")
    book.receive(("L1", 4, "B"), day="2026-03-02", warehouse=3)
    book.ship(("P1", "0.5"), day="2026-03-01", warehouse=2)
    return book


def test_movement_lines_newest_first_signed_with_their_document(history, session):
    assert line_keys(reports.movement_lines(session, EVERYWHERE, {}, limit=100)) == [
        ("2026-03-03", 3, 1, 1, "P1", -1000),
        ("2026-03-02", 4, 1, 3, "L1", 4000), ("2026-03-02", 1, 2, 1, "L1", 2000), ("2026-03-02", 1, 1, 1, "P1", 5000),
        ("2026-03-01", 5, 1, 2, "P1", -500), ("2026-03-01", 2, 1, 2, "P1", 7000)]
    first = reports.movement_lines(session, EVERYWHERE, {}, limit=1)[0]
    assert (first["ufid"], first["direction"], first["unit"], first["lot"]) == ("O-2026-000001", "O", "pc", "")


@pytest.mark.parametrize("filters, expected", [
    ({"id_warehouses": [2]}, [5, 2]),
    ({"product_code": "L1"}, [4, 1]),
    ({"product_code": "P1", "id_warehouses": [1]}, [3, 1]),
    ({"date_from": date(2026, 3, 2), "date_to": date(2026, 3, 2)}, [4, 1, 1]),
    ({"product_code": "P1", "date_to": date(2026, 3, 1)}, [5, 2]),
    ({"id_warehouses": [9]}, []),
])
def test_movement_lines_filter_by_warehouse_product_and_dates(history, session, filters, expected):
    assert [r["doc_number"] for r in reports.movement_lines(session, EVERYWHERE, filters, limit=100)] == expected
    assert reports.count_movement_lines(session, EVERYWHERE, filters) == len(expected)
    assert [r.doc_number for r in reports.every_movement_line(session, EVERYWHERE, filters)] == expected


@pytest.mark.parametrize("caller, filters", [(EVERYWHERE, {}), (W1_AND_W2, {}), (ONLY_W1, {}),
                                             (W1_AND_W2, {"id_warehouses": [2]}), (EVERYWHERE, {"product_code": "P1"})])
def test_movement_lines_page_by_keyset_to_the_same_rows_as_one_read(history, session, caller, filters):
    whole = line_keys(reports.movement_lines(session, caller, filters, limit=100))
    pages, after = [], None
    for _ in range(10):  # bounded: six lines at most, two a page
        page = reports.movement_lines(session, caller, filters, after=after, limit=2)
        if not page:
            break
        pages += line_keys(page)
        after = (page[-1]["date"], page[-1]["document_id"], page[-1]["item_number"])
    assert pages == whole and len(whole) == reports.count_movement_lines(session, caller, filters)
    assert {key[3] for key in whole} <= (caller.warehouses or {1, 2, 3})


def test_a_booking_that_arrives_between_pages_is_neither_shown_twice_nor_skips_a_line(history, session):
    first = reports.movement_lines(session, EVERYWHERE, {}, limit=3)
    history.receive(("P1", 9), day="2026-03-04")  # newest: before the first page
    history.receive(("P1", 8), day="2026-03-01")  # within the pages still to come
    after = (first[-1]["date"], first[-1]["document_id"], first[-1]["item_number"])
    rest = reports.movement_lines(session, EVERYWHERE, {}, after=after, limit=100)
    shown = line_keys(first) + line_keys(rest)
    assert len(set(shown)) == len(shown)
    assert [key[1] for key in shown] == [3, 4, 1, 1, 7, 5, 2]  # every line booked before, and the late one in place


def movement_lines_plan(session, caller, filters) -> str:
    """The database's plan of the page's query. PostgreSQL plans by its statistics, and on a few
    rows would rightly scan the table, or gather by any index and sort: it is asked to plan as
    if scanning, gathering by a bitmap and sorting were each the dear way, so that the plan says
    which indexes can give the page's rows in its order (the five-year depot's plans are in
    docs/performance-growth.md)."""
    connection = session.connection()
    query = reports._lines_page(caller, filters, (date(2026, 3, 2), 1, 1), 101)
    sql = str(query.compile(connection, compile_kwargs={"literal_binds": True}))
    if connection.dialect.name == "sqlite":
        return " ".join(row[-1] for row in connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))
    connection = planned_on_own_rows(session, "warehouse_document_items", "warehouse_documents", "products")
    for way in ("seqscan", "bitmapscan", "sort"):
        connection.exec_driver_sql(f"SET LOCAL enable_{way} = off")
    plan = " ".join(row[0] for row in connection.exec_driver_sql("EXPLAIN " + sql))
    session.rollback()
    return plan


# SQLite plans by the query alone: its steps are exact. PostgreSQL plans by the statistics of the
# rows it holds, and on these few rows any index of the lines is as good as another: it must use
# one, and merge the warehouses' pages (Append) where the query asks it to; which index serves a
# five-year depot is measured on one (docs/performance-growth.md).
@pytest.mark.parametrize("caller, filters, sqlite_steps, postgresql_steps", [
    (EVERYWHERE, {}, ["SEARCH warehouse_document_items USING INDEX ix_movements_date"],
     ["ix_movements_"]),
    (EVERYWHERE, {"id_warehouses": [2]}, ["SEARCH warehouse_document_items USING INDEX ix_movements_warehouse_date"],
     ["ix_movements_"]),
    # One warehouse's page after another's, merged: never a sort of every line of them.
    (W1_AND_W2, {}, ["MERGE (UNION ALL)"] + ["SEARCH warehouse_document_items USING INDEX ix_movements_warehouse_date"] * 2,
     ["Append"] + ["ix_movements_"] * 2),
    # A product's few lines by its index, even within one warehouse.
    (EVERYWHERE, {"product_code": "P1", "id_warehouses": [2]},
     ["SEARCH warehouse_document_items USING INDEX ix_movements_product"], ["ix_movements_"]),
])
def test_movement_lines_read_along_the_indexes_that_exist(history, session, caller, filters, sqlite_steps,
                                                          postgresql_steps):
    plan = movement_lines_plan(session, caller, filters)
    sqlite = session.connection().dialect.name == "sqlite"
    for step in sqlite_steps if sqlite else postgresql_steps:
        assert plan.count(step) >= (sqlite_steps if sqlite else postgresql_steps).count(step), plan
    assert "SCAN warehouse_document_items" not in plan and "Seq Scan on warehouse_document_items" not in plan, plan


# --- overviews ------------------------------------------------------------------------------

def test_overview_docs_and_stocktaking(book, session):
    book.receive(("P1", 5), day="2026-03-03")
    book.receive(("P1", 5), day="2026-03-01")
    book.count(("P1", 10), day="2026-02-01", warehouse=2)
    rows = reports.overview_docs_and_stocktaking(session, EVERYWHERE, None)
    assert [(r["id_warehouse"], r["in_date"], r["out_date"], r["stocktaking_date"]) for r in rows] == [
        (1, date(2026, 3, 3), "", ""), (2, date(2026, 2, 1), "", date(2026, 2, 1))]
    assert reports.overview_docs_and_stocktaking(session, EVERYWHERE, 3) == []
    assert [r["id_warehouse"] for r in reports.overview_docs_and_stocktaking(session, EVERYWHERE, 2)] == [2]
    assert reports.overview_docs_and_stocktaking(session, ONLY_W1, 2) == []


def test_overview_monthly_movement_folds_days_into_months(book, session):
    for day in ("2025-12-30", "2025-12-31", "2026-01-01", "2026-01-31"):
        book.receive(("P1", 1), day=day)
    book.receive(("P1", 1), day="2026-01-02", warehouse=2)
    book.ship(("P1", 1), day="2026-01-02", warehouse=2)
    rows = reports.overview_monthly_movement(session, EVERYWHERE, None)
    assert [(r["year"], r["month"], r["direction"], r["count"]) for r in rows] == [
        (2025, 12, "I", 2), (2026, 1, "I", 3), (2026, 1, "O", 1)]
    rows = reports.overview_monthly_movement(session, ONLY_W1, date(2025, 12, 31))
    assert [(r["year"], r["month"], r["direction"], r["count"]) for r in rows] == [
        (2025, 12, "I", 1), (2026, 1, "I", 2)]


# --- balance check --------------------------------------------------------------------------

def test_no_differences_after_movements_counts_and_deletes(book, session):
    book.receive(("P1", 10), ("L1", 4, "A"))
    book.ship(("P1", "2.5"))
    book.count(("P1", 9), ("L1", 1, "A"), ("L1", 2, "B"))
    book.count(("P1", 3), day="2026-03-05")
    delete_stocktaking(session, EVERYWHERE, 1, date(2026, 3, 2), Policy())
    assert reports.balance_differences(session) == []


@pytest.mark.unbalanced
def test_differences_name_each_wrong_balance(book, session):
    book.receive(("P1", 10), ("L1", 4, "A"))
    book.ship(("L1", 4, "A"))
    with writing(session):
        session.get(Balance, (1, "P1", "")).amount_milli = 9000
        session.execute(delete(Balance).where(Balance.lot == "A"))
        session.add(Balance(id_warehouse=2, product_code="P1", lot="", amount_milli=1))
        session.add(Balance(id_warehouse=3, product_code="P1", lot="", amount_milli=0))  # zero is no stock
    assert reports.balance_differences(session) == [
        {"id_warehouse": 1, "product_code": "P1", "lot": "", "balance_milli": 9000, "documents_milli": 10000},
        {"id_warehouse": 2, "product_code": "P1", "lot": "", "balance_milli": 1, "documents_milli": 0},
    ]


@pytest.mark.unbalanced
def test_a_missing_balance_row_is_a_difference(book, session):
    book.receive(("L1", 4, "A"))
    with writing(session):
        session.execute(delete(Balance))
    assert reports.balance_differences(session) == [
        {"id_warehouse": 1, "product_code": "L1", "lot": "A", "balance_milli": 0, "documents_milli": 4000}]
