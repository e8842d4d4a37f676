"""The errors storage raises: the database gone or too busy, and the disk full (DESIGN 13).

They live on storage's floor, below the rules, because storage turns the drivers' faults into
them (db.py `storage_fault`); ServiceError, the shape every named error has, lives here with
them for the same reason. stock/errors.py re-exports all three beside the rules' own errors,
so the rest of the service, and app.py's one JSON error handler, still find every named error
in one place. Imports nothing of the project.
"""


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
