"""The warehouse documents page: one date range of documents with their lines."""
from datetime import timedelta

from flask import current_app, g, render_template, request

from pages import bp
from pages.clock import depot_today
from pages.common import PER_PAGE, Pager, csv_response, day, warehouse_name, warehouses
from pages.params import documents_query, load_args
from pages.signin import signed_in
from stock import catalog, records
from stock.quantities import from_milli
from storage.db import db

DOCUMENT_DAYS = 7


@bp.get("/documents")
@signed_in
def documents():
    """Warehouse documents of one date range (the last 7 days unless asked) with their lines."""
    query = load_args(documents_query, request.args)
    today = depot_today()
    # Unless asked, the range ends as far ahead as a booking may be dated (WAREHOUSE_MAX_FUTURE_DAYS),
    # so that a delivery booked for Monday shows on Friday; and never before a date_from given.
    date_to = query["date_to"] or max(today + timedelta(days=current_app.config["MAX_FUTURE_DAYS"]),
                                      query["date_from"] or today)
    date_from = query["date_from"] or min(date_to, today) - timedelta(days=DOCUMENT_DAYS - 1)
    filters = {"id_warehouses": warehouses(query), "doc_direction": query["direction"],
               "date_from": date_from, "date_to": date_to}
    if query["format"] != "html":
        # Every line of the range, streamed: five years are a million lines (DESIGN 19).
        return csv_response("documents", [
            "ufid", "doc_number", "id_warehouse", "warehouse_name", "direction", "date", "id_customer",
            "item_number", "product_code", "name", "lot", "date_exp", "amount", "unit"], (
            (ufid, doc_number, id_warehouse, warehouse_name(id_warehouse), direction, line_date, id_customer,
             item_number, code, name, lot, day(date_exp), from_milli(amount), unit)
            for ufid, doc_number, id_warehouse, direction, line_date, id_customer, item_number, code, name, lot,
            date_exp, amount, unit in records.document_lines(db.session, g.caller, filters)),
            count=lambda: records.count_document_lines(db.session, g.caller, filters))
    size = PER_PAGE["documents"]
    docs = records.filter_documents(db.session, g.caller, filters, False,
                                    **{**Pager.fetch(query, size), "after": (query["after"] or (None,))[0]})
    total = records.count_documents(db.session, g.caller, filters)
    customers = {c.id_customer: c.name for c in catalog.list_customers(db.session)}
    return render_template("documents.html", query=query, date_from=date_from, date_to=date_to,
                           customers=customers,
                           pager=Pager(query, size, docs, total, lambda doc: (doc["doc_number"],)))
