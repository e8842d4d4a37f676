"""Backups of the database (DESIGN 12): where they go, taking and checking one, the list of those kept.

A SQLite backup is SQLite's online backup API in one step, never a file copy: a
copy of a live file can be torn, and a backup in small steps starts over at every
write of another connection, so in a busy depot it might never finish. Every copy
is checked (integrity_check, and balances equal to their documents) before it
counts. On PostgreSQL, pg_dump does the work (postgresql.py).

`config` is the service's configuration (SQLALCHEMY_DATABASE_URI, BACKUP_DIR, DEPOT_NAME), as
the app holds it; nothing here needs the app itself.
"""
import glob
import logging
import os
import shlex
import sqlite3
import time
import urllib.parse
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from safekeeping import depot
from safekeeping.copies import BackupFailed, copy_sqlite
from safekeeping.postgresql import pg_dump, pg_tool
from stock import audit, reports
from stock.errors import NotFound
from storage.db import sqlite_file, writing

log = logging.getLogger("warehouse")

PREFIX = "warehouse-"
# Copies that are not automatic live in folders of their own inside the backup folder, so
# that rotation, which counts only the automatic ones beside them, never removes one.
MANUAL = "manual"
BEFORE_RESTORE = "before-restore"
# What the list calls each kind of copy; before-upgrade copies lie beside the database itself.
AUTOMATIC, BEFORE_UPGRADE = "automatic", "before-upgrade"
KINDS = (AUTOMATIC, MANUAL, BEFORE_RESTORE, BEFORE_UPGRADE)


# --- where ------------------------------------------------------------------------------------

def database_file(config) -> str | None:
    """The SQLite file of the configuration's database; None on PostgreSQL."""
    return sqlite_file(make_url(config["SQLALCHEMY_DATABASE_URI"]))


def backup_dir(config) -> str:
    """WAREHOUSE_BACKUP_DIR, or `backups` beside a SQLite database (in the working directory
    for PostgreSQL); a relative setting is taken beside the database too, so that the
    service and a command run elsewhere agree."""
    configured = config.get("BACKUP_DIR") or "backups"
    database = database_file(config)
    base = os.path.dirname(database) if database else os.getcwd()
    return os.path.join(base, configured)


def new_backup_path(config, label: str = "", kind: str | None = None) -> str:
    """A free name for a new copy: automatic ones (kind None) in the backup folder, the others
    in its subfolder `kind` (MANUAL, BEFORE_RESTORE)."""
    sqlite = database_file(config) is not None
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = backup_dir(config) if kind is None else os.path.join(backup_dir(config), kind)
    for n in range(1000):  # two backups in one second get -1, -2...
        name = f"{PREFIX}{stamp}{label}{f'-{n}' if n else ''}{'.db' if sqlite else '.dump'}"
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            return path
    raise BackupFailed(f"no free backup name in {folder}")


# --- take, check ------------------------------------------------------------------------------

def take_backup(engine, path: str, depot_name: str | None = None) -> str:
    """A checked copy of the database at `path`; the path. Raises BackupFailed.

    The copy carries the depot's identity (made now if the database has none yet, named
    `depot_name`), so that a restore can tell whose backup it is."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise BackupFailed(f"no backup can be written in {folder}: {error.strerror or error}") from None
    made = depot.identity(engine, depot_name)
    if sqlite_file(engine.url) is None:
        pg_dump(engine, path)
        return path
    started = time.monotonic()
    copy_sqlite(engine, path)
    copied = time.monotonic()
    try:
        check_sqlite_copy(path)
    except BackupFailed:
        os.remove(path)
        raise
    log.info("backup %s of %s: copied in %.1f s, checked in %.1f s", path, depot.describe(made),
             copied - started, time.monotonic() - copied)
    return path


def make_backup(config, session, actor: audit.Actor, path: str | None = None) -> str:
    """A backup made on purpose (`flask backup`, the backups page): checked, kept apart from the
    automatic ones (never rotated away) unless `path` says where, and one `backup.create` row in
    the audit trail. The absolute path of the copy; BackupFailed when there is none."""
    written = os.path.abspath(take_backup(session.get_bind(), path or new_backup_path(config, kind=MANUAL),
                                          config.get("DEPOT_NAME")))
    with writing(session):
        audit.record(session, actor, "backup.create", os.path.basename(written),
                     {"path": [None, written], "size": [None, os.path.getsize(written)]})
    return written


def identity_of_backup(path: str) -> dict | None:
    """The depot identity a backup (SQLite copy or pg_dump file) holds; None if it has none."""
    with open(path, "rb") as file:
        sqlite = file.read(16) == b"SQLite format 3\x00"
    return depot.of_sqlite_copy(path) if sqlite else depot.of_dump(pg_tool("pg_restore"), path)


def read_only(path: str) -> sqlite3.Connection:
    """A connection that can neither change the file nor make one where none is."""
    return sqlite3.connect(f"file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro", uri=True)


def check_sqlite_copy(path: str) -> None:
    """integrity_check, then every balance equal to its warehouse documents (`flask check`)."""
    if not os.path.isfile(path):
        raise BackupFailed(f"{path} is not a file")
    try:
        connection = read_only(path)
        try:
            result = connection.execute("PRAGMA integrity_check").fetchall()
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise BackupFailed(f"{path} is not a SQLite database: {error}") from error
    if result != [("ok",)]:
        raise BackupFailed(f"{path} fails integrity_check: {result[:5]}")
    engine = create_engine("sqlite://", creator=lambda: read_only(path))
    try:
        with Session(engine) as session:
            differences = reports.balance_differences(session)
    except Exception as error:
        raise BackupFailed(f"{path} is not a warehouse database: {error}") from error
    finally:
        engine.dispose()
    if differences:
        raise BackupFailed(f"{path}: {len(differences)} balance(s) differ from the warehouse documents")


# --- the copies kept ----------------------------------------------------------------------------

def automatic_backups(folder: str) -> list[str]:
    """The automatic backups in `folder`, oldest first (their names hold the time)."""
    ours = sorted(glob.glob(os.path.join(glob.escape(folder), f"{PREFIX}*")), key=os.path.basename)
    return [path for path in ours if path.endswith((".db", ".dump"))]


@dataclass(frozen=True)
class Kept:
    """One copy of the database on disk: its kind (KINDS), file name, path, size and time."""

    kind: str
    name: str
    path: str
    size: int
    written: datetime  # UTC, from the file's modification time


def list_backups(config) -> list[Kept]:
    """Every copy the service made and keeps, newest first: automatic, manual, before a restore
    and (beside a SQLite database) before an upgrade. A copy written elsewhere by
    `flask backup PATH` is the operator's own and not listed."""
    folder = backup_dir(config)
    found = [(AUTOMATIC, path) for path in automatic_backups(folder)]
    for kind in (MANUAL, BEFORE_RESTORE):
        found += [(kind, path) for path in automatic_backups(os.path.join(folder, kind))]
    database = database_file(config)
    if database:
        pattern = f"{glob.escape(os.path.basename(database))}.before-*"
        found += [(BEFORE_UPGRADE, path) for path in glob.glob(os.path.join(glob.escape(os.path.dirname(database)),
                                                                             pattern))
                  if not path.endswith(".partial")]
    kept = []
    for kind, path in found:
        try:
            stat = os.stat(path)
        except FileNotFoundError:  # rotated away since the folder was read
            continue
        kept.append(Kept(kind, os.path.basename(path), os.path.abspath(path), stat.st_size,
                         datetime.fromtimestamp(stat.st_mtime, timezone.utc)))
    return sorted(kept, key=lambda copy: (copy.written, copy.name), reverse=True)


def find_backup(config, kind: str, name: str) -> Kept:
    """The listed copy of that kind and file name; NotFound for any other (a name is never a path)."""
    for copy in list_backups(config):
        if copy.kind == kind and copy.name == name:
            return copy
    raise NotFound(f"No {kind} backup named {name!r}.")


def restore_command(config, path: str, flask_program: str, folder: str) -> str:
    """The terminal command that restores the copy at `path` into this service's database: run in
    the service's folder, by its flask program, on its DATABASE_URL (a password shown as ***) and
    its backup folder (where the copy of the database before the restore goes).

    A restore stays on the terminal (DESIGN 12): it replaces every booking made since the copy,
    and the person who does that should see the command's answer, not a page's."""
    url = make_url(config["SQLALCHEMY_DATABASE_URI"]).render_as_string(hide_password=True)
    return (f"cd {shlex.quote(folder)} && DATABASE_URL={shlex.quote(url)} "
            f"WAREHOUSE_BACKUP_DIR={shlex.quote(backup_dir(config))} {shlex.quote(flask_program)} "
            f"--app app restore {shlex.quote(path)}")
