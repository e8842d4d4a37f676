"""Alembic's environment for the warehouse: run inside the app, on its engine.

Unlike Flask-Migrate's generated file it does not call the deprecated
`db.get_engine()`, keeps the loggers the service set up, and on SQLite turns
foreign keys off while a migration runs: batch mode rebuilds a table by copying it
and dropping the old one, which would cascade or fail with them on. The whole
upgrade is one transaction that first takes the writers' lock, and it is checked
with `PRAGMA foreign_key_check` before it commits.

It stands on the floor of models.py, above storage/: a migration is a writer and takes the
writers' lock as every writer does (storage.db), and operations/upgrades.py runs it. Nothing
below imports it, and the migrations in versions/ import nothing of the project
(tests/house/test_layout.py).
"""
import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

from storage.db import WRITE, lock_all_writers

config = context.config
if not logging.getLogger().handlers:
    # A bare `flask db ...`: show Alembic's progress. Inside the service (or pytest)
    # the loggers are set up already, and fileConfig would replace them.
    fileConfig(config.config_file_name, disable_existing_loggers=False)
log = logging.getLogger("alembic.env")

migrate = current_app.extensions["migrate"]
engine = migrate.db.engine
metadata = migrate.db.metadata


def skip_empty_autogenerate(context, revision, directives):
    """`db migrate` with no change in models.py writes no empty migration."""
    if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
        directives[:] = []
        log.info("No change in the models: no migration written.")


def run_offline():
    context.configure(url=engine.url.render_as_string(hide_password=False),
                      target_metadata=metadata, literal_binds=True, **migrate.configure_args)
    with context.begin_transaction():
        context.run_migrations()


def run_online():
    options = {"process_revision_directives": skip_empty_autogenerate, **migrate.configure_args}
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            # Outside any transaction: inside one SQLite ignores this pragma.
            connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
        try:
            # BEGIN IMMEDIATE on SQLite (db.configure_sqlite): no booking runs meanwhile.
            connection = connection.execution_options(**{WRITE: True})
            context.configure(connection=connection, target_metadata=metadata,
                              transactional_ddl=True, **options)
            with context.begin_transaction():
                if not sqlite:
                    lock_all_writers(connection)
                context.run_migrations()
                if sqlite and not context.is_offline_mode():
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:10]}")
        finally:
            if sqlite:
                connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")


if context.is_offline_mode():
    run_offline()
else:
    run_online()
