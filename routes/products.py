from flask import Blueprint

import catalog
from db import db
from routes import body_data, cached, load, reader, requires
from schemas import product_out, product_schema, product_update_schema

bp = Blueprint("products", __name__, url_prefix="/v1/products")


@bp.get("/")
@requires("read")
def list_products():
    """All products with their packaging, by product_code."""
    return {"list": [product_out(product) for product in catalog.list_products(db.session)]}


@bp.get("/<code:product_code>")
@requires("read")
def view_product(product_code):
    """One product."""
    product = cached(("product", product_code),
                     lambda: product_out(catalog.get_product(reader(), product_code)))
    return {"item": product}


@bp.post("/")
@requires("admin")
def add_product():
    """Add a product."""
    fields = load(product_schema, body_data(required=True))
    catalog.create_product(db.session, fields)
    return {}, 201


@bp.post("/<code:product_code>")
@requires("admin")
def update_product(product_code):
    """Change the fields given of a product."""
    data = body_data(required=True)
    catalog.require_product(db.session, product_code)
    catalog.update_product(db.session, product_code, load(product_update_schema, data))
    return {}
