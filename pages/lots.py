"""A lot's story (/lots/<product>/<lot>) with its recall list, and write-offs (/write-offs):
what was written off by month and reason, and the confirmation that writes a lot off.

Read and booked through the same rules as /v1/lots/trace and /v1/write_offs/ (stock/lot_story.py,
stock/write_offs.py): a page and an API call can never disagree.
"""
import uuid
from decimal import Decimal

from flask import current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _, lazy_gettext as _l
from marshmallow import ValidationError
from sqlalchemy import select

from language.catalogue import translated
from language.choice import current
from language.formats import amount_to_type, typed_amount
from models import Product
from pages import bp
from pages.common import csv_response, page_actor, safe_file_name, warehouses, write_off_reason
from pages.params import load_args, lot_query, write_off_asked, write_offs_query
from pages.signin import check_form_post, signed_in
from schemas.write_offs import write_off_schema
from stock import lot_story, write_offs
from stock.errors import Forbidden, ServiceError, say
from stock.policy import Policy
from stock.quantities import from_milli
from storage.db import db

# The form's `location`: "" the lot in the whole warehouse (a write-off takes it as any goods-out does,
# unplaced stock first), "-" its unplaced stock (as the stock page's filter says it), else a location.
PLACES = {"": None, "-": ""}
# Where the form's Cancel goes back to: the page that offered the write-off.
BACK = {"alerts": lambda asked: url_for("pages.alerts", kind="expired"), "stock": lambda asked: url_for("pages.stock"),
        "lot": lambda asked: url_for("pages.lot", product_code=asked["product"], lot=asked["lot"] or "-")}

KIND_TITLES = {"received": _l("Received"), "returned": _l("Returned"), "counted": _l("Counted (difference)"),
               "delivered": _l("Delivered"), "written_off": _l("Written off"), "moved": _l("Moved")}


@bp.get("/lots/<code:product_code>/<code:lot>")
@signed_in
def lot(product_code, lot):
    """One lot's story: where it came from and where it went, on one screen; ?format=csv or xlsx:
    the recall list (each customer with the address and what they got)."""
    query = load_args(lot_query, request.args)
    # Either code may hold "/": the router cuts the path at one, the depot's codes decide where.
    product_code, lot = lot_story.product_and_lot(db.session, f"{product_code}/{lot}")
    story = lot_story.trace(db.session, g.caller, product_code, lot)
    recall = lot_story.recall_list(db.session, story)
    if query["format"] != "html":
        return csv_response(f"recall-{safe_file_name(product_code)}-{safe_file_name(lot)}", [
            "id_customer", "name", "street", "zip", "city", "country", "delivered", "returned", "kept", "orders",
            "first_delivery", "last_delivery"],
            ([row["id_customer"], row["name"], row["street"], row["zip"], row["city"], row["country"],
              from_milli(row["delivered_milli"]), from_milli(row["returned_milli"]), from_milli(row["kept_milli"]),
              " ".join(row["orders"]), row["first"], row["last"]] for row in recall))
    product = db.session.get(Product, product_code)
    # An order's address, built once: a lot delivered to thousands of customers links thousands of orders.
    order_url = url_for("pages.order", document_number="_")[:-1]
    return render_template("lot.html", story=story, recall=recall, totals=lot_story.totals(story),
                           product=product, titles=KIND_TITLES, may_write_off=g.caller.has_role("scan"),
                           order_url=order_url)


@bp.get("/write-offs")
@signed_in
def write_offs_page():
    """What was written off, by month, reason and product; as CSV or XLSX too."""
    query = load_args(write_offs_query, request.args)
    seen = warehouses(query)
    rows = write_offs.totals(db.session, g.caller, seen[0] if seen else None, query["since"], query["until"])
    if query["format"] != "html":
        return csv_response("write-offs", ["month", "reason", "product_code", "name", "amount", "write_offs"],
                            ([row["month"], row["reason"], row["product_code"], row["name"],
                              from_milli(row["amount_milli"]), row["write_offs"]] for row in rows))
    months: dict[str, dict] = {}
    for row in rows:
        month = months.setdefault(row["month"], {"month": row["month"], "reasons": {}, "rows": []})
        month["reasons"][row["reason"]] = month["reasons"].get(row["reason"], 0) + row["write_offs"]
        month["rows"].append(row)
    listed = write_offs.list_write_offs(db.session, g.caller, seen[0] if seen else None, query["since"],
                                        query["until"])
    return render_template("write_offs.html", query=query, months=list(months.values()),
                           reasons=write_offs.REASONS, recent=list(reversed(listed))[:50])


@bp.get("/write-offs/new")
@signed_in
def new_write_off():
    """Asks first: the lot, the amount (its stock, filled in), the reason (the alerts page's expired; else
    the person chooses)."""
    asked = load_args(write_off_asked, request.args)
    return _confirm_page(asked, errors={})


def _confirm_page(asked: dict, errors: dict, status: int = 200):
    if not g.caller.has_role("scan"):
        raise Forbidden(say("Writing off needs role scan or admin."))
    g.caller.require_warehouse(asked["warehouse"])
    stock = write_offs.stock_to_write_off(db.session, asked["warehouse"], asked["product"], asked["lot"],
                                          PLACES.get(asked["location"], asked["location"]))
    product = db.session.get(Product, asked["product"])
    form = {"amount": asked.get("amount") or amount_to_type(Decimal(stock).scaleb(-3), current()), "reason": asked["reason"],
            "note": asked.get("note", ""), "write_off_id": asked.get("write_off_id") or str(uuid.uuid4())}
    return render_template("write_off_confirm.html", asked=asked, stock=stock, product=product, form=form,
                           reasons=write_offs.REASONS, back=BACK[asked["back"]](asked),
                           errors=errors), status


@bp.post("/write-offs/new")
@signed_in
def book_write_off():
    """Write the lot off as confirmed: booked as a goods-out document, by the same rule as the API."""
    check_form_post()
    form = request.form
    asked = load_args(write_off_asked, {key: form.get(key, "") for key in ("warehouse", "product", "lot", "location")}
                      | {"back": form.get("back") or "alerts"})
    asked.update(amount=form.get("amount", ""), reason=form.get("reason", ""), note=form.get("note", ""),
                 write_off_id=form.get("write_off_id", ""))
    body = {"write_off_id": asked["write_off_id"], "id_warehouse": asked["warehouse"], "reason": asked["reason"],
            "note": asked["note"], "items": [{"product_code": asked["product"], "lot": asked["lot"],
                                              "amount": typed_amount(asked["amount"], current()),
                                              "location": "" if asked["location"] == "-" else asked["location"]}]}
    try:
        if not g.caller.has_role("scan"):
            raise Forbidden(say("Writing off needs role scan or admin."))
        fields = write_off_schema.load(body)
        write_offs.write_off(db.session, g.caller, page_actor(), fields,
                             Policy(allow_negative_stock=current_app.config["ALLOW_NEGATIVE_STOCK"]))
    except ValidationError as error:
        return _confirm_page(asked, _flat_errors(error.messages), 422)
    except ServiceError as error:
        if error.status == 403:
            raise
        return _confirm_page(asked, _flat_errors((error.fields or {}).get("data") or {"": [error.message]}),
                             error.status)
    if asked["lot"]:
        flash(_("Written off: %(amount)s of %(product)s, lot %(lot)s (%(reason)s).", amount=asked["amount"],
                product=asked["product"], lot=asked["lot"], reason=write_off_reason(asked["reason"])))
    else:
        flash(_("Written off: %(amount)s of %(product)s (%(reason)s).", amount=asked["amount"],
                product=asked["product"], reason=write_off_reason(asked["reason"])))
    return redirect(url_for("pages.write_offs_page"))


def _flat_errors(messages: dict) -> dict:
    """{field: text} of a refusal; a line's fields (items.0.amount) as the form's one field."""
    flat = {}
    for name, problem in messages.items():
        if name == "items" and isinstance(problem, dict):
            for line in problem.values():
                if isinstance(line, dict):
                    for field, texts in line.items():
                        flat[field] = " ".join(map(translated, texts)) if isinstance(texts, list) else translated(texts)
                else:
                    flat["amount"] = " ".join(map(translated, line))
        else:
            flat[name] = " ".join(map(translated, problem)) if isinstance(problem, list) else translated(problem)
    return flat
