"""Write-offs (/v1/write_offs, DESIGN 28): stock that leaves for a reason, and the list of them."""
from flask import Blueprint

from routes.access import actor, caller
from routes.operation import operation, policy, query_args
from routes.parsing import body_data, load
from schemas import NothingSchema, listing
from schemas.write_offs import WriteOffOutSchema, write_off_query_schema, write_off_schema, write_offs_schema
from stock import write_offs
from storage.db import db

bp = Blueprint("write_offs", __name__, url_prefix="/v1/write_offs")


@bp.post("/")
@operation("scan", body=write_off_schema, answer=NothingSchema, status=201, errors=(409,))
def add_write_off():
    """Write stock off for a reason, booked as a goods-out document; a retry of the same write-off books
    nothing and answers 201. Short stock: 409 naming the line."""
    fields = load(write_off_schema, body_data(required=True))
    write_offs.write_off(db.session, caller(), actor(), fields, policy())
    return {}, 201


@bp.get("/")
@operation("read", query=write_off_query_schema, answer=listing(WriteOffOutSchema, "WriteOffList"))
def list_write_offs():
    """The write-offs in the key's warehouses, oldest first, by warehouse, day and reason."""
    query = query_args()
    return {"list": write_offs_schema.dump(write_offs.list_write_offs(
        db.session, caller(), query.get("id_warehouse"), query.get("since"), query.get("until"),
        query.get("reason") or None))}
