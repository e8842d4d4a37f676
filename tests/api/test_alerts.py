"""stock/alerts.py and GET /v1/alerts/: what is low, what expires, and the best-before they read."""
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from helpers import item, planned_on_own_rows
from models import BestBefore
from schemas.alerts import reorder_levels_schema
from stock import alerts, reorder
from stock.audit import Actor
from storage.db import db

ADMIN = Actor("tester", "127.0.0.1")
TODAY = date.today()


def day(days: int) -> str:
    return (TODAY + timedelta(days=days)).isoformat()


def set_levels(session, *rows):
    reorder.set_reorder_levels(session, ADMIN, reorder_levels_schema.load([
        {"id_warehouse": w, "product_code": code, "min_amount": low, "target_amount": target}
        for w, code, low, target in rows]))


def best_before(session):
    session.rollback()
    return {(b.product_code, b.lot): b.date_exp for b in session.scalars(select(BestBefore))}


# --- best-before -------------------------------------------------------------------------------

def test_best_before_is_the_earliest_date_booked_on_a_goods_in(session, catalog_products, scanner):
    scanner.book("R", "I", [item("LOT", 5, lot="A", date_exp="2030-05-01"), item("LOT", 1, lot="B")])
    scanner.book("R", "I", [item("LOT", 5, lot="A", date_exp="2030-03-01"),
                            item("LOT", 5, lot="A", date_exp="2030-04-01")], warehouse=2)
    scanner.book("R", "I", [item("LOT", 5, lot="A", date_exp="2030-06-01"), item("P1", 2, date_exp="2031-01-01")])
    assert best_before(session) == {("LOT", "A"): "2030-03-01", ("P1", ""): "2031-01-01"}
    assert alerts.best_before_dates(session, "LOT") == {"A": "2030-03-01"}


def test_a_goods_out_and_a_refused_booking_leave_it_alone(session, catalog_products, scanner):
    scanner.book("R", "I", [item("LOT", 5, lot="A", date_exp="2030-05-01")])
    scanner.book("R", "O", [item("LOT", 1, lot="A", date_exp="2020-01-01")])
    with pytest.raises(Exception):
        scanner.book("R", "I", [item("LOT", 1, lot="A", date_exp="2020-01-01"), item("NOPE", 1)])
    assert best_before(session) == {("LOT", "A"): "2030-05-01"}


def test_a_count_that_finds_more_brings_its_date(session, catalog_products, scanner):
    scanner.book("V", "I", [item("LOT", 3, lot="C", date_exp="2029-01-01")])
    assert best_before(session) == {("LOT", "C"): "2029-01-01"}


# --- low stock ----------------------------------------------------------------------------------

def test_low_stock_is_stock_below_min_summed_over_lots(session, catalog_products, scanner):
    set_levels(session, (1, "LOT", 10, 30), (1, "P1", 5, 20), (2, "P1", 1, 4), (1, "P2", 2, 2))
    scanner.book("R", "I", [item("LOT", 4, lot="A"), item("LOT", "5.5", lot="B"), item("P1", 5)])
    low = alerts.low_stock(session)
    assert [(r["id_warehouse"], r["product_code"], r["amount_milli"], r["suggested_order_milli"]) for r in low] == [
        (1, "LOT", 9500, 20500),  # 9.5 < 10
        (1, "P2", 0, 2000),  # no stock at all
        (2, "P1", 0, 4000),
    ]  # P1 in warehouse 1 holds exactly its min: not low
    assert [r["product_code"] for r in alerts.low_stock(session, [2])] == ["P1"]
    assert alerts.low_stock_out(low[0]) == {"id_warehouse": 1, "product_code": "LOT", "name": "Product LOT",
                                            "amount": 9.5, "min_amount": 10, "target_amount": 30,
                                            "suggested_order": 20.5}


# --- expiring -----------------------------------------------------------------------------------

def test_expiring_lots_are_those_in_stock_within_the_window_or_past(session, catalog_products, scanner):
    scanner.book("R", "I", [item("LOT", 5, lot="PAST", date_exp=day(-3)), item("LOT", 5, lot="SOON", date_exp=day(10)),
                            item("LOT", 5, lot="EDGE", date_exp=day(30)), item("LOT", 5, lot="LATE", date_exp=day(31)),
                            item("LOT", 5, lot="GONE", date_exp=day(1)), item("LOT", 5, lot="NODATE")])
    scanner.book("R", "O", [item("LOT", 5, lot="GONE")])
    scanner.book("R", "I", [item("LOT", 2, lot="SOON", date_exp=day(12))], warehouse=2)
    found = alerts.expiring(session, TODAY, 30)
    assert [(r["id_warehouse"], r["lot"], r["days_left"], r["amount_milli"]) for r in found] == [
        (1, "PAST", -3, 5000), (1, "SOON", 10, 5000), (2, "SOON", 10, 2000), (1, "EDGE", 30, 5000)]
    assert [r["lot"] for r in alerts.expiring(session, TODAY, 30, [2])] == ["SOON"]
    assert alerts.alert_count(session, TODAY, 0) == 1
    assert alerts.count_alerts(session, TODAY, 30) == {"low_stock": 0, "expiring": 3, "expired": 1}
    assert [r["lot"] for r in alerts.lots(session, TODAY, 30, "expired")] == ["PAST"]
    assert alerts.count_alerts(session, TODAY, 30, [2]) == {"low_stock": 0, "expiring": 1, "expired": 0}
    assert alerts.count_alerts(session, TODAY, 30, most=2) == {"low_stock": 0, "expiring": 2, "expired": 1}
    assert alerts.alert_count(session, TODAY, 30, most=2) == 3


def test_the_lots_are_read_page_by_page(session, catalog_products, scanner):
    scanner.book("R", "I", [item("LOT", 1, lot=f"L{n}", date_exp=day(-(n % 7))) for n in range(12)])
    scanner.book("R", "I", [item("LOT", 1, lot=f"L{n}", date_exp=day(-(n % 7))) for n in range(12)], warehouse=2)
    every = alerts.lots(session, TODAY, 30)
    assert len(every) == 24
    pages, after = [], None
    while page := alerts.lots(session, TODAY, 30, None, after=after, limit=5):
        pages.append(page)
        last = page[-1]
        after = (last["date_exp"], last["id_warehouse"], last["product_code"], last["lot"])
    assert [row for page in pages for row in page] == every
    assert [len(page) for page in pages] == [5, 5, 5, 5, 4]
    assert [r["lot"] for r in alerts.lots(session, TODAY, 30, "expired", [2], "LOT", limit=3)] == ["L6", "L5", "L11"]


def test_a_balance_carries_the_best_before_of_its_lot(session, catalog_products, scanner):
    from models import Balance

    def carried():
        session.rollback()
        return {(b.id_warehouse, b.lot): b.best_before for b in session.scalars(select(Balance))}

    scanner.book("R", "I", [item("LOT", 5, lot="A", date_exp="2030-05-01"), item("LOT", 5, lot="B"), item("P1", 1)])
    scanner.book("R", "I", [item("LOT", 2, lot="A")], warehouse=2)  # the lot arrives without its date
    assert carried() == {(1, "A"): "2030-05-01", (1, "B"): "", (1, ""): "", (2, "A"): "2030-05-01"}
    scanner.book("R", "I", [item("LOT", 1, lot="A", date_exp="2030-03-01"), item("LOT", 1, lot="B",
                                                                              date_exp="2031-01-01")], warehouse=2)
    # An earlier date reaches the lot's stock in every warehouse; a later one changes nothing.
    assert carried() == {(1, "A"): "2030-03-01", (1, "B"): "2031-01-01", (1, ""): "", (2, "A"): "2030-03-01",
                         (2, "B"): "2031-01-01"}
    scanner.book("R", "I", [item("LOT", 1, lot="A", date_exp="2030-09-01")])
    scanner.book("R", "O", [item("LOT", 6, lot="A")])
    assert carried()[(1, "A")] == "2030-03-01"


# --- GET /v1/alerts/ ------------------------------------------------------------------------------

def test_the_alerts_answer(api, api_as, known_products, session):
    from conftest import Scanner
    api.client.put("/v1/reorder_levels/", headers={"TS-Apikey": api.key}, json={"data": [
        {"id_warehouse": 1, "product_code": "P1", "min_amount": 10, "target_amount": "12.5"},
        {"id_warehouse": 2, "product_code": "P2", "min_amount": 1, "target_amount": 1}]})
    scanner = Scanner(api)
    scanner.book("R", "I", [item("P1", 4), item("LOT", 3, lot="L1", date_exp=day(2))])
    r = api.get("/v1/alerts/")
    assert r.status_code == 200
    assert r.json == {"item": {
        "low_stock": [
            {"id_warehouse": 1, "product_code": "P1", "name": "Product P1", "amount": 4, "min_amount": 10,
             "target_amount": 12.5, "suggested_order": 8.5},
            {"id_warehouse": 2, "product_code": "P2", "name": "Product P2", "amount": 0, "min_amount": 1,
             "target_amount": 1, "suggested_order": 1}],
        "expiring": [{"id_warehouse": 1, "product_code": "LOT", "lot": "L1", "date_exp": day(2), "amount": 3,
                      "days_left": 2}],
        "totals": {"low_stock": 2, "expiring": 1, "expired": 0}}}
    limited = api_as("read_w1").get("/v1/alerts/").json["item"]
    assert [row["id_warehouse"] for row in limited["low_stock"]] == [1]
    assert limited["totals"] == {"low_stock": 1, "expiring": 1, "expired": 0}
    assert api_as("read_w1").get("/v1/alerts/?id_warehouse=2").json["item"]["totals"] == {
        "low_stock": 0, "expiring": 0, "expired": 0}  # a warehouse the key may not see: nothing
    assert api.get("/v1/alerts/?x=1").status_code == 422
    assert api.client.get("/v1/alerts/").status_code == 401


def test_the_window_is_a_setting(make_app, keys):
    app = make_app(EXPIRY_DAYS=1)
    from conftest import Api, Scanner
    api = Api(app.test_client(), keys["admin"])
    from helpers import add_products
    add_products(api)
    Scanner(api).book("R", "I", [item("LOT", 3, lot="L1", date_exp=day(2)), item("LOT", 3, lot="L2", date_exp=day(1))])
    assert [row["lot"] for row in api.get("/v1/alerts/").json["item"]["expiring"]] == ["L2"]
    with app.app_context():
        db.session.remove()


def test_the_answer_is_limited_and_counts_every_alert(api, known_products):
    from conftest import Scanner
    api.client.put("/v1/reorder_levels/", headers={"TS-Apikey": api.key}, json={"data": [
        {"id_warehouse": w, "product_code": code, "min_amount": 10, "target_amount": 20}
        for w in (1, 2) for code in ("P1", "P2")]})
    Scanner(api).book("R", "I", [item("LOT", 1, lot=f"OLD{n}", date_exp=day(-n)) for n in range(1, 6)]
                      + [item("LOT", 1, lot=f"NEW{n}", date_exp=day(n)) for n in range(1, 4)])
    r = api.get("/v1/alerts/?limit=4")
    assert r.status_code == 200
    found = r.json["item"]
    assert found["totals"] == {"low_stock": 4, "expiring": 3, "expired": 5}
    assert len(found["low_stock"]) == 4
    # The lots still before their best-before first, soonest first; then those past it, longest past first.
    assert [row["lot"] for row in found["expiring"]] == ["NEW1", "NEW2", "NEW3", "OLD5"]
    assert [row["lot"] for row in api.get("/v1/alerts/?limit=2").json["item"]["expiring"]] == ["NEW1", "NEW2"]
    assert len(api.get("/v1/alerts/").json["item"]["expiring"]) == 8  # 1000 when left out
    one = api.get("/v1/alerts/?product_code=P2&id_warehouse=2").json["item"]
    assert [(row["id_warehouse"], row["product_code"]) for row in one["low_stock"]] == [(2, "P2")]
    assert one["totals"] == {"low_stock": 1, "expiring": 0, "expired": 0}
    for bad in ("limit=0", "limit=10001", "limit=x", "id_warehouse=-1", "product_code=" + "x" * 201):
        refused = api.get(f"/v1/alerts/?{bad}")
        assert refused.status_code == 422, bad
        assert refused.json["error"], bad


def alerts_plan(session, query) -> str:
    """The database's plan of one of the alerts' queries. PostgreSQL plans by its statistics (those
    of this test's own rows, in tables rewritten and analysed first), and on a few rows would rightly scan the table: it
    is asked to plan as if scanning the table and sorting were each the dear way: what is asked
    is whether an index can give the rows in the order wanted, which on a few rows PostgreSQL
    may rightly not bother with. The five-year depot's plans are
    in docs/performance-growth.md."""
    connection = session.connection()
    sql = str(query.compile(connection, compile_kwargs={"literal_binds": True}))
    if connection.dialect.name == "sqlite":
        return " ".join(row[-1] for row in connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))
    connection = planned_on_own_rows(session, "balances", "reorder_levels", "products")
    for way in ("seqscan", "sort"):
        connection.exec_driver_sql(f"SET LOCAL enable_{way} = off")
    plan = " ".join(row[0] for row in connection.exec_driver_sql("EXPLAIN " + sql))
    session.rollback()
    return plan


@pytest.mark.parametrize("kind, columns, warehouses, product", [
    ("expired", "count", None, ""), ("expiring", "count", [1, 2], ""), ("expired", "count", None, "LOT"),
    ("expired", "page", None, ""), ("expiring", "page", [2], ""), (None, "page", None, "LOT")])
def test_the_lots_are_a_range_of_their_index(session, catalog_products, scanner, kind, columns, warehouses, product):
    from models import Balance
    from sqlalchemy import func, tuple_
    scanner.book("R", "I", [item("LOT", 1, lot=f"L{n}", date_exp=day(n - 20)) for n in range(40)] + [item("P1", 3)])
    session.rollback()
    order = (Balance.best_before, Balance.id_warehouse, Balance.product_code, Balance.lot)
    if columns == "count":
        query = alerts._lots_query([func.count()], TODAY, 30, kind, warehouses, product)
    else:
        query = (alerts._lots_query([*order, Balance.amount_milli], TODAY, 30, kind, warehouses, product)
                 .where(tuple_(*order) > tuple_(day(-5), 1, "LOT", "L15")).order_by(*order).limit(101))
    plan = alerts_plan(session, query)
    assert "ix_balances_best_before" in plan, plan
    if session.get_bind().dialect.name == "sqlite":
        # The index alone, in its order: no look-up of the table, no sort of every lot.
        assert "USING COVERING INDEX ix_balances_best_before" in plan, plan
        assert "TEMP B-TREE" not in plan, plan
    else:
        # On these few rows PostgreSQL may sort what the index found (one row is no dearer to
        # sort than to read in order); the five-year depot's plan reads it in order.
        assert "Seq Scan on balances" not in plan and "ix_balances_held" not in plan, plan


def test_the_low_stock_count_reads_each_level_by_its_index(session, catalog_products, scanner):
    from sqlalchemy import func
    set_levels(session, (1, "P1", 5, 20), (2, "LOT", 1, 4))
    scanner.book("R", "I", [item("P1", 1), item("LOT", 2, lot="A")])
    session.rollback()
    plan = alerts_plan(session, alerts._low_query(lambda stock: (func.count(),), None, ""))
    assert "ix_balances_held" in plan, plan
    assert ("SCAN balances" if session.get_bind().dialect.name == "sqlite" else "Seq Scan on balances") not in plan
