"""Open orders as a scanner takes them with it (/v1/open_orders, DESIGN 25): the lines left to
receive or ship and the lots to take, for work that goes on while the network is away."""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation, policy
from schemas import listing
from schemas.scanning import OpenOrderSchema, open_orders_schema
from stock import picking
from storage.db import db

bp = Blueprint("open_orders", __name__, url_prefix="/v1/open_orders")


@bp.get("/")
@operation("read", answer=listing(OpenOrderSchema, "OpenOrderList"))
def list_open_orders():
    """Every open order of the key's warehouses that a movement may fill, with its open lines and,
    for goods-out lines, the lots to take first expiring first (as its pick list plans them)."""
    return {"list": open_orders_schema.dump(picking.open_orders(db.session, caller(), policy()))}
