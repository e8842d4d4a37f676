"""Bring a database to the newest migration (DESIGN 11), at start-up and by `flask db upgrade`.

Three kinds of database arrive here: an empty one, which the migrations build;
one made by the release before migrations (its tables, no `alembic_version`),
which is recognised as the first migration; and one that some release has
migrated, which goes on from where it stands. One that stands at a revision
this code does not know was upgraded by a newer release and is refused: the
code would misread its tables.
"""
import logging
import os

import click
import flask_migrate.cli
from alembic import command
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy import inspect

from operations import logs, settings
from safekeeping.copies import copy_sqlite
from storage.db import db, sqlite_file

# Services start in any working directory (systemd, a scheduled task): never a relative path.
MIGRATIONS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "migrations")

# The first migration is the schema db.create_all made before migrations existed.
FIRST_REVISION = "6a1d3f0c2b71"
FIRST_TABLES = frozenset({
    "api_keys", "products", "packaging", "customers", "order_documents", "order_items", "batches",
    "batch_items", "batch_extras", "warehouse_documents", "warehouse_document_items", "balances",
    "stocktakings", "stocktaking_items", "counters"})

audit = logging.getLogger("warehouse.audit")


class UpgradeRefused(Exception):
    """The database cannot be brought to this code's schema; the message says why."""


def scripts() -> ScriptDirectory:
    return ScriptDirectory(MIGRATIONS)


def alembic_config():
    # Alembic's own commands, not Flask-Migrate's wrappers: those end the process on a failure.
    return current_app.extensions["migrate"].migrate.get_config(MIGRATIONS)


def where(engine) -> tuple[str | None, set[str]]:
    """(the revision the database stands at, the tables it has)."""
    with engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
        tables = set(inspect(connection).get_table_names())
        connection.rollback()
    return current, tables


def upgrade_database(app, who: str) -> str | None:
    """Bring the app's database to the newest migration; the revision it came from, or None
    if it was already there. `who` names the caller in the log (a command, `python app.py`)."""
    with app.app_context():
        engine = db.engine
        head = scripts().get_current_head()
        current, tables = where(engine)
        if current is None and tables & FIRST_TABLES:
            current = _recognise_first_release(tables, who)
        elif current is not None and _unknown(current):
            raise UpgradeRefused(
                f"the database stands at migration {current}, which this release does not know: "
                f"a newer release upgraded it. Run that release, or restore a backup made before "
                f"that upgrade.")
        if current == head:
            return None
        before = _copy_before_upgrade(engine, head, has_data=current is not None)
        command.upgrade(alembic_config(), "head")
        audit.info("database upgraded from %s to %s by %s%s", current or "empty", head, who,
                   f"; the database before it is {before}" if before else "")
        return current or "empty"


def _unknown(revision: str) -> bool:
    try:
        return scripts().get_revision(revision) is None
    except CommandError:  # a revision no migration file has
        return True


def _recognise_first_release(tables: set[str], who: str) -> str:
    missing = FIRST_TABLES - tables
    if missing:
        raise UpgradeRefused(
            f"the database has some of the warehouse's tables but not {', '.join(sorted(missing))}, "
            f"and no migration mark: it is not one this service made. Nothing was changed.")
    command.stamp(alembic_config(), FIRST_REVISION)
    audit.info("database made by the release before migrations recognised as migration %s by %s",
               FIRST_REVISION, who)
    return FIRST_REVISION


def _copy_before_upgrade(engine, head: str, has_data: bool) -> str | None:
    """Copy a SQLite file that holds data to `<file>.before-<head>`; the copy's path."""
    path = sqlite_file(engine.url)
    if not has_data or path is None:
        return None
    target = f"{path}.before-{head}"
    copy_sqlite(engine, target)
    return target


@click.command("upgrade")
@with_appcontext
def upgrade_command():
    """Bring the database to the newest migration, as `python app.py` does at start."""
    config = settings.server_config()
    logs.configure_for_command(config["log_file"], config["log_max_mb"], config["log_keep"])
    logging.getLogger("alembic").setLevel(logging.INFO)  # its progress, as `flask db` shows it
    try:
        came_from = upgrade_database(current_app, who=logs.who("flask db upgrade"))
    except UpgradeRefused as refused:
        raise click.ClickException(str(refused)) from None
    head = scripts().get_current_head()
    click.echo(f"The database was {'empty' if came_from == 'empty' else 'at ' + came_from}; now at {head}."
               if came_from
               else f"The database is already at the newest migration, {head}.")


def db_commands() -> click.Group:
    """Flask-Migrate's `db` commands, with `upgrade` replaced by the one above, which also
    recognises a database of the release before migrations and copies a SQLite file first."""
    group = flask_migrate.cli.db
    return click.Group(name="db", help=group.help, params=group.params, callback=group.callback,
                       commands={**group.commands, "upgrade": upgrade_command})
