"""What the browser scanner asks of the service beyond the 20 operations (DESIGN 24, 25): blocks of
batch numbers, a camera frame read, and the open orders it takes with it for offline work."""
from marshmallow import Schema, fields, validate

from schemas.fields import Day, Int, Quantity


class BatchNumbersRequestSchema(Schema):
    """POST /v1/batch_numbers/: how many numbers to reserve for the calling key."""

    count = Int(required=True, validate=validate.Range(min=1, max=1000))


class BatchNumberBlockSchema(Schema):
    """A block of batch numbers reserved for the calling key, both ends included."""

    first = fields.Integer(required=True)
    last = fields.Integer(required=True)


class BarcodeReadSchema(Schema):
    """POST /v1/barcodes/read: the first barcode a camera frame shows."""

    text = fields.String(required=True)
    format = fields.String(required=True, validate=validate.OneOf(
        ["EAN-13", "EAN-8", "UPC-A", "Code 128", "QR Code"]))


class PickSchema(Schema):
    """A lot to take for a goods-out line, first expiring first (as the pick list plans it)."""

    lot = fields.String(required=True)
    date_exp = fields.String(required=True, metadata={"description": "The lot's best-before; empty if unknown."})
    amount = Quantity(required=True, attribute="amount_milli")


class OpenOrderLineSchema(Schema):
    """An order line with something left to receive or ship."""

    item_number = fields.Integer(required=True)
    product_code = fields.String(required=True)
    lot = fields.String(required=True)
    direction = fields.String(required=True, validate=validate.OneOf(["I", "O"]))
    amount_ordered = Quantity(required=True, attribute="ordered_milli")
    amount_delivered = Quantity(required=True, attribute="delivered_milli")
    amount_open = Quantity(required=True, attribute="open_milli")
    picks = fields.List(fields.Nested(PickSchema), required=True, metadata={
        "description": "Goods-out lines: the lots to take, first expiring first; empty for goods-in."})
    short = Quantity(required=True, attribute="short_milli", metadata={
        "description": "Goods-out lines: what the warehouse's lots cannot cover."})


class OpenOrderSchema(Schema):
    """An open order (state 1, 2 or 3) a movement may fill, as a scanner takes it offline."""

    document_number = fields.Function(lambda entry: entry["order"].document_number, required=True,
                                      metadata={"type": "string"})
    description = fields.Function(lambda entry: entry["order"].description, required=True,
                                  metadata={"type": "string"})
    id_warehouse = fields.Function(lambda entry: entry["order"].id_warehouse, required=True,
                                   metadata={"type": "integer"})
    id_customer = fields.Function(lambda entry: entry["order"].id_customer, required=True,
                                  metadata={"type": "integer"})
    customer_name = fields.String(required=True)
    state = fields.Function(lambda entry: entry["order"].state, required=True, metadata={"type": "integer"})
    allowed_directions = fields.Function(lambda entry: entry["order"].allowed_directions.split(","),
                                         required=True,
                                         metadata={"type": "array", "items": {"type": "string", "enum": ["I", "O"]}})
    expiration_limit_date = Day(attribute="limit", required=True, metadata={
        "description": "Goods must keep until this day; empty when the order sets no limit."})
    held_by = fields.String(required=True, metadata={
        "description": "The name of the key whose lock on the order still holds; empty when none does."})
    items = fields.List(fields.Nested(OpenOrderLineSchema), attribute="lines", required=True)


batch_numbers_request_schema = BatchNumbersRequestSchema()
open_orders_schema = OpenOrderSchema(many=True)
