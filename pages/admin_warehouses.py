"""/admin/warehouses (DESIGN 16, 17): add a warehouse, rename it, change its address, deactivate
it and activate it again.

Each change goes through the very rule functions POST /v1/warehouses/ and
POST /v1/warehouses/<id> call (stock.warehouses create_warehouse, update_warehouse), with the
same arguments, after the same schemas: who may manage which warehouse is decided there, once,
for the API and the page alike. A refusal is shown beside its field with what to do.
"""
from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import ValidationError

from pages import bp
from pages.common import field_errors
from pages.signin import actor, admin_only, check_form_post
from schemas import warehouse_schema, warehouse_update_schema
from stock import warehouses
from stock.errors import NotFound, ServiceError, say
from storage.db import db

# What to do, where the schema's own words ("Not a valid integer.") would not say it.
HINTS = {"id_warehouse": "A whole number from 1 up that no other warehouse has, e.g. {next}.",
         "name": "Give a name of 1 to 200 characters, e.g. Cold store.",
         "address": "At most 1,000 characters, on one line."}


def listed() -> list[dict]:
    """The warehouses this admin manages, as the API lists them for the same caller."""
    return warehouses.list_warehouses(db.session, g.caller)


@bp.app_context_processor
def warehouse_picker_choices():
    """The warehouses a person or key may be limited to: the active ones this admin manages."""
    return {"warehouse_choices": lambda: [w for w in listed() if w["active"]]}


def next_number() -> int:
    """The number after the highest one in use: a new warehouse's number unless another is typed."""
    return max((w["id_warehouse"] for w in warehouses.list_warehouses(db.session)), default=0) + 1


def the_warehouse(id_warehouse: int) -> dict:
    """The warehouse as this admin sees it; NotFound (the 404 page) for any other."""
    for warehouse in listed():
        if warehouse["id_warehouse"] == id_warehouse:
            return warehouse
    raise NotFound(say("No warehouse %(number)s.", number=id_warehouse))


@bp.get("/admin/warehouses")
@admin_only
def admin_warehouses():
    """Every warehouse with its address and state; add one."""
    number = next_number()
    return render_template("admin_warehouses.html", warehouses=listed(),
                           form={"id_warehouse": str(number), "name": "", "address": ""}, errors={})


@bp.post("/admin/warehouses")
@admin_only
def admin_warehouses_add():
    """Add a warehouse."""
    check_form_post()
    form = typed(("id_warehouse", "name", "address"))
    try:
        fields = warehouse_schema.load(api_fields(form))
        warehouses.create_warehouse(db.session, actor(), fields, g.caller)
    except (ValidationError, ServiceError) as error:
        return render_template("admin_warehouses.html", warehouses=listed(), form=form,
                               errors=explained(error, next_number())), status_of(error)
    flash(_("Warehouse %(number)s, %(name)s, is added.", number=fields["id_warehouse"], name=fields["name"]))
    return redirect(url_for("pages.admin_warehouses"), 303)


@bp.get("/admin/warehouses/<number:id_warehouse>")
@admin_only
def admin_warehouse(id_warehouse):
    """The form of one warehouse: its name and address."""
    warehouse = the_warehouse(id_warehouse)
    return render_template("admin_warehouse.html", warehouse=warehouse,
                           form={"name": warehouse["name"], "address": warehouse["address"]}, errors={})


@bp.post("/admin/warehouses/<number:id_warehouse>")
@admin_only
def admin_warehouse_save(id_warehouse):
    """Rename a warehouse or change its address."""
    check_form_post()
    warehouse = the_warehouse(id_warehouse)
    form = typed(("name", "address"))
    try:
        warehouses.update_warehouse(db.session, actor(), id_warehouse, warehouse_update_schema.load(form), g.caller)
    except (ValidationError, ServiceError) as error:
        return render_template("admin_warehouse.html", warehouse=warehouse, form=form,
                               errors=explained(error, None)), status_of(error)
    flash(_("Warehouse %(number)s is saved as %(name)s.", number=id_warehouse, name=form["name"]))
    return redirect(url_for("pages.admin_warehouses"), 303)


@bp.post("/admin/warehouses/<number:id_warehouse>/active")
@admin_only
def admin_warehouse_active(id_warehouse):
    """Deactivate a warehouse (no new batch, order, key or person may name it) or activate it again."""
    check_form_post()
    warehouse = the_warehouse(id_warehouse)
    active = 1 if request.form.get("active") == "1" else 0
    warehouses.update_warehouse(db.session, actor(), id_warehouse, warehouse_update_schema.load({"active": active}),
                                g.caller)
    flash(_("%(name)s is active again.", name=warehouse["name"]) if active
          else _("%(name)s is deactivated: its stock and history stay.", name=warehouse["name"]))
    return redirect(url_for("pages.admin_warehouses"), 303)


def typed(names) -> dict:
    return {name: request.form.get(name, "").strip() for name in names}


def api_fields(form: dict) -> dict:
    """The form in the API's shape (POST /v1/warehouses/): the number a number."""
    number = form["id_warehouse"]
    return {**form, "id_warehouse": int(number) if number.isascii() and number.isdigit() and len(number) < 20
            else number}


def explained(error, next_free: int | None) -> dict:
    """{field: message}: the rule's own words where it gave them, else what to do with the field."""
    errors = field_errors(error)
    if isinstance(error, ValidationError):
        for name in errors:
            if name in HINTS:
                errors[name] = HINTS[name].format(next=next_free)
    return errors


def status_of(error) -> int:
    return error.status if isinstance(error, ServiceError) else 422
