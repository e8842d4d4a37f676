"""Book stock and movements (/v1/inventory): the office's filters.

Both answers are whole lists, written as they are read (routes/streaming.py).
"""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation
from routes.parsing import body_data, load
from routes.streaming import whole_list
from schemas import (InventoryRowSchema, MovementRowSchema, inventory_filter_schema, inventory_row_out, listing,
                     movement_filter_schema, movement_row_out)
from stock import reports
from storage.db import db

bp = Blueprint("inventory", __name__, url_prefix="/v1/inventory")


@bp.post("/filter")
@operation("read", body=inventory_filter_schema, answer=listing(InventoryRowSchema, "InventoryList"))
def filter_inventory():
    """Book stock by warehouse, product and lot, from the balances."""
    filters = load(inventory_filter_schema, body_data())
    return whole_list(reports.every_inventory_row(db.session, caller(), filters), inventory_row_out)


@bp.post("/movements/filter")
@operation("read", body=movement_filter_schema, answer=listing(MovementRowSchema, "MovementList"))
def filter_movements():
    """Warehouse-document items as signed movements, by warehouse, direction, date and lot level."""
    filters = load(movement_filter_schema, body_data())
    return whole_list(reports.every_movement(db.session, caller(), filters), movement_row_out)
