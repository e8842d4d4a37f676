"""A whole, consistent copy of a SQLite database file: what backups and upgrades both take.

safekeeping/backups.py copies the database for a backup, operations/backups.py before a
restore, operations/upgrades.py before a migration changes it. All stand on this module.
"""
import os
import sqlite3

from storage.db import sqlite_file


class BackupFailed(Exception):
    """The backup or restore did not happen, or its copy is not sound; the message says why."""


def copy_sqlite(engine, target: str) -> None:
    """A consistent copy of the engine's SQLite file, taken while others read and write.

    One step (pages=-1): the copy reads one snapshot under a read lock, and writers
    go on meanwhile in WAL mode. The copy is written beside its target and renamed,
    so a copy cut short never looks like a backup.
    """
    partial = f"{target}.partial"
    if os.path.exists(partial):
        os.remove(partial)
    source = sqlite3.connect(sqlite_file(engine.url), timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy, pages=-1)
            # One file, whole without a -wal beside it.
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    except sqlite3.Error as error:
        if os.path.exists(partial):
            os.remove(partial)
        raise BackupFailed(f"the copy failed: {error}") from error
    finally:
        source.close()
    os.replace(partial, target)
