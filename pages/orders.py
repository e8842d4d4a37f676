"""The order documents pages."""
from flask import g, render_template, request

from pages import bp
from pages.common import PER_PAGE, Pager, csv_response
from pages.params import load_args, orders_query
from pages.signin import signed_in
from stock import catalog
from stock.orders import list_orders
from stock.quantities import from_milli
from storage.db import db


@bp.get("/orders")
@signed_in
def orders():
    """Order documents by state: each line's ordered and delivered amounts."""
    query = load_args(orders_query, request.args)
    customers = {c.id_customer: c.name for c in catalog.list_customers(db.session)}
    if query["format"] != "html":
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
