"""People: the office staff who sign in to the pages with a name and a password (DESIGN section 16).

A person carries a role and may be limited to warehouses, as a key does, and acts as a
stock.api_keys.Caller. Passwords are kept only as werkzeug's scrypt hash (slow and salted).
Failed sign-ins are rows in the database, so that every process serving one database throttles
alike. Each change is one write transaction with its row in the audit trail (stock/audit.py).

Plain functions on a session; no Flask. May import models, storage/, stock.errors, stock.audit,
stock.api_keys.
"""
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from models import Person, SigninFailure
from stock import audit as trail
from stock.api_keys import ROLES, Caller, parse_warehouses, utc_text, warehouses_text
from stock.errors import Conflict, Invalid, NotFound
from stock.warehouses import require_warehouses
from storage.db import utc_now, writing

MIN_PASSWORD = 10
MAX_PASSWORD = 1000  # a longer one is not a password but a way to make the hash work hard
FIRST_PERSON = "admin"
FAILURES_ALLOWED = 5  # failed sign-ins from one address...
FAILURE_WINDOW = timedelta(minutes=15)  # ...within this long...
THROTTLE = timedelta(minutes=15)  # ...close that address for this long
FAILURES_KEPT = timedelta(days=1)
HASH_METHOD = "scrypt"
_dummy_hash: list[str] = []


class SignInRefused(Exception):
    """The name or the password is wrong, or the person is disabled: one answer for all three."""


@dataclass(frozen=True)
class Throttled(Exception):
    """Too many failed sign-ins from this address: wait `retry_after` seconds."""

    retry_after: int


def check_password(password: str) -> str:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise Invalid(f"A password needs at least {MIN_PASSWORD} characters.",
                      {"password": [f"At least {MIN_PASSWORD} characters."]})
    if len(password) > MAX_PASSWORD:
        raise Invalid(f"A password has at most {MAX_PASSWORD} characters.",
                      {"password": [f"At most {MAX_PASSWORD} characters."]})
    return password


def check_name(name: str) -> str:
    name = (name or "").strip()
    if not name or len(name) > 100 or not name.isprintable():
        raise Invalid("A person's name has 1 to 100 printable characters.", {"name": ["1 to 100 characters."]})
    return name


def check_role(role: str) -> str:
    if role not in ROLES:
        raise Invalid(f"Role must be one of {', '.join(ROLES)}.", {"role": [f"One of {', '.join(ROLES)}."]})
    return role


def caller_of(person: Person) -> Caller:
    """The person as the pages' caller: the same role and warehouse rules as a key."""
    return Caller(None, person.name, person.role, parse_warehouses(person.warehouses), person_id=person.id)


def create_person(session, actor: trail.Actor, name: str, role: str, password: str,
                  warehouses: list[int] | None = None) -> None:
    name, role, password = check_name(name), check_role(role), check_password(password)
    hashed = generate_password_hash(password, method=HASH_METHOD)  # slow: outside the write lock
    now = utc_now()
    try:
        with writing(session):
            if session.scalar(select(Person.id).where(Person.name == name)) is not None:
                raise _name_taken(name)
            require_warehouses(session, warehouses or [])
            session.add(Person(name=name, role=role, warehouses=warehouses_text(warehouses),
                               password_hash=hashed, created_at=now, password_changed_at=now, generation=0))
            trail.record(session, actor, "user.create", name,
                         {"role": [None, role], "warehouses": [None, sorted(set(warehouses or []))]})
    except IntegrityError:
        raise _name_taken(name) from None


def _name_taken(name: str) -> Conflict:
    message = f"A person named {name!r} exists already: choose another name."
    return Conflict(message, {"name": [message]})


def list_people(session) -> list[dict]:
    return [person_view(person) for person in session.scalars(select(Person).order_by(Person.name))]


def person_view(person: Person) -> dict:
    """A person as the CLI and the people page show them: never the password's hash."""
    return {"name": person.name, "role": person.role,
            "warehouses": sorted(parse_warehouses(person.warehouses) or []),
            "created": utc_text(person.created_at), "password_changed": utc_text(person.password_changed_at),
            "disabled": utc_text(person.disabled_at)}


def _person(session, name: str) -> Person:
    person = session.scalar(select(Person).where(Person.name == name))
    if person is None:
        raise NotFound(f"No person named {name!r}.")
    return person


def change_password(session, actor: trail.Actor, name: str, password: str) -> None:
    """A new password; every session the person has ends."""
    hashed = generate_password_hash(check_password(password), method=HASH_METHOD)
    with writing(session):
        person = _person(session, name)
        person.password_hash = hashed
        person.password_changed_at = utc_now()
        person.generation += 1
        # The trail says that it changed, never what it is.
        trail.record(session, actor, "user.password", name, {"password": ["(old)", "(new)"]})


def disable_person(session, actor: trail.Actor, name: str) -> None:
    """The person can no longer sign in; every session they have ends."""
    with writing(session):
        person = _person(session, name)
        if person.disabled_at is not None:
            return
        person.disabled_at = utc_now()
        person.generation += 1
        trail.record(session, actor, "user.disable", name, {"disabled": [None, utc_text(person.disabled_at)]})


def signed_in_person(session, person_id, generation) -> Person | None:
    """The person a session names, while that session holds: not disabled, same password since."""
    if not isinstance(person_id, int) or not isinstance(generation, int):
        return None
    person = session.get(Person, person_id)
    if person is None or person.disabled_at is not None or person.generation != generation \
            or person.role not in ROLES:
        return None
    return person


def sign_in(session, name: str, password: str, address: str, now: datetime | None = None) -> Person:
    """The person whose name and password these are, unless this address is throttled.

    Raises Throttled (even for the right password) or SignInRefused; a refusal is noted as a
    failure of the address, and each is a row of the audit trail (who: the name when it is a
    person's, never what was typed otherwise: that may be a password typed in the wrong field).
    """
    now = now or utc_now()
    name = (name or "").strip()
    password = password or ""
    person = session.scalar(select(Person).where(Person.name == name)) if name and len(name) <= 100 else None
    who = person.name if person is not None else ""
    until = closed_until(session, address, now)
    if until is not None:
        # One row for each closing of the address, not one for each try while it is closed:
        # those cost the sender nothing, and would fill the trail (and take the one writer of a
        # SQLite depot) as fast as anyone on the LAN can send them.
        if not trail.noted_since(session, "signin.throttled", address, until - THROTTLE):
            with writing(session):
                # Asked again under the writers' lock: two tries at one moment make one row.
                if not trail.noted_since(session, "signin.throttled", address, until - THROTTLE):
                    trail.record(session, trail.Actor(who, address), "signin.throttled", who)
        raise Throttled(_seconds_until(until, now))
    good = check_password_hash(person.password_hash if person is not None else dummy_hash(),
                               password[:MAX_PASSWORD])
    if person is not None and good and person.disabled_at is None and person.role in ROLES:
        return person
    with writing(session):
        session.add(SigninFailure(address=address, at=now))
        session.execute(delete(SigninFailure).where(SigninFailure.at < now - FAILURES_KEPT))
        trail.record(session, trail.Actor(who, address), "signin.failed", who)
    raise SignInRefused()


def closed_until(session, address: str, now: datetime) -> datetime | None:
    """When this address may try again, or None when it may now.

    An address is closed for THROTTLE from its failure that made FAILURES_ALLOWED within
    FAILURE_WINDOW. Tries while closed are not counted, so the closing lasts exactly that long.
    """
    times = list(session.scalars(
        select(SigninFailure.at).where(SigninFailure.address == address,
                                       SigninFailure.at > now - FAILURE_WINDOW - THROTTLE)
        .order_by(SigninFailure.at)))
    until = None
    for i in range(FAILURES_ALLOWED - 1, len(times)):
        if times[i] - times[i - FAILURES_ALLOWED + 1] <= FAILURE_WINDOW:
            until = times[i] + THROTTLE
    return None if until is None or until <= now else until


def _seconds_until(until: datetime, now: datetime) -> int:
    return max(1, int((until - now).total_seconds() + 0.999))


def dummy_hash() -> str:
    """Checked when the name is unknown, so that an unknown name takes as long as a wrong password."""
    if not _dummy_hash:
        _dummy_hash.append(generate_password_hash(secrets.token_urlsafe(16), method=HASH_METHOD))
    return _dummy_hash[0]


def bootstrap(session, actor: trail.Actor) -> str | None:
    """When nobody may sign in yet, make the person `admin` with a new password and return it."""
    if session.scalar(select(Person.id).limit(1)) is not None:
        session.rollback()
        return None
    password = secrets.token_urlsafe(15)  # 20 characters
    try:
        create_person(session, actor, FIRST_PERSON, "admin", password)
    except (Conflict, IntegrityError):
        return None  # another process starting at the same moment made the first person
    return password
