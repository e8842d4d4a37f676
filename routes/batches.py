"""Batches the scanners report (/v1/batches): add one, view one, filter them."""
from flask import Blueprint

from routes.access import actor, caller
from routes.operation import operation, policy, query_args
from routes.parsing import body_data, load
from schemas import (BatchOutSchema, NothingSchema, batch_create_schema, batch_filter_schema, batch_schema,
                     batches_schema, headers_query_schema, listing, single)
from stock import posting, records
from storage.db import db

bp = Blueprint("batches", __name__, url_prefix="/v1/batches")


@bp.get("/<number:batch_number>")
@operation("read", answer=single(BatchOutSchema, "BatchAnswer"), errors=(404,))
def view_batch(batch_number):
    """One batch with its settings, items and extras."""
    return {"item": batch_schema.dump(records.get_batch(db.session, caller(), batch_number))}


@bp.post("/")
@operation("scan", body=batch_create_schema, answer=NothingSchema, status=201, errors=(409,))
def add_batch():
    """Book what a scanner reported; a retry of the same batch books nothing and answers 201."""
    batch = load(batch_create_schema, body_data(required=True))
    posting.post_batch(db.session, caller(), batch, policy(), actor().address)
    return {}, 201


@bp.post("/filter")
@operation("read", query=headers_query_schema, body=batch_filter_schema,
           answer=listing(BatchOutSchema, "BatchList"))
def filter_batches():
    """Batches by warehouse, direction, business date, order document and lot level."""
    filters = load(batch_filter_schema, body_data())
    return {"list": batches_schema.dump(
        records.filter_batches(db.session, caller(), filters, query_args().get("headers", False)))}
