"""Batches (operations 10-12): as a scanner posts them, as returned, and their filter."""

from marshmallow import Schema, fields, validate

from schemas.batch_items import BatchItems
from schemas.fields import REQUIRED_DATE, Day, Direction, Int, IntOrDigits, Quantity, Text, in_bigint
from schemas.warehouse_docs import DocFilterSchema


class BatchSettingsCreateSchema(Schema):
    batch_number = IntOrDigits(minimum=1, required=True)
    id_warehouse = IntOrDigits(minimum=0, required=True)
    direction = Direction(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["R", "V"]))
    date = Day(metadata=REQUIRED_DATE)
    created_date = fields.Raw(load_only=True, metadata={
        "description": "Ignored: the server's day is the created date."})  # the server's day counts; a sent one is ignored
    app_version = Text()
    name = Text()
    truck = Int(validate=in_bigint())
    document_number = fields.String(validate=validate.Length(max=200))


class BatchExtraSchema(Schema):
    key = fields.String(required=True)
    value = fields.String(required=True)


class BatchCreateSchema(Schema):
    batch_settings = fields.Nested(BatchSettingsCreateSchema, required=True)
    batch_items = BatchItems(required=True)
    # No default: the retry digest must tell a left-out list from an empty one.
    batch_extras = fields.List(fields.Nested(BatchExtraSchema))


batch_create_schema = BatchCreateSchema()


class BatchSettingsOutSchema(Schema):
    batch_number = fields.Integer()
    app_version = fields.String()
    date = Day()
    created_date = Day()
    direction = fields.String()
    id_warehouse = fields.Integer()
    name = fields.String()
    truck = fields.Integer()
    type = fields.String()
    document_number = fields.String()


class BatchItemOutSchema(Schema):
    id_batch_item = fields.Integer()
    user_visible_batch_item_id = fields.Integer(attribute="position")
    batch_number = fields.Integer()
    doc_number = fields.Integer()
    doc_item_number = fields.Integer()
    amount_base_unit = Quantity(attribute="amount_base_milli")
    barcode = fields.String()
    date_exp = fields.String()
    lot = fields.String()
    name = fields.String()
    palette = fields.Integer()
    product_code = fields.String()
    status = fields.Integer()
    timestamp_client = fields.String()
    wplace = fields.String()


class BatchOutSchema(Schema):
    batch_settings = fields.Nested(BatchSettingsOutSchema)
    batch_items = fields.List(fields.Nested(BatchItemOutSchema))
    batch_extras = fields.List(fields.Nested(BatchExtraSchema))


batch_schema = BatchOutSchema()
batches_schema = BatchOutSchema(many=True)


class BatchFilterSchema(DocFilterSchema):
    document_number = fields.String()


batch_filter_schema = BatchFilterSchema()
