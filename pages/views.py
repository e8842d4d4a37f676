"""The pages: each parses its parameters, calls the read function the API calls, and renders.

`?format=csv` gives every row the page's filters select, not only the page shown.
"""
import csv
import io
from datetime import date, timedelta

from flask import Response, g, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from pages import bp
from pages.chart import monthly_chart
from pages.params import (documents_query, load_args, movements_query, orders_query, stock_query,
                          stocktakings_query)
from pages.signin import form_token, signed_in
from stock import catalog, records, reports
from stock.errors import Invalid, ServiceError
from stock.orders import list_orders
from stock.quantities import from_milli
from storage.db import db

PER_PAGE = {"stock": 100, "documents": 25, "orders": 50, "stocktakings": 10}
DOCUMENT_DAYS = 7
MOVEMENT_MONTHS = 12
STATES = {0: "closed", 1: "imported", 2: "being processed", 3: "batch exists"}
DIRECTIONS = {"I": "goods-in", "O": "goods-out"}


@bp.app_template_filter("amount")
def amount(milli: int) -> str:
    return str(from_milli(milli))


@bp.app_context_processor
def page_globals():
    return {"states": STATES, "directions": DIRECTIONS, "csv_url": csv_url, "form_token": form_token}


@bp.after_request
def page_headers(response):
    # Everything comes from this service: no other source may load or be posted to.
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


@bp.errorhandler(ServiceError)
def page_error(error: ServiceError):
    return render_template("error.html", status=error.status, message=error.message,
                           fields=error.fields or {}), error.status


@bp.errorhandler(HTTPException)
def page_http_error(error: HTTPException):
    return render_template("error.html", status=error.code, message=error.description, fields={}), error.code


class Pager:
    """Previous and next links of a list page; `more` says whether a next page exists."""

    def __init__(self, page: int, size: int, rows: list):
        self.page, self.size = page, size
        self.more = len(rows) > size
        self.rows = rows[:size]

    @staticmethod
    def fetch(page: int, size: int) -> dict:
        """offset and limit for the read function: one row more than shown, to know of a next page."""
        return {"offset": (page - 1) * size, "limit": size + 1}

    def url(self, page: int) -> str:
        return url_for(request.endpoint, **{**request.args.to_dict(), "page": page})


def csv_url() -> str:
    return url_for(request.endpoint, **{**request.args.to_dict(), "format": "csv", "page": None})


def csv_response(name: str, header: list[str], rows) -> Response:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([_cell(value) for value in row] for row in rows)
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})


def _cell(value):
    # A spreadsheet would run a text cell that begins like a formula.
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def warehouses(query: dict) -> list[int]:
    return [] if query["warehouse"] is None else [query["warehouse"]]


@bp.get("/", endpoint="stock")
@signed_in
def stock_page():
    """Book stock by warehouse, product and lot; search by code or name; level switch."""
    query = load_args(stock_query, request.args)
    filters = {"level": query["level"], "id_warehouses": warehouses(query)}
    if query["format"] == "csv":
        rows = reports.inventory(db.session, g.caller, filters, search=query["q"])
        return csv_response("stock", ["id_warehouse", "product_code", "name", "lot", "amount", "unit"], (
            (r["id_warehouse"], r["product_code"], r["name"], r["lot"], from_milli(r["amount_milli"]), r["unit"])
            for r in rows))
    size = PER_PAGE["stock"]
    rows = reports.inventory(db.session, g.caller, filters, search=query["q"],
                             **Pager.fetch(query["page"], size))
    return render_template("stock.html", query=query, pager=Pager(query["page"], size, rows))


@bp.get("/documents")
@signed_in
def documents():
    """Warehouse documents of one date range (the last 7 days unless asked) with their lines."""
    query = load_args(documents_query, request.args)
    date_to = query["date_to"] or date.today()
    date_from = query["date_from"] or min(date_to, date.today()) - timedelta(days=DOCUMENT_DAYS - 1)
    filters = {"id_warehouses": warehouses(query), "doc_direction": query["direction"],
               "date_from": date_from, "date_to": date_to}
    if query["format"] == "csv":
        docs = records.filter_documents(db.session, g.caller, filters, False)
        return csv_response("documents", [
            "ufid", "doc_number", "id_warehouse", "direction", "date", "id_customer", "item_number",
            "product_code", "name", "lot", "date_exp", "amount", "unit"], (
            (d["ufid"], d["doc_number"], d["id_warehouse"], d["direction"], d["date"].isoformat(),
             d["id_customer"], i["item_number"], i["product_code"], i["name"], i["lot"], i["date_exp"],
             from_milli(i["amount_base_milli"]), i["unit"]) for d in docs for i in d["wh_doc_items"]))
    size = PER_PAGE["documents"]
    docs = records.filter_documents(db.session, g.caller, filters, False, **Pager.fetch(query["page"], size))
    customers = {c.id_customer: c.name for c in catalog.list_customers(db.session)}
    return render_template("documents.html", query=query, date_from=date_from, date_to=date_to,
                           customers=customers, pager=Pager(query["page"], size, docs))


@bp.get("/orders")
@signed_in
def orders():
    """Order documents by state: each line's ordered and delivered amounts."""
    query = load_args(orders_query, request.args)
    customers = {c.id_customer: c.name for c in catalog.list_customers(db.session)}
    if query["format"] == "csv":
        found = list_orders(db.session, g.caller, query["state"])
        return csv_response("orders", [
            "document_number", "state", "id_warehouse", "id_customer", "customer_name", "item_number",
            "product_code", "lot", "direction", "amount_ordered", "amount_delivered"], (
            (o.document_number, o.state, o.id_warehouse, o.id_customer, customers.get(o.id_customer, ""),
             i.item_number, i.product_code, i.lot, i.direction, from_milli(i.amount_ordered_milli),
             from_milli(i.amount_delivered_milli)) for o in found for i in o.items))
    size = PER_PAGE["orders"]
    found = list_orders(db.session, g.caller, query["state"], **Pager.fetch(query["page"], size))
    return render_template("orders.html", query=query, customers=customers,
                           pager=Pager(query["page"], size, found))


@bp.get("/stocktakings")
@signed_in
def stocktakings():
    """Stocktakings with each count against the book stock, and the difference."""
    query = load_args(stocktakings_query, request.args)
    if query["format"] == "csv":
        found = reports.list_stocktakings(db.session, g.caller, False)
        return csv_response("stocktakings", [
            "id_warehouse", "date", "product_code", "name", "lot", "date_exp", "amount_real",
            "amount_snap", "amount_diff"], (
            (s["id_warehouse"], s["date"].isoformat(), i["product_code"], i["name"], i["lot"], i["date_exp"],
             from_milli(i["amount_real_milli"]), from_milli(i["amount_snap_milli"]),
             from_milli(i["amount_diff_milli"])) for s in found for i in s["stocktaking_items"]))
    size = PER_PAGE["stocktakings"]
    found = reports.list_stocktakings(db.session, g.caller, False, **Pager.fetch(query["page"], size))
    return render_template("stocktakings.html", query=query, pager=Pager(query["page"], size, found))


@bp.get("/movements")
@signed_in
def movements():
    """Warehouse documents per month and direction, as a chart (from the monthly overview)."""
    query = load_args(movements_query, request.args)
    today = date.today()
    first = query["date_from"] or _months_back(today, MOVEMENT_MONTHS - 1)
    if (today.year - first.year) * 12 + today.month - first.month >= 10 * 12:
        raise Invalid("The chart shows at most ten years.", {"date_from": ["At most ten years back."]})
    rows = reports.overview_monthly_movement(db.session, g.caller, first)
    if query["format"] == "csv":
        return csv_response("movements", ["year", "month", "direction", "count"],
                            ((r["year"], r["month"], r["direction"], r["count"]) for r in rows))
    return render_template("movements.html", query=query, date_from=first, rows=rows,
                           chart=monthly_chart(rows, min(first, today), today))


def _months_back(day: date, months: int) -> date:
    """The first day of the month `months` before day's month."""
    index = day.year * 12 + day.month - 1 - months
    return date(index // 12, index % 12 + 1, 1)
