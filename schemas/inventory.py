"""Inventory and movements (operations 17-18): their filters and rows."""

from marshmallow import Schema, fields
from marshmallow.utils import get_value

from schemas.fields import Day, Level, Quantity, Warehouses
from schemas.warehouse_docs import DocFilterSchema
from stock.quantities import from_milli


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


def inventory_row_out(row: dict) -> dict:
    """An inventory row as answered: InventoryRowSchema's dump, written out by hand.

    The whole stock list of a depot kept by lot is hundreds of thousands of rows, and the
    schema's per-field machinery cost more than reading them (docs/performance.md, row t).
    tests/api/test_inventory.py holds it equal to inventory_rows_schema.dump.
    """
    return {"id_warehouse": row["id_warehouse"], "product_code": row["product_code"],
            "product_name": row["product_name"], "name": row["name"], "lot": row["lot"], "level": row["level"],
            "amount": from_milli(row["amount_milli"]), "unit": row["unit"]}


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


def movement_row_out(row: dict) -> dict:
    """A movement row as answered: MovementRowSchema's dump, written out by hand (five years
    are a million rows; see inventory_row_out). tests/api/test_inventory.py holds it equal."""
    created = row["doc_created_date"]
    return {"doc_number": row["doc_number"], "item_number": row["item_number"],
            "user_visible_item_number": row["item_number"], "ufid": row["ufid"],
            "id_customer": row["id_customer"], "customer_name": row["customer_name"],
            "product_code": row["product_code"], "name": row["name"], "lot": row["lot"],
            "date_exp": row["date_exp"],
            "doc_created_date": "" if created is None or created == "" else
            created if isinstance(created, str) else created.isoformat(),
            "timestamp_from_client": row["timestamp_from_client"],
            "amount_base_unit": from_milli(row["amount_base_milli"]), "unit": row["unit"]}
