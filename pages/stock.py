"""The stock page: book stock by warehouse, product and lot, and by location where the
warehouses shown have locations (DESIGN 27): a Location column and filter `?location=C`. A depot
without locations keeps the page it always had, without an empty column."""
from contextlib import closing

from flask import g, render_template, request

from pages import bp
from pages.common import PER_PAGE, Pager, csv_response, warehouse_namer, warehouses
from pages.params import load_args, stock_query
from pages.signin import signed_in
from stock import packages, placed_stock, reports
from stock.errors import Invalid, say
from stock.quantities import from_milli
from storage.db import db


@bp.get("/", endpoint="stock")
@signed_in
def stock_page():
    """Book stock by warehouse, product and lot; search by code or name; level switch."""
    query = load_args(stock_query, request.args)
    filters = {"level": query["level"], "id_warehouses": warehouses(query)}
    racks = placed_stock.racked(db.session, g.caller.narrow(filters["id_warehouses"]))
    if racks or query["location"] is not None:
        return _by_location(query, filters, racks)
    if query["format"] != "html":
        # Every row, read as it is written: a depot kept by lot has hundreds of thousands.
        rows = reports.every_inventory_row(db.session, g.caller, filters, search=query["q"])
        return csv_response("stock", ["id_warehouse", "warehouse_name", "product_code", "name", "lot", "amount",
                                      "unit"], _file_rows(rows, warehouse_namer()))
    if query["after"] is not None and len(query["after"]) != (2 if query["level"] == 0 else 3):
        raise Invalid(say("The page's address has invalid parameters."),
                      {"after": [say("Not a place in this list: follow the page's links.")]})
    size = PER_PAGE["stock"]
    rows = reports.inventory(db.session, g.caller, filters, search=query["q"], **Pager.fetch(query, size))
    total = reports.count_inventory(db.session, g.caller, filters, search=query["q"])
    # A row's place in the list: by warehouse, product and (but at level 0, one row a product) lot.
    place = (lambda row: (row["id_warehouse"], row["product_code"])) if query["level"] == 0 else \
        (lambda row: (row["id_warehouse"], row["product_code"], row["lot"]))
    pager = Pager(query, size, rows, total, place)
    packaging = packages.packaging_of(db.session, (row["product_code"] for row in pager.rows))
    for row in pager.rows:
        row["packages"] = packages.in_packages(row["amount_milli"], packaging.get(row["product_code"], []))
    return render_template("stock.html", query=query, pager=pager, racks=racks, may_write_off=g.caller.has_role("scan"),
                           filtered=bool(query["q"]) or query["warehouse"] is not None)


def _by_location(query: dict, filters: dict, racks: set[int]):
    """The stock page with a row per location (stock/placed_stock.py), "" the unplaced stock."""
    location = None if query["location"] is None else "" if query["location"] == "-" else query["location"]
    if query["format"] != "html":
        rows = placed_stock.inventory_by_location(db.session, g.caller, filters, query["q"], location)
        named = warehouse_namer()
        return csv_response("stock", ["id_warehouse", "warehouse_name", "location", "product_code", "name", "lot",
                                      "amount", "unit"],
                            ((r["id_warehouse"], named(r["id_warehouse"]), r["location"], r["product_code"], r["name"],
                              r["lot"], from_milli(r["amount_milli"]), r["unit"]) for r in rows))
    if query["after"] is not None and len(query["after"]) != (3 if query["level"] == 0 else 4):
        raise Invalid(say("The page's address has invalid parameters."),
                      {"after": [say("Not a place in this list: follow the page's links.")]})
    size = PER_PAGE["stock"]
    rows = placed_stock.inventory_by_location(db.session, g.caller, filters, query["q"], location,
                                              **Pager.fetch(query, size))
    total = placed_stock.count_by_location(db.session, g.caller, filters, query["q"], location)
    place = (lambda row: (row["id_warehouse"], row["product_code"], row["location"])) if query["level"] == 0 else \
        (lambda row: (row["id_warehouse"], row["product_code"], row["lot"], row["location"]))
    pager = Pager(query, size, rows, total, place)
    packaging = packages.packaging_of(db.session, (row["product_code"] for row in pager.rows))
    for row in pager.rows:
        row["packages"] = packages.in_packages(row["amount_milli"], packaging.get(row["product_code"], []))
    return render_template("stock.html", query=query, pager=pager, racks=racks, by_location=True,
                           may_write_off=g.caller.has_role("scan"),
                           filtered=bool(query["q"]) or query["warehouse"] is not None or location is not None)


def _file_rows(rows, named):
    """The stock's rows as the file's; closing them closes the rows they are read from (and their
    cursor) at once, not when the garbage collector gets to them."""
    with closing(rows):
        for r in rows:
            yield (r["id_warehouse"], named(r["id_warehouse"]), r["product_code"], r["name"], r["lot"],
                   from_milli(r["amount_milli"]), r["unit"])
