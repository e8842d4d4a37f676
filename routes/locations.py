"""Locations inside a warehouse (/v1/locations, DESIGN 27): the places, and the stock on them."""
from flask import Blueprint

from routes.access import actor, caller
from routes.operation import operation, query_args
from routes.parsing import body_data, load
from schemas import NothingSchema, listing
from schemas.locations import (LocationSchema, LocationStockRowSchema, location_schema, location_stock_query_schema,
                               location_stock_row_out, location_update_schema, locations_query_schema,
                               locations_schema)
from stock import locations
from storage.db import db

bp = Blueprint("locations", __name__, url_prefix="/v1/locations")


@bp.get("/")
@operation("read", query=locations_query_schema, answer=listing(LocationSchema, "LocationList"))
def list_locations():
    """A warehouse's locations in walking order."""
    found = locations.list_locations(db.session, caller(), query_args()["id_warehouse"])
    return {"list": locations_schema.dump(found)}


@bp.post("/")
@operation("admin", body=location_schema, answer=NothingSchema, status=201, errors=(409,))
def add_location():
    """Add a location to a warehouse (an admin limited to warehouses: in its own)."""
    fields = load(location_schema, body_data(required=True))
    locations.create_location(db.session, actor(), caller(), fields)
    return {}, 201


@bp.post("/<number:id_warehouse>/<code:code>")
@operation("admin", body=location_update_schema, answer=NothingSchema, errors=(404, 409))
def update_location(id_warehouse, code):
    """Change the fields given of a location; one that holds stock cannot be deactivated (409)."""
    fields = load(location_update_schema, body_data(required=True))
    locations.update_location(db.session, actor(), caller(), id_warehouse, code, fields)
    return {}


@bp.get("/stock")
@operation("read", query=location_stock_query_schema, answer=listing(LocationStockRowSchema, "LocationStockList"))
def location_stock():
    """A warehouse's stock per location (location "" is unplaced stock), in walking order."""
    query = query_args()
    found = locations.location_stock(db.session, caller(), query["id_warehouse"], query.get("location") or None,
                                     query.get("product_code", ""))
    return {"list": [location_stock_row_out(row) for row in found]}
