"""Backups of the database (DESIGN 12): take one, check it, keep the newest, restore one.

A SQLite backup is SQLite's online backup API in one step, never a file copy: a
copy of a live file can be torn, and a backup in small steps starts over at every
write of another connection, so in a busy depot it might never finish. Every copy
is checked (integrity_check, and balances equal to their documents) before it
counts. On PostgreSQL, pg_dump and pg_restore do the work.
"""
import glob
import logging
import os
import shutil
import sqlite3
import subprocess
import threading
import time
import urllib.parse
from datetime import datetime

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from operations import depot, logs, settings, upgrades
from operations.copies import BackupFailed, copy_sqlite
from stock import reports
from storage import cache
from storage.db import db, sqlite_file

log = logging.getLogger("warehouse")
audit = logging.getLogger("warehouse.audit")

PREFIX = "warehouse-"


# --- where ------------------------------------------------------------------------------------

def backup_dir(app) -> str:
    """WAREHOUSE_BACKUP_DIR, or `backups` beside a SQLite database (in the working directory
    for PostgreSQL); a relative setting is taken beside the database too, so that the
    service and a command run elsewhere agree."""
    configured = app.config.get("BACKUP_DIR") or "backups"
    database = sqlite_file(make_url(app.config["SQLALCHEMY_DATABASE_URI"]))
    base = os.path.dirname(database) if database else os.getcwd()
    return os.path.join(base, configured)


# Copies that are not automatic live in folders of their own inside the backup folder, so
# that rotation, which counts only the automatic ones beside them, never removes one.
MANUAL = "manual"
BEFORE_RESTORE = "before-restore"


def new_backup_path(app, label: str = "", kind: str | None = None) -> str:
    """A free name for a new copy: automatic ones (kind None) in the backup folder, the others
    in its subfolder `kind` (MANUAL, BEFORE_RESTORE)."""
    sqlite = sqlite_file(make_url(app.config["SQLALCHEMY_DATABASE_URI"])) is not None
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = backup_dir(app) if kind is None else os.path.join(backup_dir(app), kind)
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
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
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


def identity_of_backup(path: str) -> dict | None:
    """The depot identity a backup (SQLite copy or pg_dump file) holds; None if it has none."""
    with open(path, "rb") as file:
        sqlite = file.read(16) == b"SQLite format 3\x00"
    return depot.of_sqlite_copy(path) if sqlite else depot.of_dump(_pg_tool("pg_restore"), path)


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


# --- keep the newest --------------------------------------------------------------------------

def automatic_backups(folder: str) -> list[str]:
    """The automatic backups in `folder`, oldest first (their names hold the time)."""
    ours = sorted(glob.glob(os.path.join(glob.escape(folder), f"{PREFIX}*")), key=os.path.basename)
    return [path for path in ours if path.endswith((".db", ".dump"))]


def rotate(folder: str, keep: int) -> list[str]:
    """Remove all but the newest `keep` automatic backups in `folder`; those removed.

    Manual copies and those made before a restore (in their subfolders) and before an
    upgrade (beside the database) are never counted here."""
    ours = automatic_backups(folder)
    removed = ours[:-keep] if keep > 0 else []
    for path in removed:
        os.remove(path)
    return removed


def backup_and_rotate(app, engine) -> str:
    path = take_backup(engine, new_backup_path(app), app.config.get("DEPOT_NAME"))
    for old in rotate(backup_dir(app), app.config["BACKUP_KEEP"]):
        log.info("backup %s removed: only the newest %s are kept", old, app.config["BACKUP_KEEP"])
    return path


def seconds_since_last_automatic(app) -> float | None:
    """How long ago the newest automatic backup was written; None when there is none."""
    newest = automatic_backups(backup_dir(app))
    if not newest:
        return None
    return max(0.0, time.time() - os.path.getmtime(newest[-1]))


def remove_partials(app) -> list[str]:
    """Remove the `.partial` files a backup killed half-way left in the backup folder and its
    subfolders (a restart loop would otherwise fill the disk with them); those removed."""
    folder = backup_dir(app)
    found = glob.glob(os.path.join(glob.escape(folder), "*.partial")) + \
        glob.glob(os.path.join(glob.escape(folder), "*", "*.partial"))
    removed = []
    for path in found:
        try:
            os.remove(path)
            removed.append(path)
        except FileNotFoundError:
            pass
    return removed


class Automatic:
    """The service's own backups: every BACKUP_HOURS (0: never), the first at start-up only
    when the newest automatic backup is older than that, so a service restarted again and
    again never rotates the good backups away.

    A failed backup is logged and the service goes on.
    """

    def __init__(self, app, engine, turn: threading.Event | None = None):
        self.app, self.engine = app, engine
        # Set while this process holds the background lease (background/worker.py): of several
        # processes on one database, only that one backs up.
        self.turn = turn
        self.hours = app.config["BACKUP_HOURS"]
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="backups", daemon=True)

    def start(self) -> "Automatic":
        if self.hours > 0:
            self.thread.start()
        return self

    def stop(self, timeout: float = 60.0) -> bool:
        """Whether the thread ended within `timeout` (a backup under way is finished first)."""
        self.stopping.set()
        if self.thread.is_alive():
            self.thread.join(timeout)
        return not self.thread.is_alive()

    def _run(self) -> None:
        since = seconds_since_last_automatic(self.app)
        if since is not None and since < self.hours * 3600:
            log.info("the last automatic backup is %.1f hour(s) old: the next one in %.1f hour(s)",
                     since / 3600, self.hours - since / 3600)
            if self.stopping.wait(self.hours * 3600 - since):
                return
        while not self.stopping.is_set():
            if self.turn is not None and not self.turn.is_set():
                self.stopping.wait(1.0)
                continue
            try:
                log.info("backup written to %s", backup_and_rotate(self.app, self.engine))
            except Exception:
                log.exception("the automatic backup failed; the service goes on")
            if self.stopping.wait(self.hours * 3600):
                return


# --- restore ----------------------------------------------------------------------------------

def restore(engine, path: str) -> int:
    """Put the checked backup at `path` in place of the database, also while the service runs;
    how many batches booked since are gone."""
    before = batch_numbers(engine)
    if sqlite_file(engine.url) is None:
        pg_restore(engine, path)
    else:
        restore_sqlite(engine, path)
    cache.database_changed(engine)  # kept keys and products are forgotten
    return len(before - batch_numbers(engine))


def restore_sqlite(engine, path: str) -> None:
    check_sqlite_copy(path)
    source = read_only(path)
    try:
        live = sqlite3.connect(sqlite_file(engine.url), timeout=60)
        try:
            # Through SQLite, not over the file: the service's connections see the restored
            # pages at their next transaction, as they would another writer's.
            source.backup(live, pages=-1)
        finally:
            live.close()
    except sqlite3.Error as error:
        raise BackupFailed(f"the restore failed, the database is as it was: {error}") from error
    finally:
        source.close()


def batch_numbers(engine) -> set[int]:
    with engine.connect() as connection:
        numbers = set(connection.exec_driver_sql("SELECT batch_number FROM batches").scalars())
        connection.rollback()
    return numbers


# --- PostgreSQL ---------------------------------------------------------------------------------

def _pg_arguments(engine) -> tuple[list[str], dict]:
    """libpq arguments and environment for pg_dump/pg_restore naming the engine's database."""
    url = engine.url
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = url.password
    args = ["--host", url.host or "127.0.0.1", "--port", str(url.port or 5432),
            "--username", url.username or "postgres", "--dbname", url.database]
    schema = _search_path(engine)
    return args + (["--schema", schema] if schema else []), env


def _search_path(engine) -> str | None:
    """The one schema the service works in, when its connections set a search_path."""
    with engine.connect() as connection:
        path = connection.exec_driver_sql("SHOW search_path").scalar()
        connection.rollback()
    first = path.split(",")[0].strip().strip('"')
    return None if first in ("$user", "public") else first


def _pg_tool(name: str) -> str:
    tool = shutil.which(name)
    if tool is None:
        raise BackupFailed(f"{name} is not installed: install PostgreSQL's client programs "
                           f"(Debian: apt-get install postgresql-client) and run the command again")
    return tool


def pg_dump(engine, path: str) -> None:
    args, env = _pg_arguments(engine)
    partial = f"{path}.partial"
    done = subprocess.run([_pg_tool("pg_dump"), "--format=custom", "--file", partial, *args],
                          env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        if os.path.exists(partial):
            os.remove(partial)
        raise BackupFailed(f"pg_dump failed: {done.stderr.strip()}")
    listing = subprocess.run([_pg_tool("pg_restore"), "--list", partial], capture_output=True,
                             text=True, timeout=600)
    if listing.returncode != 0 or "TABLE DATA" not in listing.stdout:
        os.remove(partial)
        raise BackupFailed(f"the dump cannot be read back: {listing.stderr.strip()}")
    os.replace(partial, path)


def pg_restore(engine, path: str) -> None:
    args, env = _pg_arguments(engine)
    done = subprocess.run([_pg_tool("pg_restore"), "--clean", "--if-exists", "--single-transaction",
                           "--no-owner", *args, path], env=env, capture_output=True, text=True,
                          timeout=3600)
    if done.returncode != 0:
        raise BackupFailed(f"pg_restore failed, the database is as it was: {done.stderr.strip()}")


# --- the commands -----------------------------------------------------------------------------

@click.command("backup")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
@with_appcontext
def backup_command(path):
    """Write a checked copy of the database while the service runs; its path on the last line."""
    app = current_app
    try:
        written = take_backup(db.engine, path or new_backup_path(app, kind=MANUAL), app.config.get("DEPOT_NAME"))
    except BackupFailed as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"A backup of {depot.describe(depot.identity(db.engine))}.", err=True)
    click.echo("The copy passed integrity_check and the balance check." if sqlite_file(db.engine.url)
               else "pg_dump wrote the copy and pg_restore can read it.", err=True)
    click.echo(os.path.abspath(written))


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--other-depot", is_flag=True,
              help="Restore even though the backup is of another depot than this database's.")
@with_appcontext
def restore_command(path, other_depot):
    """Put a backup in place of the database, also while the service runs."""
    app = current_app
    try:
        if sqlite_file(db.engine.url):
            check_sqlite_copy(path)
        theirs, ours = identity_of_backup(path), depot.identity_if_any(db.engine)
        if theirs and ours and theirs["id"] != ours["id"] and not other_depot:
            raise BackupFailed(
                f"{path} is a backup of {depot.describe(theirs)}, not of this database's "
                f"{depot.describe(ours)}. Nothing was changed. If you mean to replace this depot's "
                f"data with the other's, run the command again with --other-depot.")
        # Unchecked: a database that fails the checks is just the one an operator replaces.
        kept = new_backup_path(app, "-before-restore", kind=BEFORE_RESTORE)
        os.makedirs(os.path.dirname(kept), exist_ok=True)
        copy_sqlite(db.engine, kept) if sqlite_file(db.engine.url) else pg_dump(db.engine, kept)
        lost = restore(db.engine, path)
        upgrades.upgrade_database(app, who=logs.who("flask restore"))  # a backup of an older release
    except (BackupFailed, upgrades.UpgradeRefused) as error:
        raise click.ClickException(str(error)) from None
    config = settings.server_config()
    logs.configure_for_command(config["log_file"], config["log_max_mb"], config["log_keep"])
    audit.info("database restored from %s (%s) by %s; %d batch(es) booked after that backup are gone; "
               "the database before the restore is %s", os.path.abspath(path), depot.describe(theirs),
               logs.who("flask restore"),
               lost, kept)
    click.echo(f"Restored from {path}, a backup of {depot.describe(theirs)}. {lost} batch(es) booked "
               f"after that backup are gone; the database as it was before is kept in {kept}.")
