"""Which service processes serve this database: each keeps a row in service_settings fresh
(DESIGN 22), so that a second one started on the same database says in its start line that
another runs (its pid, machine and address). Two processes are allowed: every write is exact
under the database's locks; the line is there so an operator is not surprised by one left
running (a forgotten console window, a second service unit).

May import storage and sqlalchemy; app.py starts it.
"""
import json
import logging
import os
import socket
import threading
import uuid
from datetime import datetime, timedelta, timezone

from sqlalchemy import text

from storage.db import WRITE

log = logging.getLogger("warehouse")

PREFIX = "process:"
INTERVAL = 10.0  # seconds between refreshes of a process's row
STALE = timedelta(seconds=3 * INTERVAL)  # a row older than this is of a process that is gone


def _now() -> datetime:
    return datetime.now(timezone.utc)


def others(engine, own: str | None = None) -> list[dict]:
    """The other processes that kept their row fresh: {pid, host, address, seen}."""
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT name, value FROM service_settings WHERE name LIKE :p"),
                                  {"p": PREFIX + "%"}).all()
        connection.rollback()
    found = []
    for name, value in rows:
        if name == own:
            continue
        try:
            process = json.loads(value)
            seen = datetime.fromisoformat(process["seen"])
        except (ValueError, KeyError, TypeError):
            continue
        if _now() - seen <= STALE:
            found.append(process)
    return found


def describe(processes: list[dict]) -> str:
    return "; ".join(f"another service process runs on this database: pid {p['pid']} on {p['host']}, "
                     f"serving {p['address']}" for p in processes)


class Presence:
    """This process's row, written at start, refreshed every INTERVAL, removed at a stop."""

    def __init__(self, engine, address: str):
        self.engine = engine
        self.name = PREFIX + uuid.uuid4().hex[:16]
        self.value = {"pid": os.getpid(), "host": socket.gethostname(), "address": address}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="presence", daemon=True)

    def start(self) -> "Presence":
        self._write()
        self.thread.start()
        return self

    def stop(self) -> bool:
        """Stop refreshing and remove the row; whether the thread ended within INTERVAL."""
        self.stopping.set()
        if self.thread.is_alive():
            self.thread.join(INTERVAL)
        try:
            with self._writer() as connection:
                connection.execute(text("DELETE FROM service_settings WHERE name = :n"), {"n": self.name})
        except Exception:  # the database gone at the stop: the row goes stale by itself
            log.warning("this process's row in service_settings could not be removed; it expires "
                        "in %s s", int(STALE.total_seconds()))
        return not self.thread.is_alive()

    def _run(self) -> None:
        while not self.stopping.wait(INTERVAL):
            try:
                self._write()
            except Exception:  # an outage is logged by the requests; the next refresh tries again
                log.debug("presence row not refreshed", exc_info=True)

    def _writer(self):
        return _Transaction(self.engine)

    def _write(self) -> None:
        value = json.dumps({**self.value, "seen": _now().isoformat()})
        with self._writer() as connection:
            connection.execute(text("INSERT INTO service_settings (name, value) VALUES (:n, :v) "
                                    "ON CONFLICT (name) DO UPDATE SET value = excluded.value"),
                               {"n": self.name, "v": value})


class _Transaction:
    """A short write transaction on its own connection (BEGIN IMMEDIATE on SQLite)."""

    def __init__(self, engine):
        self.engine = engine

    def __enter__(self):
        self.connection = self.engine.connect().execution_options(**{WRITE: True})
        self.transaction = self.connection.begin()
        return self.connection

    def __exit__(self, kind, error, trace):
        try:
            if kind is None:
                self.transaction.commit()
            else:
                self.transaction.rollback()
        finally:
            self.connection.close()
