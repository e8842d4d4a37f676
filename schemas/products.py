"""Products (operations 1-3) as created, changed and returned."""

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from stock.errors import say

from schemas.fields import Int, Name, Quantity, printable
from stock.quantities import from_milli


class PackagingSchema(Schema):
    unit = Name()
    amount_base_units = Quantity(required=True, attribute="amount_base_units_milli",
                                 validate=validate.Range(min=1, error=say("Must be greater than 0.")))
    barcode = fields.String(load_default="", validate=[validate.Length(max=200), printable])


class ProductSchema(Schema):
    """Product as created (POST /v1/products/) and as returned."""

    product_code = Name()
    name = Name()
    active = Int(load_default=1, validate=validate.OneOf([0, 1]))
    base_unit = Name()
    base_unit_barcode = fields.String(load_default="", validate=[validate.Length(max=200), printable])
    category = Int(load_default=0, validate=validate.Range(min=0, max=2**31 - 1))  # an INTEGER column
    lot_level = Int(load_default=0, validate=validate.OneOf([0, 1]))
    packaging = fields.List(fields.Nested(PackagingSchema), load_default=list)
    weight_brutto = Quantity(load_default=0, attribute="weight_brutto_milli",
                             validate=validate.Range(min=0))
    weight_netto = Quantity(load_default=0, attribute="weight_netto_milli",
                            validate=validate.Range(min=0))
    weight_unit = fields.String(load_default="kg", validate=[validate.Length(max=20), printable])
    decimal_places = Int(load_default=3, validate=validate.OneOf([0, 1, 2, 3]), metadata={
        "description": "Decimal places an amount in the base unit may have: 0 for whole pieces."})

    @validates_schema
    def units_are_distinct(self, data, partial, **kwargs):
        if "packaging" not in data:
            return
        units = [p["unit"] for p in data["packaging"]]
        if len(set(units)) != len(units):
            raise ValidationError(say("Packaging unit names must be unique."), "packaging")
        # That no packaging is named like the base unit is a rule of the catalog
        # (stock/catalog.py): an update may give one of the two and keep the other.


product_schema = ProductSchema()


def product_out(product) -> dict:
    """A product as returned (operations 1 and 2): ProductSchema's dump, written out by hand.

    Scanners read products all day and the office lists thousands at once; the
    schema's per-field machinery cost more than the query (see docs/performance.md,
    row d). tests/api/test_products.py holds it equal to product_schema.dump.
    """
    return {
        "product_code": product["product_code"], "name": product["name"], "active": product["active"],
        "base_unit": product["base_unit"], "base_unit_barcode": product["base_unit_barcode"],
        "category": product["category"], "lot_level": product["lot_level"],
        "packaging": [{"unit": packaging["unit"],
                       "amount_base_units": from_milli(packaging["amount_base_units_milli"]),
                       "barcode": packaging["barcode"]} for packaging in product["packaging"]],
        "weight_brutto": from_milli(product["weight_brutto_milli"]),
        "weight_netto": from_milli(product["weight_netto_milli"]),
        "weight_unit": product["weight_unit"], "decimal_places": product["decimal_places"],
    }


# Partial: fields given replace, fields left out stay (no defaults applied). Only the
# top-level fields are optional: a packaging entry given still needs unit and amount.
product_update_schema = ProductSchema(partial=tuple(ProductSchema._declared_fields))


class BarcodeSchema(Schema):
    """What a scanned barcode names (GET /v1/barcodes/{barcode}): a product and one of its units."""

    product_code = fields.String(required=True)
    name = fields.String(required=True)
    unit = fields.String(required=True)
    amount_base_units = Quantity(required=True, attribute="amount_base_units_milli")
    active = Int(required=True)


barcode_answer_schema = BarcodeSchema()
