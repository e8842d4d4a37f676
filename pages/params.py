"""The query parameters of the pages: one schema per page, as schemas/ has one per API shape.

An empty form field counts as not given. Every page takes `format` (html,
csv or xlsx) and the list pages `page` (1 and up).
"""
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from stock.errors import Invalid

Page = lambda: fields.Integer(load_default=1, validate=validate.Range(min=1, max=10**6))  # noqa: E731
Format = lambda: fields.String(load_default="html", validate=validate.OneOf(["html", "csv", "xlsx"]))  # noqa: E731
Warehouse = lambda: fields.Integer(load_default=None, validate=validate.Range(min=0, max=2**63 - 1))  # noqa: E731


class StockQuery(Schema):
    warehouse = Warehouse()
    q = fields.String(load_default="", validate=validate.Length(max=200))
    level = fields.Integer(load_default=-1, validate=validate.OneOf([-1, 0, 1]))
    page = Page()
    format = Format()


class DocumentsQuery(Schema):
    warehouse = Warehouse()
    direction = fields.String(load_default="", validate=validate.OneOf(["", "I", "O"]))
    date_from = fields.Date(load_default=None)
    date_to = fields.Date(load_default=None)
    page = Page()
    format = Format()

    @validates_schema
    def range_in_order(self, data, **kwargs):
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            raise ValidationError("Must not be after date_to.", "date_from")


class OrdersQuery(Schema):
    state = fields.Integer(load_default=None, validate=validate.OneOf([0, 1, 2, 3]))
    page = Page()
    format = Format()


class StocktakingsQuery(Schema):
    page = Page()
    format = Format()


class MovementsQuery(Schema):
    date_from = fields.Date(load_default=None)
    format = Format()


stock_query = StockQuery()
documents_query = DocumentsQuery()
orders_query = OrdersQuery()
stocktakings_query = StocktakingsQuery()
movements_query = MovementsQuery()


def load_args(schema, args) -> dict:
    """The page's parameters; Invalid names each bad one."""
    try:
        return schema.load({name: value for name, value in args.items() if value != ""})
    except ValidationError as error:
        raise Invalid("The page's address has invalid parameters.", error.messages) from None
