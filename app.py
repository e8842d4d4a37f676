"""Warehouse service: the app factory, and `python app.py`, which serves it with waitress."""
import argparse
import logging
import os
import sys
from decimal import Decimal

from flask import Flask, request
from flask.json.provider import DefaultJSONProvider
from flask_migrate import Migrate
from sqlalchemy.engine import make_url
from werkzeug.exceptions import HTTPException

from identity import api_keys, people
import language
import page_policy
import pages
import routes
import scanner
from background.worker import BackgroundWork
from operations import backups, cli, compression, logs, presence, serving, settings, upgrades
from safekeeping import depot
from safekeeping.backups import backup_dir
from stock.audit import cli_actor
from stock.errors import ServiceError, SettingError, Unavailable
from storage import cache, outage
from storage.db import (checkpoint, configure_postgresql, configure_sqlite, db, postgresql_connect_args,
                        sqlite_file, storage_fault)
from version import VERSION

log = logging.getLogger("warehouse")
migrate = Migrate()

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 413: "payload_too_large",
              415: "bad_request", 422: "validation_error"}


class JSONProvider(DefaultJSONProvider):
    """Reads JSON numbers with fractions as Decimal, so 0.1 stays exactly 0.1."""

    sort_keys = False

    def loads(self, s, **kwargs):
        kwargs.setdefault("parse_float", Decimal)
        return super().loads(s, **kwargs)


def database_url(url: str) -> str:
    """Put a relative SQLite file in the working directory, and use psycopg 3 for PostgreSQL.

    Any other URL is returned as given (re-rendering would percent-encode ":memory:").
    """
    parsed = make_url(url)
    path = sqlite_file(parsed)
    if path and not os.path.isabs(path):
        return parsed.set(database=os.path.abspath(path)).render_as_string(hide_password=False)
    if parsed.drivername in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return url


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.json = JSONProvider(app)
    app.config.from_mapping(settings.app_config())
    if test_config:
        app.config.update(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    busy_timeout = app.config["BUSY_TIMEOUT"]
    if make_url(app.config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() == "postgresql":
        options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        options["connect_args"] = postgresql_connect_args(options.get("connect_args", {}), busy_timeout)
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options

    db.init_app(app)
    import models  # noqa: F401  (the tables must be known to the migrations' comparison)
    # The schema is the migrations' business (operations/upgrades.py), never create_all:
    # `flask --app app db current` must see a database as it is.
    migrate.init_app(app, db, directory=upgrades.MIGRATIONS, render_as_batch=True)
    # A flask command that does not make databases must not make a missing SQLite file (operations/cli.py).
    cli.open_database_unless_refused(app, lambda: open_database(app, busy_timeout))

    # Scanners call /v1/products and /v1/products/ alike; a redirect would be an HTML page.
    app.url_map.strict_slashes = False
    app.wsgi_app = logs.AccessLog(app.wsgi_app, app.config)
    routes.register(app)
    language.register(app)  # the pages', paper's and scanner's words (DESIGN 29); /v1 stays English
    pages.register(app)
    scanner.register(app)
    app.after_request(page_policy.secure)
    compression.register(app)  # the encoding changes no header the policy reads (the type)
    register_error_handlers(app)
    cli.register(app)
    return app


def open_database(app: Flask, busy_timeout: float) -> None:
    """The engine's settings, and the in-memory cache with its change mark beside a SQLite file."""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            configure_sqlite(db.engine, busy_timeout)
        else:
            configure_postgresql(db.engine, busy_timeout)
        app.extensions["warehouse_cache"] = cache.for_engine(db.engine, sqlite_file(db.engine.url))


def error_body(status: int, code: str, message: str, fields: dict | None = None):
    error = {"status": status, "code": code, "message": message}
    if fields:
        error["fields"] = _string_keys(fields)
    return {"error": error}, status


def _string_keys(value):
    # marshmallow keys list errors by int index; JSON wants every key a string.
    if isinstance(value, dict):
        return {str(k): _string_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_string_keys(v) for v in value]
    return value


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(error: ServiceError):
        return error_body(error.status, error.code, error.message, error.fields)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if pages.wants_a_page(request):
            return pages.error_page(error)
        code = HTTP_CODES.get(error.code, "error")
        response = error_body(error.code, code, error.description or error.name)
        if error.code == 405 and error.valid_methods:
            return *response, {"Allow": ", ".join(error.valid_methods)}
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        fault = storage_fault(error)
        if fault is not None:
            if outage.is_connection_lost(error):
                # Logged once for the whole outage, however many requests meet it.
                outage.refused(db.engine, error, f"{request.method} {request.path}")
            else:
                # The client is told what to do; the operator gets the traceback.
                log.warning("%s on %s %s", fault.code, request.method, request.path, exc_info=error)
            return storage_error(fault)
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_body(500, "internal_error", "The service failed; the error is logged.")


def storage_error(fault: ServiceError):
    body, status = error_body(fault.status, fault.code, fault.message)
    if isinstance(fault, Unavailable):
        return body, status, {"Retry-After": str(Unavailable.retry_after)}
    return body, status


def serve(argv=None) -> None:
    try:
        _serve(argv)
    except SettingError as error:
        sys.exit(f"Refusing to start: {error.message}")


def _serve(argv) -> None:
    defaults = settings.server_config()
    parser = argparse.ArgumentParser(
        description="Serve the warehouse service with waitress. Each option has an environment "
                    "variable too (named below); `flask --app app settings` lists every setting.")
    parser.add_argument("--host", default=defaults["host"],
                        help="address to listen on (WAREHOUSE_HOST; now %(default)s; 0.0.0.0 is every network)")
    parser.add_argument("--port", type=int, default=defaults["port"], help="port (WAREHOUSE_PORT; now %(default)s)")
    parser.add_argument("--threads", type=int, default=defaults["threads"],
                        help="requests served at once (WAREHOUSE_THREADS; now %(default)s)")
    parser.add_argument("--database-url", default=None,
                        help="the database (DATABASE_URL; default sqlite:///warehouse.db, a file in the "
                             "folder the service starts in)")
    parser.add_argument("--version", action="version", version=f"warehouse service {VERSION}")
    args = parser.parse_args(argv)

    logs.configure(defaults["log_file"], defaults["log_max_mb"], defaults["log_keep"], defaults["log_level"])
    # Caught before anything is written: a stop during start-up is kept until start-up ends,
    # and then the service stops as from serving (serving.catch_stop_signals).
    stop = serving.catch_stop_signals()
    # First the port: a service that cannot listen must stop before it writes anything.
    try:
        sock = serving.bind(args.host, args.port)
    except serving.PortInUse as refused:
        print(f"Refusing to start: {refused}", file=sys.stderr, flush=True)
        sys.exit(2)
    config = {"SQLALCHEMY_DATABASE_URI": args.database_url} if args.database_url else None
    app = create_app(config)
    try:
        upgrades.upgrade_database(app, who="python app.py")
    except upgrades.UpgradeRefused as refused:
        sys.exit(f"Refusing to start: {refused}")
    with app.app_context():
        try:
            new_key = api_keys.bootstrap(db.session, app.config["BOOTSTRAP_API_KEY"], cli_actor())
        except api_keys.KeyRefused as refused:
            sys.exit(f"Refusing to start: {refused}")
        first_password = people.bootstrap(db.session, cli_actor())
    if new_key:
        logs.audit.info("key 'admin' (admin) created by python app.py: no key existed")
        print("No API key existed, so an admin key was made. It is shown only this once:", flush=True)
        print(f"  TS-Apikey: {new_key}", flush=True)
    if first_password:
        logs.audit.info("person %r (admin) created by python app.py: nobody could sign in", people.FIRST_PERSON)
        print(f"Nobody could sign in to the pages, so the person {people.FIRST_PERSON!r} (role admin) was made. "
              "Its password is shown only this once:", flush=True)
        print(f"  name: {people.FIRST_PERSON}  password: {first_password}", flush=True)
    with app.app_context():
        made = depot.identity(db.engine, app.config["DEPOT_NAME"])
        running = presence.others(db.engine)
    # With another process running, a .partial may be its backup under way: left alone.
    for partial in [] if running else backups.remove_partials(app):
        log.info("removed %s, left by a backup that did not finish", partial)
    if stop.is_set():
        # Stopped during start-up: no thread is started only to be stopped (a backup due now
        # would hold the stop up for its whole length), nothing is served, and no start line
        # says it serves.
        close_storage(app)
        log.info("stopped during start-up, before serving")
        return
    address = f"http://{args.host}:{args.port}"
    # The start line: one line that says what runs, where, on what, and where its backups go.
    log.info("warehouse service %s serving on %s (%s threads), database %s, backups in %s, %s%s",
             VERSION, address, args.threads,
             make_url(app.config["SQLALCHEMY_DATABASE_URI"]).render_as_string(), backup_dir(app.config),
             depot.describe(made), f"; {presence.describe(running)}" if running else "")

    serving.settle_start_up()  # before the threads start: only start-up's own objects
    work = BackgroundWork(app).start()
    with app.app_context():
        here = presence.Presence(db.engine, address).start()
        automatic = backups.Automatic(app, db.engine, turn=work.held).start()

    def on_stop():
        # Every thread that writes stops (each within its bound) before the WAL is emptied and
        # the engine let go: a write after the checkpoint would stay in the -wal file.
        stopped = {"the automatic backup": automatic.stop(), "the background work": work.stop(),
                   "the presence row's refresh": here.stop()}
        close_storage(app, [name for name, done in stopped.items() if not done])

    # Room for every connection allowed, the database's files and the log.
    serving.allow_open_files(defaults["connection_limit"] + 100)
    serving.serve_until_stopped(app, sock, args.threads, stop, on_stop=on_stop, **serving.connection_adjustments(
        defaults["idle_timeout"], defaults["connection_limit"]))
    serving.skip_final_collections()  # the database is closed (on_stop)


def close_storage(app, still_running=()) -> None:
    """Once the last request is answered and the threads that write have stopped: the WAL into
    the database file, so that the `.db` file alone (copied to a USB stick, say) is the whole
    database after a stop. `still_running` names those that did not stop in time."""
    with app.app_context():
        result = checkpoint(db.engine)
        db.engine.dispose()
    if still_running:
        log.warning("%s did not stop in time and may still write%s", " and ".join(still_running),
                    "; the -wal file beside the database may then be part of it" if result is not None else "")
    if result is not None:
        busy, _wal_pages, _moved = result
        if busy:
            log.warning("the WAL could not be emptied into the database file: a request still under "
                        "way or another process has it open; the -wal file beside it is still part of "
                        "the database")
        elif not still_running:
            log.info("the WAL is emptied into the database file")


if __name__ == "__main__":
    serve()
