"""The alerts page (/alerts), and the number of alerts beside "Alerts" in every page's navigation."""
from datetime import date

from flask import current_app, g, render_template, request
from sqlalchemy.exc import SQLAlchemyError

from pages import bp
from pages.common import csv_response, warehouse_name
from pages.params import alerts_query, load_args
from pages.signin import signed_in
from stock import alerts as stock_alerts
from stock.quantities import from_milli
from storage.db import db


def seen_warehouses() -> list[int] | None:
    return None if g.caller.warehouses is None else sorted(g.caller.warehouses)


def alert_count() -> int:
    """The signed-in key's alerts: two indexed reads, kept until the database changes (storage/cache.py)."""
    today = date.today()
    warehouses = seen_warehouses()
    key = ("alert_count", today, None if warehouses is None else tuple(warehouses))
    try:
        return current_app.extensions["warehouse_cache"].get(key, lambda: stock_alerts.alert_count(
            db.session, today, current_app.config["EXPIRY_DAYS"], warehouses))
    except SQLAlchemyError:
        # The page that says the database does not answer must still be shown: without the number.
        db.session.rollback()
        return None


@bp.app_context_processor
def navigation_count():
    return {"alert_count": alert_count}


@bp.get("/alerts")
@signed_in
def alerts():
    """Products below their reorder level, and lots near or past their best-before."""
    query = load_args(alerts_query, request.args)
    days = current_app.config["EXPIRY_DAYS"]
    found = stock_alerts.alerts(db.session, date.today(), days, seen_warehouses())
    if query["format"] != "html":
        return csv_response("alerts", [
            "alert", "id_warehouse", "warehouse_name", "product_code", "name", "lot", "date_exp", "days_left",
            "amount", "min_amount", "target_amount", "suggested_order"],
            [("low_stock", r["id_warehouse"], warehouse_name(r["id_warehouse"]), r["product_code"], r["name"], "", "", "", from_milli(r["amount_milli"]),
              from_milli(r["min_amount_milli"]), from_milli(r["target_amount_milli"]),
              from_milli(r["suggested_order_milli"])) for r in found["low_stock"]]
            + [("expiring", r["id_warehouse"], warehouse_name(r["id_warehouse"]), r["product_code"], "", r["lot"], r["date_exp"], r["days_left"],
                from_milli(r["amount_milli"]), "", "", "") for r in found["expiring"]])
    return render_template("alerts.html", found=found, days=days)
