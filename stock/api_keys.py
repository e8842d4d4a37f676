"""API keys: issued, hashed at rest, checked on every request; roles and warehouse limits."""
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from models import ApiKey
from stock.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from stock.warehouses import require_warehouses
from storage.db import reading, writing

audit = logging.getLogger("warehouse.audit")

ROLES = ("read", "scan", "admin")  # each role may do all that the ones before it may
BOOTSTRAP_NAME = "bootstrap"


class RevokedKey(Unauthorized):
    """A known key that was revoked: refused like an unknown one, but the log may name it."""

    def __init__(self, message: str, name: str):
        super().__init__(message)
        self.name = name


class KeyRefused(Exception):
    """Start-up must stop: the configured bootstrap key was revoked."""


@dataclass(frozen=True)
class Caller:
    key_id: int
    name: str
    role: str
    warehouses: frozenset | None  # None: every warehouse

    def has_role(self, role: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(role)

    def sees(self, id_warehouse: int) -> bool:
        return self.warehouses is None or id_warehouse in self.warehouses

    def narrow(self, id_warehouses: list[int]) -> list[int] | None:
        """The warehouses a filter may cover: those asked for (all when none) that the key allows."""
        if self.warehouses is None:
            return sorted(set(id_warehouses)) or None
        if not id_warehouses:
            return sorted(self.warehouses)
        return sorted(set(id_warehouses) & self.warehouses)

    def require_warehouse(self, id_warehouse: int) -> None:
        if not self.sees(id_warehouse):
            raise Forbidden(f"This key may not act in warehouse {id_warehouse}.")


def hash_key(key: str) -> str:
    # Keys are long random tokens, so one SHA-256 is enough to make a stolen
    # database useless for calling the service.
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def authenticate(source, key: str | None) -> Caller:
    """The caller a key belongs to; `source` is a db.Reader, an engine or a session."""
    if not key:
        raise Unauthorized("The TS-Apikey header is missing.")
    digest = hash_key(key)
    with reading(source) as reader:
        rows = reader.rows("SELECT id, name, role, warehouses, key_hash, revoked_at "
                           "FROM api_keys WHERE key_hash = ?", (digest,))
    if not rows or not hmac.compare_digest(rows[0][4], digest):
        raise Unauthorized("The API key is unknown or revoked.")
    if rows[0][5] is not None:
        # The same answer as for an unknown key; only the operator's log learns which one.
        raise RevokedKey("The API key is unknown or revoked.", rows[0][1])
    key_id, name, role, warehouses, _, _ = rows[0]
    return Caller(key_id, name, role, parse_warehouses(warehouses))


def parse_warehouses(text: str) -> frozenset | None:
    ids = frozenset(int(part) for part in text.split(",") if part.strip())
    return ids or None


def create_key(session, name: str, role: str, warehouses: list[int] | None = None) -> str:
    """Issue a key and return it; only its hash is stored."""
    if role not in ROLES:
        raise Invalid(f"Role must be one of {', '.join(ROLES)}.")
    if not name.strip():
        raise Invalid("A key needs a name.")
    key = secrets.token_urlsafe(32)
    with writing(session):
        if session.scalar(select(ApiKey.id).where(ApiKey.name == name)) is not None:
            raise Conflict(f"A key named {name!r} exists already.")
        require_warehouses(session, warehouses or [])
        session.add(ApiKey(
            name=name, role=role, key_hash=hash_key(key),
            warehouses=",".join(str(w) for w in sorted(set(warehouses or []))),
            created_at=datetime.now(),
        ))
    return key


def list_keys(session) -> list[ApiKey]:
    return list(session.scalars(select(ApiKey).order_by(ApiKey.name)))


def revoke_key(session, name: str) -> None:
    with writing(session):
        key = session.scalar(select(ApiKey).where(ApiKey.name == name))
        if key is None:
            raise NotFound(f"No key named {name!r}.")
        if key.revoked_at is None:
            key.revoked_at = datetime.now()


def bootstrap(session, configured_key: str | None) -> str | None:
    """Make the configured key an admin key, or issue one when the service has none.

    Returns a newly generated key (to be shown once), else None.
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
            session.add(ApiKey(name=BOOTSTRAP_NAME, role="admin", key_hash=digest,
                               warehouses="", created_at=datetime.now()))
            audit.info("key %r (admin) created from WAREHOUSE_API_KEY by python app.py", BOOTSTRAP_NAME)
            return None
        if session.scalar(select(ApiKey.id).limit(1)) is not None:
            return None
    try:
        return create_key(session, "admin", "admin")
    except (Conflict, IntegrityError):
        return None  # another process starting at the same moment made the first key
