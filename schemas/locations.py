"""Locations inside a warehouse (DESIGN 27): as added, changed and listed, and the stock on them."""
from marshmallow import Schema, fields, validate

from stock.errors import say

from schemas.fields import BIGINT_MAX, Int, Quantity, QueryNumber, printable
from stock.quantities import from_milli

# Letters, digits and - . / : what a Code 128 label carries and a wedge types back unchanged.
LOCATION_CODE = r"^[A-Za-z0-9./-]{1,30}$"


def LocationCode(**kwargs):
    return fields.String(validate=validate.Regexp(
        LOCATION_CODE, error=say("1 to 30 letters, digits, '-', '.' or '/'.")), metadata={
        "pattern": LOCATION_CODE, "example": "A-01-3"}, **kwargs)


def Flag(**kwargs):
    return Int(validate=validate.OneOf([0, 1]), **kwargs)


class LocationSchema(Schema):
    """A location as added (POST /v1/locations/) and as listed.

    `sequence` is the walking order (locations of equal sequence go by the natural order of their
    codes, A-2 before A-10); `hold` 1 keeps its stock from being picked; `receiving` 1 makes it the
    warehouse's default receiving location (one at most: naming another moves it there).
    """

    id_warehouse = Int(required=True, validate=validate.Range(min=1, max=BIGINT_MAX))
    code = LocationCode(required=True)
    name = fields.String(load_default="", validate=[validate.Length(max=200), printable])
    sequence = Int(load_default=0, validate=validate.Range(min=0, max=BIGINT_MAX))
    hold = Flag(load_default=0)
    receiving = Flag(load_default=0)
    active = Flag(dump_only=True)


class LocationUpdateSchema(Schema):
    """The fields of a location to change (POST /v1/locations/{id_warehouse}/{code}); the others stay."""

    name = fields.String(validate=[validate.Length(max=200), printable])
    sequence = Int(validate=validate.Range(min=0, max=BIGINT_MAX))
    hold = Flag()
    active = Flag(metadata={"description": "0 deactivates it: refused (409) while it holds stock."})
    receiving = Flag()


location_schema = LocationSchema()
locations_schema = LocationSchema(many=True)
location_update_schema = LocationUpdateSchema()


class LocationsQuerySchema(Schema):
    """GET /v1/locations/: the warehouse whose locations to list."""

    id_warehouse = QueryNumber(required=True, minimum=1)


locations_query_schema = LocationsQuerySchema()


class LocationStockQuerySchema(Schema):
    """GET /v1/locations/stock: a warehouse's stock per location, of one location or product if given."""

    id_warehouse = QueryNumber(required=True, minimum=1)
    location = fields.String(load_default=None, validate=validate.Length(max=30), metadata={
        "description": "Only this location (empty: every location, and the unplaced stock)."})
    product_code = fields.String(load_default="", validate=validate.Length(max=200), metadata={
        "description": "Only this product (empty: every product)."})


location_stock_query_schema = LocationStockQuerySchema()


class LocationStockRowSchema(Schema):
    """Stock of one (product, lot) at one location; location "" is stock placed nowhere yet."""

    id_warehouse = fields.Integer()
    location = fields.String()
    product_code = fields.String()
    lot = fields.String()
    date_exp = fields.String(metadata={"description": "The lot's best-before; empty where it has none."})
    amount = Quantity(attribute="amount_milli")


location_stock_rows_schema = LocationStockRowSchema(many=True)


def location_stock_row_out(row: dict) -> dict:
    """LocationStockRowSchema's dump written out by hand: a location's stock or a pick plan is
    hundreds of rows, where the schema's per-field work cost more than the query.
    tests/api/test_locations.py holds it equal to the schema's dump."""
    return {"id_warehouse": row["id_warehouse"], "location": row["location"], "product_code": row["product_code"],
            "lot": row["lot"], "date_exp": row["date_exp"], "amount": from_milli(row["amount_milli"])}


class PickRowSchema(Schema):
    """What to take from one location (GET /v1/documents/{document_number}/pick); location "" is
    stock placed nowhere yet."""

    product_code = fields.String()
    lot = fields.String()
    date_exp = fields.String(metadata={"description": "The lot's best-before; empty where it has none."})
    location = fields.String()
    amount = Quantity(attribute="amount_milli")


pick_rows_schema = PickRowSchema(many=True)


def pick_row_out(row: dict) -> dict:
    """PickRowSchema's dump written out by hand (as location_stock_row_out)."""
    return {"product_code": row["product_code"], "lot": row["lot"], "date_exp": row["date_exp"],
            "location": row["location"], "amount": from_milli(row["amount_milli"])}


class LocationRowSchema(Schema):
    """A location as a row of an import (the kind `locations`): what the row gives, nothing more;
    a location of that code is changed, else one is added."""

    id_warehouse = Int(required=True, validate=validate.Range(min=1, max=BIGINT_MAX))
    code = LocationCode(required=True)
    name = fields.String(validate=[validate.Length(max=200), printable])
    sequence = Int(validate=validate.Range(min=0, max=BIGINT_MAX))
    hold = Flag()
    active = Flag()
    receiving = Flag()


location_row_schema = LocationRowSchema()
