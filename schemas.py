"""marshmallow schemas: one per request and response shape of interface.md.

Request schemas load into the names of the models (amounts into *_milli
integers); response schemas dump from rows or dicts with those names.
"""
import re
from datetime import date, datetime

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from quantities import NotAQuantity, from_milli, to_milli

DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
TIMESTAMP_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{4}")


class Quantity(fields.Field):
    """An exact decimal of at most three places, loaded as integer thousandths."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return to_milli(value)
        except NotAQuantity as error:
            raise ValidationError(str(error)) from None

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else from_milli(value)


class Day(fields.Field):
    """A date written YYYY-MM-DD; loaded as a date, dumped as text ("" for none)."""

    def _deserialize(self, value, attr, data, **kwargs):
        return parse_day(value)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None or value == "":
            return ""
        return value if isinstance(value, str) else value.isoformat()


class DayText(fields.String):
    """A date kept as the text sent (YYYY-MM-DD), or the empty string."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if text:
            parse_day(text)
        return text


class ClientTimestamp(fields.String):
    """YYYY-MM-DDThh:mm:ss.SSS+hhmm, validated and kept exactly as sent."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if text:
            try:
                if not TIMESTAMP_RE.fullmatch(text):
                    raise ValueError
                datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f%z")
            except ValueError:
                raise ValidationError("Not a timestamp of the form YYYY-MM-DDThh:mm:ss.SSS+hhmm.") from None
        return text


def parse_day(value) -> date:
    if not isinstance(value, str) or not DATE_RE.fullmatch(value):
        raise ValidationError("Not a date of the form YYYY-MM-DD.")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValidationError("Not a valid calendar date.") from None


def Int(**kwargs):
    return fields.Integer(strict=True, **kwargs)


def Text(**kwargs):
    return fields.String(validate=validate.Length(max=10000), **kwargs)


def Name(**kwargs):
    """A required identifier or name: not empty, printable, of a sane length."""
    return fields.String(required=True, validate=[validate.Length(min=1, max=200), printable], **kwargs)


def printable(text: str) -> None:
    if not text.isprintable():
        raise ValidationError("Only printable characters are allowed.")


# --- products -------------------------------------------------------------------------------

class PackagingSchema(Schema):
    unit = Name()
    amount_base_units = Quantity(required=True, attribute="amount_base_units_milli",
                                 validate=validate.Range(min=1, error="Must be greater than 0."))
    barcode = fields.String(load_default="", validate=[validate.Length(max=200), printable])


class ProductSchema(Schema):
    """Product as created (POST /v1/products/) and as returned."""

    product_code = Name()
    name = Name()
    active = Int(load_default=1, validate=validate.OneOf([0, 1]))
    base_unit = Name()
    base_unit_barcode = fields.String(load_default="", validate=[validate.Length(max=200), printable])
    category = Int(load_default=0)
    lot_level = Int(load_default=0, validate=validate.OneOf([0, 1]))
    packaging = fields.List(fields.Nested(PackagingSchema), load_default=list)
    weight_brutto = Quantity(load_default=0, attribute="weight_brutto_milli",
                             validate=validate.Range(min=0))
    weight_netto = Quantity(load_default=0, attribute="weight_netto_milli",
                            validate=validate.Range(min=0))
    weight_unit = fields.String(load_default="kg", validate=validate.Length(max=20))

    @validates_schema
    def units_are_distinct(self, data, partial, **kwargs):
        if "packaging" not in data:
            return
        units = [p["unit"] for p in data["packaging"]]
        if len(set(units)) != len(units):
            raise ValidationError("Packaging unit names must be unique.", "packaging")
        if data.get("base_unit") in units:
            raise ValidationError("A packaging unit may not be named like the base unit.", "packaging")


product_schema = ProductSchema()
products_schema = ProductSchema(many=True)
# Partial: fields given replace, fields left out stay (no defaults applied).
product_update_schema = ProductSchema(partial=True)


# --- customers ------------------------------------------------------------------------------

class AddressSchema(Schema):
    city = fields.String()
    country = fields.String()
    street = fields.String()
    zip = fields.String()


class CustomerSchema(Schema):
    id_customer = Int()
    name = fields.String()
    registration_number = fields.String()
    tax_id = fields.String()
    vat_number = fields.String()
    address = fields.Function(lambda c: {"city": c.city, "country": c.country,
                                         "street": c.street, "zip": c.zip})


customers_schema = CustomerSchema(many=True)


class CustomerRowSchema(Schema):
    """One row of the customers CSV."""

    id_customer = fields.Integer(required=True, validate=validate.Range(min=1))
    name = Name()
    registration_number = fields.String(load_default="")
    tax_id = fields.String(load_default="")
    vat_number = fields.String(load_default="")
    street = fields.String(load_default="")
    city = fields.String(load_default="")
    zip = fields.String(load_default="")
    country = fields.String(load_default="")


customer_row_schema = CustomerRowSchema()
