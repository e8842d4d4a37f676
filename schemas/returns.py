"""Customer returns over HTTP (/v1/returns, DESIGN 28): the return sent."""
from marshmallow import Schema, fields, validate

from schemas.fields import Name, printable
from schemas.write_offs import CLIENT_ID, LotLineSchema


class ReturnCreateSchema(Schema):
    """POST /v1/returns/: what came back against a delivered order, and why."""

    return_id = Name(validate.Length(max=100), metadata=CLIENT_ID)
    document_number = Name(metadata={"description": "The delivered order the goods came back against."})
    reason = fields.String(required=True, validate=[validate.Length(min=1, max=200), printable])
    items = fields.List(fields.Nested(LotLineSchema), required=True, validate=validate.Length(min=1, max=1000))
    location = fields.String(load_default="", validate=validate.Length(max=30), metadata={
        "description": "Where it was put (DESIGN 27); empty: the warehouse's first hold location, else unplaced. "
                       "A warehouse without locations takes only empty."})


return_schema = ReturnCreateSchema()
