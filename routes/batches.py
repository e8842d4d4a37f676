from flask import Blueprint

import queries
import stock
from db import db
from routes import body_data, caller, headers_only, load, policy, requires
from schemas import batch_create_schema, batch_filter_schema, batch_schema, batches_schema

bp = Blueprint("batches", __name__, url_prefix="/v1/batches")


@bp.get("/<number:batch_number>")
@requires("read")
def view_batch(batch_number):
    """One batch with its settings, items and extras."""
    return {"item": batch_schema.dump(queries.get_batch(db.session, caller(), batch_number))}


@bp.post("/")
@requires("scan")
def add_batch():
    """Book what a scanner reported; a retry of the same batch books nothing and answers 201."""
    batch = load(batch_create_schema, body_data(required=True))
    stock.post_batch(db.session, caller(), batch, policy())
    return {}, 201


@bp.post("/filter")
@requires("read")
def filter_batches():
    """Batches by warehouse, direction, business date, order document and lot level."""
    filters = load(batch_filter_schema, body_data())
    only_headers = headers_only()
    return {"list": batches_schema.dump(queries.filter_batches(db.session, caller(), filters, only_headers))}
