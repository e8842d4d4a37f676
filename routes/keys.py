"""API keys over HTTP (/v1/keys, DESIGN section 16): list, make, revoke; role admin."""
from flask import Blueprint

from identity import api_keys
from routes.access import actor, caller
from routes.operation import operation
from routes.parsing import body_data, load
from schemas import (KeyMadeSchema, KeySchema, NothingSchema, key_create_schema, key_made_schema, keys_schema,
                     listing, single)
from storage.db import db

bp = Blueprint("keys", __name__, url_prefix="/v1/keys")


@bp.get("/")
@operation("admin", answer=listing(KeySchema, "KeyList"))
def list_keys():
    """Every key by name, with its role, warehouses, times and last use; never the key itself. An admin
    limited to warehouses sees the keys within them."""
    return {"list": keys_schema.dump([api_keys.key_view(key) for key in api_keys.list_keys(db.session, caller())])}


@bp.post("/")
@operation("admin", body=key_create_schema, answer=single(KeyMadeSchema, "KeyMadeAnswer"), status=201, errors=(409,))
def add_key():
    """Make a key for a device; the answer shows the key this once. An admin limited to warehouses
    makes keys limited to them (403 otherwise)."""
    data = load(key_create_schema, body_data(required=True))
    key = api_keys.create_key(db.session, data["name"], data["role"], data["warehouses"],
                              data["expires_in_days"], actor=actor(), caller=caller())
    made = next(k for k in api_keys.list_keys(db.session, caller()) if k.name == data["name"])
    return {"item": key_made_schema.dump({**api_keys.key_view(made), "key": key})}, 201


@bp.delete("/<code:name>")
@operation("admin", answer=NothingSchema, errors=(404, 409))
def revoke_key(name):
    """Revoke a key: it is refused from the next request on. A key may not revoke itself (409); one
    beyond the warehouses of an admin limited to them is not found (404)."""
    api_keys.revoke_key(db.session, name, actor=actor(), caller=caller())
    return {}
