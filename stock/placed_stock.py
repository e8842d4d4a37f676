"""Stock as it lies on locations, read for the office's pages and paper (DESIGN 27, "Pages").

The stock page's rows per location, a product's lots location by location, how much each location
of a warehouse holds, and the count sheet's rows in walking order. Read-only functions on a
session, each a fixed number of statements; the rows of stock per location are the ones every
booking keeps (stock/placement.py), so what a page shows is what the API answers.
"""
from sqlalchemy import and_, func, or_, select, tuple_

from models import BestBefore, Location, LocationBalance, Product
from stock.caller import Caller
from stock.locations import code_key
from stock.records import in_warehouses
from stock.text_search import ascii_lower, folded_column

UNPLACED = ""


def racked(session, warehouses: list[int] | None) -> set[int]:
    """Which of those warehouses (None: every one) have locations: their pages show where stock lies."""
    query = in_warehouses(select(Location.id_warehouse).distinct(), Location.id_warehouse, warehouses)
    return set(session.scalars(query))


def held_per_location(session, id_warehouse: int) -> dict[str, int]:
    """{location: how many (product, lot) it holds} of a warehouse, "" its unplaced stock."""
    lb = LocationBalance
    query = (select(lb.location, func.count()).where(lb.id_warehouse == id_warehouse, lb.amount_milli != 0)
             .group_by(lb.location))
    return {location: count for location, count in session.execute(query)}


def _scope(session, caller: Caller, filters: dict, search: str, location: str | None):
    """The location rows the stock page reads: not 0, in the filter's and the caller's
    warehouses, at the location asked for (by its code in any case), of the products searched."""
    lb = LocationBalance
    query = in_warehouses(select(lb).where(lb.amount_milli != 0), lb.id_warehouse,
                          caller.narrow(filters.get("id_warehouses", [])))
    if location is not None:
        if location == UNPLACED:
            query = query.where(lb.location == UNPLACED)
        else:
            # A code typed in any case names one location per warehouse; unknown, it matches nothing.
            named = select(Location.id_warehouse, Location.code).where(Location.code_key == code_key(location))
            query = query.where(tuple_(lb.id_warehouse, lb.location).in_(named))
    if search:
        text = ascii_lower(search)
        found = select(Product.product_code).where(or_(*(folded_column(session, column).contains(text, autoescape=True)
                                                         for column in (Product.product_code, Product.name))))
        query = query.where(lb.product_code.in_(found))
    return query


def inventory_by_location(session, caller: Caller, filters: dict, search: str = "", location: str | None = None,
                          after: tuple | None = None, limit: int | None = None) -> list[dict]:
    """Stock per warehouse, product, lot and location (level 0: lots folded, per product and
    location), paged by keyset along (warehouse, product[, lot], location); rows as
    stock/reports.py inventory answers them, each with its `location` ("" unplaced)."""
    level = filters.get("level", -1)
    lb = LocationBalance
    held = _scope(session, caller, filters, search, location)
    if level == 0:
        key = (lb.id_warehouse, lb.product_code, lb.location)
        amount = func.sum(lb.amount_milli)
        folded = held.with_only_columns(*key, amount.label("amount_milli")).group_by(*key).having(amount != 0)
        if after is not None:
            folded = folded.where(tuple_(*key) > tuple_(*after))
        folded = folded.order_by(*key).limit(limit).subquery()
        query = (select(folded.c.id_warehouse, folded.c.product_code, folded.c.location, folded.c.amount_milli,
                        Product.name, Product.base_unit)
                 .join(Product, Product.product_code == folded.c.product_code)
                 .order_by(folded.c.id_warehouse, folded.c.product_code, folded.c.location))
        return [{"id_warehouse": row.id_warehouse, "product_code": row.product_code, "name": row.name,
                 "lot": "", "location": row.location, "level": 0, "amount_milli": int(row.amount_milli),
                 "unit": row.base_unit, "best_before": ""} for row in session.execute(query)]
    key = (lb.id_warehouse, lb.product_code, lb.lot, lb.location)
    query = (held.with_only_columns(*key, lb.amount_milli, Product.name, Product.base_unit, Product.lot_level,
                                    func.coalesce(BestBefore.date_exp, "").label("best_before"))
             .join(Product, Product.product_code == lb.product_code)
             .outerjoin(BestBefore, and_(BestBefore.product_code == lb.product_code, BestBefore.lot == lb.lot))
             .order_by(*key))
    if after is not None:
        query = query.where(tuple_(*key) > tuple_(*after))
    return [{"id_warehouse": row.id_warehouse, "product_code": row.product_code, "name": row.name, "lot": row.lot,
             "location": row.location, "level": row.lot_level if level == -1 else level,
             "amount_milli": int(row.amount_milli), "unit": row.base_unit, "best_before": row.best_before}
            for row in session.execute(query.limit(limit))]


def count_by_location(session, caller: Caller, filters: dict, search: str = "", location: str | None = None) -> int:
    """How many rows inventory_by_location answers in all its pages."""
    lb = LocationBalance
    held = _scope(session, caller, filters, search, location)
    if filters.get("level", -1) == 0:
        held = (held.with_only_columns(lb.id_warehouse).group_by(lb.id_warehouse, lb.product_code, lb.location)
                .having(func.sum(lb.amount_milli) != 0))
        return session.scalar(select(func.count()).select_from(held.subquery()))
    return session.scalar(held.with_only_columns(func.count()))


def product_places(session, caller: Caller, product_code: str) -> dict[tuple[int, str], list[dict]]:
    """Where each lot of a product lies: {(warehouse, lot): [{location, amount_milli, hold}]}, the
    locations in walking order, unplaced stock first; only in warehouses with locations."""
    lb = LocationBalance
    racks = racked(session, caller.narrow([]))
    if not racks:
        return {}
    query = (select(lb.id_warehouse, lb.lot, lb.location, lb.amount_milli, Location.hold)
             .outerjoin(Location, and_(Location.id_warehouse == lb.id_warehouse, Location.code == lb.location))
             .where(lb.product_code == product_code, lb.amount_milli != 0, lb.id_warehouse.in_(sorted(racks)))
             .order_by(lb.id_warehouse, lb.lot, Location.code.is_not(None), Location.sequence, Location.sort_key,
                       lb.location))
    places: dict[tuple[int, str], list[dict]] = {}
    for row in session.execute(query):
        places.setdefault((row.id_warehouse, row.lot), []).append(
            {"location": row.location, "amount_milli": row.amount_milli, "hold": row.hold or 0})
    return places


def count_sheet_rows(session, id_warehouse: int) -> list[dict]:
    """A warehouse's stock location by location for counting: unplaced stock first, then the
    locations in walking order (each active one, empty ones too: a counter finds what the book
    does not know), and on each its products and lots by code. Rows {location, location_name,
    hold, product_code, name, lot, unit}; an empty location has one row with product_code ""."""
    lb = LocationBalance
    places = list(session.execute(
        select(Location.code, Location.name, Location.hold).where(Location.id_warehouse == id_warehouse,
                                                                   Location.active == 1)
        .order_by(Location.sequence, Location.sort_key, Location.code)))
    held = session.execute(
        select(lb.location, lb.product_code, lb.lot, Product.name, Product.base_unit)
        .join(Product, Product.product_code == lb.product_code)
        .where(lb.id_warehouse == id_warehouse, lb.amount_milli != 0)
        .order_by(lb.location, lb.product_code, lb.lot))
    by_place: dict[str, list] = {}
    for row in held:
        by_place.setdefault(row.location, []).append(row)
    order = [(UNPLACED, "", 0)] if UNPLACED in by_place else []
    order += [(code, name, hold) for code, name, hold in places]
    known = {code for code, _, _ in order}
    # Stock left on a location deactivated since (refused while it holds stock, but a count may find it).
    order += [(code, "", 0) for code in sorted(set(by_place) - known)]
    rows = []
    for code, name, hold in order:
        found = by_place.get(code, [])
        for row in found:
            rows.append({"location": code, "location_name": name, "hold": hold, "product_code": row.product_code,
                         "name": row.name, "lot": row.lot, "unit": row.base_unit})
        if not found:
            rows.append({"location": code, "location_name": name, "hold": hold, "product_code": "", "name": "",
                         "lot": "", "unit": ""})
    return rows



def product_names(session, codes) -> dict[str, dict]:
    """{code: {name, unit}} of those products."""
    if not codes:
        return {}
    return {row.product_code: {"name": row.name, "unit": row.base_unit} for row in session.execute(
        select(Product.product_code, Product.name, Product.base_unit).where(Product.product_code.in_(sorted(codes))))}
