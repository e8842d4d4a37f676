"""What every answer is wrapped in (a list, an item, nothing) and the error body (DESIGN 3)."""

from marshmallow import Schema, fields, validate

from schemas.transfer import ImportReportSchema


def listing(item_schema: type, name: str) -> type:
    """The answer {"list": [...]} of a list or filter operation."""
    return Schema.from_dict({"list": fields.List(fields.Nested(item_schema), required=True)}, name=name)


def single(item_schema: type, name: str) -> type:
    """The answer {"item": {...}} of a view operation."""
    return Schema.from_dict({"item": fields.Nested(item_schema, required=True)}, name=name)


class NothingSchema(Schema):
    """The answer {} of a write that succeeded."""


ERROR_CODES = ["bad_request", "unauthorized", "forbidden", "not_found", "method_not_allowed",
               "conflict", "payload_too_large", "validation_error", "internal_error", "unavailable",
               "storage_full"]


class ErrorSchema(Schema):
    status = fields.Integer(required=True)
    code = fields.String(required=True, validate=validate.OneOf(ERROR_CODES))
    message = fields.String(required=True)
    # Keyed like the request: {"data": {"batch_items": {"2": {"unit": ["..."]}}}}.
    fields_at_fault = fields.Dict(data_key="fields", keys=fields.String(), metadata={
        "description": "Only where fields are at fault: the request's keys down to a list of messages."})


class ErrorBodySchema(Schema):
    error = fields.Nested(ErrorSchema, required=True)
    # A refused import (POST /v1/import/{kind}) answers its report beside the error.
    item = fields.Nested(ImportReportSchema, metadata={
        "description": "Only on a refused import: its report, every error with its row and column."})
