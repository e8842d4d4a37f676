"""Barcodes (/v1/barcodes): which product and unit a scanned code names."""
from flask import Blueprint

from routes.operation import operation
from schemas import BarcodeSchema, barcode_answer_schema, single
from stock import catalog
from storage.db import db

bp = Blueprint("barcodes", __name__, url_prefix="/v1/barcodes")


@bp.get("/<code:barcode>")
@operation("read", answer=single(BarcodeSchema, "BarcodeAnswer"), errors=(404,))
def find_barcode(barcode):
    """The product and unit of a base-unit or packaging barcode (factor 1 for the base unit)."""
    return {"item": barcode_answer_schema.dump(catalog.find_barcode(db.session, barcode))}
