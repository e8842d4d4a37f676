from flask import Blueprint

import queries
from db import db
from routes import body_data, caller, headers_only, load, requires
from schemas import doc_filter_schema, doc_view_schema, docs_filter_out_schema

bp = Blueprint("docs", __name__, url_prefix="/v1/docs")


@bp.get("/<number:doc_number>")
@requires("read")
def view_document(doc_number):
    """One warehouse document with its items."""
    return {"item": doc_view_schema.dump(queries.get_document(db.session, caller(), doc_number))}


@bp.post("/filter")
@requires("read")
def filter_documents():
    """Warehouse documents by warehouse, direction, date and lot level."""
    filters = load(doc_filter_schema, body_data())
    only_headers = headers_only()
    return {"list": docs_filter_out_schema.dump(
        queries.filter_documents(db.session, caller(), filters, only_headers))}
