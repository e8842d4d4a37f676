"""Order documents (/v1/documents): import, list, view, and acquire one for a scanner."""
from flask import Blueprint

from routes.access import actor, caller
from routes.operation import operation, policy, query_args
from routes.parsing import body_data, load
from schemas import (NothingSchema, OrderAcquireSchema, OrderOutSchema, OrderViewSchema, listing,
                     order_acquire_schema, order_close_schema, order_create_schema, order_list_query_schema, order_view_schema,
                     orders_list_schema, single)
from schemas.locations import PickRowSchema, pick_row_out
from stock import orders, pick_plan
from storage.db import db

bp = Blueprint("documents", __name__, url_prefix="/v1/documents")


@bp.get("/")
@operation("read", query=order_list_query_schema, answer=listing(OrderOutSchema, "OrderList"))
def list_orders():
    """Order documents by document_number, optionally only those in one state."""
    state = query_args().get("state")
    found = orders.list_orders(db.session, caller(), state)
    pick_plan.fill_wplaces(db.session, found)
    return {"list": orders_list_schema.dump(found)}


@bp.get("/acquire/<code:document_number>")
@operation("scan", answer=single(OrderAcquireSchema, "OrderAcquireAnswer"), errors=(404, 409))
def acquire_order(document_number):
    """Take an order document for this key's scanner (state 2)."""
    order = orders.acquire_order(db.session, caller(), document_number, policy())
    pick_plan.fill_wplaces(db.session, [order])
    return {"item": order_acquire_schema.dump(order)}


@bp.get("/<code:document_number>")
@operation("read", answer=single(OrderViewSchema, "OrderViewAnswer"), errors=(404,))
def view_order(document_number):
    """One order document with its items."""
    order = orders.get_order(db.session, caller(), document_number)
    pick_plan.fill_wplaces(db.session, [order])
    return {"item": order_view_schema.dump(order)}


@bp.get("/<code:document_number>/pick")
@operation("read", answer=listing(PickRowSchema, "PickList"), errors=(404,))
def pick_order(document_number):
    """What to take for the order's open goods-out lines: the first-expiring lot first, of a lot the
    first locations in walking order, hold locations never; listed in walking order."""
    return {"list": [pick_row_out(row) for row in pick_plan.pick_plan(db.session, caller(), document_number)]}


@bp.post("/")
@operation("admin", body=order_create_schema, answer=NothingSchema, status=201, errors=(409,))
def add_order():
    """Import an order document (state 1)."""
    orders.create_order(db.session, caller(), load(order_create_schema, body_data(required=True)))
    return {}, 201


@bp.post("/close/<code:document_number>")
@operation("admin", body=order_close_schema, answer=NothingSchema, errors=(404, 409))
def close_order(document_number):
    """Close an order document by hand (state 0): nothing more is expected on it."""
    fields = load(order_close_schema, body_data(required=True))
    orders.close_order(db.session, caller(), actor(), document_number, fields["reason"])
    return {}


@bp.post("/release/<code:document_number>")
@operation("scan", answer=NothingSchema, errors=(404, 409))
def release_order(document_number):
    """End the lock on an order document at once (state back to 1, or 3 once something was delivered).

    An admin releases any lock; a scanner's key only the lock it holds itself (403 otherwise).
    """
    load(NothingSchema(), body_data())
    orders.release_order(db.session, caller(), actor(), document_number)
    return {}
