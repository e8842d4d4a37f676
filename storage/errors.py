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

    A count's message (`say_count`) has a plural as well, so a page says it in every form its
    language has (Slovenian has four); the API keeps its one English text, "2 item(s) refused".
    A value that is itself a Said ("lot %(lot)s" inside "Not enough stock of ...") is translated
    with it.
    """

    id: str
    params: dict
    plural: str | None

    def __new__(cls, id: str, params: dict, plural: str | None = None, text: str | None = None):
        english = text or id
        said = super().__new__(cls, english % params if params else english)
        said.id, said.params, said.plural = id, params, plural
        return said

    def __reduce__(self):
        # Copied or pickled as it is: its English text and what a page translates it from.
        return _said_again, (str(self), self.id, self.params, self.plural)


def _said_again(english: str, id: str, params: dict, plural: str | None) -> Said:
    said = str.__new__(Said, english)
    said.id, said.params, said.plural = id, params, plural
    return said


def say(id: str, /, **params) -> Said:
    """A person's message by its id and values: say("No product %(code)r.", code=code)."""
    return Said(id, params)


def say_count(one: str, many: str, count: int, /, *, text: str, **params) -> Said:
    """A message about `count` things: `one` and `many` are its English forms for the catalogue
    (`pybabel extract` finds them by the keyword say_count:1,2), `text` the English the API
    answers, as it always did: say_count("%(count)s item refused.", "%(count)s items refused.",
    n, text="%(count)s item(s) refused.")."""
    return Said(one, {**params, "count": count}, plural=many, text=text)


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
