from flask import Blueprint

import catalog
from db import db
from routes import requires
from schemas import customers_schema

bp = Blueprint("customers", __name__, url_prefix="/v1/customers")


@bp.get("/")
@requires("read")
def list_customers():
    """All customers, by id_customer (read only: the CLI imports them)."""
    return {"list": customers_schema.dump(catalog.list_customers(db.session))}
