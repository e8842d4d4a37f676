"""Stocktakings (/v1/stocktakings): list them, delete one with its adjustments."""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation, policy, query_args
from schemas import (NothingSchema, StocktakingOutSchema, headers_query_schema, listing,
                     stocktaking_delete_query_schema, stocktakings_schema)
from stock import reports, stocktaking
from storage.db import db

bp = Blueprint("stocktakings", __name__, url_prefix="/v1/stocktakings")


@bp.get("/list")
@operation("read", query=headers_query_schema, answer=listing(StocktakingOutSchema, "StocktakingList"))
def list_stocktakings():
    """Stocktakings by date then warehouse, with their counted items unless headers=1."""
    return {"list": stocktakings_schema.dump(
        reports.list_stocktakings(db.session, caller(), query_args().get("headers", False)))}


@bp.delete("/")
@operation("admin", query=stocktaking_delete_query_schema, answer=NothingSchema, errors=(404, 409))
def delete_stocktaking():
    """Remove a stocktaking and its adjustment documents; book stock returns to what it was."""
    query = query_args()
    stocktaking.delete_stocktaking(db.session, caller(), query["id_warehouse"], query["date"], policy())
    return {}
