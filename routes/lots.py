"""A lot's story (/v1/lots, DESIGN 28): where a lot came from, where it went, what is left."""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation, query_args
from schemas import single
from schemas.lots import TraceSchema, trace_out, trace_query_schema
from stock import lot_story
from storage.db import db

bp = Blueprint("lots", __name__, url_prefix="/v1/lots")


@bp.get("/trace")
@operation("read", query=trace_query_schema, answer=single(TraceSchema, "TraceAnswer"), errors=(404,))
def trace_lot():
    """A lot's story in the key's warehouses: each goods-in with its order, each delivery with its order and
    customer, counts, write-offs, returns, and what is in stock where; 404 for a lot never booked."""
    query = query_args()
    return {"item": trace_out(lot_story.trace(db.session, caller(), query["product_code"], query["lot"]))}
