"""The audit trail: who changed what that is not a booking, from where, and how (DESIGN section 16).

A rule that changes master data, keys, people, orders' states or settings calls `record` inside
its own write transaction, so the row commits with the change or not at all. Nothing in the
service updates or deletes a row; the trail is read newest first, a page at a time.

Each row says what kind of identity made the change (a person, a key, or the terminal), so that a
key and a person of one name are told apart, and which warehouses the change concerns (its
reach, stock/caller.py), so that an admin limited to warehouses reads only the rows within
them (DESIGN 26).
"""
import getpass
import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, false, func, literal, or_, select

from stock.caller import EVERY, Caller
from models import AuditEntry
from storage.db import utc_now

CLI_ADDRESS = "cli"
MAX_LIMIT = 1000


@dataclass(frozen=True)
class Actor:
    """Who makes a change: a person's or a key's name, the client address it came from, and what
    it is ("person", "key", or "cli" for a command on the depot's PC; "" when nobody knows)."""

    who: str
    address: str
    kind: str = ""

    @classmethod
    def of(cls, caller: Caller, address: str) -> "Actor":
        return cls(caller.name, address, caller.kind)


def cli_actor() -> Actor:
    """A `flask --app app ...` command on the depot's PC: the operating-system user, from "cli"."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for the uid (a container's bare user)
        user = "unknown"
    return Actor(user, CLI_ADDRESS, "cli")


# Every warehouse, in the column: only an admin for every warehouse reads the row. The rows
# from before the column was added have it too.
EVERY_TEXT = "*"


def reach_text(reach: frozenset | None) -> str:
    """A reach as the trail keeps it: "*" every warehouse, "" none in particular, "1,2" those."""
    return EVERY_TEXT if reach is EVERY else ",".join(str(number) for number in sorted(reach))


def record(session, actor: Actor, kind: str, subject: str = "", changes: dict | None = None,
           reach: frozenset | None = EVERY) -> None:
    """Add one row to the trail in the caller's transaction. `changes`: {field: [before, after]};
    `reach`: the warehouses the change concerns (stock/caller.py), every one unless said."""
    session.add(AuditEntry(at=utc_now(), who=actor.who, who_kind=actor.kind, address=actor.address, kind=kind,
                           record=str(subject), warehouses=reach_text(reach),
                           changes=json.dumps(changes or {}, ensure_ascii=False, default=str)))


def noted_since(session, kind: str, address: str, since: datetime) -> bool:
    """Whether the trail has a row of this kind from this address at `since` or later."""
    # Newest first along ix_audit_trail_kind_id: the row looked for is among the last of its kind,
    # and a trail that holds years of that kind (one throttled row per try, before 1.3.1) would
    # otherwise be read from its oldest row at every try.
    return session.scalar(select(AuditEntry.id).where(
        AuditEntry.kind == kind, AuditEntry.address == address, AuditEntry.at >= since)
        .order_by(AuditEntry.id.desc()).limit(1)) is not None


def changed_fields(before: dict, after: dict) -> dict:
    """{field: [before, after]} for each field of `after` whose value differs from `before`."""
    return {name: [before.get(name), value] for name, value in after.items() if before.get(name) != value}


def within(caller: Caller | None):
    """The rows `caller` may read, as a SQL condition (None: every row): stock/caller.py
    `may_manage` asked of each row's reach, in the database so that paging stays a keyset."""
    if caller is None or (caller.warehouses is None and caller.has_role("admin")):
        return None
    if not caller.has_role("admin"):
        return false()
    # "1,2" lies within the caller's warehouses when taking each of them out of ",1,2," leaves ",".
    # The reach is written sorted and without repeats (reach_text), so each appears once.
    left = literal(",") + AuditEntry.warehouses + literal(",")
    for number in sorted(caller.warehouses):
        left = func.replace(left, f",{number},", ",")
    return or_(AuditEntry.warehouses == "", and_(AuditEntry.warehouses != EVERY_TEXT, left == ","))


def list_entries(session, since: datetime | None = None, kind: str | None = None, who: str | None = None,
                 limit: int = 100, before_id: int | None = None, caller: Caller | None = None,
                 who_kind: str | None = None) -> list[dict]:
    """The trail newest first; `before_id` pages on (keyset) from the last row of the previous page.

    `kind` matches a whole kind (`product.update`) or a family by its prefix (`product.*` or `product`).
    `caller`: only the rows it may read (`within`); None, every row.
    """
    query = select(AuditEntry).order_by(AuditEntry.id.desc()).limit(min(max(limit, 1), MAX_LIMIT))
    narrowed = within(caller)
    if narrowed is not None:
        query = query.where(narrowed)
    if since is not None:
        query = query.where(AuditEntry.at >= since)
    if kind:
        family = kind[:-2] if kind.endswith(".*") else kind
        query = query.where((AuditEntry.kind == kind) | AuditEntry.kind.startswith(family + ".", autoescape=True))
    if who:
        query = query.where(AuditEntry.who == who)
    if who_kind:
        query = query.where(AuditEntry.who_kind == who_kind)
    if before_id is not None:
        query = query.where(AuditEntry.id < before_id)
    return [{"id": entry.id, "at": entry.at, "who": entry.who, "who_kind": entry.who_kind, "from": entry.address,
             "kind": entry.kind, "record": entry.record, "changes": json.loads(entry.changes)}
            for entry in session.scalars(query)]
