"""Barcodes (/v1/barcodes): which product and unit a scanned code names; what a camera frame shows."""
from flask import Blueprint, request

from routes.operation import operation
from schemas import BarcodeSchema, barcode_answer_schema, single
from schemas.scanning import BarcodeReadSchema
from stock import catalog
from stock.errors import BadRequest, NotFound
from storage.db import db
from transfer import camera_frames

bp = Blueprint("barcodes", __name__, url_prefix="/v1/barcodes")


@bp.get("/<code:barcode>")
@operation("read", answer=single(BarcodeSchema, "BarcodeAnswer"), errors=(404,))
def find_barcode(barcode):
    """The product and unit of a base-unit or packaging barcode (factor 1 for the base unit)."""
    return {"item": barcode_answer_schema.dump(catalog.find_barcode(db.session, barcode))}


@bp.post("/read")
@operation("scan", body_type="image/*", answer=single(BarcodeReadSchema, "BarcodeReadAnswer"),
           errors=(400, 404, 413))
def read_barcode():
    """The first EAN-13, EAN-8, UPC-A, Code 128 or QR code a camera frame shows (404: none seen).

    The body is the image itself (JPEG, PNG or WebP, at most 1 MB), as the browser scanner sends
    a frame where the browser cannot read barcodes itself.
    """
    request.max_content_length = camera_frames.MOST_BYTES
    body = request.get_data(cache=False)
    if not body:
        raise BadRequest("Send the camera frame as the body (a JPEG, PNG or WebP image).")
    found = camera_frames.read_frame(body)
    if found is None:
        raise NotFound("No barcode is seen in the frame.")
    return {"item": BarcodeReadSchema().dump(found)}
