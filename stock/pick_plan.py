"""Picking in walking order (DESIGN 27): what to take of an order, from where, in the order a
picker walks the warehouse.

The lots come first, as the pick list chooses them (stock/picking.py plan_picks: the first
expiring first, within the order's expiration limit); of one lot, the first locations in walking
order; hold locations never. Unplaced stock comes first, as goods-out without a location take
it first. `plan_places` is a pure function of plain data; `pick_plan` reads what it needs.
"""
from datetime import date

from sqlalchemy import select

from models import Balance, Location, LocationBalance, OrderDocument
from stock.caller import Caller
from stock.orders import CLOSED, expiration_limit_date, get_order
from stock.picking import plan_picks

UNPLACED = ""
_FIRST = (-1, "", "")  # where unplaced stock stands in the walking order: first
_CHUNK = 500  # locations a statement names at most (a bound on its parameters)


def plan_places(lines: list[dict], places: dict[tuple[str, str], list[tuple]]) -> list[dict]:
    """Where each line's picks are taken: `lines` as plan_picks answers them (each with its picks
    of lots), `places` per (product, lot) its pickable stock [(walk, location, amount_milli)] in
    walking order, `walk` its place in that order. Returns a row per line, lot and location
    {item_number, product_code, lot, date_exp, location, walk, amount_milli}; a location taken
    for one line is not offered again."""
    left: dict[tuple, int] = {}  # what is left on the places taken from so far
    rows = []
    for line in lines:
        for pick in line["picks"]:
            wanted = pick["amount_milli"]
            for walk, location, held in places.get((line["product_code"], pick["lot"]), ()):
                key = (line["product_code"], pick["lot"], location)
                take = min(wanted, left.get(key, held))
                if take > 0:
                    rows.append({"item_number": line["item_number"], "product_code": line["product_code"],
                                 "lot": pick["lot"], "date_exp": pick["date_exp"], "location": location,
                                 "walk": walk, "amount_milli": take})
                    left[key] = left.get(key, held) - take
                    wanted -= take
                if not wanted:
                    break
    return rows


def in_walking_order(rows: list[dict]) -> list[dict]:
    """The rows of several lines merged per (location, product, lot), in walking order."""
    merged: dict[tuple, dict] = {}
    for row in rows:
        key = (row["walk"], row["product_code"], row["lot"])
        if key in merged:
            merged[key]["amount_milli"] += row["amount_milli"]
        else:
            merged[key] = {name: row[name] for name in ("product_code", "lot", "date_exp", "location", "amount_milli")}
    return [merged[key] for key in sorted(merged)]


def pickable(session, id_warehouse: int, codes) -> tuple[dict[str, list[dict]], dict[tuple[str, str], list[tuple]]]:
    """The warehouse's stock of those products that may be picked (hold locations left out):
    per product its lots {lot, date_exp, amount_milli}, and per (product, lot) its places in
    walking order [(walk, location, amount_milli)], `walk` the location's place in that order."""
    if not codes:
        return {}, {}
    lb = LocationBalance
    connection = session.connection()
    # The lots' best-before from their balances (one row a lot), not joined to every place of them.
    dated = {(code, lot): day for code, lot, day in connection.execute(
        select(Balance.product_code, Balance.lot, Balance.best_before)
        .where(Balance.id_warehouse == id_warehouse, Balance.product_code.in_(sorted(codes))))}
    # Every place of those products: thousands of rows for an order of a hundred lines, read in one
    # fetch; the walking order and hold of the locations they name read once a location, not
    # joined to every row (an order's products share their shelves: a tenth as many lookups).
    rows = connection.execute(
        select(lb.product_code, lb.lot, lb.location, lb.amount_milli)
        .where(lb.id_warehouse == id_warehouse, lb.product_code.in_(sorted(codes)), lb.amount_milli > 0)).all()
    walks = _walks(connection, id_warehouse, {row[2] for row in rows})
    places: dict[tuple[str, str], list[tuple]] = {}
    held_milli: dict[tuple[str, str], int] = {}
    for code, lot, location, amount in rows:
        walk = walks.get(location)
        if walk is None:  # a hold location (or a code no location has)
            continue
        key = (code, lot)
        held = places.get(key)
        if held is None:
            held = places[key] = []
            held_milli[key] = 0
        held_milli[key] += amount
        held.append((walk, location, amount))
    lots: dict[str, list[dict]] = {}
    for (code, lot), amount in held_milli.items():
        lots.setdefault(code, []).append({"lot": lot, "date_exp": dated.get((code, lot), ""), "amount_milli": amount})
    for held in places.values():
        held.sort()
    return lots, places


def _walks(connection, id_warehouse: int, named: set[str]) -> dict[str, int]:
    """{location: its place in the walking order} of those locations that may be picked from:
    unplaced stock first, hold locations and codes of no location left out. A number, not the
    (sequence, natural order, code) it stands for: an order's thousands of places sort by it."""
    keys = [_FIRST] if UNPLACED in named else []
    codes = sorted(named - {UNPLACED})
    for start in range(0, len(codes), _CHUNK):
        keys.extend((sequence, sort_key, code) for code, sequence, sort_key in connection.execute(
            select(Location.code, Location.sequence, Location.sort_key)
            .where(Location.id_warehouse == id_warehouse, Location.code.in_(codes[start:start + _CHUNK]),
                   Location.hold == 0)))
    return {code: rank for rank, (_, _, code) in enumerate(sorted(keys))}


def _open_lines(order: OrderDocument) -> list[dict]:
    if order.state == CLOSED:  # a closed order expects nothing more
        return []
    return [{"item_number": item.item_number, "product_code": item.product_code, "lot": item.lot,
             "open_milli": item.amount_ordered_milli - item.amount_delivered_milli}
            for item in order.items
            if item.direction == "O" and item.amount_ordered_milli > item.amount_delivered_milli]


def _plan(session, order: OrderDocument, today: date | None = None) -> list[dict]:
    lines = _open_lines(order)
    lots, places = pickable(session, order.id_warehouse, {line["product_code"] for line in lines})
    limit = expiration_limit_date(order, today) if order.expiration_limit > 0 else None
    return plan_places(plan_picks(lines, lots, limit), places)


def pick_plan(session, caller: Caller, document_number: str, today: date | None = None) -> list[dict]:
    """What to take for the order's open goods-out lines, in walking order (NotFound as get_order)."""
    return in_walking_order(_plan(session, get_order(session, caller, document_number), today))


def fill_wplaces(session, orders: list[OrderDocument]) -> None:
    """Give each open goods-out line whose `wplace` the order left empty the locations to take it
    from, in pick order, for scanner apps that show `wplace` and know nothing of locations.

    Only in warehouses with locations (elsewhere the answer stays as it always was). The places
    go on the line as a plain attribute the answer's schema reads (`pick_wplace`), never into
    the stored order."""
    warehouses = {order.id_warehouse for order in orders}
    if not warehouses:
        return
    racked = set(session.scalars(select(Location.id_warehouse).where(Location.id_warehouse.in_(sorted(warehouses)))
                                 .distinct()))
    for order in orders:
        if order.id_warehouse not in racked:
            continue
        empty = {item.item_number: item for item in order.items if item.wplace in ("", "[]")}
        if not empty:
            continue
        by_line: dict[int, list[str]] = {}
        for row in _plan(session, order):
            codes = by_line.setdefault(row["item_number"], [])
            if row["location"] and row["location"] not in codes:
                codes.append(row["location"])
        for number, codes in by_line.items():
            if number in empty and codes:
                empty[number].pick_wplace = codes

