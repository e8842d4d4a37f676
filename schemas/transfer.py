"""Import and export (DESIGN 19): an import's report, and the queries of import and export."""
import json

from marshmallow import Schema, ValidationError, fields, validate

from schemas.fields import QueryFlag

# A CSV's encodings an import reads (transfer/encodings.py, which a test holds to the same list).
ENCODINGS = ("utf-8", "windows-1250", "windows-1252")


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


class ColumnMapping(fields.Field):
    """The `mapping` form field: JSON text of an object, the file's column names to the kind's."""

    json_schema = {"type": "string", "description":
                   "JSON text of an object: each of the file's column names that the kind does not know, "
                   "to the column of the kind it holds, or \"\" to ignore it: "
                   "`{\"Code\": \"product_code\", \"Description\": \"name\", \"Notes\": \"\"}`. "
                   "Without it an unknown column is an error."}
    MESSAGE = ('Must be JSON text of an object of column names to columns of the kind (or "" to '
               'ignore a column), e.g. {"Code": "product_code"}.')

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            mapping = json.loads(value) if isinstance(value, str) else None
        except (ValueError, RecursionError):
            mapping = None
        if not isinstance(mapping, dict) or not all(
                isinstance(column, str) and name.strip() for name, column in mapping.items()):
            raise ValidationError(self.MESSAGE)
        return mapping


class ImportFormSchema(Schema):
    """The form fields sent beside the file."""

    mapping = ColumnMapping()
    encoding = fields.String(validate=validate.OneOf(ENCODINGS), metadata={"description":
                             "A CSV's encoding: utf-8, windows-1250 (Central European Windows) or "
                             "windows-1252 (Western European Windows). Left out, it is found from the bytes."})


class ImportFileSchema(ImportFormSchema):
    """The body of an import: a multipart/form-data upload (not JSON)."""

    file = fields.Raw(required=True, metadata={"type": "string", "format": "binary", "description":
                                               "The file: .xlsx, .ods, or CSV (`,` `;` or tab; UTF-8, "
                                               "Windows-1250 or Windows-1252)."})


class ExportQuerySchema(Schema):
    format = fields.String(load_default="csv", validate=validate.OneOf(["csv", "xlsx"]),
                           metadata={"description": "csv (UTF-8 with a byte-order mark, comma) or xlsx."})


import_query_schema = ImportQuerySchema()
import_form_schema = ImportFormSchema()
import_file_schema = ImportFileSchema()
export_query_schema = ExportQuerySchema()
