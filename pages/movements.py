"""The movements pages: warehouse documents per month and direction as a chart, and the
movement lines themselves, a page at a time."""

from flask import g, render_template, request

from pages import bp
from pages.clock import depot_today
from pages.chart import monthly_chart, months_back
from pages.common import PER_PAGE, Pager, csv_response, day, warehouse_name, warehouses
from pages.params import load_args, movement_lines_query, movements_query
from pages.signin import signed_in
from stock import catalog, reports
from stock.errors import Invalid, say
from stock.quantities import from_milli
from storage.db import db

MOVEMENT_MONTHS = 12


@bp.get("/movements")
@signed_in
def movements():
    """Warehouse documents per month and direction, as a chart (from the monthly overview)."""
    query = load_args(movements_query, request.args)
    today = depot_today()
    first = query["date_from"] or months_back(today, MOVEMENT_MONTHS - 1)
    if (today.year - first.year) * 12 + today.month - first.month >= 10 * 12:
        raise Invalid(say("The chart shows at most ten years."), {"date_from": [say("At most ten years back.")]})
    rows = reports.overview_monthly_movement(db.session, g.caller, first)
    if query["format"] != "html":
        return csv_response("movements", ["year", "month", "direction", "count"],
                            ((r["year"], r["month"], r["direction"], r["count"]) for r in rows))
    return render_template("movements.html", query=query, date_from=first, rows=rows,
                           chart=monthly_chart(rows, min(first, today), today))


LINE_COLUMNS = ["date", "ufid", "doc_number", "id_warehouse", "warehouse", "direction", "product_code", "name",
                "lot", "date_exp", "amount", "unit"]


@bp.get("/movements/lines")
@signed_in
def movement_lines():
    """Movement lines newest first, by product, warehouse and dates; paged with the total, or downloaded."""
    query = load_args(movement_lines_query, request.args)
    filters = {"id_warehouses": warehouses(query), "product_code": query["product"],
               "date_from": query["date_from"], "date_to": query["date_to"]}
    if query["format"] != "html":
        return csv_response("movement-lines", LINE_COLUMNS, (
            (line.date, line.ufid, line.doc_number, line.id_warehouse, warehouse_name(line.id_warehouse),
             line.direction, line.product_code, line.name, line.lot, day(line.date_exp),
             from_milli(line.amount_milli), line.unit)
            for line in reports.every_movement_line(db.session, g.caller, filters)),
            count=lambda: reports.count_movement_lines(db.session, g.caller, filters))
    size = PER_PAGE["movement_lines"]
    lines = reports.movement_lines(db.session, g.caller, filters, **Pager.fetch(query, size))
    total = reports.count_movement_lines(db.session, g.caller, filters)
    unknown = bool(query["product"]) and not total and not catalog.list_products(db.session, query["product"])
    return render_template("movement_lines.html", query=query, unknown_product=unknown, pager=Pager(
        query, size, lines, total, lambda line: (line["date"], line["document_id"], line["item_number"])))
