"""Stock that warns: products below their reorder level, lots near or past their best-before.

Three kinds, each read as a count and as pages by keyset: products below their reorder level,
lots expiring within the window, lots past their best-before. They are read from what bookings
keep up to date (the balances, which carry their lot's best-before, and the reorder levels),
never from the movement history, so they cost the same at any history size; the lots are a
range of the partial index ix_balances_best_before, however many a depot never wrote off.
`note_alerts` turns new alerts into events (stock.low once per fall below min, lot.expiring
once per lot entering the window); the background work calls it under its lease.
"""
from datetime import date, timedelta

from sqlalchemy import BigInteger, String, and_, func, literal_column, select, tuple_, update

from models import Balance, BestBefore, Product, ReorderLevel
from stock import outbox
from stock.quantities import from_milli
from storage.db import writing


# Balances at zero are every lot a depot ever held; the partial index ix_balances_held skips them.
# Its condition is written out as a literal here: SQLite uses a partial index only for a query
# whose own terms say the same thing.
HELD = literal_column("balances.amount_milli") != literal_column("0")
# The lots in stock that have a best-before: the terms of the partial index ix_balances_best_before.
DATED = and_(literal_column("balances.amount_milli") > literal_column("0"),
             literal_column("balances.best_before") != literal_column("''"))

KINDS = ("low_stock", "expiring", "expired")


def _stock_of_level():
    """A reorder level's stock in its warehouse: the held balances of the pair, by ix_balances_held."""
    return (select(func.coalesce(func.sum(Balance.amount_milli), 0))
            .where(Balance.id_warehouse == ReorderLevel.id_warehouse,
                   Balance.product_code == ReorderLevel.product_code, HELD)
            .scalar_subquery())


def _low_query(columns, warehouses, product):
    stock = _stock_of_level()
    query = (select(*columns(stock)).select_from(ReorderLevel)
             .join(Product, Product.product_code == ReorderLevel.product_code)
             .where(Product.active == 1, stock < ReorderLevel.min_amount_milli))
    if warehouses is not None:
        query = query.where(ReorderLevel.id_warehouse.in_(warehouses))
    if product:
        query = query.where(ReorderLevel.product_code == product)
    return query


def low_stock(session, warehouses: list[int] | None = None, product: str = "",
              after: tuple | None = None, limit: int | None = None) -> list[dict]:
    """Active products whose stock in a warehouse is below its min_amount, by warehouse and product.

    `after`: the (warehouse, product) of the last row of the page before; `limit`: at most so many.
    """
    query = _low_query(lambda stock: (ReorderLevel.id_warehouse, ReorderLevel.product_code, Product.name,
                                      stock.label("amount"), ReorderLevel.min_amount_milli,
                                      ReorderLevel.target_amount_milli), warehouses, product)
    if after is not None:
        query = query.where(tuple_(ReorderLevel.id_warehouse, ReorderLevel.product_code) > tuple_(*after))
    query = query.order_by(ReorderLevel.id_warehouse, ReorderLevel.product_code).limit(limit)
    # int(): PostgreSQL sums a bigint column as numeric.
    return [{"id_warehouse": w, "product_code": code, "name": name, "amount_milli": int(stock),
             "min_amount_milli": low, "target_amount_milli": target, "suggested_order_milli": target - int(stock)}
            for w, code, name, stock, low, target in session.execute(query)]


def _lots_query(columns, today: date, days: int, kind: str, warehouses, product):
    """Lots in stock past their best-before ("expired") or within `days` of it ("expiring"; both: None)."""
    best_before = literal_column("balances.best_before")
    query = select(*columns).select_from(Balance).where(DATED)
    if kind == "expired":
        query = query.where(best_before < today.isoformat())
    elif kind == "expiring":
        query = query.where(best_before >= today.isoformat(),
                            best_before <= (today + timedelta(days=days)).isoformat())
    else:
        query = query.where(best_before <= (today + timedelta(days=days)).isoformat())
    # The warehouses and the product are read from ix_balances_best_before's own columns: the
    # unary plus and the empty concatenation keep SQLite (and PostgreSQL) from reading by the
    # key instead and sorting every lot of the warehouse; the index holds every column the
    # alerts show, in the order they list them.
    if warehouses is not None:
        query = query.where(literal_column("+balances.id_warehouse", BigInteger).in_(warehouses))
    if product:
        query = query.where(literal_column("balances.product_code || ''", String) == product)
    return query


def lots(session, today: date, days: int, kind: str | None = None, warehouses: list[int] | None = None,
         product: str = "", after: tuple | None = None, limit: int | None = None) -> list[dict]:
    """Lots in stock whose best-before is past ("expired"), within `days` of today ("expiring"),
    or either (None), soonest first: the order of ix_balances_best_before, read as a range of it.

    `after`: the (best-before, warehouse, product, lot) of the last row of the page before.
    """
    order = (Balance.best_before, Balance.id_warehouse, Balance.product_code, Balance.lot)
    query = _lots_query([*order, Balance.amount_milli], today, days, kind, warehouses, product)
    if after is not None:
        query = query.where(tuple_(*order) > tuple_(*after))
    rows = session.execute(query.order_by(*order).limit(limit))
    return [{"id_warehouse": w, "product_code": code, "lot": lot, "date_exp": day, "amount_milli": stock,
             "days_left": (date.fromisoformat(day) - today).days}
            for day, w, code, lot, stock in rows]


def expiring(session, today: date, days: int, warehouses: list[int] | None = None) -> list[dict]:
    """Lots in stock whose best-before is within `days` of today or past, soonest first."""
    return lots(session, today, days, None, warehouses)


def count_alerts(session, today: date, days: int, warehouses: list[int] | None = None,
                 product: str = "", most: int | None = None) -> dict[str, int]:
    """How many alerts of each kind: one count a kind, each from an index, no list built.

    `most`: count no further than that in each kind (the navigation's number), so that the
    count costs the same in a depot of a hundred thousand lots past their best-before.
    """
    def counted(query):
        if most is not None:
            query = select(func.count()).select_from(query.limit(most).subquery())
        return session.execute(query).scalar_one()

    one = literal_column("1")
    counts = {"low_stock": counted(_low_query(lambda stock: (func.count() if most is None else one,),
                                              warehouses, product))}
    for kind in ("expiring", "expired"):
        counts[kind] = counted(_lots_query([func.count() if most is None else one], today, days, kind,
                                           warehouses, product))
    return counts


def alerts(session, today: date, days: int, warehouses: list[int] | None = None, product: str = "",
           limit: int | None = None) -> dict:
    """The lists of GET /v1/alerts/ for the warehouses given (None: all), each at most `limit` long.

    `expiring` holds the lots still before their best-before first (soonest first), then those
    past it (longest past first): a depot that never wrote old lots off still sees what is about
    to expire within the limit.
    """
    soon = lots(session, today, days, "expiring", warehouses, product, limit=limit)
    left = None if limit is None else limit - len(soon)
    past = lots(session, today, days, "expired", warehouses, product, limit=left) if left != 0 else []
    return {"low_stock": low_stock(session, warehouses, product, limit=limit), "expiring": soon + past}


def alert_count(session, today: date, days: int, warehouses: list[int] | None = None,
                most: int | None = None) -> int:
    """How many alerts there are (each kind counted up to `most`): the number beside "Alerts"."""
    return sum(count_alerts(session, today, days, warehouses, most=most).values())


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
    soon = _untold_lots(session, today, days)
    new_lots = {(row["product_code"], row["lot"]): row["date_exp"] for row in soon}
    fell = [row for row in low if (row["id_warehouse"], row["product_code"]) not in flagged]
    rose = flagged - low_now
    session.rollback()  # the reads' transaction; the writes take the write lock below
    if not (fell or rose or new_lots):
        return 0
    events = [("stock.low", low_stock_out(row)) for row in fell]
    events += [("lot.expiring", expiring_out(row)) for row in soon]
    with writing(session, []):
        for w, code in sorted(rose):
            session.execute(update(ReorderLevel).where(ReorderLevel.id_warehouse == w,
                                                       ReorderLevel.product_code == code).values(low_notified=0))
        for row in fell:
            session.execute(update(ReorderLevel).where(ReorderLevel.id_warehouse == row["id_warehouse"],
                                                       ReorderLevel.product_code == row["product_code"])
                            .values(low_notified=1))
        for (code, lot), day in sorted(new_lots.items()):
            session.execute(update(BestBefore).where(BestBefore.product_code == code, BestBefore.lot == lot)
                            .values(expiring_notified=day))
        if events:
            outbox.emit_many(session, events)
    return len(events)


def _untold_lots(session, today: date, days: int) -> list[dict]:
    """The lots of expiring() whose best-before has had no lot.expiring event yet, in its order.

    Matched in the database: a depot that never wrote its old lots off holds a hundred
    thousand lots past their best-before, all told long ago, and reading each of them into
    Python to find the few new ones took half a second of the background work every minute.
    """
    order = (Balance.best_before, Balance.id_warehouse, Balance.product_code, Balance.lot)
    query = (_lots_query([*order, Balance.amount_milli], today, days, None, None, "")
             .join(BestBefore, and_(BestBefore.product_code == Balance.product_code, BestBefore.lot == Balance.lot))
             .where(BestBefore.expiring_notified != BestBefore.date_exp)
             .order_by(*order))
    return [{"id_warehouse": w, "product_code": code, "lot": lot, "date_exp": day, "amount_milli": stock,
             "days_left": (date.fromisoformat(day) - today).days}
            for day, w, code, lot, stock in session.execute(query)]


def best_before_dates(session, product_code: str) -> dict[str, str]:
    """{lot: best-before} of one product's lots that have one (the product page shows them)."""
    rows = session.execute(select(BestBefore.lot, BestBefore.date_exp)
                           .where(BestBefore.product_code == product_code).order_by(BestBefore.lot)).all()
    return dict(rows)
