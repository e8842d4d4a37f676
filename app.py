"""Warehouse service: the app factory, and `python app.py`, which serves it with waitress."""
import argparse
import logging
import os
import sys
from decimal import Decimal

from flask import Flask, request
from flask.json.provider import DefaultJSONProvider
from sqlalchemy.engine import make_url
from werkzeug.exceptions import HTTPException

import auth
import cache
import cli
import logs
import routes
from db import configure_sqlite, db, sqlite_file
from errors import ServiceError

log = logging.getLogger("warehouse")

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
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL", "sqlite:///warehouse.db"),
        ALLOW_NEGATIVE_STOCK=os.environ.get("WAREHOUSE_ALLOW_NEGATIVE_STOCK", "0") not in ("", "0", "false"),
        ACQUIRE_TIMEOUT=int(os.environ.get("WAREHOUSE_ACQUIRE_TIMEOUT", "1800")),
        MAX_CONTENT_LENGTH=int(os.environ.get("WAREHOUSE_MAX_BODY", str(10 * 1024 * 1024))),
    )
    if test_config:
        app.config.update(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])

    db.init_app(app)
    # A flask command that does not make databases must not make a missing SQLite file (cli.py).
    cli.open_database_unless_refused(app, lambda: open_database(app))

    # Scanners call /v1/products and /v1/products/ alike; a redirect would be an HTML page.
    app.url_map.strict_slashes = False
    app.wsgi_app = logs.AccessLog(app.wsgi_app)
    routes.register(app)
    register_error_handlers(app)
    cli.register(app)
    return app


def open_database(app: Flask) -> None:
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            configure_sqlite(db.engine)
        import models  # noqa: F401  (the tables must be known before create_all)
        db.create_all()
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
        code = HTTP_CODES.get(error.code, "error")
        response = error_body(error.code, code, error.description or error.name)
        if error.code == 405 and error.valid_methods:
            return *response, {"Allow": ", ".join(error.valid_methods)}
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_body(500, "internal_error", "The service failed; the error is logged.")


def serve(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Serve the warehouse service with waitress.")
    parser.add_argument("--host", default=os.environ.get("WAREHOUSE_HOST", "0.0.0.0"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("WAREHOUSE_PORT", "8000")))
    parser.add_argument("--threads", type=int, default=int(os.environ.get("WAREHOUSE_THREADS", "4")))
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)

    logs.configure()
    config = {"SQLALCHEMY_DATABASE_URI": args.database_url} if args.database_url else None
    app = create_app(config)
    with app.app_context():
        try:
            new_key = auth.bootstrap(db.session, os.environ.get("WAREHOUSE_API_KEY"))
        except auth.KeyRefused as refused:
            sys.exit(f"Refusing to start: {refused}")
    if new_key:
        print("No API key existed, so an admin key was made. It is shown only this once:", flush=True)
        print(f"  TS-Apikey: {new_key}", flush=True)
    log.info("serving on http://%s:%s with %s threads, database %s", args.host, args.port,
             args.threads, make_url(app.config["SQLALCHEMY_DATABASE_URI"]).render_as_string())

    import serving
    # waitress keeps its own (1 GB) body limit, so that Flask answers an oversized
    # body with the JSON 413 first.
    serving.serve(app, host=args.host, port=args.port, threads=args.threads)


if __name__ == "__main__":
    serve()
