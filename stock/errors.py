"""The few errors the service raises; one handler turns them into the JSON error shape."""
import click


class ServiceError(Exception):
    status = 500
    code = "internal_error"

    def __init__(self, message: str, fields: dict | None = None):
        super().__init__(message)
        self.message = message
        self.fields = fields


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


class Unavailable(ServiceError):
    """The database did not answer, or not in time: the client should try again shortly."""
    status, code = 503, "unavailable"
    retry_after = 5  # seconds, in the Retry-After header


class StorageFull(ServiceError):
    status, code = 507, "storage_full"


class SettingError(click.ClickException):
    """A setting that does not parse. A ClickException, so that `flask` commands print it
    as one line and exit 1; `python app.py` prints it and exits too."""


def item_errors(errors: dict[int, dict]) -> Invalid:
    first = next(iter(errors.values()))
    message = next(iter(first.values()))[0]
    return Invalid(f"{len(errors)} batch item(s) refused, e.g.: {message}",
                   {"data": {"batch_items": errors}})
