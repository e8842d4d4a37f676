"""Moves of stock (DESIGN 27): as posted and as listed."""
from marshmallow import Schema, fields, validate

from stock.errors import say

from schemas.fields import BIGINT_MAX, Int, Name, Quantity, QueryNumber, Text, parse_day, printable


class MovePlaceSchema(Schema):
    """Where a move takes from or puts to: a warehouse and a location in it ("" unplaced stock)."""

    id_warehouse = Int(required=True, validate=validate.Range(min=1, max=BIGINT_MAX))
    location = fields.String(load_default="", validate=validate.Length(max=30), metadata={
        "description": "A location's code; empty: the warehouse's unplaced stock."})


class MoveItemSchema(Schema):
    """A product and lot to move, in its base unit."""

    product_code = Name()
    lot = fields.String(load_default="", validate=[validate.Length(max=200), printable])
    amount = Quantity(required=True, attribute="amount_milli", data_key="amount",
                      validate=validate.Range(min=1, error=say("Must be greater than 0.")))


class MoveSchema(Schema):
    """A move (POST /v1/moves/): `move_id` is the client's (a UUID), fixed before the first send."""

    move_id = fields.String(required=True, validate=[validate.Length(min=1, max=100), printable])
    source = fields.Nested(MovePlaceSchema, required=True, data_key="from")
    target = fields.Nested(MovePlaceSchema, required=True, data_key="to")
    items = fields.List(fields.Nested(MoveItemSchema), required=True, validate=validate.Length(min=1, max=10000))
    note = Text()


class MoveItemOutSchema(Schema):
    product_code = fields.String()
    lot = fields.String()
    amount = Quantity(attribute="amount_milli")


class MoveOutSchema(Schema):
    """A move as listed; `out_doc` and `in_doc` its documents between warehouses (0 within one)."""

    move_id = fields.String()
    source = fields.Nested(MovePlaceSchema, data_key="from")
    target = fields.Nested(MovePlaceSchema, data_key="to")
    items = fields.List(fields.Nested(MoveItemOutSchema))
    note = fields.String()
    created = fields.String(metadata={"description": "When it was booked, YYYY-MM-DDThh:mm:ssZ in UTC."})
    posted_by = fields.String()
    out_doc = fields.Integer()
    in_doc = fields.Integer()


class SinceDay(fields.Field):
    json_schema = {"type": "string", "pattern": "^([0-9]{4}-[0-9]{2}-[0-9]{2})?$",
                   "description": "Only moves booked on or after this day (UTC); empty: all."}

    def _deserialize(self, value, attr, data, **kwargs):
        return None if value == "" else parse_day(value)


class MovesQuerySchema(Schema):
    """GET /v1/moves/: of a warehouse (from or to it), since a day."""

    id_warehouse = QueryNumber(metadata={"description": "Only moves from or to this warehouse (empty: all)."})
    since = SinceDay()


move_schema = MoveSchema()
moves_schema = MoveOutSchema(many=True)
moves_query_schema = MovesQuerySchema()
