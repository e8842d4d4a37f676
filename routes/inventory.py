"""Book stock and movements (/v1/inventory): the office's filters."""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation
from routes.parsing import body_data, load
from schemas import (InventoryRowSchema, MovementRowSchema, inventory_filter_schema, inventory_rows_schema,
                     listing, movement_filter_schema, movement_rows_schema)
from stock import reports
from storage.db import db

bp = Blueprint("inventory", __name__, url_prefix="/v1/inventory")


@bp.post("/filter")
@operation("read", body=inventory_filter_schema, answer=listing(InventoryRowSchema, "InventoryList"))
def filter_inventory():
    """Book stock by warehouse, product and lot, from the balances."""
    filters = load(inventory_filter_schema, body_data())
    return {"list": inventory_rows_schema.dump(reports.inventory(db.session, caller(), filters))}


@bp.post("/movements/filter")
@operation("read", body=movement_filter_schema, answer=listing(MovementRowSchema, "MovementList"))
def filter_movements():
    """Warehouse-document items as signed movements, by warehouse, direction, date and lot level."""
    filters = load(movement_filter_schema, body_data())
    return {"list": movement_rows_schema.dump(reports.movements(db.session, caller(), filters))}
