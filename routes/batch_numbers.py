"""Batch numbers reserved per key (/v1/batch_numbers, DESIGN 25): a scanner that books offline
numbers its batches from blocks no other scanner may use."""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation
from routes.parsing import body_data, load
from schemas import single
from schemas.scanning import BatchNumberBlockSchema, batch_numbers_request_schema
from stock import batch_numbers
from storage.db import db

bp = Blueprint("batch_numbers", __name__, url_prefix="/v1/batch_numbers")


@bp.post("/")
@operation("scan", body=batch_numbers_request_schema, answer=single(BatchNumberBlockSchema, "BatchNumberBlockAnswer"),
           status=201, errors=(409,))
def reserve_batch_numbers():
    """Reserve a block of `count` (1 to 1000) batch numbers for this key.

    The block lies above every batch number used so far and every block reserved before; a
    batch of another key numbered inside it is refused (409).
    """
    fields = load(batch_numbers_request_schema, body_data(required=True))
    return {"item": BatchNumberBlockSchema().dump(batch_numbers.reserve_block(db.session, caller(),
                                                                              fields["count"]))}, 201
