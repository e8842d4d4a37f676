"""Stock that warns (DESIGN section 20): reorder levels, the alerts, webhooks."""
from marshmallow import Schema, ValidationError, fields, validate

from stock.errors import say

from schemas.fields import BIGINT_MAX, Int, Name, Quantity, QueryNumber, Text
from schemas.keys import UTC_TIME, Warehouses

# A best-before as the alerts give it (always a date: only lots that have one are listed).
BEST_BEFORE = {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "format": "date",
               "example": "2026-11-28"}


class ReorderLevelSchema(Schema):
    """One (warehouse, product) pair of PUT /v1/reorder_levels/ and of its list; amounts in base units."""

    id_warehouse = Int(required=True, validate=validate.Range(min=1, max=BIGINT_MAX))
    product_code = Name()
    min_amount = Quantity(required=True, attribute="min_amount_milli", data_key="min_amount")
    target_amount = Quantity(required=True, attribute="target_amount_milli", data_key="target_amount")


reorder_level_schema = ReorderLevelSchema()
reorder_levels_schema = ReorderLevelSchema(many=True)


class LowStockSchema(Schema):
    """A product whose stock in a warehouse is below its min_amount; suggested_order = target - amount."""

    id_warehouse = fields.Integer()
    product_code = fields.String()
    name = fields.String()
    amount = Quantity(attribute="amount_milli")
    min_amount = Quantity(attribute="min_amount_milli")
    target_amount = Quantity(attribute="target_amount_milli")
    suggested_order = Quantity(attribute="suggested_order_milli")


class ExpiringSchema(Schema):
    """A lot in stock whose best-before is within the expiry window or past."""

    id_warehouse = fields.Integer()
    product_code = fields.String()
    lot = fields.String()
    date_exp = fields.String(metadata=BEST_BEFORE)
    amount = Quantity(attribute="amount_milli")
    days_left = fields.Integer(metadata={"description": "Days to the best-before; negative once past."})


ALERTS_LIMIT, ALERTS_LIMIT_MAX = 1000, 10000


def _within_limit(number) -> None:
    if number is not None and number > ALERTS_LIMIT_MAX:
        raise ValidationError(say("Must be at most %(limit)s.", limit=ALERTS_LIMIT_MAX))


class AlertsQuerySchema(Schema):
    """GET /v1/alerts/: whose alerts, and how many rows of each list at most."""

    id_warehouse = QueryNumber(metadata={"description": "Only this warehouse's alerts (empty: every one the key sees)."})
    product_code = fields.String(load_default="", validate=validate.Length(max=200),
                                 metadata={"description": "Only this product's alerts (empty: every product)."})
    limit = QueryNumber(minimum=1, validate=_within_limit,
                        metadata={"description": f"At most so many rows in each list ({ALERTS_LIMIT} when "
                                                 f"left out, at most {ALERTS_LIMIT_MAX}); `totals` counts "
                                                 "them all."})


alerts_query_schema = AlertsQuerySchema()


class AlertTotalsSchema(Schema):
    """How many alerts of each kind there are, whatever the limit."""

    low_stock = fields.Integer(metadata={"description": "Rows of low_stock in all."})
    expiring = fields.Integer(metadata={"description": "Lots in stock within the expiry window, not yet past."})
    expired = fields.Integer(metadata={"description": "Lots in stock past their best-before."})


class AlertsSchema(Schema):
    """What is low and what is expiring, in the warehouses the key may see.

    `expiring` lists the lots not yet past their best-before first (soonest first), then those past
    it (longest past first), at most `limit` in all; `totals` says how many there are of each.
    """

    low_stock = fields.List(fields.Nested(LowStockSchema))
    expiring = fields.List(fields.Nested(ExpiringSchema))
    totals = fields.Nested(AlertTotalsSchema)


alerts_schema = AlertsSchema()


class WebhookCreateSchema(Schema):
    """A receiver to add: where to post, and which events."""

    url = fields.String(required=True, validate=[
        validate.Length(max=2000), validate.URL(schemes={"http", "https"}, require_tld=False)])
    events = fields.List(Text(), required=True, validate=validate.Length(min=1), metadata={
        "description": "Any of batch.booked, stock.low, lot.expiring, order.closed, stocktaking.booked, write_off.booked, "
                       "return.booked."})
    warehouses = Warehouses(load_default=None, metadata={
        "description": "Only the events of these warehouses; empty: every warehouse. Left out: the warehouses "
                       "of the key that adds it (every one for a key not limited to warehouses)."})


webhook_create_schema = WebhookCreateSchema()


class WebhookCreatedSchema(Schema):
    """The receiver added, with the secret that signs what it is sent: shown this once."""

    id = fields.Integer()
    url = fields.String()
    events = fields.List(fields.String())
    warehouses = Warehouses(metadata={"description": "Whose events it gets; empty: every warehouse."})
    secret = fields.String(metadata={"description": "Keys the Warehouse-Signature HMAC; never shown again."})


class WebhookSchema(Schema):
    """A receiver as listed: never its secret."""

    id = fields.Integer()
    url = fields.String()
    events = fields.List(fields.String())
    warehouses = Warehouses(metadata={"description": "Whose events it gets; empty: every warehouse."})
    created = fields.Function(lambda hook: utc_text(hook["created"]), metadata=UTC_TIME)
    last_delivery = fields.Function(lambda hook: utc_text(hook["last_delivery"]),
                                    metadata={**UTC_TIME, "description": "Empty if nothing was sent yet."})
    last_status = fields.Integer(metadata={"description": "The HTTP status of the last answer; 0 for none."})
    pending = fields.Integer(metadata={"description": "Events waiting to be sent to it."})


webhooks_schema = WebhookSchema(many=True)


def utc_text(moment) -> str:
    """A UTC time as the API writes times: YYYY-MM-DDThh:mm:ssZ, or "" for none."""
    return "" if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")
