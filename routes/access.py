"""Who calls: the key check before every /v1 request, and the caller it found.

The role a view needs is checked where the view declares it (routes/operation.py).
"""
from flask import current_app, g, request

from identity import KEY_NAME, client_address
from routes.parsing import refuse_nul
from routes.reading import cached, reader
from stock.api_keys import RevokedKey, authenticate, hash_key
from stock.audit import Actor


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


def caller():
    """The key that made this request (a stock.api_keys.Caller)."""
    return g.caller


def actor() -> Actor:
    """Who this request is, for the audit trail: the key's name and the client's address."""
    return Actor(g.caller.name, client_address(request.environ, current_app.config.get("TRUSTED_PROXY")))
