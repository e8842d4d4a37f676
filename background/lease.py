"""The lease: which one of the service's processes on a database does the background work.

A row in `leases` names its holder (host, pid and a random token) and when the lease expires.
The holder renews it every RENEW seconds; another process takes it over once it has expired
(TTL after the last renewal), or at once when the holder ran on this host and its pid is gone
(killed with -9, say). Taking and renewing are one conditional UPDATE each: of two processes
that try at once, the database lets exactly one through.
"""
import os
import secrets
import socket
from datetime import timedelta

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from models import Lease
from storage.db import utc_now, writing

NAME = "background"
TTL = timedelta(seconds=30)
RENEW = 5.0  # seconds


def holder_name() -> str:
    """This process, as the lease row names it: host, pid, and a token no restart repeats."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _dead_here(holder: str) -> bool:
    """True when the holder ran on this host and its process no longer exists."""
    host, _, rest = holder.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists, owned by another user
        return False
    return False


def take_or_renew(session, holder: str, name: str = NAME) -> bool:
    """Hold the lease for another TTL if we hold it, it expired, or its holder died here."""
    now = utc_now()
    current = session.execute(select(Lease.holder, Lease.expires).where(Lease.name == name)).first()
    session.rollback()
    if current is not None and current.holder != holder and current.expires > now and not _dead_here(current.holder):
        return False
    try:
        with writing(session, []):
            if current is None:
                session.execute(insert(Lease).values(name=name, holder=holder, expires=now + TTL))
                return True
            taken = session.execute(
                update(Lease).where(Lease.name == name, Lease.holder == current.holder)
                .values(holder=holder, expires=now + TTL))
            return taken.rowcount == 1
    except IntegrityError:  # another process inserted the row first
        return False


def release(session, holder: str, name: str = NAME) -> None:
    """Let go at a clean stop, so another process need not wait for the expiry."""
    with writing(session, []):
        session.execute(update(Lease).where(Lease.name == name, Lease.holder == holder)
                        .values(expires=utc_now() - TTL))


def current_holder(session, name: str = NAME) -> str | None:
    """Who holds the lease now (None when nobody does)."""
    row = session.execute(select(Lease.holder, Lease.expires).where(Lease.name == name)).first()
    session.rollback()
    return row.holder if row is not None and row.expires > utc_now() else None
