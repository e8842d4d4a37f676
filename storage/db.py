"""Database handle, storage settings, what a storage failure means, and the write transaction."""
import math
import sqlite3
import sys
from contextlib import contextmanager
from datetime import date, datetime, timezone
from operator import itemgetter

import sqlalchemy.exc

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import DateTime, TypeDecorator, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session, scoped_session

from storage import cache
from storage.errors import ServiceError, StorageFull, Unavailable


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)

# The execution option that marks a connection as one that will write.
WRITE = "warehouse_write"
# PostgreSQL advisory locks are pairs (space, n). The space is the hash of the
# schema the tables live in, so that services (and test runs) in different schemas
# of one database never wait for each other. n = SERVICE_LOCK is the service lock,
# which every write holds: shared when it changes the stock of given warehouses,
# exclusive when it changes what every warehouse reads (products, customers, keys).
# n >= 0 is a warehouse's lock.
LOCK_SPACE = "hashtext(current_schema())"
SERVICE_LOCK = -1
# session.info key: set while db.writing owns the session's transaction.
WRITING = "warehouse_writing"
# session.info key: what the rules note for the transaction db.writing owns (notes_of).
_NOTES = "warehouse_transaction_notes"
_LAST_STEPS = "last steps"


class UnguardedWrite(RuntimeError):
    """A commit, or changes left pending, outside db.writing: a bug, never the user's fault."""


class UtcDateTime(TypeDecorator):
    """An aware UTC datetime in Python, stored naive (as UTC) in a plain DateTime column.

    SQLite keeps no offset, so the column stays as it was on both databases and
    a daylight-saving change no longer moves a stored time by an hour.
    """

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("UtcDateTime needs an aware datetime")
        return value.astimezone(timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value, dialect):
        return None if value is None else value.replace(tzinfo=timezone.utc)


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def sqlite_file(url) -> str | None:
    """The path of the file a SQLite URL names; None for other databases, memory and file: URIs."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:" \
            or url.database.startswith("file:"):
        return None
    return url.database


def configure_sqlite(engine: Engine, busy_timeout: float = 30.0) -> None:
    """Make SQLite durable and let writers take the write lock when they begin.

    pysqlite would otherwise open transactions lazily and only on writes, so a
    read-check-write (read a balance, check it, change it) could interleave
    between threads; a deferred transaction that later upgrades can also fail
    with "database is locked" regardless of the busy timeout.
    """

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        # How long a writer waits for the write lock before the request answers 503.
        cursor.execute(f"PRAGMA busy_timeout={max(1, round(busy_timeout * 1000))}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn):
        immediate = conn.get_execution_options().get(WRITE)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def configure_postgresql(engine: Engine, busy_timeout: float = 30.0) -> None:
    """Let a writer wait for the writers' lock no longer than the busy timeout, as on SQLite."""

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {max(1, round(busy_timeout * 1000))}")
        dbapi_connection.commit()


def postgresql_connect_args(connect_args: dict, busy_timeout: float) -> dict:
    """The driver's arguments with a connect timeout: a server that does not answer at all
    (a cable pulled) must not hold a request longer than a lock would."""
    return {"connect_timeout": max(1, math.ceil(busy_timeout)), **connect_args}


def checkpoint(engine: Engine) -> tuple | None:
    """SQLite: move every page of the WAL into the database file and empty the WAL.

    (busy, WAL pages, pages moved); busy is 1 when another connection kept it from
    finishing. None on other databases.
    """
    if engine.dialect.name != "sqlite":
        return None
    connection = engine.raw_connection()
    try:
        # The driver connection is in autocommit (configure_sqlite): no transaction around it.
        return tuple(connection.driver_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone())
    finally:
        connection.close()


# SQLite's primary result codes (the low byte of the extended code).
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_PROTOCOL = 5, 6, 10, 13, 14, 15
SQLITE_UNAVAILABLE = {SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PROTOCOL}


def storage_fault(error: BaseException) -> ServiceError | None:
    """The named error a storage failure means for the client, or None if it is not one.

    507 when the disk is full; 503 (try again shortly) when the database does not
    answer, a lock is not granted in time, or the disk fails to read or write.
    Anything else (a constraint, a bug) stays an internal error.
    """
    if isinstance(error, sqlalchemy.exc.TimeoutError):  # no pooled connection in time
        return Unavailable("The database is busy; try again in a moment.")
    if isinstance(error, sqlalchemy.exc.DBAPIError):
        if error.connection_invalidated:
            return Unavailable("The database does not answer; try again in a moment.")
        error = error.orig
    if isinstance(error, sqlite3.Error):
        code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
        if code == SQLITE_FULL:
            return StorageFull("The disk of the database is full: nothing was booked. Free some space.")
        if code in SQLITE_UNAVAILABLE:
            return Unavailable("The database is busy or cannot be read; try again in a moment.")
        return None
    # psycopg is imported by SQLAlchemy's dialect when a PostgreSQL engine is made, never here:
    # a service on SQLite would hold its 9 MiB for nothing, and no psycopg error exists without it.
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None and isinstance(error, psycopg.Error):
        state = error.sqlstate or ""
        if state == "53100":
            return StorageFull("The disk of the database is full: nothing was booked. Free some space.")
        if isinstance(error, psycopg.OperationalError) and state[:2] in ("", "08", "53", "57", "58", "55"):
            return Unavailable("The database does not answer; try again in a moment.")
        if isinstance(error, psycopg.InterfaceError):  # a connection already closed
            return Unavailable("The database does not answer; try again in a moment.")
    return None


@contextmanager
def writing(session, warehouses=None):
    """One write transaction: committed when the block ends, rolled back if it raises.

    `warehouses`: the ids whose stock (documents, balances, orders, stocktakings)
    the transaction changes; None when it changes what every warehouse reads
    (products, customers, keys). On PostgreSQL that decides what it waits for:
    bookings of different warehouses run side by side, and a service-wide change
    waits for every booking and holds them all up. The locks are taken in one
    order, so no two writers can wait for each other:
      1. the service lock (shared for warehouses, exclusive for None),
      2. the warehouses' locks, in ascending id,
      3. the rows the rules change (only writers holding 2. change a warehouse's rows),
      4. the numbering counters, last and as briefly as possible: the steps asked for with
         before_commit run after the block, just before the commit (stock/balances.py
         number_documents).
    On SQLite the file has one write lock: BEGIN IMMEDIATE, one writer at a time.

    A read transaction still open is ended first (on SQLite the new one must start
    with the write lock held); changes still pending there are refused, not dropped.
    """
    if isinstance(session, scoped_session):
        session = session()
    if session.new or session.dirty or session.deleted or session.info.get(_FLUSHED):
        raise UnguardedWrite("Changes were made outside db.writing; "
                             "refusing to drop them or to commit them.")
    if session.in_transaction():
        session.rollback()
    connection = session.connection(execution_options={WRITE: True})
    if connection.dialect.name == "postgresql":
        _lock_postgresql(connection, warehouses)
    session.info[WRITING] = True
    notes = session.info[_NOTES] = {}
    try:
        yield session
        for step in notes.get(_LAST_STEPS, ()):
            step(session)
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.info.pop(WRITING, None)
        session.info.pop(_NOTES, None)
        # After the commit, never before (cache.py). Also after a failure: a
        # commit that raised may still have been written, and an extra move
        # only costs the caches one read each.
        cache.database_changed(connection.engine)


def notes_of(session) -> dict:
    """A dict the rules keep things in for the write transaction under way; gone when it ends,
    committed or not, so nothing noted in a failed booking reaches the next one."""
    if isinstance(session, scoped_session):
        session = session()
    notes = session.info.get(_NOTES)
    if notes is None:
        raise UnguardedWrite("A write outside db.writing.")
    return notes


def before_commit(session, step) -> None:
    """Run step(session) as the last step of the write transaction, just before its commit
    (once, however often it is asked for): what must hold a lock briefly goes there."""
    steps = notes_of(session).setdefault(_LAST_STEPS, [])
    if step not in steps:
        steps.append(step)


def _lock_postgresql(connection, warehouses) -> None:
    if warehouses is None:
        lock_all_writers(connection)
        return
    connection.exec_driver_sql(
        f"SELECT pg_advisory_xact_lock_shared({LOCK_SPACE}, {SERVICE_LOCK})")
    # Ids are whole numbers >= 0 of up to 64 bits; the lock key has 31. Two ids
    # that share a key only wait for each other, which is never wrong.
    for key in sorted({int(w) % 2**31 for w in warehouses}):
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({LOCK_SPACE}, {key})")


def lock_all_writers(connection) -> None:
    """On PostgreSQL, wait for every write under way and hold up new ones until the
    connection's transaction ends (what a service-wide change takes, in db.writing)."""
    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({LOCK_SPACE}, {SERVICE_LOCK})")


_FLUSHED = "warehouse_flushed"  # session.info key: rows flushed in the current transaction


@event.listens_for(Session, "after_flush")
def _note_flush(session, _context):
    session.info[_FLUSHED] = True


@event.listens_for(Session, "after_transaction_end")
def _forget_flush(session, transaction):
    if transaction.parent is None:
        session.info.pop(_FLUSHED, None)


@event.listens_for(Session, "before_commit")
def _refuse_commit_outside_writing(session):
    """Only db.writing takes the write lock (and moves the cache mark): nothing else may commit."""
    if not session.info.get(WRITING):
        raise UnguardedWrite("session.commit() outside db.writing: "
                             "use `with db.writing(session):`.")


class HandedOver:
    """An answer's pieces written after its view has returned, that read on the request's session
    (a whole list read as it is written): the session is taken out of db.session's scope, and
    closed when the last piece is written or writing fails, or when the answer is closed, which
    the server does however it ends (the client gone before the end too).

    The request's end closes the session in its scope (Flask-SQLAlchemy's teardown), and with
    it the read transaction: the snapshot the first rows were read in, and on PostgreSQL the
    server-side cursor the rest come from. Flask's stream_with_context pushes the request's
    context again only when the answer is iterated, after that teardown, so it cannot keep it.
    The request's later reads, if any, get a session of their own.
    """

    def __init__(self, pieces, *sources):
        """`sources`: what the pieces read from (rows from a cursor), closed with them before the
        session: a generator closed before it has begun (stream_with_context's is, at its
        first step) does not close those it would have read, and a cursor left to the garbage
        collector is closed after its connection went back to the pool."""
        self.pieces = pieces
        self.sources = sources
        self.session = db.session()
        db.session.registry.clear()

    def __iter__(self):
        try:
            yield from self.pieces
        finally:
            # At once when the last piece is written (or writing it failed): the snapshot is let go
            # then, not when the server, or a test's client, gets round to closing the answer.
            self.close()

    def close(self):
        try:
            for each in (self.pieces, *self.sources):
                if hasattr(each, "close"):
                    each.close()
        finally:
            self.session.close()


class Reader:
    """Short reads on one pooled driver connection, outside any session's transaction.

    For the key check and the one-product read when cache.py has not kept
    them: there a session's machinery costs several times the query, and one
    reader lets a request's such reads share one checkout from the pool. `?` marks
    parameters. `source` is an engine or a session.
    """

    def __init__(self, source):
        self.engine = source if isinstance(source, Engine) else source.get_bind()
        self._qmark = self.engine.dialect.paramstyle == "qmark"
        self._connection = None

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        if self._connection is None:
            self._connection = self.engine.raw_connection()
        cursor = self._connection.cursor()
        try:
            cursor.execute(sql if self._qmark else sql.replace("?", "%s"), params)
            return cursor.fetchall()
        finally:
            cursor.close()
            if not self._qmark:
                # psycopg opened a transaction for the SELECT; holding it for the
                # rest of the request would pin an old snapshot for nothing.
                self._connection.rollback()

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()  # back to the pool
            self._connection = None


@contextmanager
def reading(source):
    """A Reader: the one given, or a new one on an engine or session, closed afterwards."""
    if isinstance(source, Reader):
        yield source
        return
    reader = Reader(source)
    try:
        yield reader
    finally:
        reader.close()


def insert_rows(session, table, rows: list[dict]) -> None:
    """Insert many rows given as dicts of the same keys (see insert_tuples)."""
    if not rows:
        return
    columns = list(rows[0])
    values = itemgetter(*columns) if len(columns) > 1 else (lambda row: (row[columns[0]],))
    insert_tuples(session, table, columns, [values(row) for row in rows])


def insert_tuples(session, table, columns: list[str], rows: list[tuple]) -> None:
    """Insert many rows in one driver call (COPY on PostgreSQL), inside the session's transaction.

    A scanner's batch brings hundreds of lines; SQLAlchemy's per-row parameter
    handling costs several times more than the database's own work for them.
    """
    if not rows:
        return
    connection = session.connection()
    quote = connection.dialect.identifier_preparer.quote
    if connection.dialect.name == "postgresql":
        # COPY takes rows about four times faster than executemany.
        cursor = connection.connection.driver_connection.cursor()
        with cursor, cursor.copy(f"COPY {quote(table.name)} "
                                 f"({', '.join(quote(c) for c in columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    sqlite = connection.dialect.name == "sqlite"
    head = f"INSERT INTO {quote(table.name)} ({', '.join(quote(c) for c in columns)})"
    dated = [i for i, value in enumerate(rows[0]) if isinstance(value, date)] if sqlite else []
    if dated:
        # Dates go in as the ISO text SQLAlchemy's Date type reads back on SQLite;
        # a document's lines share one or two dates, each written out once.
        texts: dict = {}
        tuples = []
        for row in rows:
            row_values = list(row)
            for i in dated:
                day = row_values[i]
                row_values[i] = texts.get(day) or texts.setdefault(day, day.isoformat())
            tuples.append(tuple(row_values))
        rows = tuples
    many_values(connection, head, len(columns), rows)


def upsert_tuples(session, table, columns: list[str], key: list[str], rows: list[tuple]) -> None:
    """Insert rows, or where one of the same key exists set its other columns (see many_values).

    The same statement on SQLite and PostgreSQL; for the few hundred balances a batch changes,
    SQLAlchemy's own upsert cost more than the database's work. The callers give each key once
    (their rows come from dicts): one statement of many rows may not change a row twice on
    PostgreSQL, should its executemany ever give way to one.
    """
    _on_conflict(session, table, columns, key, rows, lambda quote, name: ", ".join(
        f"{quote(c)} = excluded.{quote(c)}" for c in columns if c not in key))


def add_tuples(session, table, columns: list[str], key: list[str], amount: str, rows: list[tuple]) -> None:
    """Add each row's `amount` to the row of its key, a new row where there is none: a change
    written without reading the rows first. Each key once, as for upsert_tuples."""
    _on_conflict(session, table, columns, key, rows, lambda quote, name: (
        f"{quote(amount)} = {name}.{quote(amount)} + excluded.{quote(amount)}"))


def _on_conflict(session, table, columns: list[str], key: list[str], rows: list[tuple], sets) -> None:
    """Insert rows; where one of the same key exists, `sets(quote, quoted table name)` changes it."""
    if not rows:
        return
    connection = session.connection()
    quote = connection.dialect.identifier_preparer.quote
    name = quote(table.name)
    many_values(connection, f"INSERT INTO {name} ({', '.join(quote(c) for c in columns)})", len(columns), rows,
                f" ON CONFLICT ({', '.join(quote(c) for c in key)}) DO UPDATE SET {sets(quote, name)}")


# Values a statement of many rows binds at most on SQLite: below every build's limit (999 before
# SQLite 3.32), and a row more a statement gains nothing measurable past about a hundred rows.
_SQLITE_VALUES = 999


def many_values(connection, head: str, width: int, rows: list[tuple], tail: str = "") -> None:
    """`head VALUES (...) tail` for each row, inside the connection's transaction.

    SQLite: many rows a statement (`VALUES (...), (...), ...`). executemany runs the statement
    once a row, which took about twice as long for a batch's thousand location rows (bench row
    o1). PostgreSQL: one executemany, which psycopg pipelines.
    """
    if not rows:
        return
    if connection.dialect.name != "sqlite":
        connection.exec_driver_sql(f"{head} VALUES ({', '.join(['%s'] * width)}){tail}", rows)
        return
    one = f"({', '.join(['?'] * width)})"
    per = max(1, _SQLITE_VALUES // width)
    statement, size = "", 0
    for start in range(0, len(rows), per):
        chunk = rows[start:start + per]
        if len(chunk) != size:
            statement, size = f"{head} VALUES {', '.join([one] * len(chunk))}{tail}", len(chunk)
        connection.exec_driver_sql(statement, tuple(value for row in chunk for value in row))
