"""Backups of the database (DESIGN 12): take, check, rotate, restore."""
import os
import sqlite3

from db import sqlite_file


def copy_sqlite(engine, target: str) -> None:
    """A consistent copy of the engine's SQLite file, taken while others read and write.

    SQLite's online backup API in one step (pages=-1): it holds a read lock on the
    source for the whole copy, so it cannot be torn, and writers in WAL mode go on.
    A copy in small steps would start over at every write of another connection and,
    in a busy depot, might never finish.
    """
    source_path = sqlite_file(engine.url)
    partial = f"{target}.partial"
    if os.path.exists(partial):
        os.remove(partial)
    source = sqlite3.connect(source_path)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy, pages=-1)
            # The copy is one file, whole without a -wal beside it.
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    finally:
        source.close()
    os.replace(partial, target)
