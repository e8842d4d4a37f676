"""Stock that warns (DESIGN section 20): reorder levels, the alerts, webhooks."""
from marshmallow import Schema, fields, validate

from schemas.fields import BIGINT_MAX, Int, Name, Quantity, Text


class ReorderLevelSchema(Schema):
    """One (warehouse, product) pair of PUT /v1/reorder_levels/ and of its list; amounts in base units."""

    id_warehouse = Int(required=True, validate=validate.Range(min=1, max=BIGINT_MAX))
    product_code = Name()
    min_amount = Quantity(required=True, attribute="min_amount_milli", data_key="min_amount")
    target_amount = Quantity(required=True, attribute="target_amount_milli", data_key="target_amount")


reorder_level_schema = ReorderLevelSchema()
reorder_levels_schema = ReorderLevelSchema(many=True)


class LowStockSchema(Schema):
    id_warehouse = fields.Integer()
    product_code = fields.String()
    name = fields.String()
    amount = Quantity(attribute="amount_milli")
    min_amount = Quantity(attribute="min_amount_milli")
    target_amount = Quantity(attribute="target_amount_milli")
    suggested_order = Quantity(attribute="suggested_order_milli")


class ExpiringSchema(Schema):
    id_warehouse = fields.Integer()
    product_code = fields.String()
    lot = fields.String()
    date_exp = fields.String()
    amount = Quantity(attribute="amount_milli")
    days_left = fields.Integer()


class AlertsSchema(Schema):
    low_stock = fields.List(fields.Nested(LowStockSchema))
    expiring = fields.List(fields.Nested(ExpiringSchema))


alerts_schema = AlertsSchema()


class WebhookCreateSchema(Schema):
    url = fields.String(required=True, validate=[
        validate.Length(max=2000), validate.URL(schemes={"http", "https"}, require_tld=False)])
    events = fields.List(Text(), required=True, validate=validate.Length(min=1))


webhook_create_schema = WebhookCreateSchema()


class WebhookCreatedSchema(Schema):
    id = fields.Integer()
    url = fields.String()
    events = fields.List(fields.String())
    secret = fields.String()


class WebhookSchema(Schema):
    id = fields.Integer()
    url = fields.String()
    events = fields.List(fields.String())
    created = fields.Function(lambda hook: utc_text(hook["created"]))
    last_delivery = fields.Function(lambda hook: utc_text(hook["last_delivery"]))
    last_status = fields.Integer()
    pending = fields.Integer()


webhooks_schema = WebhookSchema(many=True)


def utc_text(moment) -> str:
    """A UTC time as the API writes times: YYYY-MM-DDThh:mm:ssZ, or "" for none."""
    return "" if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")
