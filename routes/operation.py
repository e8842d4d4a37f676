"""What a /v1 view declares (role, query, body, answer) and what it is given: its query, the depot's policy."""
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps

from flask import current_app, g, request
from marshmallow import Schema

from routes.parsing import load_query
from stock.errors import Forbidden
from stock.policy import Policy


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
    # Where the body or the answer is a file, not JSON: its media types (an import, an export).
    body_type: str = "application/json"
    answer_types: tuple = ("application/json",)


def operation(role: str, query: Schema | None = None, body: Schema | None = None,
              answer: Schema | None = None, status: int = 200, errors: tuple = (),
              body_type: str = "application/json", answer_types: tuple = ("application/json",)):
    """Declare a /v1 view: its role, query, body and answer schemas and its own error statuses.

    Every view checks its query the same way: parameters it does not name are
    refused (422), as unknown body fields are; the loaded query is `query_args()`.
    """
    declared = Operation(role, query or NO_QUERY, body, answer, status, tuple(errors), body_type,
                         tuple(answer_types))
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


def policy() -> Policy:
    """The depot's settings for the stock rules."""
    return Policy(allow_negative_stock=current_app.config["ALLOW_NEGATIVE_STOCK"],
                  acquire_timeout=timedelta(seconds=current_app.config["ACQUIRE_TIMEOUT"]),
                  max_future_days=current_app.config["MAX_FUTURE_DAYS"])
