"""The errors storage raises: the database gone or too busy, and the disk full (DESIGN 13).

They live on storage's floor, below the rules, because storage turns the drivers' faults into
them (db.py `storage_fault`); ServiceError, the shape every named error has, lives here with
them for the same reason. stock/errors.py re-exports all three beside the rules' own errors,
so the rest of the service, and app.py's one JSON error handler, still find every named error
in one place. Imports nothing of the project.
"""


class Said(str):
    """A message a person may read, in English, that still knows its words and their values.

    The API answers the English text as it always did (a Said is a str); a page translates it
    again from `id` and `params` (language/ `translated`), so a rule's refusal reads in the
    person's language without the rules knowing of Flask or catalogues. `id` is the catalogue's
    message id, with %(name)s placeholders; `pybabel extract` finds it by the keyword `say`.
    """

    id: str
    params: dict

    def __new__(cls, id: str, params: dict):
        said = super().__new__(cls, id % params if params else id)
        said.id, said.params = id, params
        return said


def say(id: str, **params) -> Said:
    """A person's message by its id and values: say("No product %(code)r.", code=code)."""
    return Said(id, params)


class ServiceError(Exception):
    status = 500
    code = "internal_error"

    def __init__(self, message: str, fields: dict | None = None):
        super().__init__(message)
        self.message = message
        self.fields = fields


class Unavailable(ServiceError):
    """The database did not answer, or not in time: the client should try again shortly."""
    status, code = 503, "unavailable"
    retry_after = 5  # seconds, in the Retry-After header


class StorageFull(ServiceError):
    status, code = 507, "storage_full"
