"""Import and export of master data and orders as files (/v1/import, /v1/export; DESIGN 19).

The body of an import is a multipart upload (field `file`), not JSON; an export answers a file.
The work is transfer/'s: these views only take the file in and hand the answer out.
"""
from flask import Blueprint, Response, request, stream_with_context

from language.choice import depot_language
from routes.access import actor, caller
from routes.operation import operation, query_args
from routes.parsing import load_form
from schemas import (ImportReportSchema, export_query_schema, import_file_schema, import_form_schema,
                     import_query_schema, single)
from stock.errors import BadRequest
from storage.db import db
from transfer import exporting, importing

bp = Blueprint("transfer", __name__, url_prefix="/v1")

KIND_PATH = "<any(" + ", ".join(importing.KINDS) + "):kind>"
XLSX_TYPE = exporting.XLSX_TYPE


@bp.post(f"/import/{KIND_PATH}")
@operation("admin", query=import_query_schema, body=import_file_schema, body_type="multipart/form-data",
           answer=single(ImportReportSchema, "ImportAnswer"), errors=(404,))
def import_file(kind):
    """Import a CSV, XLSX or ODS file of products, packaging, customers, orders or reorder levels; all or nothing.

    422 with the report (under `item`, beside the error) when any row is refused: nothing changed.
    The file's own column names are mapped to the kind's by the form field `mapping`.
    """
    request.max_content_length = importing.MAX_FILE_BYTES
    upload = request.files.get("file")
    if upload is None:
        raise BadRequest("Send the file as the multipart/form-data field 'file'.")
    form = load_form(import_form_schema)
    report = importing.run(db.session, kind, upload.stream, upload.filename or "", actor=actor(),
                           caller=caller(), dry_run=query_args().get("dry_run", False),
                           encoding=form.get("encoding"), mapping=form.get("mapping"), language=depot_language())
    answer = report.answer()
    if report.errors:
        return {"error": {"status": 422, "code": "validation_error",
                          "message": f"{len(report.errors)} error(s); nothing was imported."},
                "item": answer}, 422
    return {"item": answer}


@bp.get(f"/export/{KIND_PATH}")
@operation("read", query=export_query_schema, answer_types=("text/csv", XLSX_TYPE), errors=(404,))
def export_file(kind):
    """Products, packaging, customers or orders as a file in the import's columns (re-importing it changes nothing)."""
    header, rows = importing.KINDS[kind].export(db.session, caller())
    media, filename, pieces = exporting.export(kind, header, rows, query_args().get("format", "csv"))
    return Response(stream_with_context(pieces), content_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
