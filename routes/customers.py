"""Customers (/v1/customers): the list the office's order documents refer to."""
from flask import Blueprint

from routes.operation import operation
from schemas import CustomerSchema, customers_schema, listing
from stock import catalog
from storage.db import db

bp = Blueprint("customers", __name__, url_prefix="/v1/customers")


@bp.get("/")
@operation("read", answer=listing(CustomerSchema, "CustomerList"))
def list_customers():
    """All customers, by id_customer (read only: the CLI imports them)."""
    return {"list": customers_schema.dump(catalog.list_customers(db.session))}
