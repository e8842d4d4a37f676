"""Stock that warns (/v1/reorder_levels, /v1/alerts, DESIGN section 20): the levels, and what is low or expiring."""
from datetime import date

from flask import Blueprint, current_app

from routes.access import actor, caller
from routes.operation import operation, query_args
from routes.parsing import body_rows, load
from schemas import NothingSchema, listing, single
from schemas.alerts import (ALERTS_LIMIT, AlertsSchema, ReorderLevelSchema, alerts_query_schema, alerts_schema,
                            reorder_levels_schema)
from stock import alerts, reorder
from storage.db import db

bp = Blueprint("alerts", __name__, url_prefix="/v1")


def seen_warehouses() -> list[int] | None:
    """The warehouses the key may see, or None for all."""
    limited = caller().warehouses
    return None if limited is None else sorted(limited)


@bp.get("/reorder_levels/")
@operation("read", answer=listing(ReorderLevelSchema, "ReorderLevelList"))
def list_reorder_levels():
    """Every reorder level the key's warehouses have."""
    return {"list": reorder_levels_schema.dump(reorder.list_reorder_levels(db.session, seen_warehouses()))}


@bp.put("/reorder_levels/")
@operation("admin", body=reorder_levels_schema, answer=NothingSchema)
def set_reorder_levels():
    """Set the (warehouse, product) pairs listed; min_amount 0 removes a pair."""
    rows = load(reorder_levels_schema, body_rows())
    reorder.set_reorder_levels(db.session, actor(), rows, caller())
    return {}


@bp.get("/alerts/")
@operation("read", query=alerts_query_schema, answer=single(AlertsSchema, "AlertsAnswer"))
def list_alerts():
    """Products below their reorder level and lots near or past their best-before, with how many in all."""
    query = query_args()
    warehouses = caller().narrow([] if query.get("id_warehouse") is None else [query["id_warehouse"]])
    today, days = date.today(), current_app.config["EXPIRY_DAYS"]
    product = query.get("product_code", "")
    found = alerts.alerts(db.session, today, days, warehouses, product, query.get("limit") or ALERTS_LIMIT)
    found["totals"] = alerts.count_alerts(db.session, today, days, warehouses, product)
    return {"item": alerts_schema.dump(found)}
