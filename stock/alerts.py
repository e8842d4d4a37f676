"""Stock that warns: products below their reorder level, lots near or past their best-before.

Both lists are read from what bookings keep up to date (the balances and the best-before of
each lot), never from the movement history, so they cost the same at any history size.
`note_alerts` turns new alerts into events (stock.low once per fall below min, lot.expiring
once per lot entering the window); the background work calls it under its lease.
"""
from datetime import date, timedelta

from sqlalchemy import and_, bindparam, func, literal_column, select, text, update

from models import Balance, BestBefore, Product, ReorderLevel
from stock import outbox
from stock.quantities import from_milli
from storage.db import writing


# Balances at zero are every lot a depot ever held; the partial index ix_balances_held skips them.
# Its condition is written out as a literal here: SQLite uses a partial index only for a query
# whose own terms say the same thing.
HELD = literal_column("balances.amount_milli") != literal_column("0")


def low_stock(session, warehouses: list[int] | None = None) -> list[dict]:
    """Active products whose stock in a warehouse is below its min_amount, by warehouse and product."""
    amount = func.coalesce(func.sum(Balance.amount_milli), 0)
    query = (select(ReorderLevel.id_warehouse, ReorderLevel.product_code, Product.name,
                    amount.label("amount"), ReorderLevel.min_amount_milli, ReorderLevel.target_amount_milli)
             .join(Product, Product.product_code == ReorderLevel.product_code)
             .outerjoin(Balance, and_(Balance.id_warehouse == ReorderLevel.id_warehouse,
                                      Balance.product_code == ReorderLevel.product_code, HELD))
             .where(Product.active == 1)
             .group_by(ReorderLevel.id_warehouse, ReorderLevel.product_code, Product.name,
                       ReorderLevel.min_amount_milli, ReorderLevel.target_amount_milli)
             .having(amount < ReorderLevel.min_amount_milli)
             .order_by(ReorderLevel.id_warehouse, ReorderLevel.product_code))
    if warehouses is not None:
        query = query.where(ReorderLevel.id_warehouse.in_(warehouses))
    # int(): PostgreSQL sums a bigint column as numeric.
    return [{"id_warehouse": w, "product_code": code, "name": name, "amount_milli": int(stock),
             "min_amount_milli": low, "target_amount_milli": target, "suggested_order_milli": target - int(stock)}
            for w, code, name, stock, low, target in session.execute(query)]


# From the lots in stock to their best-before, not the other way: after years, most best-before
# rows are of lots long gone. CROSS JOIN makes SQLite loop in that order; PostgreSQL plans it
# as any inner join.
_EXPIRING = (
    "SELECT b.id_warehouse, b.product_code, b.lot, bb.date_exp, b.amount_milli "
    "FROM balances b CROSS JOIN best_before bb "
    "WHERE bb.product_code = b.product_code AND bb.lot = b.lot "
    "AND b.amount_milli != 0 AND b.amount_milli > 0 AND bb.date_exp <= :last_day {warehouses}"
    "ORDER BY bb.date_exp, b.id_warehouse, b.product_code, b.lot")
EXPIRING_ALL = text(_EXPIRING.format(warehouses=""))
EXPIRING_IN = text(_EXPIRING.format(warehouses="AND b.id_warehouse IN :warehouses ")).bindparams(
    bindparam("warehouses", expanding=True))


def expiring(session, today: date, days: int, warehouses: list[int] | None = None) -> list[dict]:
    """Lots in stock whose best-before is within `days` of today or past, soonest first."""
    last_day = (today + timedelta(days=days)).isoformat()
    if warehouses is None:
        rows = session.execute(EXPIRING_ALL, {"last_day": last_day})
    else:
        rows = session.execute(EXPIRING_IN, {"last_day": last_day, "warehouses": list(warehouses)})
    return [{"id_warehouse": w, "product_code": code, "lot": lot, "date_exp": day, "amount_milli": stock,
             "days_left": (date.fromisoformat(day) - today).days}
            for w, code, lot, day, stock in rows]


def alerts(session, today: date, days: int, warehouses: list[int] | None = None) -> dict:
    """Both lists of GET /v1/alerts/ for the warehouses given (None: all)."""
    return {"low_stock": low_stock(session, warehouses), "expiring": expiring(session, today, days, warehouses)}


def alert_count(session, today: date, days: int, warehouses: list[int] | None = None) -> int:
    """How many alerts there are: the number beside "Alerts" in every page's navigation."""
    found = alerts(session, today, days, warehouses)
    return len(found["low_stock"]) + len(found["expiring"])


def low_stock_out(row: dict) -> dict:
    """An alert row as the API and the events show it: amounts as numbers."""
    return {"id_warehouse": row["id_warehouse"], "product_code": row["product_code"], "name": row["name"],
            "amount": from_milli(row["amount_milli"]), "min_amount": from_milli(row["min_amount_milli"]),
            "target_amount": from_milli(row["target_amount_milli"]),
            "suggested_order": from_milli(row["suggested_order_milli"])}


def expiring_out(row: dict) -> dict:
    return {"id_warehouse": row["id_warehouse"], "product_code": row["product_code"], "lot": row["lot"],
            "date_exp": row["date_exp"], "amount": from_milli(row["amount_milli"]), "days_left": row["days_left"]}


def note_alerts(session, today: date, days: int) -> int:
    """Write the events of alerts that are new since the last call; how many were written.

    stock.low once each time a (warehouse, product) falls below its min (again after it rose
    to min or above); lot.expiring once per lot when its best-before enters the window (again
    only if a goods-in brings it an earlier date). Read first: most calls find nothing new and
    write nothing.
    """
    low = low_stock(session)
    low_now = {(row["id_warehouse"], row["product_code"]) for row in low}
    flagged = set(session.execute(select(ReorderLevel.id_warehouse, ReorderLevel.product_code)
                                  .where(ReorderLevel.low_notified == 1)).all())
    soon = expiring(session, today, days)
    told = dict(((code, lot), (day, notified)) for code, lot, day, notified in session.execute(
        select(BestBefore.product_code, BestBefore.lot, BestBefore.date_exp, BestBefore.expiring_notified)
        .where(BestBefore.product_code.in_({row["product_code"] for row in soon}))))
    new_lots = {(row["product_code"], row["lot"]) for row in soon
                if told.get((row["product_code"], row["lot"]), ("", ""))[1] != row["date_exp"]}
    fell = [row for row in low if (row["id_warehouse"], row["product_code"]) not in flagged]
    rose = flagged - low_now
    session.rollback()  # the reads' transaction; the writes take the write lock below
    if not (fell or rose or new_lots):
        return 0
    events = [("stock.low", low_stock_out(row)) for row in fell]
    events += [("lot.expiring", expiring_out(row)) for row in soon if (row["product_code"], row["lot"]) in new_lots]
    with writing(session, []):
        for w, code in sorted(rose):
            session.execute(update(ReorderLevel).where(ReorderLevel.id_warehouse == w,
                                                       ReorderLevel.product_code == code).values(low_notified=0))
        for row in fell:
            session.execute(update(ReorderLevel).where(ReorderLevel.id_warehouse == row["id_warehouse"],
                                                       ReorderLevel.product_code == row["product_code"])
                            .values(low_notified=1))
        for code, lot in sorted(new_lots):
            session.execute(update(BestBefore).where(BestBefore.product_code == code, BestBefore.lot == lot)
                            .values(expiring_notified=told[(code, lot)][0]))
        if events:
            outbox.emit_many(session, events)
    return len(events)


def best_before_dates(session, product_code: str) -> dict[str, str]:
    """{lot: best-before} of one product's lots that have one (the product page shows them)."""
    rows = session.execute(select(BestBefore.lot, BestBefore.date_exp)
                           .where(BestBefore.product_code == product_code).order_by(BestBefore.lot)).all()
    return dict(rows)
