"""The customers pages: list and search, create, edit.

The form is loaded by the API's schemas (schemas.customer_in_schema, customer_update_schema)
and saved by the API's rule functions (stock.catalog): a refusal shows beside its field.
"""
from flask import redirect, render_template, request, url_for
from marshmallow import ValidationError

from pages import bp
from pages.common import PER_PAGE, Pager, csv_response, field_errors, page_actor, require_admin
from pages.params import customers_query, load_args
from pages.signin import check_form_post, signed_in
from schemas import customer_in_schema, customer_update_schema
from stock import catalog
from stock.errors import ServiceError
from storage.db import db

FIELDS = ("name", "registration_number", "tax_id", "vat_number")
ADDRESS = ("street", "city", "zip", "country")


@bp.get("/customers")
@signed_in
def customers():
    """Customers by number; search by number, name, tax or VAT number, or city."""
    query = load_args(customers_query, request.args)
    if query["format"] != "html":
        return csv_response("customers", ["id_customer", *FIELDS, *ADDRESS], (
            (c.id_customer, *(getattr(c, key) for key in FIELDS + ADDRESS))
            for c in catalog.search_customers(db.session, query["q"])))
    size = PER_PAGE["customers"]
    found = catalog.search_customers(db.session, query["q"], limit=size + 1, after=(query["after"] or (None,))[0])
    total = catalog.count_customers(db.session, query["q"])
    return render_template("customers.html", query=query,
                           pager=Pager(query, size, found, total, lambda customer: (customer.id_customer,)))


@bp.get("/customers/new")
@signed_in
def new_customer():
    """The form for a new customer."""
    require_admin()
    return render_template("customer_form.html", customer=None,
                           form={key: "" for key in ("id_customer",) + FIELDS + ADDRESS}, errors={})


@bp.post("/customers/new")
@signed_in
def create_customer():
    """Add a customer from the form."""
    check_form_post()
    require_admin()
    form = read_form(request.form, with_number=True)
    try:
        catalog.create_customer(db.session, customer_in_schema.load(api_fields(form)), page_actor())
    except (ValidationError, ServiceError) as error:
        return refused(None, form, error)
    return redirect(url_for("pages.customers", q=form["id_customer"]), 303)


@bp.get("/customers/<int:id_customer>")
@signed_in
def edit_customer(id_customer):
    """The form of one customer, every field filled in."""
    require_admin()
    customer = catalog.get_customer(db.session, id_customer)
    return render_template("customer_form.html", customer=customer,
                           form={key: getattr(customer, key) for key in FIELDS + ADDRESS}, errors={})


@bp.post("/customers/<int:id_customer>")
@signed_in
def update_customer(id_customer):
    """Save the form of one customer."""
    check_form_post()
    require_admin()
    customer = catalog.get_customer(db.session, id_customer)
    form = read_form(request.form, with_number=False)
    try:
        catalog.update_customer(db.session, id_customer, customer_update_schema.load(api_fields(form)),
                                page_actor())
    except (ValidationError, ServiceError) as error:
        return refused(customer, form, error)
    return redirect(url_for("pages.customers", q=str(id_customer)), 303)


def read_form(posted, with_number: bool) -> dict:
    return {key: posted.get(key, "").strip() for key in ("id_customer",) * with_number + FIELDS + ADDRESS}


def api_fields(form: dict) -> dict:
    """The form in the API's shape (POST /v1/customers/): the number a number, the address an object."""
    fields = {key: form[key] for key in FIELDS}
    fields["address"] = {key: form[key] for key in ADDRESS}
    if "id_customer" in form:
        number = form["id_customer"]
        fields["id_customer"] = int(number) if number.isdigit() and len(number) < 20 else number
    return fields


def refused(customer, form: dict, error):
    status = error.status if isinstance(error, ServiceError) else 422
    errors = field_errors(error)
    # The address's parts are fields of their own on the form.
    address = errors.pop("address", {})
    errors.update(address if isinstance(address, dict) else {"street": address})
    return render_template("customer_form.html", customer=customer, form=form, errors=errors), status
