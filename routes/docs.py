from flask import Blueprint

import queries
from db import db
from routes import body_data, caller, load, operation, query_args
from schemas import (DocFilterOutSchema, DocOutSchema, doc_filter_schema, doc_view_schema,
                     docs_filter_out_schema, headers_query_schema, listing, single)

bp = Blueprint("docs", __name__, url_prefix="/v1/docs")


@bp.get("/<number:doc_number>")
@operation("read", answer=single(DocOutSchema, "DocAnswer"), errors=(404,))
def view_document(doc_number):
    """One warehouse document with its items."""
    return {"item": doc_view_schema.dump(queries.get_document(db.session, caller(), doc_number))}


@bp.post("/filter")
@operation("read", query=headers_query_schema, body=doc_filter_schema,
           answer=listing(DocFilterOutSchema, "DocList"))
def filter_documents():
    """Warehouse documents by warehouse, direction, date and lot level."""
    filters = load(doc_filter_schema, body_data())
    return {"list": docs_filter_out_schema.dump(
        queries.filter_documents(db.session, caller(), filters, query_args().get("headers", False)))}
