"""The stock page: book stock by warehouse, product and lot."""
from flask import g, render_template, request

from pages import bp
from pages.common import PER_PAGE, Pager, csv_response, warehouses
from pages.params import load_args, stock_query
from pages.signin import signed_in
from stock import reports
from stock.quantities import from_milli
from storage.db import db


@bp.get("/", endpoint="stock")
@signed_in
def stock_page():
    """Book stock by warehouse, product and lot; search by code or name; level switch."""
    query = load_args(stock_query, request.args)
    filters = {"level": query["level"], "id_warehouses": warehouses(query)}
    if query["format"] != "html":
        rows = reports.inventory(db.session, g.caller, filters, search=query["q"])
        return csv_response("stock", ["id_warehouse", "product_code", "name", "lot", "amount", "unit"], (
            (r["id_warehouse"], r["product_code"], r["name"], r["lot"], from_milli(r["amount_milli"]), r["unit"])
            for r in rows))
    size = PER_PAGE["stock"]
    rows = reports.inventory(db.session, g.caller, filters, search=query["q"],
                             **Pager.fetch(query["page"], size))
    return render_template("stock.html", query=query, pager=Pager(query["page"], size, rows))
