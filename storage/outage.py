"""The database not answering, logged as one event: a warning when it stops answering and one
line when it answers again (DESIGN 22), not a traceback for every request refused meanwhile.

PostgreSQL stopped for seven seconds under load once left 410 tracebacks in the log. The
answers stay as DESIGN 13 says (503 with Retry-After, nothing changed); only the log is
summed up. An outage ends when the pool makes a new connection: after a lost connection
SQLAlchemy invalidates the pool, so every later checkout connects anew, and the first one
that succeeds is the database answering again. May import: the database drivers and
sqlalchemy only.
"""
import logging
import sys
import threading
import time

import sqlalchemy.exc
from sqlalchemy import event

log = logging.getLogger("warehouse")

_lock = threading.Lock()
_watched: set = set()  # engines whose new connections end an outage
_outages: dict = {}  # engine -> {"since": monotonic, "refused": count}


def is_connection_lost(error: BaseException) -> bool:
    """Whether the error means the database server cannot be reached (not a lock timeout,
    not a full disk): the connection broke, or a new one could not be made."""
    if isinstance(error, sqlalchemy.exc.DBAPIError):
        if error.connection_invalidated:
            return True
        error = error.orig
    psycopg = sys.modules.get("psycopg")  # loaded only for PostgreSQL (storage/db.py storage_fault)
    if psycopg is None:
        return False
    if isinstance(error, psycopg.InterfaceError):  # a connection already closed
        return True
    if isinstance(error, psycopg.OperationalError):
        state = error.sqlstate or ""
        return state == "" or state.startswith(("08", "57P"))
    return False


def refused(engine, error: BaseException, what: str) -> bool:
    """Note a request refused because the database does not answer; the first of an outage
    is logged (with its traceback), the others only counted. Whether it was the first."""
    with _lock:
        outage = _outages.get(engine)
        if outage is not None:
            outage["refused"] += 1
            return False
        _outages[engine] = {"since": time.monotonic(), "refused": 1}
        if engine not in _watched:
            _watched.add(engine)
            event.listen(engine, "connect", lambda _dbapi, _record: _answered(engine))
    log.warning("the database does not answer (unavailable on %s); requests are answered 503 "
                "until it does, and this is logged once", what, exc_info=error)
    return True


def _answered(engine) -> None:
    with _lock:
        outage = _outages.pop(engine, None)
    if outage is not None:
        log.warning("the database answers again after %.1f s; %d request(s) were answered 503 meanwhile",
                    time.monotonic() - outage["since"], outage["refused"])


def in_outage(engine) -> bool:
    return engine in _outages


class _LostConnectionNoise(logging.Filter):
    """SQLAlchemy's pool logs a traceback for each pooled connection it cannot reset once the
    server is gone ("Exception during reset or similar"): the outage's own warning says it."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return error is None or not is_connection_lost(error)


def quiet_pool_log() -> None:
    """Leave out the pool's tracebacks of lost connections (its logger is per pool class)."""
    for name in ("sqlalchemy.pool.impl.QueuePool", "sqlalchemy.pool.impl.NullPool",
                 "sqlalchemy.pool.impl.SingletonThreadPool", "sqlalchemy.pool.impl.StaticPool"):
        logging.getLogger(name).addFilter(_LostConnectionNoise())
