"""The stocktakings page: counts against the book stock."""
from flask import g, render_template, request

from pages import bp
from pages.common import PER_PAGE, Pager, csv_response, day, warehouse_name
from pages.params import load_args, stocktakings_query
from pages.signin import signed_in
from stock import reports
from stock.quantities import from_milli
from storage.db import db


@bp.get("/stocktakings")
@signed_in
def stocktakings():
    """Stocktakings with each count against the book stock, and the difference."""
    query = load_args(stocktakings_query, request.args)
    if query["format"] != "html":
        found = reports.list_stocktakings(db.session, g.caller, False)
        return csv_response("stocktakings", [
            "id_warehouse", "warehouse_name", "date", "product_code", "name", "lot", "date_exp", "amount_real",
            "amount_snap", "amount_diff"], (
            (s["id_warehouse"], warehouse_name(s["id_warehouse"]), s["date"], i["product_code"], i["name"], i["lot"], day(i["date_exp"]),
             from_milli(i["amount_real_milli"]), from_milli(i["amount_snap_milli"]),
             from_milli(i["amount_diff_milli"])) for s in found for i in s["stocktaking_items"]))
    size = PER_PAGE["stocktakings"]
    found = reports.list_stocktakings(db.session, g.caller, False, **Pager.fetch(query, size))
    total = reports.count_stocktakings(db.session, g.caller)
    return render_template("stocktakings.html", query=query, pager=Pager(
        query, size, found, total, lambda taking: (taking["date"], taking["id_warehouse"])))
