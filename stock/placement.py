"""Stock per location (DESIGN 27): where each booking puts stock and where it takes it from.

Every change of a warehouse's balances goes through `place`, called by the one function that
writes balances (stock/balances.py change_balances) and by moves within a warehouse: the rows of
a (warehouse, product, lot) per location always add up to its balance. Location "" is unplaced
stock. A warehouse without locations keeps all of its stock unplaced, so there the rows simply
follow the balances. Where a booking names no location, gains go to the place it says (a
warehouse's receiving location, else unplaced) and losses come from unplaced stock first, then
the locations in walking order, hold locations last.
"""
from collections import defaultdict

from sqlalchemy import and_, bindparam, exists, null, select

from models import Balance, Location, LocationBalance, Warehouse
from stock.errors import InsufficientStock, invalid_field, item_errors, say, say_count
from stock.naming import lot_words, product_names, warehouse_words
from stock.policy import Policy
from stock.quantities import from_milli
from storage.db import add_tuples, notes_of, upsert_tuples

UNPLACED = ""
RECEIVING = None  # gains_to: the warehouse's receiving location (unplaced where it has none)

_COLUMNS = ["id_warehouse", "product_code", "lot", "location", "amount_milli"]
_KEY = ["id_warehouse", "product_code", "lot", "location"]
_NOTE = "placement_warehouses"

_WAREHOUSE = select(Warehouse.receiving_location,
                    exists().where(Location.id_warehouse == Warehouse.id_warehouse).label("has_locations")
                    ).where(Warehouse.id_warehouse == bindparam("id_warehouse"))
_HELD = (select(LocationBalance.product_code, LocationBalance.lot, LocationBalance.location,
                LocationBalance.amount_milli, Location.hold, Location.sequence, Location.sort_key)
         .outerjoin(Location, and_(Location.id_warehouse == LocationBalance.id_warehouse,
                                   Location.code == LocationBalance.location))
         .where(LocationBalance.id_warehouse == bindparam("id_warehouse"),
                LocationBalance.product_code.in_(bindparam("codes", expanding=True))))
_HELD_AT = (select(LocationBalance.product_code, LocationBalance.lot, LocationBalance.location,
                   LocationBalance.amount_milli, null().label("hold"), null().label("sequence"),
                   null().label("sort_key"))
            .where(LocationBalance.id_warehouse == bindparam("id_warehouse"),
                   LocationBalance.product_code.in_(bindparam("codes", expanding=True)),
                   LocationBalance.location.in_(bindparam("locations", expanding=True))))
_NAMED = (select(Location.code_key, Location.code, Location.active)
          .where(Location.id_warehouse == bindparam("id_warehouse"),
                 Location.code_key.in_(bindparam("keys", expanding=True))))


def warehouse_places(session, id_warehouse: int) -> tuple[bool, str]:
    """(whether the warehouse has locations, its receiving location), read once a transaction."""
    known = notes_of(session).setdefault(_NOTE, {})
    if id_warehouse not in known:
        row = session.connection().execute(_WAREHOUSE, {"id_warehouse": id_warehouse}).first()
        known[id_warehouse] = (bool(row.has_locations), row.receiving_location) if row else (False, UNPLACED)
    return known[id_warehouse]


def resolve_items(session, id_warehouse: int, items: list[dict], field: str = "wplace",
                  lines: str = "batch_items") -> list[str | None] | None:
    """Each item's location (its code as kept) or None where it names none; None for the whole
    list in a warehouse without locations, where `wplace` is free text kept as sent.

    A named location must be an active one of the warehouse: else 422 naming each line of the
    request's list `lines`.
    """
    has_locations, _ = warehouse_places(session, id_warehouse)
    if not has_locations:
        return None
    texts = [item.get(field) or "" for item in items]
    named = set(texts) - {""}
    found = {}
    if named:
        found = {key: (code, active) for key, code, active in session.connection().execute(
            _NAMED, {"id_warehouse": id_warehouse, "keys": sorted({text.upper() for text in named})})}
    # Each text a scanner sent is looked up once, however many lines carry it.
    known = {text: found.get(text.upper()) for text in named}
    if all(location is not None and location[1] for location in known.values()):
        return [known[text][0] if text else None for text in texts]
    where = warehouse_words(session, id_warehouse)
    problems = {}
    for index, text in enumerate(texts):
        location = known.get(text)
        if text and location is None:
            problems[index] = {field: [say("No location %(code)r in %(warehouse)s.", code=text, warehouse=where)]}
        elif text and not location[1]:
            problems[index] = {field: [say("Location %(code)s of %(warehouse)s is not active.", code=location[0],
                                              warehouse=where)]}
    raise item_errors(problems, lines)


def resolve(session, id_warehouse: int, text: str, path: tuple) -> str:
    """One location named in a request ("" unplaced): its code as kept, or 422 naming `path`."""
    if not text:
        return UNPLACED
    location = session.connection().execute(_NAMED, {"id_warehouse": id_warehouse, "keys": [text.upper()]}).first()
    if location is None:
        raise invalid_field(path, say("No location %(code)r in %(warehouse)s.", code=text,
                                      warehouse=warehouse_words(session, id_warehouse)))
    if not location.active:
        raise invalid_field(path, say("Location %(code)s of %(warehouse)s is not active.", code=location.code,
                                      warehouse=warehouse_words(session, id_warehouse)))
    return location.code


def amounts_at(session, id_warehouse: int, codes, locations=None) -> dict[tuple[str, str, str], int]:
    """{(product, lot, location): amount} of the warehouse's rows of those products (at those
    locations only, where given)."""
    return {(row.product_code, row.lot, row.location): row.amount_milli
            for row in _held(session, id_warehouse, codes, locations)}


def _held(session, id_warehouse: int, codes, locations=None):
    """The warehouse's rows of those products, at those locations only where given."""
    if locations is None:
        return session.connection().execute(_HELD, {"id_warehouse": id_warehouse, "codes": sorted(set(codes))}).all()
    return session.connection().execute(_HELD_AT, {"id_warehouse": id_warehouse, "codes": sorted(set(codes)),
                                                   "locations": sorted(locations)}).all()


def place(session, id_warehouse: int, deltas: dict[tuple[str, str], int], new_amounts: dict[tuple[str, str], int],
          policy: Policy, placed: dict[tuple[str, str, str], int] | None = None, gains_to: str | None = UNPLACED,
          items: list[dict] | None = None, item_places: list[str | None] | None = None) -> None:
    """Change the location rows by the booking's `deltas` per (product, lot).

    `placed`: the part of them booked at named locations, {(product, lot, location): signed
    amount}; the rest of each delta is placed by the default rule. `new_amounts`: the balances
    as just written, which a warehouse without locations copies to its unplaced rows. A named
    location short of stock: InsufficientStock naming the lines (`items`, `item_places`),
    unless the depot allows stock below zero.
    """
    placed = {key: amount for key, amount in (placed or {}).items() if amount}
    has_locations, receiving = warehouse_places(session, id_warehouse)
    if not has_locations and not placed:
        upsert_tuples(session, LocationBalance.__table__, _COLUMNS, _KEY,
                      [(id_warehouse, code, lot, UNPLACED, amount) for (code, lot), amount in sorted(new_amounts.items())])
        return
    if gains_to is RECEIVING:
        gains_to = receiving or UNPLACED
    # What each (product, lot) changes beyond its named places: the default rule places it.
    rests = dict(deltas)
    for (code, lot, _), amount in placed.items():
        rests[(code, lot)] = rests.get((code, lot), 0) - amount
    changes: dict[tuple[str, str, str], int] = defaultdict(int, placed)
    takes_unnamed = any(rest < 0 for rest in rests.values())
    if not takes_unnamed and (policy.allow_negative_stock or all(amount > 0 for amount in placed.values())):
        # Nothing taken from anywhere that could fall short (goods-in): the rows are added to
        # where they are, in the database, without reading them first.
        for key, rest in rests.items():
            if rest > 0:
                changes[(*key, gains_to)] += rest
        _add(session, id_warehouse, changes)
        return
    codes = {code for code, _ in rests}
    current: dict[tuple[str, str, str], int] = {}
    walking: dict[str, tuple] = {UNPLACED: (-1, 0, "", "")}
    # Only what is taken without a location needs every place of its products (the walking
    # order); a booking that names its places reads just those: a product on a thousand shelves
    # costs a batch that names one of them nothing more.
    named = None if takes_unnamed else {location for _, _, location in placed} | {gains_to}
    for row in _held(session, id_warehouse, codes, named):
        current[(row.product_code, row.lot, row.location)] = row.amount_milli
        if row.location != UNPLACED:
            walking[row.location] = (row.hold or 0, row.sequence or 0, row.sort_key or "", row.location)
    for key, rest in rests.items():
        if rest > 0:
            changes[(*key, gains_to)] += rest
        elif rest < 0:
            _take(key, -rest, current, changes, walking)
    if not policy.allow_negative_stock:
        short = {key: current.get(key, 0) + changes[key] for key, amount in placed.items()
                 if amount < 0 and current.get(key, 0) + changes[key] < 0}
        if short:
            raise _short_error(session, id_warehouse, short, current, items, item_places)
    upsert_tuples(session, LocationBalance.__table__, _COLUMNS, _KEY,
                  [(id_warehouse, code, lot, location, current.get((code, lot, location), 0) + change)
                   for (code, lot, location), change in sorted(changes.items()) if change])


def _add(session, id_warehouse: int, changes: dict[tuple[str, str, str], int]) -> None:
    """Add each change to its row (a new row where there is none), in key order."""
    add_tuples(session, LocationBalance.__table__, _COLUMNS, _KEY, "amount_milli",
               [(id_warehouse, code, lot, location, change)
                for (code, lot, location), change in sorted(changes.items()) if change])


def _take(key: tuple[str, str], amount: int, current: dict, changes: dict, walking: dict) -> None:
    """Take `amount` of (product, lot) from unplaced stock, then the locations in walking order,
    hold locations last; what none of them holds comes from unplaced (below zero: the balance
    check already allowed that)."""
    code, lot = key
    held = sorted((walking.get(location, (2, 0, location, location)), location)
                  for (c, l, location) in current if c == code and l == lot and location != UNPLACED)
    for _, location in [((-1,), UNPLACED), *held]:
        place_key = (code, lot, location)
        available = current.get(place_key, 0) + changes.get(place_key, 0)
        if available <= 0:
            continue
        taken = min(available, amount)
        changes[place_key] -= taken
        amount -= taken
        if not amount:
            return
    changes[(code, lot, UNPLACED)] -= amount


def _short_error(session, id_warehouse, short, current, items, item_places) -> InsufficientStock:
    products = product_names(session, {code for code, _, _ in short})
    where = warehouse_words(session, id_warehouse)

    def text(key):
        code, lot, location = key
        return say("Not enough stock of %(product)s, %(lot)s, at location %(location)s of %(warehouse)s: "
                   "%(amount)s there, short by %(short)s.", product=products[code], lot=lot_words(lot),
                   location=location, warehouse=where, amount=from_milli(current.get(key, 0)),
                   short=from_milli(-short[key]))

    fields = {}
    if items is not None and item_places is not None:
        fields = {"data": {"batch_items": {
            index: {"wplace": [text(key)]} for index, (item, location) in enumerate(zip(items, item_places))
            if (key := (item["product_code"], item.get("lot", ""), location)) in short}}}
    return InsufficientStock(say_count("%(count)s product/lot short at its location. %(first)s",
                                       "%(count)s products/lots short at their location. %(first)s", len(short),
                                       text="%(count)s product/lot(s) short at their location. %(first)s",
                                       first=text(next(iter(short)))),
                             fields)


def location_differences(session) -> list[dict]:
    """Every (warehouse, product, lot) whose location rows do not add up to its balance."""
    booked = {(row.id_warehouse, row.product_code, row.lot): row.amount_milli for row in session.execute(
        select(Balance.id_warehouse, Balance.product_code, Balance.lot, Balance.amount_milli))}
    placed: dict[tuple, int] = defaultdict(int)
    for row in session.execute(select(LocationBalance.id_warehouse, LocationBalance.product_code,
                                      LocationBalance.lot, LocationBalance.amount_milli)):
        placed[(row.id_warehouse, row.product_code, row.lot)] += row.amount_milli
    return [{"id_warehouse": key[0], "product_code": key[1], "lot": key[2],
             "balance_milli": booked.get(key, 0), "locations_milli": placed.get(key, 0)}
            for key in sorted(set(booked) | set(placed)) if booked.get(key, 0) != placed.get(key, 0)]
