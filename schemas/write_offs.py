"""Write-offs over HTTP (/v1/write_offs, DESIGN 28): the write-off sent, the list's query, a write-off."""
from marshmallow import Schema, fields, validate

from schemas.fields import BIGINT_MAX, Day, Int, Name, OptionalDay, Quantity, QueryNumber, printable

# stock/write_offs.py REASONS says the same (a test holds the two alike).
REASONS = ("expired", "damaged", "lost", "sample", "other")
CLIENT_ID = {"description": "The client's id of this booking (a UUID): sent again with the same content it "
                            "answers 201 and books nothing more; with other content 409."}


class LotLineSchema(Schema):
    """A line of a write-off or a return: how much of a (product, lot), in the product's base unit."""

    product_code = Name()
    lot = fields.String(load_default="", validate=[validate.Length(max=200), printable],
                        metadata={"description": "Empty for a product not kept by lot."})
    amount = Quantity(required=True, attribute="amount_milli", data_key="amount",
                      metadata={"description": "In the product's base unit; more than 0."})


class WriteOffLineSchema(LotLineSchema):
    location = fields.String(load_default="", validate=validate.Length(max=30), metadata={
        "description": "The location to take it from (DESIGN 27); empty: unplaced. A warehouse without "
                       "locations takes only empty."})


class WriteOffCreateSchema(Schema):
    """POST /v1/write_offs/: stock that leaves a warehouse for a reason."""

    write_off_id = Name(validate.Length(max=100), metadata=CLIENT_ID)
    id_warehouse = Int(required=True, validate=validate.Range(min=1, max=BIGINT_MAX))
    reason = fields.String(required=True, validate=validate.OneOf(REASONS))
    note = fields.String(load_default="", validate=[validate.Length(max=1000)])
    items = fields.List(fields.Nested(WriteOffLineSchema), required=True, validate=validate.Length(min=1, max=1000))


class WriteOffQuerySchema(Schema):
    """GET /v1/write_offs/: whose, from and until which day, for which reason."""

    id_warehouse = QueryNumber(metadata={"description": "Only this warehouse's (empty: every one the key sees)."})
    since = OptionalDay()
    until = OptionalDay()
    reason = fields.String(load_default="", validate=validate.OneOf(("",) + REASONS))


class WriteOffLineOutSchema(Schema):
    product_code = fields.String()
    name = fields.String()
    lot = fields.String()
    date_exp = fields.String()
    amount = Quantity(attribute="amount_milli")


class WriteOffOutSchema(Schema):
    """A write-off as booked: the goods-out document it is, why, and who booked it."""

    write_off_id = fields.String()
    id_warehouse = fields.Integer()
    reason = fields.String()
    note = fields.String()
    date = Day()
    doc_number = fields.Integer()
    booked_by = fields.String()
    items = fields.List(fields.Nested(WriteOffLineOutSchema))


write_off_schema = WriteOffCreateSchema()
write_off_query_schema = WriteOffQuerySchema()
write_offs_schema = WriteOffOutSchema(many=True)
