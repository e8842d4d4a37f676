"""Warehouse documents (operations 13-14): the filter of documents and movements, and the documents."""

from marshmallow import Schema, fields
from marshmallow.utils import get_value

from schemas.fields import Day, FilterDirection, Level, OptionalDay, Quantity, Warehouses


class DocFilterSchema(Schema):
    """The filter of warehouse documents (operation 14); movements (18) take the same fields."""

    id_warehouses = Warehouses()
    level = Level()
    doc_direction = FilterDirection()
    date_from = OptionalDay()
    date_to = OptionalDay()


class DocItemOutSchema(Schema):
    doc_number = fields.Integer()
    item_number = fields.Integer()
    # The same number under a second name (marshmallow lets one attribute feed only one field).
    user_visible_item_number = fields.Function(lambda item: get_value(item, "item_number"),
                                               metadata={"type": "integer"})
    product_code = fields.String()
    name = fields.String()
    lot = fields.String()
    date_exp = fields.String()
    amount_base_unit = Quantity(attribute="amount_base_milli")
    doc_created_date = Day()
    timestamp_from_client = fields.String()


class DocItemFilterOutSchema(DocItemOutSchema):
    direction = fields.String()
    lot_level = fields.Integer()


class DocOutSchema(Schema):
    """A warehouse document as viewed by number."""

    doc_number = fields.Integer()
    id_warehouse = fields.Integer()
    direction = fields.String()
    date = Day()
    doc_created_date = Day()
    id_customer = fields.Integer()
    batch_number = fields.Integer()
    ufid = fields.String()
    wh_doc_items = fields.List(fields.Nested(DocItemOutSchema))


class DocFilterOutSchema(DocOutSchema):
    """A warehouse document as filtered: its items also say direction and lot level."""

    wh_doc_items = fields.List(fields.Nested(DocItemFilterOutSchema))


doc_view_schema = DocOutSchema()
docs_filter_out_schema = DocFilterOutSchema(many=True)


doc_filter_schema = DocFilterSchema()
