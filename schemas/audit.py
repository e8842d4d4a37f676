"""The audit trail over HTTP (DESIGN section 16): the query of GET /v1/audit/ and one entry."""
import re
from datetime import datetime, timezone

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from stock.errors import say

from schemas.fields import QueryNumber, printable
from schemas.keys import UTC_TIME

MAX_LIMIT = 1000
WHO_KINDS = ["person", "key", "cli"]  # stock/audit.py Actor.kind
SINCE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?Z?)?", re.ASCII)


class Since(fields.Field):
    """A moment in UTC: YYYY-MM-DD (that day's start) or YYYY-MM-DDThh:mm[:ss][Z]; empty for any."""

    json_schema = {"type": "string",
                   "pattern": "^([0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?Z?)?)?$",
                   "description": "Entries at or after this moment, in UTC: YYYY-MM-DD or "
                                  "YYYY-MM-DDThh:mm:ssZ; empty for all.", "example": "2026-11-25T00:00:00Z"}

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "":
            return None
        if not isinstance(value, str) or not SINCE_RE.fullmatch(value):
            raise ValidationError(say("Not a moment: YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ."))
        try:
            moment = datetime.fromisoformat(value.removesuffix("Z"))
        except ValueError:
            raise ValidationError(say("Not a moment: YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ.")) from None
        return moment.replace(tzinfo=timezone.utc)


class AuditQuerySchema(Schema):
    since = Since()
    kind = fields.String(validate=[validate.Length(max=50), printable], metadata={
        "description": "A kind (`key.create`) or a family of kinds (`key` or `key.*`)."})
    who = fields.String(validate=[validate.Length(max=200), printable],
                        metadata={"description": "A person's or key's name, or the operating-system user of a command."})
    who_kind = fields.String(validate=validate.OneOf(WHO_KINDS), metadata={
        "description": "Only changes made by a `person`, a `key` or a command on the server (`cli`)."})
    limit = QueryNumber(minimum=1, metadata={"description": f"At most {MAX_LIMIT}; 100 when not given."})
    before_id = QueryNumber(metadata={"description": "The next page: entries older than this id "
                                                     "(the last id of the page before)."})

    @validates_schema
    def limit_at_most(self, data, **kwargs):
        if (data.get("limit") or 0) > MAX_LIMIT:
            raise ValidationError(say("At most %(limit)s.", limit=MAX_LIMIT), "limit")


class AuditEntrySchema(Schema):
    id = fields.Integer()
    at = fields.Function(lambda entry: entry["at"].astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                         metadata=UTC_TIME)
    who = fields.String()
    who_kind = fields.String(metadata={
        "description": "What `who` is: `person`, `key`, `cli` (a command on the server; `who` is the "
                       "operating-system user), or empty where it is not known (some changes from before it was "
                       "recorded, a sign-in under a name nobody has)."})
    from_ = fields.String(data_key="from", attribute="from",
                          metadata={"description": "The client address, or `cli` for a command on the server."})
    kind = fields.String()
    record = fields.String(metadata={"description": "The code, number or name the change concerns."})
    changes = fields.Dict(keys=fields.String(), metadata={
        "description": "{field: [before, after]}", "additionalProperties": {"type": "array"}})


audit_query_schema = AuditQuerySchema()
audit_entries_schema = AuditEntrySchema(many=True)
