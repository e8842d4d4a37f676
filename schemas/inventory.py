"""Inventory and movements (operations 17-18): their filters and rows."""

from marshmallow import Schema, fields
from marshmallow.utils import get_value

from schemas.fields import Day, Level, Quantity, Warehouses
from schemas.warehouse_docs import DocFilterSchema


class InventoryFilterSchema(Schema):
    id_warehouses = Warehouses()
    product_code = fields.String()
    level = Level()


inventory_filter_schema = InventoryFilterSchema()


class InventoryRowSchema(Schema):
    id_warehouse = fields.Integer()
    product_code = fields.String()
    product_name = fields.String()
    name = fields.String()
    lot = fields.String()
    level = fields.Integer()
    amount = Quantity(attribute="amount_milli")
    unit = fields.String()


inventory_rows_schema = InventoryRowSchema(many=True)


movement_filter_schema = DocFilterSchema()


class MovementRowSchema(Schema):
    doc_number = fields.Integer()
    item_number = fields.Integer()
    user_visible_item_number = fields.Function(lambda row: get_value(row, "item_number"),
                                               metadata={"type": "integer"})
    ufid = fields.String()
    id_customer = fields.Integer()
    customer_name = fields.String()
    product_code = fields.String()
    name = fields.String()
    lot = fields.String()
    date_exp = fields.String()
    doc_created_date = Day()
    timestamp_from_client = fields.String()
    amount_base_unit = Quantity(attribute="amount_base_milli")  # signed: goods-out negative
    unit = fields.String()


movement_rows_schema = MovementRowSchema(many=True)
