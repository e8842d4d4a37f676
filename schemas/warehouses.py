"""Warehouses (DESIGN 17): as created, changed and listed."""

from marshmallow import Schema, fields, validate

from schemas.fields import BIGINT_MAX, Int, Name, printable


class WarehouseSchema(Schema):
    """A warehouse as created (POST /v1/warehouses/) and as listed."""

    id_warehouse = Int(required=True, validate=validate.Range(min=1, max=BIGINT_MAX))
    name = Name()
    address = fields.String(load_default="", validate=[validate.Length(max=1000), printable])
    active = Int(load_default=1, validate=validate.OneOf([0, 1]))


warehouse_schema = WarehouseSchema()
warehouses_schema = WarehouseSchema(many=True)
# Partial: the fields given replace, the others stay.
warehouse_update_schema = WarehouseSchema(partial=tuple(WarehouseSchema._declared_fields))
