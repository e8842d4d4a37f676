"""Warehouses (/v1/warehouses): the master data every batch, order and key names."""
from flask import Blueprint

from routes.access import actor, caller
from routes.operation import operation
from routes.parsing import body_data, load
from schemas import (NothingSchema, WarehouseSchema, listing, warehouse_schema, warehouse_update_schema,
                     warehouses_schema)
from stock import warehouses
from storage.db import db

bp = Blueprint("warehouses", __name__, url_prefix="/v1/warehouses")


@bp.get("/")
@operation("read", answer=listing(WarehouseSchema, "WarehouseList"))
def list_warehouses():
    """The warehouses by id; a key limited to warehouses sees those."""
    return {"list": warehouses_schema.dump(warehouses.list_warehouses(db.session, caller()))}


@bp.post("/")
@operation("admin", body=warehouse_schema, answer=NothingSchema, status=201, errors=(409,))
def add_warehouse():
    """Add a warehouse (an admin for every warehouse only)."""
    fields = load(warehouse_schema, body_data(required=True))
    warehouses.create_warehouse(db.session, actor(), fields, caller())
    return {}, 201


@bp.post("/<number:id_warehouse>")
@operation("admin", body=warehouse_update_schema, answer=NothingSchema, errors=(404, 409))
def update_warehouse(id_warehouse):
    """Change the fields given of a warehouse (active 0 keeps new batches out of it); an admin
    limited to warehouses changes only its own."""
    data = body_data(required=True)
    warehouses.update_warehouse(db.session, actor(), id_warehouse, load(warehouse_update_schema, data), caller())
    return {}
