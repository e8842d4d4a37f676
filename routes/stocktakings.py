from flask import Blueprint

import reports
import stock
from db import db
from routes import caller, headers_only, load_query, policy, requires
from schemas import stocktaking_delete_query_schema, stocktakings_schema

bp = Blueprint("stocktakings", __name__, url_prefix="/v1/stocktakings")


@bp.get("/list")
@requires("read")
def list_stocktakings():
    """Stocktakings by date then warehouse, with their counted items unless headers=1."""
    only_headers = headers_only()
    return {"list": stocktakings_schema.dump(reports.list_stocktakings(db.session, caller(), only_headers))}


@bp.delete("/")
@requires("admin")
def delete_stocktaking():
    """Remove a stocktaking and its adjustment documents; book stock returns to what it was."""
    query = load_query(stocktaking_delete_query_schema)
    stock.delete_stocktaking(db.session, caller(), query["id_warehouse"], query["date"], policy())
    return {}
