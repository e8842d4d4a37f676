"""The Move form (DESIGN 27, "Pages"): stock from one location to another, in one warehouse or
into another, through the rule POST /v1/moves/ calls (stock.moves post_move), after its schema.

The form carries its own `move_id`, fixed when the form is drawn: sent twice (a double click, a
reload that posts again, an answer lost on a weak link) it moves once, as a scanner's retry does.
A refusal draws the form again with every value kept and each problem beside its field; nothing
moved then. Moving needs role scan, as the API's does; a person of role read sees the 403 page.
"""
import uuid

from datetime import timedelta

from flask import current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import ValidationError

from pages import bp
from pages.common import field_errors, warehouse_names
from pages.signin import check_form_post, signed_in
from schemas.moves import move_schema
from stock import locations, moves
from stock.errors import Forbidden, ServiceError, say
from stock.policy import Policy
from storage.db import db

BLANK_ROWS = 3


def _policy() -> Policy:
    """The depot's settings, as the API's routes read them (routes/operation.py policy)."""
    config = current_app.config
    return Policy(allow_negative_stock=config["ALLOW_NEGATIVE_STOCK"],
                  acquire_timeout=timedelta(seconds=config["ACQUIRE_TIMEOUT"]),
                  max_future_days=config["MAX_FUTURE_DAYS"])


def _require_scan() -> None:
    if not g.caller.has_role("scan"):
        raise Forbidden(say("Moving stock needs role scan or admin."))


def _number(text: str):
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else text


def _codes() -> dict[int, list[str]]:
    """The active locations' codes of each warehouse the person sees, offered as they type."""
    return {number: [found["code"] for found in locations.list_locations(db.session, g.caller, number) if found["active"]]
            for number in warehouse_names()}


def _form_page(form: dict, errors: dict, status: int = 200):
    return render_template("move.html", form=form, errors=errors, codes=_codes()), status


@bp.get("/moves/new")
@signed_in
def move_form():
    """The Move form; from a location, what lies there is listed to be moved."""
    _require_scan()
    args = request.args
    source = _number(args.get("from_warehouse", ""))
    source = source if isinstance(source, int) and g.caller.sees(source) else next(iter(warehouse_names()), 1)
    place = args.get("from_location", "").strip()
    rows = []
    if "from_location" in args:
        rows = [{"product_code": row["product_code"], "lot": row["lot"], "amount": "",
                 "there": row["amount_milli"]}
                for row in locations.location_stock(db.session, g.caller, source, place)]
    rows += [{"product_code": "", "lot": "", "amount": "", "there": None}] * BLANK_ROWS
    form = {"move_id": str(uuid.uuid4()), "from_warehouse": str(source), "from_location": place,
            "to_warehouse": str(source), "to_location": "", "note": "", "items": rows}
    return _form_page(form, {})


@bp.post("/moves/new")
@signed_in
def move_post():
    """Move what the form names; the same form sent again moves nothing more."""
    check_form_post()
    _require_scan()
    form = _read_form()
    # Rows without an amount are not items (the form lists what lies at the source, to be moved
    # or not); a refusal names an item by its row on the form.
    filled = [index for index, row in enumerate(form["items"]) if row["amount"]]
    body = {"move_id": form["move_id"], "note": form["note"],
            "from": {"id_warehouse": _number(form["from_warehouse"]), "location": form["from_location"]},
            "to": {"id_warehouse": _number(form["to_warehouse"]), "location": form["to_location"]},
            "items": [{"product_code": form["items"][index]["product_code"], "lot": form["items"][index]["lot"],
                       "amount": form["items"][index]["amount"]} for index in filled]}
    try:
        if not filled:
            raise ValidationError({"items": [say("Type an amount to move on at least one row.")]})
        moved = moves.post_move(db.session, g.caller, move_schema.load(body), _policy())
    except (ValidationError, ServiceError) as error:
        status = error.status if isinstance(error, ServiceError) else 422
        return _form_page(form, _on_rows(field_errors(error), filled), status)
    where = (lambda wh, loc: f"{loc or _('unplaced')} ({warehouse_names().get(wh, wh)})")
    text = _("Moved %(count)s item(s) from %(source)s to %(target)s.", count=len(filled),
             source=where(body["from"]["id_warehouse"], form["from_location"]),
             target=where(body["to"]["id_warehouse"], form["to_location"]))
    flash(text if moved else _("This move was booked already; nothing more moved. %(text)s", text=text))
    target = body["to"]["id_warehouse"]
    if form["to_location"]:
        return redirect(url_for("pages.location_page", id_warehouse=target, code=form["to_location"]), 303)
    return redirect(url_for("pages.location_page", id_warehouse=target), 303)


def _read_form() -> dict:
    given = request.form
    codes, lots, amounts = given.getlist("product_code"), given.getlist("lot"), given.getlist("amount")
    rows = [{"product_code": code.strip(), "lot": lot.strip(), "amount": amount.strip(), "there": None}
            for code, lot, amount in zip(codes, lots, amounts)]
    return {"move_id": given.get("move_id", "").strip() or str(uuid.uuid4()),
            **{name: given.get(name, "").strip() for name in ("from_warehouse", "from_location", "to_warehouse",
                                                                "to_location", "note")},
            "items": rows}


def _on_rows(errors: dict, filled: list[int]) -> dict:
    """The items' problems keyed by the form's rows, not by the items sent."""
    items = errors.get("items")
    if isinstance(items, dict):
        errors["items"] = {filled[index]: problem for index, problem in items.items()
                           if isinstance(index, int) and index < len(filled)}
    return errors
