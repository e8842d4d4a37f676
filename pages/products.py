"""The products pages: search, create, edit, deactivate, and one product's card.

Forms are read into the same shape the API takes and loaded by the same schemas
(schemas.product_schema, product_update_schema), then handed to the same rule
functions (stock.catalog): a page and an API call can never disagree. A refusal is
shown beside its field, with the rule's status (409 a clash, 422 a bad value).
"""
from flask import g, redirect, render_template, request, url_for
from marshmallow import ValidationError

from language.choice import current
from language.formats import typed_amount
from pages import bp
from pages.clock import depot_today
from pages.chart import months_between, months_back, stock_chart
from pages.common import PER_PAGE, Pager, csv_response, field_errors, page_actor, require_admin
from pages.params import load_args, products_query
from pages.signin import check_form_post, signed_in
from schemas import product_schema, product_update_schema
from stock import catalog, packages, placed_stock, product_card, reorder
from stock.errors import ServiceError
from stock.quantities import from_milli
from storage.db import db
from transfer import products as transfer_products

TEXT_FIELDS = ("name", "base_unit", "base_unit_barcode", "weight_brutto", "weight_netto", "weight_unit")
BLANK_PACKAGING_ROWS = 3
STOCK_MONTHS = 12


@bp.get("/products")
@signed_in
def products():
    """Products by code; search by code, name or any barcode."""
    query = load_args(products_query, request.args)
    if query["format"] != "html":
        # In the import's columns, packaging in numbered groups: the download imports back unchanged.
        return csv_response("products", *transfer_products.export(db.session, search=query["q"]))
    size = PER_PAGE["products"]
    found = catalog.search_products(db.session, query["q"], limit=size + 1, after=(query["after"] or (None,))[0])
    total = catalog.count_products(db.session, query["q"])
    return render_template("products.html", query=query,
                           pager=Pager(query, size, found, total, lambda product: (product["product_code"],)))


def packaging_text(packaging) -> str:
    """Packaging in one cell: "box=6:4006381333931; crate=12"."""
    return "; ".join(f"{p['unit']}={from_milli(p['amount_base_units_milli'])}"
                     + (f":{p['barcode']}" if p["barcode"] else "") for p in packaging)


@bp.get("/products/new")
@signed_in
def new_product():
    """The form for a new product."""
    require_admin()
    return render_template("product_form.html", product=None, form=blank_form(), errors={})


@bp.post("/products/new")
@signed_in
def create_product():
    """Add a product from the form."""
    check_form_post()
    require_admin()
    form = read_form(request.form, with_code=True)
    try:
        catalog.create_product(db.session, product_schema.load(api_fields(form, with_code=True)), page_actor())
    except (ValidationError, ServiceError) as error:
        return refused(None, form, error)
    return redirect(url_for("pages.product", product_code=form["product_code"]), 303)


@bp.get("/products/edit/<code:product_code>")
@signed_in
def edit_product(product_code):
    """The form of an existing product, every field filled in."""
    require_admin()
    product = catalog.get_product(db.session, product_code)
    return render_template("product_form.html", product=product, form=filled_form(product), errors={})


@bp.post("/products/edit/<code:product_code>")
@signed_in
def update_product(product_code):
    """Save the form of an existing product: every field, packaging as listed."""
    check_form_post()
    require_admin()
    product = catalog.get_product(db.session, product_code)
    form = read_form(request.form, with_code=False)
    try:
        catalog.update_product(db.session, product_code, product_update_schema.load(api_fields(form)),
                               page_actor())
    except (ValidationError, ServiceError) as error:
        return refused(product, form, error)
    return redirect(url_for("pages.product", product_code=product_code), 303)


@bp.post("/products/active/<code:product_code>")
@signed_in
def set_product_active(product_code):
    """Deactivate a product (no new batches may use it), or make it active again."""
    check_form_post()
    require_admin()
    catalog.require_product(db.session, product_code)
    active = 1 if request.form.get("active") == "1" else 0
    catalog.update_product(db.session, product_code, {"active": active}, page_actor())
    return redirect(url_for("pages.product", product_code=product_code), 303)


@bp.get("/products/<code:product_code>")
@signed_in
def product(product_code):
    """One product: its fields, stock per warehouse and lot, last movements, a year's stock, labels."""
    found = catalog.get_product(db.session, product_code)
    today = depot_today()
    months = months_between(months_back(today, STOCK_MONTHS - 1), today)
    history = product_card.month_end_stock(db.session, g.caller, product_code, months, today)
    stock = product_card.stock_by_lot(db.session, g.caller, product_code)
    for row in stock:
        row["packages"] = packages.in_packages(row["amount_milli"], found["packaging"])
    seen = None if g.caller.warehouses is None else sorted(g.caller.warehouses)
    return render_template(
        "product.html", product=found, packaging_text=packaging_text(found["packaging"]), stock=stock,
        places=placed_stock.product_places(db.session, g.caller, product_code),
        movements=product_card.last_movements(db.session, g.caller, product_code),
        levels=reorder.list_reorder_levels(db.session, seen, product_code=product_code),
        history=history, chart=stock_chart(history, found["base_unit"]))


# --- the form -------------------------------------------------------------------------------

def blank_form() -> dict:
    return {"product_code": "", "name": "", "base_unit": "", "base_unit_barcode": "", "category": "0",
            "lot_level": "0", "decimal_places": "3", "active": True, "weight_brutto": "0", "weight_netto": "0", "weight_unit": "kg",
            "packaging": [{"unit": "", "amount_base_units": "", "barcode": ""}] * BLANK_PACKAGING_ROWS}


def filled_form(product: dict) -> dict:
    return {**{key: product[key] for key in ("product_code", "name", "base_unit", "base_unit_barcode",
                                             "weight_unit")},
            "category": str(product["category"]), "lot_level": str(product["lot_level"]),
            "decimal_places": str(product["decimal_places"]),
            "active": bool(product["active"]),
            "weight_brutto": str(from_milli(product["weight_brutto_milli"])),
            "weight_netto": str(from_milli(product["weight_netto_milli"])),
            "packaging": [{"unit": p["unit"], "amount_base_units": str(from_milli(p["amount_base_units_milli"])),
                           "barcode": p["barcode"]} for p in product["packaging"]]
            + [{"unit": "", "amount_base_units": "", "barcode": ""}] * BLANK_PACKAGING_ROWS}


def read_form(posted, with_code: bool) -> dict:
    """The form as typed (strings), to show again when refused."""
    form = {key: posted.get(key, "").strip() for key in ("product_code",) * with_code + TEXT_FIELDS}
    form["category"] = posted.get("category", "0").strip()
    form["lot_level"] = posted.get("lot_level", "0")
    form["decimal_places"] = posted.get("decimal_places", "3")
    form["active"] = posted.get("active") == "1"
    rows = zip(posted.getlist("pack_unit"), posted.getlist("pack_amount"), posted.getlist("pack_barcode"))
    form["packaging"] = [{"unit": unit.strip(), "amount_base_units": amount.strip(), "barcode": barcode.strip()}
                         for unit, amount, barcode in rows if unit.strip() or amount.strip() or barcode.strip()]
    return form


def api_fields(form: dict, with_code: bool = False) -> dict:
    """The form in the API's shape (POST /v1/products/): numbers where the schema wants them."""
    fields = {key: form[key] for key in ("product_code",) * with_code + TEXT_FIELDS}
    # Amounts typed with a decimal comma (sl, de) go on as the API's schema reads them.
    language = current()
    for key in ("weight_brutto", "weight_netto"):
        fields[key] = typed_amount(fields[key], language)
    fields["category"] = whole(form["category"])
    fields["lot_level"] = whole(form["lot_level"])
    fields["decimal_places"] = whole(form["decimal_places"])
    fields["active"] = 1 if form["active"] else 0
    fields["packaging"] = [{**row, "amount_base_units": typed_amount(row["amount_base_units"], language)}
                           for row in form["packaging"]]
    return fields


def whole(text: str):
    """A whole number typed in a form; anything else goes on as typed, for the schema to name."""
    return int(text) if text.lstrip("-").isdigit() and len(text) < 20 else text


def refused(product, form: dict, error):
    status = error.status if isinstance(error, ServiceError) else 422
    form["packaging"] = form["packaging"] + [{"unit": "", "amount_base_units": "", "barcode": ""}]
    return render_template("product_form.html", product=product, form=form,
                           errors=field_errors(error)), status
