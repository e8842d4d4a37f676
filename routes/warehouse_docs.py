"""Warehouse documents (/v1/docs), the goods-in and goods-out bookings: view one, filter them."""
from flask import Blueprint

from routes.access import caller
from routes.operation import operation, query_args
from routes.parsing import body_data, load
from schemas import (DocFilterOutSchema, DocOutSchema, doc_filter_schema, doc_view_schema,
                     docs_filter_out_schema, headers_query_schema, listing, single)
from stock import records
from storage.db import db

bp = Blueprint("docs", __name__, url_prefix="/v1/docs")


@bp.get("/<number:doc_number>")
@operation("read", answer=single(DocOutSchema, "DocAnswer"), errors=(404,))
def view_document(doc_number):
    """One warehouse document with its items."""
    return {"item": doc_view_schema.dump(records.get_document(db.session, caller(), doc_number))}


@bp.post("/filter")
@operation("read", query=headers_query_schema, body=doc_filter_schema,
           answer=listing(DocFilterOutSchema, "DocList"))
def filter_documents():
    """Warehouse documents by warehouse, direction, date and lot level."""
    filters = load(doc_filter_schema, body_data())
    return {"list": docs_filter_out_schema.dump(
        records.filter_documents(db.session, caller(), filters, query_args().get("headers", False)))}
