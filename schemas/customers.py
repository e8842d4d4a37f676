"""Customers (operations 4-5): as listed, and one row of the customers CSV."""

from marshmallow import Schema, fields, post_load, validate

from schemas.fields import Int, Name, printable


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
                                         "street": c.street, "zip": c.zip},
                              metadata={"type": "object", "additionalProperties": False, "properties": {
                                  name: {"type": "string"} for name in ("city", "country", "street", "zip")}})


customers_schema = CustomerSchema(many=True)


class CustomerRowSchema(Schema):
    """One row of the customers CSV."""

    id_customer = fields.Integer(required=True, validate=validate.Range(min=1, max=2**63 - 1))
    name = Name()
    # printable: no control characters (PostgreSQL refuses NUL in text, SQLite would keep it).
    registration_number = fields.String(load_default="", validate=printable)
    tax_id = fields.String(load_default="", validate=printable)
    vat_number = fields.String(load_default="", validate=printable)
    street = fields.String(load_default="", validate=printable)
    city = fields.String(load_default="", validate=printable)
    zip = fields.String(load_default="", validate=printable)
    country = fields.String(load_default="", validate=printable)


customer_row_schema = CustomerRowSchema()


class CustomerAddressInSchema(Schema):
    street = fields.String(load_default="", validate=[validate.Length(max=500), printable])
    city = fields.String(load_default="", validate=[validate.Length(max=500), printable])
    zip = fields.String(load_default="", validate=[validate.Length(max=50), printable])
    country = fields.String(load_default="", validate=[validate.Length(max=100), printable])


class CustomerInSchema(Schema):
    """A customer as created (POST /v1/customers/): the list's shape, address as an object.

    Loaded flat, in the names of the model (street, city, zip, country beside name).
    """

    id_customer = Int(required=True, validate=validate.Range(min=1, max=2**63 - 1))
    name = Name()
    registration_number = fields.String(load_default="", validate=[validate.Length(max=200), printable])
    tax_id = fields.String(load_default="", validate=[validate.Length(max=200), printable])
    vat_number = fields.String(load_default="", validate=[validate.Length(max=200), printable])
    address = fields.Nested(CustomerAddressInSchema, load_default=lambda: {})

    @post_load
    def flat(self, data, **kwargs):
        address = data.pop("address", None)
        if address is not None:
            data.update(address)
        return data


customer_in_schema = CustomerInSchema()
# Partial: fields given replace, the rest stay; an address given replaces the parts it names.
customer_update_schema = CustomerInSchema(partial=True)
