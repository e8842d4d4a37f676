"""The pick list of an order (/orders/<document_number>/pick-list): a printable page for the picker."""
from flask import g, render_template, request

from pages import bp
from pages.clock import depot_today
from pages.common import paper_language
from pages.params import load_args, pick_list_query
from pages.signin import signed_in
from printing.paper import pick_list as plan
from storage.db import db


@bp.get("/orders/<code:document_number>/pick-list")
@signed_in
def pick_list(document_number):
    """For every open goods-out line, the lots to take, first expiring first, and what is short."""
    load_args(pick_list_query, request.args)
    with paper_language():
        return render_template("pick_list.html", **plan(db.session, g.caller, document_number, depot_today()))
