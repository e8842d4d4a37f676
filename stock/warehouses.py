"""Warehouses: the master data naming where stock is kept (DESIGN 17).

A batch, an order document or a key may name only a warehouse listed here and active;
filters naming another simply match nothing. Plain functions on a session; they may
import models, storage, stock.errors and stock.audit (identity/api_keys.py and people.py import this module).
"""
from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError

from models import Warehouse
from stock import audit
from stock.caller import EVERY, Caller, require_may_manage
from stock.errors import Conflict, Invalid, NotFound, say, say_count
from storage.db import writing

FIELDS = ("id_warehouse", "name", "address", "active")


def list_warehouses(session, caller=None) -> list[dict]:
    """Every warehouse by id; a key (stock.caller.Caller) limited to warehouses sees those."""
    query = select(Warehouse).order_by(Warehouse.id_warehouse)
    if caller is not None and caller.warehouses is not None:
        query = query.where(Warehouse.id_warehouse.in_(sorted(caller.warehouses)))
    return [_as_dict(warehouse) for warehouse in session.scalars(query)]


def names(session) -> dict[int, str]:
    """{id_warehouse: name} of every warehouse, for pages that show names rather than numbers."""
    return dict(session.execute(select(Warehouse.id_warehouse, Warehouse.name)).all())


def create_warehouse(session, actor: audit.Actor, fields: dict, caller: Caller | None = None) -> None:
    """Add a warehouse: only an admin for every warehouse may (`caller` None: the terminal)."""
    require_may_manage(caller, EVERY, say("A new warehouse"))
    with writing(session):
        if session.get(Warehouse, fields["id_warehouse"]) is not None:
            message = say("Warehouse %(number)s exists already: choose a number no warehouse has.",
                          number=fields["id_warehouse"])
            raise Conflict(message, {"data": {"id_warehouse": [message]}})
        _refuse_taken_name(session, fields["name"], fields["id_warehouse"])
        warehouse = Warehouse(**{"address": "", "active": 1, **fields})
        session.add(warehouse)
        _flush_or_conflict(session, fields["id_warehouse"])
        audit.record(session, actor, "warehouse.create", fields["id_warehouse"],
                     {name: [None, value] for name, value in _as_dict(warehouse).items()},
                     reach=frozenset({fields["id_warehouse"]}))


def update_warehouse(session, actor: audit.Actor, id_warehouse: int, fields: dict,
                     caller: Caller | None = None) -> None:
    """Replace the fields given; the id in a body must equal the path's. An admin limited to
    warehouses changes only its own (403 for any other, whether it exists or not)."""
    require_may_manage(caller, frozenset({id_warehouse}), say("Changing warehouse %(number)s", number=id_warehouse))
    if fields.get("id_warehouse", id_warehouse) != id_warehouse:
        raise Invalid(say("id_warehouse in the body differs from the one in the path."),
                      {"data": {"id_warehouse": [say("Must equal the warehouse in the path.")]}})
    with writing(session):
        warehouse = session.get(Warehouse, id_warehouse)
        if warehouse is None:
            raise NotFound(say("No warehouse %(number)s.", number=id_warehouse))
        if "name" in fields:
            _refuse_taken_name(session, fields["name"], id_warehouse)
        before = _as_dict(warehouse)
        for name, value in fields.items():
            setattr(warehouse, name, value)
        _flush_or_conflict(session, id_warehouse)
        changes = audit.changed_fields(before, _as_dict(warehouse))
        if changes:
            audit.record(session, actor, "warehouse.update", id_warehouse, changes, reach=frozenset({id_warehouse}))


def require_warehouse(session, id_warehouse: int, path: tuple = ("data", "id_warehouse")) -> None:
    """422 naming the field at `path` unless the warehouse exists and is active."""
    found = session.connection().execute(_ACTIVE, {"id_warehouse": id_warehouse}).first()
    if found is None:
        _refuse(path, say("No warehouse %(number)s: add it first (POST /v1/warehouses/).", number=id_warehouse))
    if not found.active:
        _refuse(path, say("%(name)s (warehouse %(number)s) is not active.", name=found.name, number=id_warehouse))


# Built once: every booking asks, and building the statement cost more than SQLite's answer.
_ACTIVE = select(Warehouse.active, Warehouse.name).where(Warehouse.id_warehouse == bindparam("id_warehouse"))


def require_warehouses(session, ids, field: str = "warehouses") -> None:
    """422 naming `field` unless every warehouse of `ids` exists and is active (a key's list)."""
    ids = sorted(set(ids))
    if not ids:
        return
    active = set(session.scalars(select(Warehouse.id_warehouse).where(
        Warehouse.id_warehouse.in_(ids), Warehouse.active == 1)))
    missing = [str(number) for number in ids if number not in active]
    if missing:
        _refuse(("data", field), say_count("No active warehouse %(numbers)s.", "No active warehouses %(numbers)s.",
                                           len(missing), text="No active warehouse %(numbers)s.",
                                           numbers=", ".join(missing)))


def _refuse(path: tuple, message: str):
    fields: dict = {}
    node = fields
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = [message]
    raise Invalid(message, fields)


def _refuse_taken_name(session, name: str, id_warehouse: int) -> None:
    other = session.scalar(select(Warehouse.id_warehouse).where(Warehouse.name == name,
                                                               Warehouse.id_warehouse != id_warehouse))
    if other is not None:
        message = say("Warehouse %(number)s is named %(name)r already: choose another name.", number=other, name=name)
        raise Conflict(message, {"data": {"name": [message]}})


def _flush_or_conflict(session, id_warehouse: int) -> None:
    try:
        session.flush()
    except IntegrityError:
        raise Conflict(say("Warehouse %(number)s clashes with an existing one.", number=id_warehouse)) from None


def _as_dict(warehouse: Warehouse) -> dict:
    return {name: getattr(warehouse, name) for name in FIELDS}
