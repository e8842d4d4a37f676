"""Locations inside a warehouse (DESIGN 27): the shelves and bins stock lies on, in walking order.

A location is named by its code, unique in its warehouse whatever its case; its walking order is
its `sequence`, then the natural order of its code ("A-2" before "A-10"). A `hold` location keeps
stock nobody picks (quarantine, returns, damage). One location of a warehouse may be its default
receiving location, where goods-in without a location go. Plain functions on a session.
"""
import re

from sqlalchemy import and_, func, select

from models import BestBefore, Location, LocationBalance, Warehouse
from stock import audit
from stock.caller import Caller, require_may_manage
from stock.errors import Conflict, NotFound, invalid_field, say, say_count
from stock.naming import warehouse_words
from storage.db import writing

UNPLACED = ""
FIELDS = ("id_warehouse", "code", "name", "sequence", "hold", "active", "receiving")
_DIGITS = re.compile(r"(\d+)")


def code_key(code: str) -> str:
    """What two codes that name one location share: "a-2" and "A-2" are one location."""
    return code.upper()


def sort_key(code: str) -> str:
    """The code's natural order as text: each run of digits as its length and its digits.

    "A-2" -> "A-012", "A-10" -> "A-0210": text order is then the order a person reads, and the
    database sorts by it. Leading zeros do not count ("A-02" sits with "A-2"; the code decides).
    """
    parts = []
    for part in _DIGITS.split(code.upper()):
        if part.isdigit():
            digits = part.lstrip("0") or "0"
            parts.append(f"{len(digits):02d}{digits}")
        else:
            parts.append(part)
    return "".join(parts)


WALKING_ORDER = (Location.sequence, Location.sort_key, Location.code)


def list_locations(session, caller: Caller, id_warehouse: int) -> list[dict]:
    """The warehouse's locations in walking order (an empty list for a warehouse the caller
    does not see, as filters naming one match nothing)."""
    if not caller.sees(id_warehouse):
        return []
    receiving = _receiving(session, id_warehouse)
    return [_as_dict(location, receiving) for location in session.scalars(
        select(Location).where(Location.id_warehouse == id_warehouse).order_by(*WALKING_ORDER))]


def all_locations(session, warehouses: list[int] | None = None) -> list[dict]:
    """The locations of those warehouses (None: every one), by warehouse then walking order."""
    query = select(Location, Warehouse.receiving_location).join(
        Warehouse, Warehouse.id_warehouse == Location.id_warehouse).order_by(Location.id_warehouse, *WALKING_ORDER)
    if warehouses is not None:
        query = query.where(Location.id_warehouse.in_(warehouses))
    return [_as_dict(location, receiving) for location, receiving in session.execute(query)]


def get_location(session, id_warehouse: int, code: str) -> Location | None:
    """The location of that code in the warehouse, whatever the case it is written in."""
    return session.scalar(select(Location).where(Location.id_warehouse == id_warehouse,
                                                 Location.code_key == code_key(code)))


def create_location(session, actor: audit.Actor, caller: Caller | None, fields: dict) -> None:
    """Add a location; 409 when the warehouse has one of that code (whatever its case)."""
    id_warehouse = fields["id_warehouse"]
    require_may_manage(caller, frozenset({id_warehouse}), say("A location in warehouse %(number)s", number=id_warehouse))
    with writing(session, [id_warehouse]):
        add_location(session, actor, fields)


def update_location(session, actor: audit.Actor, caller: Caller | None, id_warehouse: int, code: str,
                    fields: dict) -> None:
    """Change the fields given (change_location) of the location of that code (404 if none)."""
    require_may_manage(caller, frozenset({id_warehouse}), say("Changing a location of warehouse %(number)s",
                                                             number=id_warehouse))
    with writing(session, [id_warehouse]):
        location = get_location(session, id_warehouse, code)
        if location is None:
            raise NotFound(say("No location %(code)s in %(warehouse)s.", code=code,
                                warehouse=warehouse_words(session, id_warehouse)))
        change_location(session, actor, location, fields)


def add_location(session, actor: audit.Actor, fields: dict) -> None:
    """Add a location in the transaction under way (create_location; an import of many)."""
    id_warehouse = fields["id_warehouse"]
    _require_warehouse(session, id_warehouse)
    taken = get_location(session, id_warehouse, fields["code"])
    if taken is not None:
        message = say("%(warehouse)s has a location %(code)s already.", warehouse=warehouse_words(session, id_warehouse),
                      code=taken.code)
        raise Conflict(message, {"data": {"code": [message]}})
    location = Location(id_warehouse=id_warehouse, code=fields["code"], code_key=code_key(fields["code"]),
                        sort_key=sort_key(fields["code"]), name=fields.get("name", ""),
                        sequence=fields.get("sequence", 0), hold=fields.get("hold", 0), active=1)
    session.add(location)
    if fields.get("receiving"):
        session.get(Warehouse, id_warehouse).receiving_location = location.code
    session.flush()
    audit.record(session, actor, "location.create", f"{id_warehouse}/{location.code}",
                 {name: [None, value] for name, value in _as_dict(location, _receiving(session, id_warehouse)).items()},
                 reach=frozenset({id_warehouse}))


def change_location(session, actor: audit.Actor, location: Location, fields: dict) -> bool:
    """Change the fields given in the transaction under way; whether anything changed.

    Deactivating a location that holds stock: 409 (move it away first). A location deactivated
    stops being the warehouse's receiving one."""
    id_warehouse = location.id_warehouse
    warehouse = session.get(Warehouse, id_warehouse)
    before = _as_dict(location, warehouse.receiving_location)
    if fields.get("active") == 0 and location.active:
        held = session.scalar(select(func.count()).select_from(LocationBalance).where(
            LocationBalance.id_warehouse == id_warehouse, LocationBalance.location == location.code,
            LocationBalance.amount_milli != 0))
        if held:
            message = say_count("Location %(code)s holds stock of %(count)s product/lot: move it away before "
                                "deactivating the location.",
                                "Location %(code)s holds stock of %(count)s products/lots: move it away before "
                                "deactivating the location.", held,
                                text="Location %(code)s holds stock of %(count)s product/lot(s): move it away "
                                "before deactivating the location.", code=location.code)
            raise Conflict(message, {"data": {"active": [message]}})
    for name in ("name", "sequence", "hold", "active"):
        if name in fields:
            setattr(location, name, fields[name])
    if "receiving" in fields:
        if fields["receiving"]:
            if not location.active:
                raise invalid_field(("data", "receiving"), say("Location %(code)s is not active.", code=location.code))
            warehouse.receiving_location = location.code
        elif warehouse.receiving_location == location.code:
            warehouse.receiving_location = UNPLACED
    if not location.active and warehouse.receiving_location == location.code:
        warehouse.receiving_location = UNPLACED
    session.flush()
    changes = audit.changed_fields(before, _as_dict(location, warehouse.receiving_location))
    if changes:
        audit.record(session, actor, "location.update", f"{id_warehouse}/{location.code}", changes,
                     reach=frozenset({id_warehouse}))
    return bool(changes)


def location_stock(session, caller: Caller, id_warehouse: int, location: str | None = None,
                   product_code: str = "") -> list[dict]:
    """What lies where in a warehouse: rows of amount 0 left out, in walking order of the
    locations (unplaced first), then product and lot. `location` "" is the unplaced stock."""
    if not caller.sees(id_warehouse):
        return []
    lb = LocationBalance
    query = (select(lb.id_warehouse, lb.location, lb.product_code, lb.lot, lb.amount_milli,
                    func.coalesce(BestBefore.date_exp, "").label("date_exp"))
             .outerjoin(BestBefore, and_(BestBefore.product_code == lb.product_code, BestBefore.lot == lb.lot))
             .outerjoin(Location, and_(Location.id_warehouse == lb.id_warehouse, Location.code == lb.location))
             .where(lb.id_warehouse == id_warehouse, lb.amount_milli != 0))
    if location is not None:
        if location != UNPLACED:
            found = get_location(session, id_warehouse, location)
            location = found.code if found is not None else location
        query = query.where(lb.location == location)
    if product_code:
        query = query.where(lb.product_code == product_code)
    # Unplaced first (no location row), then the walking order.
    query = query.order_by(Location.code.is_not(None), Location.sequence, Location.sort_key, lb.location,
                           lb.product_code, lb.lot)
    return [{"id_warehouse": row.id_warehouse, "location": row.location, "product_code": row.product_code,
             "lot": row.lot, "date_exp": row.date_exp, "amount_milli": row.amount_milli}
            for row in session.connection().execute(query)]


def _require_warehouse(session, id_warehouse: int) -> None:
    if session.get(Warehouse, id_warehouse) is None:
        raise invalid_field(("data", "id_warehouse"), say("No warehouse %(number)s: add it first (POST /v1/warehouses/).",
                                                          number=id_warehouse))


def _receiving(session, id_warehouse: int) -> str:
    return session.scalar(select(Warehouse.receiving_location).where(Warehouse.id_warehouse == id_warehouse)) or ""


def _as_dict(location: Location, receiving: str) -> dict:
    return {"id_warehouse": location.id_warehouse, "code": location.code, "name": location.name,
            "sequence": location.sequence, "hold": location.hold, "active": location.active,
            "receiving": int(bool(receiving) and receiving == location.code)}
