"""Customer returns (/v1/returns, DESIGN 28): goods sent back against a delivered order."""
from flask import Blueprint

from routes.access import actor, caller
from routes.operation import operation, policy
from routes.parsing import body_data, load
from schemas import NothingSchema
from schemas.returns import return_schema
from stock import returns
from storage.db import db

bp = Blueprint("returns", __name__, url_prefix="/v1/returns")


@bp.post("/")
@operation("scan", body=return_schema, answer=NothingSchema, status=201, errors=(409,))
def add_return():
    """Book goods a customer sent back against a delivered order, as a goods-in of the order's warehouse;
    never more than was delivered of a (product, lot) less what came back (422 naming the line). A retry
    of the same return books nothing and answers 201."""
    fields = load(return_schema, body_data(required=True))
    returns.book_return(db.session, caller(), actor(), fields, policy())
    return {}, 201
