"""Sessions of people signed in to the pages, kept on the server (DESIGN 16, 26).

Signing in makes a row and gives the browser a random token for it (in the signed session
cookie, pages/signin.py); the database keeps only the token's hash. Each page finds the row and
its person again, so a session ends for good when its row goes: at sign-out, at a password
change and at disabling (identity/people.py deletes them in its own transaction), and after 12
hours without a request. A copy of the cookie, replayed afterwards, opens nothing.

The last request is noted at most once a minute per session, after the answer and without
waiting for the write lock (identity/notes.py): a page costs a read, not a write.
"""
import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import SQLAlchemyError

from stock.caller import ROLES
from identity.notes import note_without_waiting
from models import PageSession, Person
from storage.db import utc_now, writing

IDLE = timedelta(hours=12)  # a session without a request this long has ended
NOTE_EVERY = timedelta(minutes=1)  # the last request is noted at most this often


@dataclass(frozen=True)
class Found:
    """A session that holds: its person, and whether its last request is due to be noted."""

    person: Person
    session_id: int
    note_due: bool


def _digest(token: str) -> str:
    # A random token of 32 bytes: one SHA-256 makes a stolen database useless for signing in.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def start(session, person: Person, address: str, now: datetime | None = None) -> str:
    """A new session of `person`; the token for the cookie (its hash alone is kept)."""
    now = now or utc_now()
    token = secrets.token_urlsafe(32)
    with writing(session, []):
        # Sessions that ended by idling are forgotten here, a few at a time, as people sign in.
        session.execute(delete(PageSession).where(PageSession.seen_at < now - IDLE))
        session.add(PageSession(token_hash=_digest(token), person_id=person.id, started_at=now,
                                seen_at=now.replace(microsecond=0), address=address[:100]))
    return token


def find(session, token, now: datetime | None = None) -> Found | None:
    """The session of this token and its person while it holds, else None."""
    if not isinstance(token, str) or not token or len(token) > 200:
        return None
    now = now or utc_now()
    row = session.execute(select(PageSession.id, PageSession.seen_at, Person)
                          .join(Person, Person.id == PageSession.person_id)
                          .where(PageSession.token_hash == _digest(token))).first()
    if row is None:
        return None
    session_id, seen_at, person = row
    if now - seen_at > IDLE or person.disabled_at is not None or person.role not in ROLES:
        return None
    return Found(person, session_id, now - seen_at >= NOTE_EVERY)


def note_seen(engine, session_id: int, now: datetime | None = None) -> bool:
    """Note the session's last request (to the second, at most once a minute); False when the
    database was busy and the note waits for a later request."""
    now = (now or utc_now()).replace(microsecond=0)
    table = PageSession.__table__
    try:
        note_without_waiting(engine, update(table).where(table.c.id == session_id,
                                                         table.c.seen_at <= now - NOTE_EVERY)
                             .values(seen_at=now))
    except SQLAlchemyError:  # busy: the note is worth less than the page, and waits for the next one
        return False
    return True


def end(session, token) -> None:
    """Sign-out: the session's row goes, so its cookie opens nothing any more."""
    if not isinstance(token, str) or not token:
        return
    with writing(session, []):
        session.execute(delete(PageSession).where(PageSession.token_hash == _digest(token)))


def end_all(session, person_id: int) -> None:
    """Every session of a person ends, in the caller's write transaction (a password change, disabling)."""
    session.execute(delete(PageSession).where(PageSession.person_id == person_id))
