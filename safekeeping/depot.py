"""The depot's identity: a random id and a name, made once with the database and kept in it
(service_settings), so that a backup says which depot it is of (DESIGN 22).

`flask --app app restore` compares the backup's identity with the database's and refuses a
backup of another depot (the demo's, a neighbour's) unless told `--other-depot`. The name is
the depot profile's (stock/depot.py), which the office may change later.
"""
import re
import socket
import sqlite3
import subprocess
import uuid

from sqlalchemy import text

from stock.depot import ID, NAME
from storage.db import WRITE


def default_name() -> str:
    return f"Depot on {socket.gethostname()}"


def identity(engine, name: str | None = None) -> dict:
    """{"id", "name"} of the engine's database, made now if it has none (`name`, or
    WAREHOUSE_DEPOT_NAME's value passed in, or the machine's name)."""
    found = _read(engine)
    if found is not None:
        return found
    values = {ID: uuid.uuid4().hex, NAME: name or default_name()}
    with engine.connect().execution_options(**{WRITE: True}) as connection, connection.begin():
        for key, value in values.items():
            # Two processes starting at once: the first one's identity stays.
            connection.execute(text("INSERT INTO service_settings (name, value) VALUES (:n, :v) "
                                    "ON CONFLICT (name) DO NOTHING"), {"n": key, "v": value})
    return _read(engine)


def identity_if_any(engine) -> dict | None:
    """The identity the database has, without making one."""
    return _read(engine)


def _read(engine) -> dict | None:
    with engine.connect() as connection:
        rows = dict(connection.execute(text("SELECT name, value FROM service_settings WHERE name IN (:i, :n)"),
                                       {"i": ID, "n": NAME}).all())
        connection.rollback()
    return {"id": rows[ID], "name": rows.get(NAME, "")} if ID in rows else None


def describe(found: dict | None) -> str:
    return f"depot {found['name']!r} ({found['id']})" if found else "a depot of a release before depot identities"


def of_sqlite_copy(path: str) -> dict | None:
    """The identity a SQLite backup holds; None if it has none (made before identities)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = dict(connection.execute("SELECT name, value FROM service_settings WHERE name IN (?, ?)",
                                       (ID, NAME)).fetchall())
    except sqlite3.Error:
        return None
    finally:
        connection.close()
    return {"id": rows[ID], "name": rows.get(NAME, "")} if ID in rows else None


def of_dump(pg_restore: str, path: str) -> dict | None:
    """The identity a pg_dump backup holds: the rows of its service_settings table."""
    done = subprocess.run([pg_restore, "--data-only", "--table=service_settings", "--file=-", path],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return None
    block = re.search(r"^COPY \S*service_settings \(name, value\) FROM stdin;\n(.*?)^\\\.$",
                      done.stdout, re.S | re.M)
    if block is None:
        return None
    rows = dict(line.split("\t", 1) for line in block.group(1).splitlines() if "\t" in line)
    return {"id": rows[ID], "name": rows.get(NAME, "")} if ID in rows else None
