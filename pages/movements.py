"""The movements page: warehouse documents per month and direction, as a chart."""
from datetime import date

from flask import g, render_template, request

from pages import bp
from pages.chart import monthly_chart, months_back
from pages.common import csv_response
from pages.params import load_args, movements_query
from pages.signin import signed_in
from stock import reports
from stock.errors import Invalid
from storage.db import db

MOVEMENT_MONTHS = 12


@bp.get("/movements")
@signed_in
def movements():
    """Warehouse documents per month and direction, as a chart (from the monthly overview)."""
    query = load_args(movements_query, request.args)
    today = date.today()
    first = query["date_from"] or months_back(today, MOVEMENT_MONTHS - 1)
    if (today.year - first.year) * 12 + today.month - first.month >= 10 * 12:
        raise Invalid("The chart shows at most ten years.", {"date_from": ["At most ten years back."]})
    rows = reports.overview_monthly_movement(db.session, g.caller, first)
    if query["format"] != "html":
        return csv_response("movements", ["year", "month", "direction", "count"],
                            ((r["year"], r["month"], r["direction"], r["count"]) for r in rows))
    return render_template("movements.html", query=query, date_from=first, rows=rows,
                           chart=monthly_chart(rows, min(first, today), today))

