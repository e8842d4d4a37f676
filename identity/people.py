"""People: the office staff who sign in to the pages with a name and a password (DESIGN 16, 26).

A person carries a role and may be limited to warehouses, as a key does, and acts as an
stock.caller.Caller. Passwords are kept only as werkzeug's scrypt hash (slow and salted).
Failed sign-ins are rows in the database, so that every process serving one database throttles
alike. Each change is one write transaction with its row in the audit trail (stock/audit.py);
a password change and disabling end the person's sessions (identity/sessions.py) in it.

Who may change whom is stock/caller.py `may_manage`: an admin limited to warehouses adds and
changes only people within them, and does not see the others. Nobody disables, demotes or
limits themselves, nor the last active admin for every warehouse.
"""
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from identity import sessions
from stock.caller import (EVERY, ROLES, Caller, may_manage, parse_warehouses, reach_of, require_may_manage,
                             utc_text, warehouses_text)
from models import Person, SigninFailure
from stock import audit as trail
from stock.errors import Conflict, Invalid, NotFound, say
from stock.warehouses import require_warehouses
from storage.db import utc_now, writing

LANGUAGES = ("en", "sl", "de")  # as language/ serves them; the rules know only the codes
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
        raise Invalid(say("A password needs at least %(count)s characters.", count=MIN_PASSWORD),
                      {"password": [say("At least %(count)s characters.", count=MIN_PASSWORD)]})
    if len(password) > MAX_PASSWORD:
        raise Invalid(say("A password has at most %(count)s characters.", count=MAX_PASSWORD),
                      {"password": [say("At most %(count)s characters.", count=MAX_PASSWORD)]})
    return password


def check_name(name: str) -> str:
    name = (name or "").strip()
    if not name or len(name) > 100 or not name.isprintable():
        raise Invalid(say("A person's name has 1 to 100 printable characters."), {"name": [say("1 to 100 characters.")]})
    return name


def check_role(role: str) -> str:
    if role not in ROLES:
        raise Invalid(say("Role must be one of %(roles)s.", roles=", ".join(ROLES)),
                      {"role": [say("One of %(roles)s.", roles=", ".join(ROLES))]})
    return role


def check_language(language: str | None) -> str:
    """A person's language: one of LANGUAGES, or "" for the depot's."""
    language = (language or "").strip().lower()
    if language and language not in LANGUAGES:
        message = say("The language %(language)r is not one of %(languages)s.", language=language,
                      languages=", ".join(LANGUAGES))
        raise Invalid(message, {"language": [message]})
    return language


def set_language(session, actor: trail.Actor, name: str, language: str, caller: Caller | None = None) -> None:
    """A person's own language ("" for the depot's): set by the person themselves, or by an admin
    who may manage them. Lasts across sessions and devices, being the person's."""
    language = check_language(language)
    with writing(session):
        person = _person(session, name, caller if caller is None or caller.name != name else None)
        if person.language != language:
            trail.record(session, actor, "user.language", name, {"language": [person.language or None, language or None]},
                         reach=reach_of_person(person))
            person.language = language


def caller_of(person: Person) -> Caller:
    """The person as the pages' caller: the same role and warehouse rules as a key."""
    return Caller(None, person.name, person.role, parse_warehouses(person.warehouses), person_id=person.id,
                  language=person.language)


def reach_of_person(person: Person) -> frozenset | None:
    return parse_warehouses(person.warehouses)


def create_person(session, actor: trail.Actor, name: str, role: str, password: str,
                  warehouses: list[int] | None = None, caller: Caller | None = None, language: str = "") -> None:
    """Add a person. `caller`: who asks (None: the terminal), refused a person who would reach
    beyond its own warehouses. `language`: their own for the pages ("" follows the depot's)."""
    name, role, password = check_name(name), check_role(role), check_password(password)
    language = check_language(language)
    reach = reach_of(warehouses)
    require_may_manage(caller, reach, say("A person for every warehouse") if reach is EVERY else say("This person"))
    hashed = generate_password_hash(password, method=HASH_METHOD)  # slow: outside the write lock
    now = utc_now()
    try:
        with writing(session):
            if session.scalar(select(Person.id).where(Person.name == name)) is not None:
                raise _name_taken(name)
            require_warehouses(session, warehouses or [])
            session.add(Person(name=name, role=role, warehouses=warehouses_text(warehouses),
                               password_hash=hashed, created_at=now, password_changed_at=now, language=language))
            changes = {"role": [None, role], "warehouses": [None, sorted(set(warehouses or []))]}
            if language:
                changes["language"] = [None, language]
            trail.record(session, actor, "user.create", name, changes, reach=reach)
    except IntegrityError:
        raise _name_taken(name) from None


def _name_taken(name: str) -> Conflict:
    message = say("A person named %(name)r exists already: choose another name.", name=name)
    return Conflict(message, {"name": [message]})


def list_people(session, caller: Caller | None = None) -> list[dict]:
    """Everyone by name; for a caller, those it may manage (an admin limited to warehouses sees
    only the people within them)."""
    return [person_view(person) for person in session.scalars(select(Person).order_by(Person.name))
            if may_manage(caller, reach_of_person(person))]


def person_view(person: Person) -> dict:
    """A person as the CLI and the people page show them: never the password's hash."""
    return {"name": person.name, "role": person.role,
            "warehouses": sorted(parse_warehouses(person.warehouses) or []),
            "created": utc_text(person.created_at), "password_changed": utc_text(person.password_changed_at),
            "disabled": utc_text(person.disabled_at), "language": person.language}


def _person(session, name: str, caller: Caller | None) -> Person:
    """The person of that name, if the caller may manage them: one it may not is not found, as
    it is not in its list either."""
    person = session.scalar(select(Person).where(Person.name == name))
    if person is None or not may_manage(caller, reach_of_person(person)):
        raise NotFound(say("No person named %(name)r.", name=name))
    return person


def _is_unlimited_admin(role: str, warehouses: str, disabled_at) -> bool:
    return role == "admin" and parse_warehouses(warehouses) is EVERY and disabled_at is None


def _refuse_losing_the_last_admin(session, person: Person, disabling: bool) -> None:
    """Conflict when `person` is the only active admin for every warehouse (and is to stop being
    one, by `disabling` them or by a change of their role or warehouses)."""
    if not _is_unlimited_admin(person.role, person.warehouses, person.disabled_at):
        return
    others = session.scalar(select(func.count()).select_from(Person).where(
        Person.id != person.id, Person.role == "admin", Person.warehouses == "", Person.disabled_at.is_(None)))
    if not others:
        if disabling:
            raise Conflict(say("%(name)r is the last active admin for every warehouse: disabling them would leave "
                               "nobody to manage the depot from the pages. Make another such admin first.",
                               name=person.name))
        raise Conflict(say("%(name)r is the last active admin for every warehouse: this change would leave nobody "
                           "to manage the depot from the pages. Make another such admin first.", name=person.name))


def _refuse_yourself(caller: Caller | None, person: Person, message) -> None:
    """Conflict with `message` (a whole sentence of what nobody may do to themselves) when the
    caller is `person`."""
    if caller is not None and caller.person_id == person.id:
        raise Conflict(message)


def change_password(session, actor: trail.Actor, name: str, password: str, caller: Caller | None = None) -> None:
    """A new password; every session the person has ends (the caller's own too, when it is theirs)."""
    hashed = generate_password_hash(check_password(password), method=HASH_METHOD)
    with writing(session):
        person = _person(session, name, caller)
        person.password_hash = hashed
        person.password_changed_at = utc_now()
        sessions.end_all(session, person.id)
        # The trail says that it changed, never what it is.
        trail.record(session, actor, "user.password", name, {"password": ["(old)", "(new)"]},
                     reach=reach_of_person(person))


def disable_person(session, actor: trail.Actor, name: str, caller: Caller | None = None) -> None:
    """The person can no longer sign in; every session they have ends. Not yourself, not the last
    active admin for every warehouse."""
    with writing(session):
        person = _person(session, name, caller)
        if person.disabled_at is not None:
            return
        _refuse_yourself(caller, person, say("Nobody may disable themselves: another admin may, or the terminal "
                                             "(`flask --app app users ...`)."))
        _refuse_losing_the_last_admin(session, person, disabling=True)
        person.disabled_at = utc_now()
        sessions.end_all(session, person.id)
        trail.record(session, actor, "user.disable", name, {"disabled": [None, utc_text(person.disabled_at)]},
                     reach=reach_of_person(person))


def enable_person(session, actor: trail.Actor, name: str, caller: Caller | None = None) -> None:
    """A disabled person may sign in again (with the password they had)."""
    with writing(session):
        person = _person(session, name, caller)
        if person.disabled_at is None:
            return
        trail.record(session, actor, "user.enable", name, {"disabled": [utc_text(person.disabled_at), None]},
                     reach=reach_of_person(person))
        person.disabled_at = None


def change_access(session, actor: trail.Actor, name: str, role: str, warehouses: list[int] | None,
                  caller: Caller | None = None) -> None:
    """Give a person another role or other warehouses (empty: every warehouse); their sessions
    carry the new ones from their next page. Not yourself, and not so that the last active admin
    for every warehouse stops being one."""
    role = check_role(role)
    reach = reach_of(warehouses)
    with writing(session):
        person = _person(session, name, caller)
        require_may_manage(caller, reach, say("A person for every warehouse") if reach is EVERY else say("This person"))
        before = {"role": person.role, "warehouses": sorted(parse_warehouses(person.warehouses) or [])}
        after = {"role": role, "warehouses": sorted(reach or [])}
        changes = trail.changed_fields(before, after)
        if not changes:
            return
        _refuse_yourself(caller, person, say("Nobody may change the role or warehouses of themselves: another admin "
                                             "may, or the terminal (`flask --app app users ...`)."))
        if not _is_unlimited_admin(role, warehouses_text(warehouses), person.disabled_at):
            _refuse_losing_the_last_admin(session, person, disabling=False)
        require_warehouses(session, warehouses or [])
        # The row reaches both what the person reached and what they reach now.
        was = reach_of_person(person)
        trail.record(session, actor, "user.change", name, changes,
                     reach=EVERY if was is EVERY or reach is EVERY else was | reach)
        person.role, person.warehouses = role, warehouses_text(warehouses)


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
                    trail.record(session, trail.Actor(who, address, "person" if who else ""), "signin.throttled",
                                 who, reach=EVERY if person is None else reach_of_person(person))
        raise Throttled(_seconds_until(until, now))
    good = check_password_hash(person.password_hash if person is not None else dummy_hash(),
                               password[:MAX_PASSWORD])
    if person is not None and good and person.disabled_at is None and person.role in ROLES:
        return person
    with writing(session):
        session.add(SigninFailure(address=address, at=now))
        session.execute(delete(SigninFailure).where(SigninFailure.at < now - FAILURES_KEPT))
        trail.record(session, trail.Actor(who, address, "person" if who else ""), "signin.failed", who,
                     reach=EVERY if person is None else reach_of_person(person))
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
