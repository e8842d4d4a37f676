"""The audit trail: who changed what that is not a booking, from where, and how (DESIGN section 16).

A rule that changes master data, keys, people, orders' states or settings calls `record` inside
its own write transaction, so the row commits with the change or not at all. Nothing in the
service updates or deletes a row; the trail is read newest first, a page at a time.
"""
import getpass
import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from models import AuditEntry
from storage.db import utc_now

CLI_ADDRESS = "cli"
MAX_LIMIT = 1000


@dataclass(frozen=True)
class Actor:
    """Who makes a change: a person's or a key's name, and the client address it came from."""

    who: str
    address: str


def cli_actor() -> Actor:
    """A `flask --app app ...` command on the depot's PC: the operating-system user, from "cli"."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for the uid (a container's bare user)
        user = "unknown"
    return Actor(user, CLI_ADDRESS)


def record(session, actor: Actor, kind: str, subject: str = "", changes: dict | None = None) -> None:
    """Add one row to the trail in the caller's transaction. `changes`: {field: [before, after]}."""
    session.add(AuditEntry(at=utc_now(), who=actor.who, address=actor.address, kind=kind,
                           record=str(subject),
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


def list_entries(session, since: datetime | None = None, kind: str | None = None, who: str | None = None,
                 limit: int = 100, before_id: int | None = None) -> list[dict]:
    """The trail newest first; `before_id` pages on (keyset) from the last row of the previous page.

    `kind` matches a whole kind (`product.update`) or a family by its prefix (`product.*` or `product`).
    """
    query = select(AuditEntry).order_by(AuditEntry.id.desc()).limit(min(max(limit, 1), MAX_LIMIT))
    if since is not None:
        query = query.where(AuditEntry.at >= since)
    if kind:
        family = kind[:-2] if kind.endswith(".*") else kind
        query = query.where((AuditEntry.kind == kind) | AuditEntry.kind.startswith(family + ".", autoescape=True))
    if who:
        query = query.where(AuditEntry.who == who)
    if before_id is not None:
        query = query.where(AuditEntry.id < before_id)
    return [{"id": entry.id, "at": entry.at, "who": entry.who, "from": entry.address, "kind": entry.kind,
             "record": entry.record, "changes": json.loads(entry.changes)}
            for entry in session.scalars(query)]
