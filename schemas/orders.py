"""Order documents (operations 6-9): as imported, listed, viewed and acquired."""
import json

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from stock.errors import say

from schemas.fields import Day, Direction, Int, Name, Quantity, QueryNumber, Text, in_bigint, printable


class OrderBatchSettingsSchema(Schema):
    allowed_types = fields.List(fields.String(validate=validate.OneOf(["R", "V"])), required=True,
                                validate=validate.Length(min=1))
    allowed_directions = fields.List(Direction(), required=True, validate=validate.Length(min=1))


class OrderLineMetaSchema(Schema):
    note = fields.String(load_default="")


class OrderItemCreateSchema(Schema):
    item_number = Int(required=True, validate=in_bigint(1))
    product_code = Name()
    lot = fields.String(load_default="", validate=validate.Length(max=200))
    amount_ordered = Quantity(required=True, attribute="amount_ordered_milli",
                              validate=validate.Range(min=1, error=say("Must be greater than 0.")))
    direction = Direction()
    wplace = fields.List(fields.String(), load_default=list)
    meta = fields.Nested(OrderLineMetaSchema, load_default=lambda: {"note": ""})


class OrderCreateSchema(Schema):
    # "acquire/..." would be read as the acquire operation in GET /v1/documents/{number}, and
    # ".../pick" as the pick plan of GET /v1/documents/{number}/pick.
    document_number = Name(validate.Regexp(r"(?!acquire/)(?!.*/pick$)",
                                           error=say("Must not begin with 'acquire/' nor end with '/pick'.")))
    description = Text(load_default="")
    id_warehouse = Int(required=True, validate=in_bigint(0))
    id_customer = Int(load_default=0, validate=in_bigint(0))
    expiration_limit = Int(load_default=0, validate=validate.Range(min=0, max=36500))
    batch_settings = fields.Nested(OrderBatchSettingsSchema, required=True)
    items = fields.List(fields.Nested(OrderItemCreateSchema), required=True,
                        validate=validate.Length(min=1, error=say("An order needs at least one item.")))

    @validates_schema(skip_on_field_errors=True)
    def lines_fit_their_document(self, data, **kwargs):
        """Each item_number once; each line's direction one the document allows, and named
        where the document allows both."""
        directions = data["batch_settings"]["allowed_directions"]
        errors, numbers = {}, set()
        for index, line in enumerate(data["items"]):
            problems = {}
            if line["item_number"] in numbers:
                problems["item_number"] = ["Repeats an item_number of this document."]
            numbers.add(line["item_number"])
            direction = line.get("direction")
            if direction is None and len(set(directions)) > 1:
                problems["direction"] = ["Required when the document allows both directions."]
            elif direction is not None and direction not in directions:
                problems["direction"] = ["Not among the document's allowed_directions."]
            if problems:
                errors[index] = problems
        if errors:
            raise ValidationError({"items": errors})

    @post_load
    def direct_every_line(self, data, **kwargs):
        """A line that names no direction takes the only one its document allows."""
        only = data["batch_settings"]["allowed_directions"][0]
        return {**data, "items": [{**line, "direction": line.get("direction", only)} for line in data["items"]]}


order_create_schema = OrderCreateSchema()


class OrderItemOutSchema(Schema):
    """Item of an order as listed (GET /v1/documents/)."""

    document_item_id = fields.Integer()
    user_visible_document_item_id = fields.Integer(attribute="item_number")
    document_number = fields.String()
    product_code = fields.String()
    lot = fields.String()
    amount_ordered = Quantity(attribute="amount_ordered_milli")
    amount_delivered = Quantity(attribute="amount_delivered_milli")
    direction = fields.String()
    # In a warehouse with locations, a line the order gave no places gets those to pick it from
    # (stock/pick_plan.py fill_wplaces puts them on the line as `pick_wplace`).
    wplace = fields.Function(lambda item: getattr(item, "pick_wplace", None) or json.loads(item.wplace),
                             metadata={"type": "array", "items": {"type": "string"}})
    meta = fields.Function(lambda item: {"note": item.note}, metadata={
        "type": "object", "properties": {"note": {"type": "string"}}, "additionalProperties": False})


class OrderItemViewSchema(OrderItemOutSchema):
    """Item of an order as viewed by number: the client's item_number only."""

    class Meta:
        exclude = ("document_item_id", "user_visible_document_item_id")

    item_number = fields.Integer()


class OrderItemAcquireSchema(OrderItemOutSchema):
    class Meta:
        exclude = ("user_visible_document_item_id",)


class OrderOutSchema(Schema):
    """An order as listed (GET /v1/documents/)."""

    document_number = fields.String()
    description = fields.String()
    id_warehouse = fields.Integer()
    id_customer = fields.Integer()
    state = fields.Integer()
    expiration_limit = fields.Integer()
    # Set where the order is read (stock/orders.py): the day of the request + expiration_limit.
    expiration_limit_date = Day()
    batch_settings = fields.Function(lambda order: {
        "allowed_types": order.allowed_types.split(","),
        "allowed_directions": order.allowed_directions.split(","),
    }, metadata={"type": "object", "properties": {
        "allowed_types": {"type": "array", "items": {"type": "string", "enum": ["R", "V"]}},
        "allowed_directions": {"type": "array", "items": {"type": "string", "enum": ["I", "O"]}}},
        "required": ["allowed_types", "allowed_directions"], "additionalProperties": False})
    items = fields.List(fields.Nested(OrderItemOutSchema))


class OrderViewSchema(OrderOutSchema):
    """An order as viewed by number."""

    items = fields.List(fields.Nested(OrderItemViewSchema))


class OrderAcquireSchema(OrderOutSchema):
    """An order as acquired by a scanner."""

    items = fields.List(fields.Nested(OrderItemAcquireSchema))


orders_list_schema = OrderOutSchema(many=True)
order_view_schema = OrderViewSchema()
order_acquire_schema = OrderAcquireSchema()


class OrderListQuerySchema(Schema):
    state = QueryNumber(choices=(0, 1, 2, 3))


order_list_query_schema = OrderListQuerySchema()


class OrderCloseSchema(Schema):
    """Closing an order by hand (POST /v1/documents/close/{document_number}): why."""

    reason = fields.String(required=True, validate=[validate.Length(min=1, max=1000), printable])


order_close_schema = OrderCloseSchema()
