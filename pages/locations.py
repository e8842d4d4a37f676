"""A warehouse's locations (DESIGN 27, "Pages"): listed in walking order, added, edited, held,
deactivated, imported, and their labels printed; and what lies on one location.

Every change goes through the rule functions POST /v1/locations/ and
POST /v1/locations/<id_warehouse>/<code> call (stock.locations create_location, update_location),
after the same schemas: an admin limited to warehouses changes locations of its own alone, and
everyone else who sees the warehouse reads. A refusal is shown beside its field, with the
rule's status (409 a clash or a location that holds stock, 422 a bad value).
"""
from flask import current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import ValidationError

from pages import bp
from pages.common import field_errors, file_answer, page_actor
from pages.params import load_args, location_labels_query
from pages.signin import check_form_post, signed_in
from printing import labels, zpl
from schemas.locations import location_schema, location_update_schema
from stock import locations, placed_stock
from stock import warehouses as warehouse_records
from stock.caller import may_manage
from stock.errors import Forbidden, Invalid, NotFound, ServiceError, say
from storage.db import db

FORM_FIELDS = ("code", "name", "sequence", "hold", "receiving")
# What to do, where the schema's own words ("Not a valid integer.") would not say it.
HINTS = {"code": say("1 to 30 letters, digits, '-', '.' or '/', e.g. A-01-2."),
         "sequence": say("A whole number from 0 up (0: the codes decide the walking order), e.g. 100."),
         "name": say("At most 200 characters, on one line.")}


def the_warehouse(id_warehouse: int) -> dict:
    """The warehouse as the signed-in person sees it; NotFound (the 404 page) for any other."""
    if g.caller.sees(id_warehouse):
        for warehouse in warehouse_records.list_warehouses(db.session):
            if warehouse["id_warehouse"] == id_warehouse:
                return warehouse
    raise NotFound(say("No warehouse %(number)s.", number=id_warehouse))


def manages(id_warehouse: int) -> bool:
    """Whether the signed-in person may change the warehouse's locations (the rule's own test)."""
    return may_manage(g.caller, frozenset({id_warehouse}))


def require_manages(id_warehouse: int) -> None:
    if not manages(id_warehouse):
        raise Forbidden(say("Only an admin of this warehouse may change its locations."))


def _list_page(warehouse: dict, form: dict | None = None, errors: dict | None = None, status: int = 200):
    id_warehouse = warehouse["id_warehouse"]
    found = locations.list_locations(db.session, g.caller, id_warehouse)
    held = placed_stock.held_per_location(db.session, id_warehouse)
    blank = {"code": "", "name": "", "sequence": "", "hold": "", "receiving": ""}
    return render_template("locations.html", warehouse=warehouse, locations=found, held=held,
                           manages=manages(id_warehouse), form=form or blank, errors=errors or {}), status


@bp.get("/warehouses/<number:id_warehouse>/locations")
@signed_in
def warehouse_locations(id_warehouse):
    """The warehouse's locations in walking order, what each holds; add, edit, labels."""
    return _list_page(the_warehouse(id_warehouse))


@bp.post("/warehouses/<number:id_warehouse>/locations")
@signed_in
def add_location(id_warehouse):
    """Add a location (an admin of the warehouse)."""
    check_form_post()
    warehouse = the_warehouse(id_warehouse)
    require_manages(id_warehouse)
    form = typed(FORM_FIELDS)
    try:
        fields = location_schema.load({"id_warehouse": id_warehouse, **api_fields(form)})
        locations.create_location(db.session, page_actor(), g.caller, fields)
    except (ValidationError, ServiceError) as error:
        return _list_page(warehouse, form, explained(error), status_of(error))
    flash(_("Location %(code)s is added.", code=fields["code"]))
    return redirect(url_for("pages.warehouse_locations", id_warehouse=id_warehouse), 303)


def _the_location(id_warehouse: int, code: str) -> dict:
    for found in locations.list_locations(db.session, g.caller, id_warehouse):
        if locations.code_key(found["code"]) == locations.code_key(code):
            return found
    raise NotFound(say("No location %(code)s in warehouse %(number)s.", code=code, number=id_warehouse))


@bp.get("/warehouses/<number:id_warehouse>/locations/edit/<code:code>")
@signed_in
def edit_location(id_warehouse, code):
    """The form of one location: its name, walking order, hold and receiving."""
    warehouse = the_warehouse(id_warehouse)
    require_manages(id_warehouse)
    found = _the_location(id_warehouse, code)
    form = {"code": found["code"], "name": found["name"], "sequence": str(found["sequence"]),
            "hold": "1" if found["hold"] else "", "receiving": "1" if found["receiving"] else ""}
    return render_template("location_form.html", warehouse=warehouse, location=found, form=form, errors={})


@bp.post("/warehouses/<number:id_warehouse>/locations/edit/<code:code>")
@signed_in
def save_location(id_warehouse, code):
    """Change a location's name, walking order, hold and receiving."""
    check_form_post()
    warehouse = the_warehouse(id_warehouse)
    require_manages(id_warehouse)
    found = _the_location(id_warehouse, code)
    form = {**typed(FORM_FIELDS[1:]), "code": found["code"]}
    try:
        fields = location_update_schema.load(api_fields(form, with_code=False))
        locations.update_location(db.session, page_actor(), g.caller, id_warehouse, found["code"], fields)
    except (ValidationError, ServiceError) as error:
        return render_template("location_form.html", warehouse=warehouse, location=found, form=form,
                               errors=explained(error)), status_of(error)
    flash(_("Location %(code)s is saved.", code=found["code"]))
    return redirect(url_for("pages.warehouse_locations", id_warehouse=id_warehouse), 303)


@bp.post("/warehouses/<number:id_warehouse>/locations/active/<code:code>")
@signed_in
def set_location_active(id_warehouse, code):
    """Deactivate a location (refused while it holds stock) or activate it again."""
    check_form_post()
    warehouse = the_warehouse(id_warehouse)
    require_manages(id_warehouse)
    found = _the_location(id_warehouse, code)
    active = 1 if request.form.get("active") == "1" else 0
    try:
        locations.update_location(db.session, page_actor(), g.caller, id_warehouse, found["code"],
                                  location_update_schema.load({"active": active}))
    except ServiceError as error:
        # Shown above the list, where the location's row says what it holds and links to it.
        return _list_page(warehouse, errors={"": error.message}, status=error.status)
    flash(_("Location %(code)s is active again.", code=found["code"]) if active
          else _("Location %(code)s is deactivated.", code=found["code"]))
    return redirect(url_for("pages.warehouse_locations", id_warehouse=id_warehouse), 303)


def _labels(id_warehouse: int) -> tuple[list[dict], dict]:
    the_warehouse(id_warehouse)
    query = load_args(location_labels_query, request.args)
    return labels.location_labels(db.session, g.caller, id_warehouse, request.args.getlist("code")), query


@bp.get("/warehouses/<number:id_warehouse>/locations/labels.pdf")
@signed_in
def location_labels_pdf(id_warehouse):
    """The chosen locations' labels as PDF: one a page of the label size, or on A4 sheets."""
    from printing import label_pdf  # reportlab on the first PDF only (pages/printing.py)
    found, query = _labels(id_warehouse)
    body = label_pdf.labels_pdf(found, current_app.config["LABEL_SIZE"], sheet=query["sheet"] == "a4",
                                title=f"Location labels of warehouse {id_warehouse}")
    return file_answer(body, "application/pdf", f"locations-{id_warehouse}.pdf")


@bp.get("/warehouses/<number:id_warehouse>/locations/labels.zpl")
@signed_in
def location_labels_zpl(id_warehouse):
    """The chosen locations' labels as ZPL for a 203 dpi Zebra printer, one format each."""
    found, query = _labels(id_warehouse)
    if query["sheet"] is not None:
        raise Invalid(say("A Zebra prints labels from its roll, not on A4 sheets."), {"sheet": [say("Only for the PDF.")]})
    return file_answer(zpl.labels_zpl(found, current_app.config["LABEL_SIZE"]), "application/zpl",
                 f"locations-{id_warehouse}.zpl")


@bp.get("/locations/<number:id_warehouse>/", defaults={"code": ""})
@bp.get("/locations/<number:id_warehouse>/<code:code>")
@signed_in
def location_page(id_warehouse, code):
    """What lies on one location (none named: the warehouse's unplaced stock): its products and
    lots, with their best-before and amounts."""
    warehouse = the_warehouse(id_warehouse)
    found = _the_location(id_warehouse, code) if code else {"code": "", "name": "", "hold": 0, "active": 1}
    rows = locations.location_stock(db.session, g.caller, id_warehouse, found["code"])
    names = placed_stock.product_names(db.session, {row["product_code"] for row in rows})
    return render_template("location.html", warehouse=warehouse, location=found, rows=rows, names=names,
                           manages=manages(id_warehouse))


def typed(names) -> dict:
    return {name: request.form.get(name, "").strip() for name in names}


def api_fields(form: dict, with_code: bool = True) -> dict:
    """The form in the API's shape: numbers as numbers where they are, the boxes ticked as 1 or 0."""
    fields = {"name": form["name"], "hold": 1 if form.get("hold") else 0,
              "receiving": 1 if form.get("receiving") else 0}
    if with_code:
        fields["code"] = form["code"]
    sequence = form.get("sequence", "")
    if sequence != "":
        fields["sequence"] = int(sequence) if sequence.isascii() and sequence.isdigit() and len(sequence) < 20 \
            else sequence
    return fields


def explained(error) -> dict:
    """{field: message}: the rule's own words where it gave them, else what to do with the field."""
    errors = field_errors(error)
    if isinstance(error, ValidationError):
        for name in errors:
            if name in HINTS:
                errors[name] = HINTS[name]
    return errors


def status_of(error) -> int:
    return error.status if isinstance(error, ServiceError) else 422
