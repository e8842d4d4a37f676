"""API keys over HTTP (DESIGN section 16): a key as listed, the create request, the key made."""
from marshmallow import Schema, fields, validate

from schemas.fields import printable

ROLES = ["read", "scan", "admin"]
# A time in UTC as every /v1/keys and /v1/audit answer writes it; "" where there is none.
UTC_TIME = {"type": "string", "pattern": "^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)?$",
            "description": "YYYY-MM-DDThh:mm:ssZ in UTC; empty where there is none.",
            "example": "2026-11-25T09:30:00Z"}
Warehouses = lambda **kw: fields.List(  # noqa: E731
    fields.Integer(strict=True, validate=validate.Range(min=0, max=2**63 - 1)), **kw)


class KeySchema(Schema):
    """A key as listed: never the key itself."""

    name = fields.String()
    role = fields.String(validate=validate.OneOf(ROLES))
    warehouses = Warehouses(metadata={"description": "Empty: every warehouse."})
    created = fields.String(metadata=UTC_TIME)
    expires = fields.String(metadata=UTC_TIME)
    last_used = fields.String(metadata={**UTC_TIME, "description": "To the minute; empty if never used."})
    last_used_from = fields.String(metadata={"description": "The client address of that use."})
    revoked = fields.String(metadata=UTC_TIME)


class KeyCreateSchema(Schema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=100), printable])
    role = fields.String(required=True, validate=validate.OneOf(ROLES))
    warehouses = Warehouses(load_default=list, metadata={"description": "Empty or left out: every warehouse."})
    expires_in_days = fields.Integer(strict=True, load_default=None, allow_none=True,
                                     validate=validate.Range(min=1, max=36500),
                                     metadata={"description": "Left out or null: the key never expires."})


class KeyMadeSchema(Schema):
    """The key made: shown this once."""

    name = fields.String()
    role = fields.String(validate=validate.OneOf(ROLES))
    warehouses = Warehouses()
    expires = fields.String(metadata=UTC_TIME)
    key = fields.String(metadata={"description": "The key for the TS-Apikey header; it is never shown again."})


keys_schema = KeySchema(many=True)
key_create_schema = KeyCreateSchema()
key_made_schema = KeyMadeSchema()
