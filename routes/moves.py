"""Moves of stock (/v1/moves, DESIGN 27): between locations and between warehouses."""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation, policy, query_args
from routes.parsing import body_data, load
from schemas import NothingSchema, listing
from schemas.moves import MoveOutSchema, move_schema, moves_query_schema, moves_schema
from stock import moves
from storage.db import db

bp = Blueprint("moves", __name__, url_prefix="/v1/moves")


@bp.post("/")
@operation("scan", body=move_schema, answer=NothingSchema, status=201, errors=(409,))
def add_move():
    """Move stock from a location or warehouse to another; the same move_id again moves nothing more."""
    move = load(move_schema, body_data(required=True))
    moves.post_move(db.session, caller(), move, policy())
    return {}, 201


@bp.get("/")
@operation("read", query=moves_query_schema, answer=listing(MoveOutSchema, "MoveList"))
def list_moves():
    """Moves oldest first, of a warehouse and since a day if asked."""
    query = query_args()
    found = moves.list_moves(db.session, caller(), query.get("id_warehouse"), query.get("since"))
    return {"list": moves_schema.dump(found)}
