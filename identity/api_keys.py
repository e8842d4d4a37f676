"""API keys: issued, hashed at rest, checked on every request; roles, warehouse limits, expiry, last use.

Keys are made and revoked through here, with a row in the audit trail (stock/audit.py) in the
same transaction. Who may make or revoke which key is stock/caller.py `may_manage`: an admin
limited to warehouses makes keys within them only, and does not see the others.
"""
import hashlib
import hmac
import logging
import secrets
import threading
import time
from datetime import datetime, timedelta, timezone

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from stock.caller import (ROLES, Caller, may_manage, parse_warehouses, reach_of, require_may_manage,
                             utc_text, warehouses_text)
from identity.notes import note_without_waiting
from models import ApiKey
from stock import audit as trail
from stock.errors import Conflict, Invalid, NotFound, Unauthorized, say
from stock.warehouses import require_warehouses
from storage.db import reading, utc_now, writing

audit = logging.getLogger("warehouse.audit")
log = logging.getLogger("warehouse")

BOOTSTRAP_NAME = "bootstrap"


class RevokedKey(Unauthorized):
    """A known key that was revoked: refused like an unknown one, but the log may name it."""

    def __init__(self, message: str, name: str):
        super().__init__(message)
        self.name = name


class KeyRefused(Exception):
    """Start-up must stop: the configured bootstrap key was revoked."""


def hash_key(key: str) -> str:
    # Keys are long random tokens, so one SHA-256 is enough to make a stolen
    # database useless for calling the service.
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def authenticate(source, key: str | None) -> Caller:
    """The caller a key belongs to; `source` is a db.Reader, an engine or a session."""
    if not key:
        raise Unauthorized(say("The TS-Apikey header is missing."))
    digest = hash_key(key)
    with reading(source) as reader:
        rows = reader.rows("SELECT id, name, role, warehouses, key_hash, revoked_at, expires_at "
                           "FROM api_keys WHERE key_hash = ?", (digest,))
    if not rows or not hmac.compare_digest(rows[0][4], digest):
        raise Unauthorized(say("The API key is unknown or revoked."))
    if rows[0][5] is not None:
        # The same answer as for an unknown key; only the operator's log learns which one.
        raise RevokedKey(say("The API key is unknown or revoked."), rows[0][1])
    key_id, name, role, warehouses, _, _, expires = rows[0]
    caller = Caller(key_id, name, role, parse_warehouses(warehouses), stored_utc(expires))
    caller.refuse_if_expired()
    return caller


def stored_utc(value) -> datetime | None:
    """A UtcDateTime column as a raw read gives it (SQLite: text; PostgreSQL: naive datetime), aware."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.replace(tzinfo=timezone.utc)


def create_key(session, name: str, role: str, warehouses: list[int] | None = None,
               expires_in_days: int | None = None, actor: trail.Actor | None = None,
               caller: Caller | None = None) -> str:
    """Issue a key and return it; only its hash is stored. With an actor, the audit trail says who.

    `caller`: who asks (None: the terminal), refused a key that would reach beyond its warehouses.
    """
    if role not in ROLES:
        raise Invalid(say("Role must be one of %(roles)s.", roles=", ".join(ROLES)))
    if not name.strip():
        raise Invalid(say("A key needs a name."))
    reach = reach_of(warehouses)
    require_may_manage(caller, reach, say("A key for every warehouse") if reach is None else say("This key"))
    key = secrets.token_urlsafe(32)
    expires = utc_now().replace(microsecond=0) + timedelta(days=expires_in_days) if expires_in_days else None
    with writing(session):
        if session.scalar(select(ApiKey.id).where(ApiKey.name == name)) is not None:
            message = say("A key named %(name)r exists already: choose another name.", name=name)
            raise Conflict(message, {"data": {"name": [message]}})
        require_warehouses(session, warehouses or [])
        session.add(ApiKey(name=name, role=role, key_hash=hash_key(key), warehouses=warehouses_text(warehouses),
                           created_at=datetime.now(), expires_at=expires, last_used_from=""))
        if actor is not None:
            trail.record(session, actor, "key.create", name, {
                "role": [None, role], "warehouses": [None, sorted(set(warehouses or []))],
                "expires": [None, utc_text(expires)]}, reach=reach)
    return key


def list_keys(session, caller: Caller | None = None) -> list[ApiKey]:
    """Every key by name; for a caller, those it may manage (an admin limited to warehouses sees
    only keys within them)."""
    return [key for key in session.scalars(select(ApiKey).order_by(ApiKey.name))
            if may_manage(caller, parse_warehouses(key.warehouses))]


def key_view(key: ApiKey) -> dict:
    """A key as GET /v1/keys/ and the keys page show it: never the key, never its hash."""
    return {"name": key.name, "role": key.role,
            "warehouses": sorted(parse_warehouses(key.warehouses) or []),
            "created": utc_text(key.created_at), "expires": utc_text(key.expires_at),
            "last_used": utc_text(key.last_used_at), "last_used_from": key.last_used_from or "",
            "revoked": utc_text(key.revoked_at),
            "expired": key.expires_at is not None and key.expires_at <= utc_now()}


def revoke_key(session, name: str, actor: trail.Actor | None = None, caller: Caller | None = None) -> None:
    """Revoke a key. `caller`: who asks (None: the terminal, which may revoke any key).

    A key the caller may not manage is not found, as it is not in its list. A key may not revoke
    itself (a depot whose only admin key revoked itself could no longer manage keys but from
    the terminal). No rule keeps "the last admin key": whoever revokes an admin key for every
    warehouse is an admin for every warehouse itself (a limited one does not see it), and a
    leaked key must always be revocable.
    """
    with writing(session):
        key = session.scalar(select(ApiKey).where(ApiKey.name == name))
        if key is None or not may_manage(caller, parse_warehouses(key.warehouses)):
            raise NotFound(say("No key named %(name)r.", name=name))
        if caller is not None and key.id == caller.key_id:
            raise Conflict(say("A key cannot revoke itself: revoke it with another admin key, on the keys page "
                               "or with `flask --app app keys revoke`."))
        if key.revoked_at is None:
            key.revoked_at = datetime.now()
            if actor is not None:
                trail.record(session, actor, "key.revoke", name, {"revoked": [None, utc_text(key.revoked_at)]},
                             reach=parse_warehouses(key.warehouses))


class UseNotes:
    """Writes when each key was last used and from where, at most once per key and minute.

    The key check runs on every request and reads from memory (routes/reading.py): a write
    per request would cost the read path its speed. `due` is a dictionary look-up; a due note
    is written after the answer has gone out, by one conditional UPDATE that also holds off
    other processes serving the same database within the same minute. A write that cannot
    have the lock at once is skipped, and tried again at the next request: the note is worth
    less than a scanner's booking.
    """

    def __init__(self):
        self._written: dict[int, int] = {}  # key id -> the minute (since the epoch) last written
        self._lock = threading.Lock()

    def due(self, key_id: int, now: float | None = None) -> bool:
        minute = int((now if now is not None else time.time()) // 60)
        return self._written.get(key_id) != minute

    def write(self, engine, key_id: int, address: str, now: datetime | None = None) -> bool:
        """Note the use; True when the note for this minute is in the database (ours or another's)."""
        now = (now or utc_now()).replace(microsecond=0)
        minute = int(now.timestamp() // 60)
        with self._lock:
            if self._written.get(key_id) == minute:
                return True
            self._written[key_id] = minute  # one writer per key and process at a time
        try:
            _write_use(engine, key_id, address[:100], now)
        except SQLAlchemyError:
            with self._lock:
                if self._written.get(key_id) == minute:
                    del self._written[key_id]
            log.info("the last use of key %s was not noted (the database was busy); noted later", key_id)
            return False
        return True


def _write_use(engine, key_id: int, address: str, now: datetime) -> None:
    table = ApiKey.__table__
    minute_start = now.replace(second=0)
    note_without_waiting(engine, update(table)
                         .where(table.c.id == key_id,
                                or_(table.c.last_used_at.is_(None), table.c.last_used_at < minute_start))
                         .values(last_used_at=now, last_used_from=address))


def bootstrap(session, configured_key: str | None, actor: trail.Actor | None = None) -> str | None:
    """Make the configured key an admin key, or issue one when the service has none.

    Returns a newly generated key (to be shown once), else None. With an actor (the start-up's
    user), the audit trail has the key made, and the key it replaced, like any other.
    """
    with writing(session):
        if configured_key:
            digest = hash_key(configured_key)
            existing = session.scalar(select(ApiKey).where(ApiKey.key_hash == digest))
            if existing is not None:
                if existing.revoked_at is not None:
                    raise KeyRefused(
                        f"WAREHOUSE_API_KEY is the key {existing.name!r}, which was revoked; "
                        "set another key or unset the variable."
                    )
                return None
            # A changed variable replaces the previous bootstrap key.
            previous = session.scalar(select(ApiKey).where(ApiKey.name == BOOTSTRAP_NAME))
            if previous is not None:
                audit.info("key %r replaced by a new WAREHOUSE_API_KEY; the old one is revoked and "
                           "named %r, by python app.py", BOOTSTRAP_NAME, f"{BOOTSTRAP_NAME}-replaced-{previous.id}")
                previous.name = f"{BOOTSTRAP_NAME}-replaced-{previous.id}"
                previous.revoked_at = previous.revoked_at or datetime.now()
                session.flush()
                if actor is not None:
                    trail.record(session, actor, "key.revoke", previous.name,
                                 {"name": [BOOTSTRAP_NAME, previous.name],
                                  "revoked": [None, utc_text(previous.revoked_at)]})
            session.add(ApiKey(name=BOOTSTRAP_NAME, role="admin", key_hash=digest,
                               warehouses="", created_at=datetime.now()))
            if actor is not None:
                trail.record(session, actor, "key.create", BOOTSTRAP_NAME,
                             {"role": [None, "admin"], "warehouses": [None, []], "expires": [None, None]})
            audit.info("key %r (admin) created from WAREHOUSE_API_KEY by python app.py", BOOTSTRAP_NAME)
            return None
        if session.scalar(select(ApiKey.id).limit(1)) is not None:
            return None
    try:
        return create_key(session, "admin", "admin", actor=actor)
    except (Conflict, IntegrityError):
        return None  # another process starting at the same moment made the first key
