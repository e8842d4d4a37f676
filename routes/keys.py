"""API keys over HTTP (/v1/keys, DESIGN section 16): list, make, revoke; role admin."""
from flask import Blueprint, g

from routes.access import actor
from routes.operation import operation
from routes.parsing import body_data, load
from schemas import (KeyMadeSchema, KeySchema, NothingSchema, key_create_schema, key_made_schema, keys_schema,
                     listing, single)
from stock import api_keys
from storage.db import db

bp = Blueprint("keys", __name__, url_prefix="/v1/keys")


@bp.get("/")
@operation("admin", answer=listing(KeySchema, "KeyList"))
def list_keys():
    """Every key by name, with its role, warehouses, times and last use; never the key itself."""
    return {"list": keys_schema.dump([api_keys.key_view(key) for key in api_keys.list_keys(db.session)])}


@bp.post("/")
@operation("admin", body=key_create_schema, answer=single(KeyMadeSchema, "KeyMadeAnswer"), status=201, errors=(409,))
def add_key():
    """Make a key for a device; the answer shows the key this once."""
    data = load(key_create_schema, body_data(required=True))
    key = api_keys.create_key(db.session, data["name"], data["role"], data["warehouses"],
                              data["expires_in_days"], actor=actor())
    made = next(k for k in api_keys.list_keys(db.session) if k.name == data["name"])
    return {"item": key_made_schema.dump({**api_keys.key_view(made), "key": key})}, 201


@bp.delete("/<code:name>")
@operation("admin", answer=NothingSchema, errors=(404, 409))
def revoke_key(name):
    """Revoke a key: it is refused from the next request on. A key may not revoke itself (409)."""
    api_keys.revoke_key(db.session, name, actor=actor(), by_key_id=g.caller.key_id)
    return {}
