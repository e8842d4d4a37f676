"""pg_dump and pg_restore for a depot on PostgreSQL: a backup is a dump in pg_dump's custom format.

A dump is written beside its target and renamed when pg_restore can read it back, so a dump
cut short never looks like a backup.
"""
import os
import shutil
import subprocess

from safekeeping.copies import BackupFailed


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


def pg_tool(name: str) -> str:
    tool = shutil.which(name)
    if tool is None:
        raise BackupFailed(f"{name} is not installed: install PostgreSQL's client programs "
                           f"(Debian: apt-get install postgresql-client) and run the command again")
    return tool


def pg_dump(engine, path: str) -> None:
    args, env = _pg_arguments(engine)
    partial = f"{path}.partial"
    done = subprocess.run([pg_tool("pg_dump"), "--format=custom", "--file", partial, *args],
                          env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        if os.path.exists(partial):
            os.remove(partial)
        raise BackupFailed(f"pg_dump failed: {done.stderr.strip()}")
    listing = subprocess.run([pg_tool("pg_restore"), "--list", partial], capture_output=True,
                             text=True, timeout=600)
    if listing.returncode != 0 or "TABLE DATA" not in listing.stdout:
        os.remove(partial)
        raise BackupFailed(f"the dump cannot be read back: {listing.stderr.strip()}")
    os.replace(partial, path)


def pg_restore(engine, path: str) -> None:
    args, env = _pg_arguments(engine)
    done = subprocess.run([pg_tool("pg_restore"), "--clean", "--if-exists", "--single-transaction",
                           "--no-owner", *args, path], env=env, capture_output=True, text=True,
                          timeout=3600)
    if done.returncode != 0:
        raise BackupFailed(f"pg_restore failed, the database is as it was: {done.stderr.strip()}")


def missing_tools() -> list[str]:
    """The PostgreSQL client programs a backup and a restore need that this machine lacks."""
    return [name for name in ("pg_dump", "pg_restore") if shutil.which(name) is None]
