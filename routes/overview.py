from flask import Blueprint

import reports
from db import db
from routes import caller, load_query, requires
from schemas import (docs_and_stocktaking_query_schema, docs_and_stocktaking_rows_schema,
                     monthly_movement_query_schema, monthly_movement_rows_schema)

bp = Blueprint("overview", __name__, url_prefix="/v1/overview")


@bp.get("/docs_and_stocktaking")
@requires("read")
def docs_and_stocktaking():
    """Per warehouse: the latest goods-in and goods-out documents and the latest stocktaking."""
    query = load_query(docs_and_stocktaking_query_schema)
    return {"list": docs_and_stocktaking_rows_schema.dump(
        reports.overview_docs_and_stocktaking(db.session, caller(), query.get("id_warehouse")))}


@bp.get("/monthly_movement")
@requires("read")
def monthly_movement():
    """Warehouse documents counted per year, month and direction, from date_from on."""
    query = load_query(monthly_movement_query_schema)
    return {"list": monthly_movement_rows_schema.dump(
        reports.overview_monthly_movement(db.session, caller(), query.get("date_from")))}
