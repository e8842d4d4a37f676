"""Blueprints, and what every route shares: the caller, the body, the query parameters."""
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps

from flask import current_app, g, request
from marshmallow import Schema, ValidationError
from werkzeug.routing import BaseConverter, IntegerConverter

from auth import RevokedKey, authenticate, hash_key
from db import Reader, db
from errors import BadRequest, Forbidden, Invalid, NotFound, invalid_field
from logs import KEY_NAME
from stock import Policy


def register(app) -> None:
    from routes import (api_description, batches, customers, docs, documents, health, inventory,
                        overview, products, stocktakings)

    app.url_map.converters["code"] = CodeConverter
    app.url_map.converters["number"] = NumberConverter
    app.before_request(check_request)
    app.teardown_request(close_reader)
    for module in (health, products, customers, documents, batches, docs, stocktakings,
                   inventory, overview):
        app.register_blueprint(module.bp)
    api_description.register(app)


class NumberConverter(IntegerConverter):
    """A batch or document number: beyond the 64-bit column none can exist, so 404 from routing."""

    def __init__(self, url_map):
        super().__init__(url_map, max=2 ** 63 - 1)


class CodeConverter(BaseConverter):
    """A code as the rest of the path: any characters, slashes included, even a leading one.

    Werkzeug's `path` converter refuses a leading slash (and the router then
    redirects `//` to `/`), so a product code "/A" could not be reached.
    """

    regex = ".+"
    part_isolating = False


# Under /v1 but read without a key: integrators fetch the description before they have one.
PUBLIC_PATHS = frozenset({"/v1/openapi.json"})


def check_request():
    """Before every request: the caller's key on /v1, then no NUL where none can be."""
    path = request.path
    if (path.startswith("/v1/") or path == "/v1") and path not in PUBLIC_PATHS:
        key = request.headers.get("TS-Apikey")
        try:
            g.caller = cached(("key", hash_key(key or "")), lambda: authenticate(reader(), key))
        except RevokedKey as revoked:
            # So the operator sees which revoked scanner still calls.
            request.environ[KEY_NAME] = revoked.name
            raise
        request.environ[KEY_NAME] = g.caller.name
    refuse_nul(path)


def close_reader(_error=None):
    reader = g.pop("reader", None)
    if reader is not None:
        reader.close()


def cached(key, load):
    """What load() reads from the database, kept in memory until the database changes (cache.py).

    The value is shared between requests and threads: answer it, never change it.
    """
    return current_app.extensions["warehouse_cache"].get(key, load)


def requires(role: str):
    """Let the view run only for keys of at least this role."""

    def decorate(view):
        @wraps(view)
        def guarded(*args, **kwargs):
            if not g.caller.has_role(role):
                raise Forbidden(f"This needs a key of role {role} or above.")
            return view(*args, **kwargs)

        return guarded

    return decorate


@dataclass(frozen=True)
class Operation:
    """What a /v1 view declares: who may call it and what it takes and answers.

    The role and the query are enforced here; the rest describes the view for
    the API document (routes/api_description.py), which lists every status here.
    """

    role: str
    query: Schema
    body: Schema | None = None
    answer: Schema | None = None
    status: int = 200
    errors: tuple = ()


def operation(role: str, query: Schema | None = None, body: Schema | None = None,
              answer: Schema | None = None, status: int = 200, errors: tuple = ()):
    """Declare a /v1 view: its role, query, body and answer schemas and its own error statuses.

    Every view checks its query the same way: parameters it does not name are
    refused (422), as unknown body fields are; the loaded query is `query_args()`.
    """
    declared = Operation(role, query or NO_QUERY, body, answer, status, tuple(errors))
    # A product read comes by the thousand a minute: with no query and none required, no load.
    may_be_empty = not any(field.required for field in declared.query.fields.values())

    def decorate(view):
        @wraps(view)
        def guarded(*args, **kwargs):
            if not g.caller.has_role(role):
                raise Forbidden(f"This needs a key of role {role} or above.")
            g.query = {} if may_be_empty and not request.query_string else load_query(declared.query)
            return view(*args, **kwargs)

        guarded.operation = declared
        return guarded

    return decorate


class NoQuery(Schema):
    """The query of an operation that takes no parameters: any parameter is unknown."""


NO_QUERY = NoQuery()


def query_args() -> dict:
    """The query parameters of this request, as its operation's schema loaded them."""
    return g.query


def caller():
    return g.caller


def reader():
    """The request's db.Reader (one pooled connection for its short reads), made when first needed."""
    if "reader" not in g:
        g.reader = Reader(db.engine)
    return g.reader


def policy() -> Policy:
    """The depot's settings for the stock rules."""
    return Policy(allow_negative_stock=current_app.config["ALLOW_NEGATIVE_STOCK"],
                  acquire_timeout=timedelta(seconds=current_app.config["ACQUIRE_TIMEOUT"]))


def body_data(required: bool = False) -> dict:
    """The object under "data"; {} and {"data": {}} are the same request, as is no body at all.

    Only no body: blanks alone are no JSON document, so they are 400 like any other.
    """
    raw = request.get_data(cache=True)
    if not raw:
        payload = {}
    else:
        try:
            payload = current_app.json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: nested too deep to parse
            raise BadRequest("The body is not valid JSON.") from None
    if not isinstance(payload, dict):
        raise BadRequest("The body must be a JSON object.")
    others = sorted(set(payload) - {"data"})
    if others:
        raise BadRequest(f"Unexpected top-level key(s): {', '.join(others)}; wrap the payload in \"data\".")
    if "data" not in payload:
        if required:
            raise BadRequest("The body must carry the payload under \"data\".")
        return {}
    if not isinstance(payload["data"], dict):
        raise BadRequest("\"data\" must be a JSON object.")
    # PostgreSQL cannot store NUL in text; JSON can only carry it escaped.
    if b"\\u0000" in raw:
        where = _nul_at(payload["data"], ("data",))
        if where:
            raise invalid_field(where, "Text may not contain the NUL character (\\u0000).")
    return payload["data"]


def _nul_at(value, path: tuple) -> tuple | None:
    """The path of the first string (key or value) holding a NUL, or None."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        found = (path + (key,)) if isinstance(key, str) and "\x00" in key else _nul_at(inner, path + (key,))
        if found:
            return found
    return None


def refuse_nul(path: str):
    """A NUL in the path names nothing; in a query parameter it is no valid value."""
    if "\x00" in path:
        raise NotFound("No such record.")
    if b"%00" in request.query_string and any("\x00" in value for value in request.args.values()):
        raise Invalid("Query parameters may not contain the NUL character.")


def load(schema, data: dict, **kwargs):
    try:
        return schema.load(data, **kwargs)
    except ValidationError as error:
        raise Invalid("The request has invalid fields.", {"data": error.messages}) from None


def load_query(schema) -> dict:
    """The query parameters, checked by a schema; errors name the parameter."""
    try:
        return schema.load(request.args.to_dict())
    except ValidationError as error:
        raise Invalid("The query has invalid parameters.", error.messages) from None
