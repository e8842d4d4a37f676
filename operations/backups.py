"""Backups of the database (DESIGN 12), beside the service: the automatic ones, rotation,
restoring one, and the commands `flask backup` and `flask restore`.

Taking and checking a copy is safekeeping/'s business (the backups page takes one the same
way); what is here runs only from the service's start or a terminal.
"""
import glob
import logging
import os
import sqlite3
import threading
import time

import click
from flask import current_app
from flask.cli import with_appcontext

from operations import logs, settings, upgrades
from safekeeping import depot
from safekeeping.backups import (BEFORE_RESTORE, automatic_backups, backup_dir, check_sqlite_copy,
                                 identity_of_backup, make_backup, new_backup_path, read_only, take_backup)
from safekeeping.copies import BackupFailed, copy_sqlite
from safekeeping.postgresql import pg_dump, pg_restore
from stock.audit import cli_actor
from storage import cache
from storage.db import db, sqlite_file

log = logging.getLogger("warehouse")
audit = logging.getLogger("warehouse.audit")


# --- keep the newest --------------------------------------------------------------------------

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
    path = take_backup(engine, new_backup_path(app.config), app.config.get("DEPOT_NAME"))
    for old in rotate(backup_dir(app.config), app.config["BACKUP_KEEP"]):
        log.info("backup %s removed: only the newest %s are kept", old, app.config["BACKUP_KEEP"])
    return path


def seconds_since_last_automatic(app) -> float | None:
    """How long ago the newest automatic backup was written; None when there is none."""
    newest = automatic_backups(backup_dir(app.config))
    if not newest:
        return None
    return max(0.0, time.time() - os.path.getmtime(newest[-1]))


def remove_partials(app) -> list[str]:
    """Remove the `.partial` files a backup killed half-way left in the backup folder and its
    subfolders (a restart loop would otherwise fill the disk with them); those removed."""
    folder = backup_dir(app.config)
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


# --- the commands -----------------------------------------------------------------------------

@click.command("backup")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
@with_appcontext
def backup_command(path):
    """Write a checked copy of the database while the service runs; its path on the last line."""
    app = current_app
    try:
        written = make_backup(app.config, db.session, cli_actor(), path)
    except BackupFailed as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"A backup of {depot.describe(depot.identity(db.engine))}.", err=True)
    click.echo("The copy passed integrity_check and the balance check." if sqlite_file(db.engine.url)
               else "pg_dump wrote the copy and pg_restore can read it.", err=True)
    click.echo(written)


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
        kept = new_backup_path(app.config, "-before-restore", kind=BEFORE_RESTORE)
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
