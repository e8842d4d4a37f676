"""The order documents pages: open orders newest first with filters, one order with its lines,
deliveries and lock, and the office's two hands on it: release the lock, close the order.

Release and close call the API's rule functions (stock.orders.release_order, close_order),
so the page refuses what the API refuses, with the same message.
"""
from datetime import timedelta

from flask import current_app, g, redirect, render_template, request, url_for

from models import Customer
from pages import bp
from pages.common import PER_PAGE, Pager, csv_response, page_actor, require_admin, warehouse_name
from pages.params import load_args, orders_query
from pages.signin import check_form_post, signed_in
from stock import catalog, orders as order_rules, returns as customer_returns
from stock.errors import Invalid, ServiceError, say
from storage.db import db, utc_now
from transfer import orders as transfer_orders


def _filters(query: dict) -> dict:
    return {"states": order_rules.OPEN_STATES if query["state"] is None else [query["state"]],
            "id_warehouse": query["warehouse"], "id_customer": query["customer"], "text": query["q"]}


@bp.get("/orders")
@signed_in
def orders():
    """Open orders newest first (or those of one state); filters for warehouse, customer and text."""
    query = load_args(orders_query, request.args)
    customers = {c.id_customer: c.name for c in catalog.list_customers(db.session)}
    if query["format"] != "html":
        found = order_rules.search_orders(db.session, g.caller, **_filters(query))
        # In the import's columns and what the office reads beside them: it imports back unchanged.
        return csv_response("orders", *transfer_orders.listing(found, customers, warehouse_name))
    size = PER_PAGE["orders"]
    found = order_rules.search_orders(db.session, g.caller, **_filters(query), limit=size + 1,
                                      after=(query["after"] or (None,))[0])
    total = order_rules.count_searched_orders(db.session, g.caller, **_filters(query))
    return render_template("orders.html", query=query, customers=customers,
                           pager=Pager(query, size, found, total, lambda order: (order.newest_line,)))


@bp.get("/orders/<code:document_number>")
@signed_in
def order(document_number):
    """One order: its lines ordered and delivered, the documents that delivered it, its lock."""
    found = order_rules.get_order(db.session, g.caller, document_number)
    return render_template("order.html", **_context(found), refusal=None, reason="")


def _context(found) -> dict:
    customer = db.session.get(Customer, found.id_customer) if found.id_customer else None
    timeout = timedelta(seconds=current_app.config["ACQUIRE_TIMEOUT"])
    lock = None
    if found.state == order_rules.PROCESSING and found.locked_by is not None:
        lock = {"holder": order_rules.lock_holder(db.session, found), "since": found.locked_at,
                "lapsed": found.locked_at is None or utc_now() - found.locked_at >= timeout}
    closing = order_rules.closing(db.session, found.document_number) if found.state == order_rules.CLOSED else None
    return {"order": found, "customer": customer, "lock": lock, "closing": closing,
            "documents": order_rules.delivering_documents(db.session, found.document_number),
            "returns": customer_returns.returns_of_order(db.session, found.document_number)}


@bp.post("/orders/release/<code:document_number>")
@signed_in
def release_order(document_number):
    """End the lock at once (state 1, or 3 once something was delivered)."""
    check_form_post()
    require_admin()
    return _act(document_number, lambda: order_rules.release_order(
        db.session, g.caller, page_actor(), document_number))


@bp.post("/orders/close/<code:document_number>")
@signed_in
def close_order(document_number):
    """Close the order: nothing more is expected on it."""
    check_form_post()
    require_admin()
    reason = request.form.get("reason", "").strip()

    def close():
        if not reason or not reason.isprintable() or len(reason) > 1000:
            raise Invalid(say("Say why the order is closed (up to 1000 characters)."),
                          {"data": {"reason": [say("Say why the order is closed.")]}})
        order_rules.close_order(db.session, g.caller, page_actor(), document_number, reason)
    return _act(document_number, close)


def _act(document_number: str, action):
    """Run the rule; back to the order's page, or the page again with the refusal at the top."""
    try:
        action()
    except ServiceError as error:
        if error.status == 404:
            raise
        db.session.rollback()
        found = order_rules.get_order(db.session, g.caller, document_number)
        return render_template("order.html", **_context(found), refusal=error.message,
                               reason=request.form.get("reason", "")), error.status
    return redirect(url_for("pages.order", document_number=document_number), 303)
