"""Reorder levels: per (warehouse, product), reorder below `min`, order up to `target` (DESIGN section 20).

Rows come in plain, as the API's schema or an import file's reader makes them:
{id_warehouse, product_code, min_amount_milli, target_amount_milli}. What is wrong with them is
collected for every row before anything changes, so that an import can name every bad line.
`min` 0 removes a level. Each change is a row of the audit trail (`reorder.set`, `reorder.remove`).
"""
from sqlalchemy import func, select, tuple_

from stock.caller import Caller
from models import Balance, Product, ReorderLevel, Warehouse
from stock.audit import Actor, record
from stock.errors import Invalid, say, say_count
from stock.quantities import from_milli
from storage.db import writing


def list_reorder_levels(session, warehouses: list[int] | None = None, product_code: str | None = None) -> list[dict]:
    """Every level (of one product, if given), by warehouse then product; `warehouses` None means all."""
    query = _levels(select(ReorderLevel.id_warehouse, ReorderLevel.product_code, ReorderLevel.min_amount_milli,
                           ReorderLevel.target_amount_milli), warehouses, product_code)
    return [dict(row._mapping) for row in session.execute(query.order_by(ReorderLevel.id_warehouse,
                                                                          ReorderLevel.product_code))]


def reorder_levels_with_stock(session, warehouses: list[int] | None, product_code: str | None = None,
                              after: tuple | None = None, limit: int | None = None) -> list[dict]:
    """The levels as the office reads them: each with the product's name and its stock in the
    warehouse now, by warehouse then product; `after` (the (id_warehouse, product_code) of the
    last row of the page before) and `limit` page them along the levels' primary key."""
    stock = (select(func.coalesce(func.sum(Balance.amount_milli), 0))
             .where(Balance.id_warehouse == ReorderLevel.id_warehouse, Balance.product_code == ReorderLevel.product_code)
             .scalar_subquery())
    query = _levels(select(ReorderLevel.id_warehouse, ReorderLevel.product_code, ReorderLevel.min_amount_milli,
                           ReorderLevel.target_amount_milli, Product.name, Product.base_unit,
                           stock.label("amount_milli"))
                    .join(Product, Product.product_code == ReorderLevel.product_code), warehouses, product_code)
    if after is not None:
        query = query.where(tuple_(ReorderLevel.id_warehouse, ReorderLevel.product_code) > tuple_(*after))
    query = query.order_by(ReorderLevel.id_warehouse, ReorderLevel.product_code).limit(limit)
    return [{**row._mapping, "amount_milli": int(row.amount_milli)} for row in session.execute(query)]


def count_reorder_levels(session, warehouses: list[int] | None, product_code: str | None = None) -> int:
    """How many levels reorder_levels_with_stock gives in all its pages."""
    return session.scalar(_levels(select(func.count()).select_from(ReorderLevel), warehouses, product_code))


def _levels(query, warehouses: list[int] | None, product_code: str | None):
    if warehouses is not None:
        query = query.where(ReorderLevel.id_warehouse.in_(warehouses))
    if product_code:
        query = query.where(ReorderLevel.product_code == product_code)
    return query


def reorder_level_problems(session, rows: list[dict]) -> dict[int, dict[str, list[str]]]:
    """{row index: {field: [message]}} for each row the rules refuse; {} when all may be set."""
    codes = {row["product_code"] for row in rows}
    known = set(session.scalars(select(Product.product_code).where(Product.product_code.in_(codes))))
    active = set(session.scalars(select(Warehouse.id_warehouse).where(
        Warehouse.id_warehouse.in_({row["id_warehouse"] for row in rows}), Warehouse.active == 1)))
    problems: dict[int, dict[str, list[str]]] = {}
    seen: dict[tuple[int, str], int] = {}
    for index, row in enumerate(rows):
        pair = (row["id_warehouse"], row["product_code"])
        if row["product_code"] not in known:
            problems.setdefault(index, {})["product_code"] = [say("No product %(code)r.", code=row["product_code"])]
        if row["min_amount_milli"] and row["id_warehouse"] not in active:  # a removal needs none
            problems.setdefault(index, {})["id_warehouse"] = [say("No active warehouse %(numbers)s.",
                                                                            numbers=row["id_warehouse"])]
        if row["min_amount_milli"] < 0:
            problems.setdefault(index, {})["min_amount"] = [say("Must not be negative.")]
        elif row["min_amount_milli"] and row["target_amount_milli"] < row["min_amount_milli"]:
            problems.setdefault(index, {})["target_amount"] = [say("Must be at least min_amount.")]
        if pair in seen:
            problems.setdefault(index, {})["product_code"] = [
                say("Warehouse %(number)s and product %(code)r are already set by row %(row)s.", number=pair[0],
                    code=pair[1], row=seen[pair])]
        seen.setdefault(pair, index)
    return problems


def apply_reorder_levels(session, actor: Actor, rows: list[dict]) -> dict[str, int]:
    """Set the levels listed, inside the caller's write transaction; Invalid naming every bad row.

    Answers how many were created, updated, removed and left unchanged (an import reports them).
    """
    problems = reorder_level_problems(session, rows)
    if problems:
        first = next(iter(next(iter(problems.values())).values()))[0]
        raise Invalid(say_count("%(count)s reorder level refused, e.g.: %(message)s",
                                "%(count)s reorder levels refused, e.g.: %(message)s", len(problems),
                                text="%(count)s reorder level(s) refused, e.g.: %(message)s", message=first),
                      {"data": problems})
    counts = {"created": 0, "updated": 0, "removed": 0, "unchanged": 0}
    for row in rows:
        key = (row["id_warehouse"], row["product_code"])
        level = session.get(ReorderLevel, key)
        subject = f"{key[0]}/{key[1]}"
        before = None if level is None else {"min_amount": from_milli(level.min_amount_milli),
                                              "target_amount": from_milli(level.target_amount_milli)}
        if row["min_amount_milli"] == 0:
            if level is None:
                counts["unchanged"] += 1
                continue
            session.delete(level)
            record(session, actor, "reorder.remove", subject,
                   {name: [value, None] for name, value in before.items()}, reach=frozenset({key[0]}))
            counts["removed"] += 1
            continue
        after = {"min_amount": from_milli(row["min_amount_milli"]),
                 "target_amount": from_milli(row["target_amount_milli"])}
        if before == after:
            counts["unchanged"] += 1
            continue
        if level is None:
            session.add(ReorderLevel(id_warehouse=key[0], product_code=key[1],
                                     min_amount_milli=row["min_amount_milli"],
                                     target_amount_milli=row["target_amount_milli"], low_notified=0))
            counts["created"] += 1
        else:
            level.min_amount_milli = row["min_amount_milli"]
            level.target_amount_milli = row["target_amount_milli"]
            counts["updated"] += 1
        record(session, actor, "reorder.set", subject,
               {name: [None if before is None else before[name], value] for name, value in after.items()
                if before is None or before[name] != value}, reach=frozenset({key[0]}))
    session.flush()
    return counts


def set_reorder_levels(session, actor: Actor, rows: list[dict], caller: Caller | None = None) -> dict[str, int]:
    """Set the levels listed in one transaction: all or, on any refusal, none.

    A key limited to warehouses may set only theirs (403), checked before the rows' rules.
    """
    if caller is not None:
        for row in rows:
            caller.require_warehouse(row["id_warehouse"])
    with writing(session, sorted({row["id_warehouse"] for row in rows})):
        return apply_reorder_levels(session, actor, rows)
