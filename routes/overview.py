"""Overviews (/v1/overview): latest documents and stocktaking per warehouse, documents per month."""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation, query_args
from schemas import (DocsAndStocktakingRowSchema, MonthlyMovementRowSchema,
                     docs_and_stocktaking_query_schema, docs_and_stocktaking_rows_schema, listing,
                     monthly_movement_query_schema, monthly_movement_rows_schema)
from stock import reports
from storage.db import db

bp = Blueprint("overview", __name__, url_prefix="/v1/overview")


@bp.get("/docs_and_stocktaking")
@operation("read", query=docs_and_stocktaking_query_schema,
           answer=listing(DocsAndStocktakingRowSchema, "DocsAndStocktakingList"))
def docs_and_stocktaking():
    """Per warehouse: the latest goods-in and goods-out documents and the latest stocktaking."""
    return {"list": docs_and_stocktaking_rows_schema.dump(
        reports.overview_docs_and_stocktaking(db.session, caller(), query_args().get("id_warehouse")))}


@bp.get("/monthly_movement")
@operation("read", query=monthly_movement_query_schema,
           answer=listing(MonthlyMovementRowSchema, "MonthlyMovementList"))
def monthly_movement():
    """Warehouse documents counted per year, month and direction, from date_from on."""
    return {"list": monthly_movement_rows_schema.dump(
        reports.overview_monthly_movement(db.session, caller(), query_args().get("date_from")))}
