"""Reading the request: the body under "data", no NUL where none can be, loading through a schema."""
from itertools import chain, compress

from flask import current_app, request
from marshmallow import ValidationError

from stock.errors import BadRequest, Invalid, NotFound, invalid_field

# No shape of the interface nests deeper than about six levels (data, batch_items, an item,
# its fields). A body nested hundreds deep that the JSON parser still takes would make every
# walk over it (the schemas, the NUL search, the error's `fields`) exceed Python's recursion
# limit, a 500; it is refused as a whole before anything walks it.
MAX_DEPTH = 32


def body_data(required: bool = False) -> dict:
    """The object under "data"; {} and {"data": {}} are the same request, as is no body at all.

    Only no body: blanks alone are no JSON document, so they are 400 like any other.
    """
    raw, payload = _body({})
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
    return _without_nul(raw, payload["data"])


def body_rows() -> list:
    """The array under "data", for an operation that takes several rows at once (a PUT of pairs)."""
    raw, payload = _body(None)
    if not isinstance(payload, dict) or set(payload) != {"data"} or not isinstance(payload["data"], list):
        raise BadRequest("The body must be {\"data\": [...]}: a JSON object whose one key holds an array.")
    return _without_nul(raw, payload["data"])


def _body(empty):
    """(the raw body, the JSON it holds, or `empty` for no body), refused as a whole when it is
    no JSON or nests deeper than MAX_DEPTH: each reader of a body comes through here."""
    raw = request.get_data(cache=True)
    if not raw:
        return raw, empty
    try:
        payload = current_app.json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: nested too deep to parse
        raise BadRequest("The body is not valid JSON.") from None
    if _deeper_than(payload, MAX_DEPTH):
        raise BadRequest(f"The body is nested deeper than {MAX_DEPTH} levels; no request of the "
                         "interface nests more than a few.")
    return raw, payload


def _without_nul(raw: bytes, data):
    # PostgreSQL cannot store NUL in text; JSON can only carry it escaped.
    if b"\\u0000" in raw:
        where = _nul_at(data, ("data",))
        if where:
            raise invalid_field(where, "Text may not contain the NUL character (\\u0000).")
    return data


def _deeper_than(payload, limit: int) -> bool:
    """Whether objects and arrays nest more than `limit` levels (walked without recursion).

    A level's members are sorted from their types by C-level calls (chain, map, compress), not a
    Python test per value: a 1000-item batch has some 13,000 values, and this runs on every body.
    """
    level = [payload] if type(payload) in _CONTAINERS else []  # a bare 42 or null nests nothing
    for _depth in range(limit):
        members = list(chain.from_iterable([value.values() if type(value) is dict else value
                                            for value in level]))
        level = list(compress(members, map(_CONTAINERS.__contains__, map(type, members))))
        if not level:
            return False
    return True


# What the JSON parser makes of objects and arrays: nothing else nests.
_CONTAINERS = frozenset((dict, list))


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


def load_form(schema) -> dict:
    """A multipart form's fields beside its files, checked by a schema; errors name the field."""
    try:
        return schema.load(request.form.to_dict())
    except ValidationError as error:
        raise Invalid("The form has invalid fields.", error.messages) from None


def load_query(schema) -> dict:
    """The query parameters, checked by a schema; errors name the parameter."""
    try:
        return schema.load(request.args.to_dict())
    except ValidationError as error:
        raise Invalid("The query has invalid parameters.", error.messages) from None
