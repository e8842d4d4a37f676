"""Import and export (DESIGN 19): an import's report, and the queries of import and export."""
from marshmallow import Schema, fields, validate

from schemas.fields import QueryFlag


class ImportErrorSchema(Schema):
    row = fields.Integer(required=True, metadata={
        "description": "The row as a spreadsheet shows it (the header is row 1); 0 for the file as a whole."})
    column = fields.String(required=True, metadata={
        "description": "The column's header as written in the file (a letter where it has none); "
                       "empty for the row as a whole."})
    message = fields.String(required=True)


class ImportReportSchema(Schema):
    """What an import did (or, on a dry run or when refused, would have done)."""

    created = fields.Integer(required=True)
    updated = fields.Integer(required=True)
    unchanged = fields.Integer(required=True)
    errors = fields.List(fields.Nested(ImportErrorSchema), required=True)


class DryRunFlag(QueryFlag):
    json_schema = {"type": "string", "enum": list(QueryFlag.VALUES),
                   "description": "1 or true: check and count everything, change nothing."}


class ImportQuerySchema(Schema):
    dry_run = DryRunFlag()


class ImportFileSchema(Schema):
    """The body of an import: a multipart/form-data upload (not JSON)."""

    file = fields.Raw(required=True, metadata={"type": "string", "format": "binary", "description":
                                               "The file: .xlsx, or CSV (`,` `;` or tab; UTF-8 or Windows-1252)."})


class ExportQuerySchema(Schema):
    format = fields.String(load_default="csv", validate=validate.OneOf(["csv", "xlsx"]),
                           metadata={"description": "csv (UTF-8 with a byte-order mark, comma) or xlsx."})


import_query_schema = ImportQuerySchema()
import_file_schema = ImportFileSchema()
export_query_schema = ExportQuerySchema()
