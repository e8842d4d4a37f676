"""/reorder-levels: the reorder levels seen by everyone signed in, set and removed by an admin.

A level is set through the rule of PUT /v1/reorder_levels/ (stock/reorder.py
set_reorder_levels, with the signed-in person as the caller whose warehouses limit it), after
the same schema has read the form (schemas/alerts.py reorder_level_schema): a page and an API
call refuse alike, and each change is a row of the audit trail. A refusal is shown beside
its field, with what the form held.
"""
from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import ValidationError

from language.catalogue import translated
from language.choice import current
from language.formats import typed_amount
from pages import bp
from pages.common import PER_PAGE, Pager, amount, require_admin, warehouse_name, warehouses
from pages.params import load_args, reorder_levels_query
from pages.signin import actor, check_form_post, signed_in
from schemas.alerts import reorder_level_schema
from stock import reorder
from stock.errors import ServiceError
from stock.quantities import from_milli
from storage.db import db

FORM_FIELDS = ("id_warehouse", "product_code", "min_amount", "target_amount")


@bp.get("/reorder-levels")
@signed_in
def reorder_levels():
    """Every reorder level with the stock now, by warehouse and product; the form that sets one."""
    query = load_args(reorder_levels_query, request.args)
    return _page(query, _form_of(query), {})


@bp.post("/reorder-levels")
@signed_in
def set_reorder_level():
    """Set one level (min 0 removes it), as PUT /v1/reorder_levels/ would."""
    check_form_post()
    require_admin()
    form = {name: request.form.get(name, "").strip() for name in FORM_FIELDS}
    try:
        # An amount typed with a decimal comma (sl, de) reads as the API's schema reads a point.
        amounts = {name: typed_amount(form[name], current()) for name in ("min_amount", "target_amount") if name in form}
        row = reorder_level_schema.load({**form, **amounts, "id_warehouse": _whole(form["id_warehouse"])})
        reorder.set_reorder_levels(db.session, actor(), [row], g.caller)
    except ValidationError as error:
        return _refused(form, {name: " ".join(map(translated, problems)) for name, problems in error.messages.items()},
                        422)
    except ServiceError as error:
        return _refused(form, _rule_errors(error), error.status)
    if row["min_amount_milli"]:
        flash(_("%(product)s in %(warehouse)s: reorder below %(minimum)s, up to %(target)s.",
                product=row["product_code"], warehouse=warehouse_name(row["id_warehouse"]),
                minimum=amount(row["min_amount_milli"]), target=amount(row["target_amount_milli"])))
    else:
        flash(_("%(product)s in %(warehouse)s has no reorder level now.", product=row["product_code"],
                warehouse=warehouse_name(row["id_warehouse"])))
    return redirect(url_for("pages.reorder_levels", product=row["product_code"]), 303)


def _page(query: dict, form: dict, errors: dict, status: int = 200):
    size = PER_PAGE["reorder_levels"]
    seen = g.caller.narrow(warehouses(query))  # None: every warehouse
    product = query["product"] or None
    rows = reorder.reorder_levels_with_stock(db.session, seen, product, **Pager.fetch(query, size))
    total = reorder.count_reorder_levels(db.session, seen, product)
    pager = Pager(query, size, rows, total, lambda row: (row["id_warehouse"], row["product_code"]))
    return render_template("reorder_levels.html", query=query, pager=pager, form=form, errors=errors), status


def _form_of(query: dict) -> dict:
    """The form as the page opens: the level the filter names (a row's Edit link), if there is one."""
    form = {"id_warehouse": "" if query["warehouse"] is None else str(query["warehouse"]),
            "product_code": query["product"], "min_amount": "", "target_amount": ""}
    if query["warehouse"] is not None and query["product"]:
        for level in reorder.list_reorder_levels(db.session, [query["warehouse"]], query["product"]):
            form.update(min_amount=str(from_milli(level["min_amount_milli"])),
                        target_amount=str(from_milli(level["target_amount_milli"])))
    return form


def _refused(form: dict, errors: dict, status: int):
    """The page again, the form as typed, each complaint beside its field; the list as it opens."""
    db.session.rollback()
    query = load_args(reorder_levels_query, {})
    return _page(query, form, errors, status)


def _rule_errors(error: ServiceError) -> dict:
    """A rule's refusal by form field: its one row's fields ({"data": {0: {field: [...]}}}); a
    warehouse the person may not act in is the warehouse field's."""
    rows = (error.fields or {}).get("data") or {}
    problems = next(iter(rows.values()), {}) if isinstance(rows, dict) else {}
    if problems:
        return {name: " ".join(map(translated, messages)) for name, messages in problems.items()}
    return {"id_warehouse" if error.status == 403 else "": error.message}


def _whole(text: str):
    """A warehouse number as the schema wants it; anything else as typed, for the schema to name."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else text
