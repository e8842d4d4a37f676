"""The alerts page (/alerts), and the number of alerts beside "Alerts" in every page's navigation."""
from datetime import date

from flask import current_app, g, render_template, request, url_for
from sqlalchemy.exc import SQLAlchemyError

from pages import bp
from pages.clock import depot_today
from pages.common import PER_PAGE, Pager, csv_response, warehouse_name, warehouses
from pages.params import alerts_query, load_args
from pages.signin import signed_in
from stock import alerts as stock_alerts
from stock.quantities import from_milli
from storage.db import db


def seen_warehouses() -> list[int] | None:
    return None if g.caller.warehouses is None else sorted(g.caller.warehouses)


# The navigation counts each kind of alert up to this many, and shows "999+" from there: the
# number is kept until the database changes, so every page after a booking pays for it, and
# counting each of a hundred thousand lots past their best-before took longer than a page may
# (docs/alerts-webhooks.md). /alerts shows the totals in full.
NAV_MOST = 1000


def alert_count() -> int:
    """The signed-in key's alerts: one indexed count a kind, kept until the database changes (storage/cache.py)."""
    today = depot_today()
    seen = seen_warehouses()
    key = ("alert_count", today, None if seen is None else tuple(seen))
    try:
        return current_app.extensions["warehouse_cache"].get(key, lambda: stock_alerts.alert_count(
            db.session, today, current_app.config["EXPIRY_DAYS"], seen, NAV_MOST))
    except SQLAlchemyError:
        # The page that says the database does not answer must still be shown: without the number.
        db.session.rollback()
        return None


@bp.app_template_filter("alert_number")
def alert_number(count: int) -> str:
    return f"{NAV_MOST - 1}+" if count >= NAV_MOST else str(count)


@bp.app_context_processor
def navigation_count():
    return {"alert_count": alert_count}


class KindPager(Pager):
    """A page of one kind of alert; on the page of every kind, its next link chooses the kind."""

    def __init__(self, kind: str, *args):
        super().__init__(*args)
        self.kind = kind

    def next_url(self) -> str:
        return url_for(request.endpoint, **{**request.args.to_dict(), "kind": self.kind, "after": self._next,
                                            "page": self.page + 1})


PLACE = {"low_stock": lambda row: (row["id_warehouse"], row["product_code"]),
         "expiring": lambda row: (row["date_exp"], row["id_warehouse"], row["product_code"], row["lot"]),
         "expired": lambda row: (row["date_exp"], row["id_warehouse"], row["product_code"], row["lot"])}


def _read(kind: str, today: date, days: int, seen, product: str, after, limit: int) -> list[dict]:
    if kind == "low_stock":
        return stock_alerts.low_stock(db.session, seen, product, after, limit)
    return stock_alerts.lots(db.session, today, days, kind, seen, product, after, limit)


@bp.get("/alerts")
@signed_in
def alerts():
    """Products below their reorder level, lots near their best-before and lots past it, by keyset."""
    query = load_args(alerts_query, request.args)
    today, days = depot_today(), current_app.config["EXPIRY_DAYS"]
    seen = g.caller.narrow(warehouses(query))  # None: every warehouse
    kinds = [query["kind"]] if query["kind"] else list(stock_alerts.KINDS)
    if query["format"] != "html":
        return _download(kinds, today, days, seen, query["product"])
    totals = stock_alerts.count_alerts(db.session, today, days, seen, query["product"])
    size = PER_PAGE["alerts"]
    pagers = {kind: KindPager(kind, query, size, _read(kind, today, days, seen, query["product"],
                                                       query["after"], size + 1), totals[kind], PLACE[kind])
              for kind in kinds}
    return render_template("alerts.html", query=query, pagers=pagers, totals=totals, days=days,
                           may_write_off=g.caller.has_role("scan"))


CSV_PIECE = 2000  # rows read at a time: a long list is written as it is read, never held whole


def _download(kinds, today, days, seen, product):
    def rows():
        for kind in kinds:
            after = None
            while True:
                found = _read(kind, today, days, seen, product, after, CSV_PIECE)
                db.session.rollback()  # each piece its own short read: a long download holds no snapshot
                for r in found:
                    if kind == "low_stock":
                        yield ("low_stock", r["id_warehouse"], warehouse_name(r["id_warehouse"]), r["product_code"],
                               r["name"], "", "", "", from_milli(r["amount_milli"]), from_milli(r["min_amount_milli"]),
                               from_milli(r["target_amount_milli"]), from_milli(r["suggested_order_milli"]))
                    else:
                        yield (kind, r["id_warehouse"], warehouse_name(r["id_warehouse"]), r["product_code"], "",
                               r["lot"], r["date_exp"], r["days_left"], from_milli(r["amount_milli"]), "", "", "")
                if len(found) < CSV_PIECE:
                    break
                after = PLACE[kind](found[-1])

    return csv_response("alerts", [
        "alert", "id_warehouse", "warehouse_name", "product_code", "name", "lot", "date_exp", "days_left",
        "amount", "min_amount", "target_amount", "suggested_order"], rows(),
        count=lambda: sum(stock_alerts.count_alerts(db.session, today, days, seen, product)[kind] for kind in kinds))
