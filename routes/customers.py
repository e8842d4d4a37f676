"""Customers (/v1/customers): the list the office's order documents refer to; the office adds and edits."""
from flask import Blueprint

from routes.access import actor
from routes.operation import operation
from routes.parsing import body_data, load
from schemas import (CustomerSchema, NothingSchema, customer_in_schema, customer_update_schema,
                     customers_schema, listing)
from stock import catalog
from storage.db import db

bp = Blueprint("customers", __name__, url_prefix="/v1/customers")


@bp.get("/")
@operation("read", answer=listing(CustomerSchema, "CustomerList"))
def list_customers():
    """All customers, by id_customer."""
    return {"list": customers_schema.dump(catalog.list_customers(db.session))}


@bp.post("/")
@operation("admin", body=customer_in_schema, answer=NothingSchema, status=201, errors=(409,))
def add_customer():
    """Add a customer."""
    catalog.create_customer(db.session, load(customer_in_schema, body_data(required=True)), actor())
    return {}, 201


@bp.post("/<number:id_customer>")
@operation("admin", body=customer_update_schema, answer=NothingSchema, errors=(404,))
def update_customer(id_customer):
    """Change the fields given of a customer."""
    data = body_data(required=True)
    # The record in the path answers (404) before the shape (422), as for products.
    catalog.get_customer(db.session, id_customer)
    catalog.update_customer(db.session, id_customer, load(customer_update_schema, data), actor())
    return {}
