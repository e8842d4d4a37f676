"""Who calls: the key check before every /v1 request, and the caller it found.

The role a view needs is checked where the view declares it (routes/operation.py).
"""
from flask import after_this_request, current_app, g, request

from identity.api_keys import RevokedKey, UseNotes, authenticate, hash_key
from stock.caller import ExpiredKey
from identity.client import KEY_NAME, client_address
from routes.parsing import refuse_nul
from routes.reading import cached, reader
from stock.audit import Actor
from storage.db import db

USE_NOTES = "warehouse_key_use_notes"


# Under /v1 but read without a key: integrators fetch the description before they have one.
PUBLIC_PATHS = frozenset({"/v1/openapi.json"})


def check_request():
    """Before every request: the caller's key on /v1, then no NUL where none can be."""
    path = request.path
    if (path.startswith("/v1/") or path == "/v1") and path not in PUBLIC_PATHS:
        key = request.headers.get("TS-Apikey")
        try:
            g.caller = caller = cached(("key", hash_key(key or "")), lambda: authenticate(reader(), key))
            if caller.expires is not None:
                caller.refuse_if_expired()  # kept in memory, it may have expired since
        except (RevokedKey, ExpiredKey) as refused:
            # So the operator sees which revoked or expired scanner still calls.
            request.environ[KEY_NAME] = refused.name
            raise
        request.environ[KEY_NAME] = caller.name
        note_use(caller)
    refuse_nul(path)


def note_use(caller) -> None:
    """Once a minute per key, after the answer has gone out: when and from where it was last used."""
    notes = current_app.extensions.get(USE_NOTES)
    if notes is None:
        notes = current_app.extensions.setdefault(USE_NOTES, UseNotes())
    if not notes.due(caller.key_id):
        return
    engine, key_id = db.engine, caller.key_id
    address = client_address(request.environ, current_app.config.get("TRUSTED_PROXY"))

    @after_this_request
    def write_after_answer(response):
        response.call_on_close(lambda: notes.write(engine, key_id, address))
        return response


def caller():
    """The key that made this request (an stock.caller.Caller)."""
    return g.caller


def actor() -> Actor:
    """Who this request is, for the audit trail: the key's name and the client's address."""
    return Actor.of(g.caller, client_address(request.environ, current_app.config.get("TRUSTED_PROXY")))
