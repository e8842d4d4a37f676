"""The few errors the service raises; one handler turns them into the JSON error shape.

The ones storage raises (Unavailable, StorageFull) and the ServiceError they all are live on
storage's floor, in storage/errors.py, and are named here again so that every named error is
found in this one place.
"""
import click

from storage.errors import Said, ServiceError, StorageFull, Unavailable, say, say_count

__all__ = ["ServiceError", "BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "InsufficientStock",
           "Invalid", "invalid_field", "Unavailable", "StorageFull", "SettingError", "item_errors",
           "Said", "say", "say_count"]


class BadRequest(ServiceError):
    status, code = 400, "bad_request"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class InsufficientStock(Conflict):
    """Goods-out beyond the book stock; fields name the short items."""


class Invalid(ServiceError):
    status, code = 422, "validation_error"


def invalid_field(path: tuple, message: str) -> Invalid:
    """A 422 naming one field by its path in the request, e.g. ("data", "items", 2, "unit")."""
    fields: dict = {}
    node = fields
    for key in path[:-1]:
        node = node.setdefault(str(key), {})
    node[str(path[-1])] = [message]
    return Invalid(message, fields)


class SettingError(click.ClickException):
    """A setting that does not parse. A ClickException, so that `flask` commands print it
    as one line and exit 1; `python app.py` prints it and exits too."""


def item_errors(errors: dict[int, dict], lines: str = "batch_items") -> Invalid:
    """A 422 naming each refused line of the request's list `lines` by its index."""
    first = next(iter(errors.values()))
    message = next(iter(first.values()))[0]
    if lines == "batch_items":
        said = say_count("%(count)s batch item refused, e.g.: %(message)s",
                         "%(count)s batch items refused, e.g.: %(message)s", len(errors),
                         text="%(count)s batch item(s) refused, e.g.: %(message)s", message=message)
    else:
        said = say_count("%(count)s line refused, e.g.: %(message)s", "%(count)s lines refused, e.g.: %(message)s",
                         len(errors), text="%(count)s line(s) refused, e.g.: %(message)s", message=message)
    return Invalid(said, {"data": {lines: errors}})
