"""Products (/v1/products): create, update, list, and the one-product read scanners make all day."""
from flask import Blueprint

from routes.access import actor
from routes.operation import operation
from routes.parsing import body_data, load
from routes.reading import cached, reader
from routes.streaming import whole_list
from schemas import (NothingSchema, ProductSchema, listing, product_out, product_schema,
                     product_update_schema, single)
from stock import catalog
from storage.db import db

bp = Blueprint("products", __name__, url_prefix="/v1/products")


@bp.get("/")
@operation("read", answer=listing(ProductSchema, "ProductList"))
def list_products():
    """All products with their packaging, by product_code."""
    # A whole list, written as it is read (routes/streaming.py).
    return whole_list(catalog.every_product(db.session), product_out)


@bp.get("/<code:product_code>")
@operation("read", answer=single(ProductSchema, "ProductAnswer"), errors=(404,))
def view_product(product_code):
    """One product."""
    product = cached(("product", product_code),
                     lambda: product_out(catalog.get_product(reader(), product_code)))
    return {"item": product}


@bp.post("/")
@operation("admin", body=product_schema, answer=NothingSchema, status=201, errors=(409,))
def add_product():
    """Add a product."""
    fields = load(product_schema, body_data(required=True))
    catalog.create_product(db.session, fields, actor())
    return {}, 201


@bp.post("/<code:product_code>")
@operation("admin", body=product_update_schema, answer=NothingSchema, errors=(404, 409))
def update_product(product_code):
    """Change the fields given of a product."""
    data = body_data(required=True)
    # When several things are wrong the record in the path answers (404) before the shape (422).
    catalog.require_product(db.session, product_code)
    catalog.update_product(db.session, product_code, load(product_update_schema, data), actor())
    return {}
