"""/admin/webhooks: the receivers of events, and their deliveries with the last answer of each (admin)."""
from flask import g, render_template, request

from pages import bp
from pages.params import load_args, webhooks_query
from pages.signin import signed_in
from stock import webhooks
from stock.errors import Forbidden, say
from storage.db import db


@bp.get("/admin/webhooks")
@signed_in
def admin_webhooks():
    """Each webhook, and its newest deliveries: event, state, attempts, last answer (its status and at
    most 200 characters of its body). An admin limited to warehouses sees the webhooks within them."""
    if not g.caller.has_role("admin"):
        raise Forbidden(say("This page is for role admin."))
    query = load_args(webhooks_query, request.args)
    return render_template("webhooks.html", hooks=webhooks.list_webhooks(db.session, g.caller), query=query,
                           deliveries=webhooks.list_deliveries(db.session, query["webhook"], limit=200,
                                                               caller=g.caller))
