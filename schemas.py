"""marshmallow schemas: one per request and response shape of interface.md.

Request schemas load into the names of the models (amounts into *_milli
integers); response schemas dump from rows or dicts with those names. Shapes
only: the rules that need the database or the day live in stock/.

The API document (routes/api_description.py) is generated from these schemas.
A field class whose JSON form marshmallow cannot tell (numbers sent as strings,
dates as text) says it in `json_schema`; a field may add to it in its metadata.
"""
import json
import re
from datetime import date, datetime

from marshmallow import Schema, ValidationError, fields, validate, validates_schema
from marshmallow.utils import get_value

from stock.quantities import NotAQuantity, from_milli, to_milli

DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
TIMESTAMP_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})([+-])(\d{2})(\d{2})", re.ASCII)


DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
OPTIONAL_DATE_PATTERN = "^([0-9]{4}-[0-9]{2}-[0-9]{2})?$"
TIMESTAMP_PATTERN = "^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}[+-][0-9]{4})?$"
# A request's date, as the document describes it (a dumped date may also be "").
REQUIRED_DATE = {"pattern": DATE_PATTERN, "format": "date", "example": "2026-11-21"}


class Quantity(fields.Field):
    """An exact decimal of at most three places, loaded as integer thousandths."""

    # The document gives Range validators in units, not thousandths (api_description).
    json_schema = {"type": ["number", "string"],
                   "description": "An exact decimal of at most 3 places: a JSON number, or a numeric "
                                  "string in requests. Answers give JSON numbers."}

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return to_milli(value)
        except NotAQuantity as error:
            raise ValidationError(str(error)) from None

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else from_milli(value)


class Day(fields.Field):
    """A date written YYYY-MM-DD; loaded as a date, dumped as text ("" for none)."""

    json_schema = {"type": "string", "pattern": OPTIONAL_DATE_PATTERN,
                   "description": "YYYY-MM-DD; empty where there is none."}

    def _deserialize(self, value, attr, data, **kwargs):
        return parse_day(value)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None or value == "":
            return ""
        return value if isinstance(value, str) else value.isoformat()


class ClientTimestamp(fields.String):
    """YYYY-MM-DDThh:mm:ss.SSS+hhmm, validated and kept exactly as sent."""

    json_schema = {"type": "string", "pattern": TIMESTAMP_PATTERN,
                   "description": "YYYY-MM-DDThh:mm:ss.SSS+hhmm as the client's clock showed it, or empty."}

    def _deserialize(self, value, attr, data, **kwargs):
        return check_timestamp(super()._deserialize(value, attr, data, **kwargs))


# A timestamp whose fields are all in range; only a day past the 28th needs the calendar.
_TIMESTAMP_IN_RANGE = re.compile(
    r"([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8]|(29|30|31))"
    r"T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"\.[0-9]{3}[+-]([01][0-9]|2[0-3])[0-5][0-9]", re.ASCII)


def check_timestamp(text):
    """The client timestamp as sent, or ValidationError; "" is allowed (not given)."""
    if not isinstance(text, str):
        raise ValidationError("Not a valid string.")
    if not text:
        return text
    # Every scanned item carries one: the regular expression alone decides most.
    quick = _TIMESTAMP_IN_RANGE.fullmatch(text)
    if quick is not None and quick[1] != "0000" and quick[4] is None:
        return text
    match = TIMESTAMP_RE.fullmatch(text)
    try:
        if match is None:
            raise ValueError
        # The constructor checks the calendar; far cheaper than strptime per scanned item.
        year, month, day, hour, minute, second, _, _, off_h, off_m = match.groups()
        datetime(int(year), int(month), int(day), int(hour), int(minute), int(second))
        if int(off_h) > 23 or int(off_m) > 59:
            raise ValueError
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


# Whole numbers are stored in 64-bit columns: a larger one must be a 422, not a
# database error (a 500 on PostgreSQL, an OverflowError on SQLite).
BIGINT_MAX = 2**63 - 1


def in_bigint(minimum: int = -BIGINT_MAX - 1):
    return validate.Range(min=minimum, max=BIGINT_MAX)


def Text(**kwargs):
    return fields.String(validate=validate.Length(max=10000), **kwargs)


def Name(*more_rules, **kwargs):
    """A required identifier or name: not empty, printable, of a sane length."""
    return fields.String(required=True, validate=[validate.Length(min=1, max=200), printable, *more_rules],
                         **kwargs)


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
    category = Int(load_default=0, validate=validate.Range(min=0, max=2**31 - 1))  # an INTEGER column
    lot_level = Int(load_default=0, validate=validate.OneOf([0, 1]))
    packaging = fields.List(fields.Nested(PackagingSchema), load_default=list)
    weight_brutto = Quantity(load_default=0, attribute="weight_brutto_milli",
                             validate=validate.Range(min=0))
    weight_netto = Quantity(load_default=0, attribute="weight_netto_milli",
                            validate=validate.Range(min=0))
    weight_unit = fields.String(load_default="kg", validate=[validate.Length(max=20), printable])

    @validates_schema
    def units_are_distinct(self, data, partial, **kwargs):
        if "packaging" not in data:
            return
        units = [p["unit"] for p in data["packaging"]]
        if len(set(units)) != len(units):
            raise ValidationError("Packaging unit names must be unique.", "packaging")
        # That no packaging is named like the base unit is a rule of the catalog
        # (stock/catalog.py): an update may give one of the two and keep the other.


product_schema = ProductSchema()


def product_out(product) -> dict:
    """A product as returned (operations 1 and 2): ProductSchema's dump, written out by hand.

    Scanners read products all day and the office lists thousands at once; the
    schema's per-field machinery cost more than the query (see README,
    Performance). tests/test_products.py holds it equal to product_schema.dump.
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
        "weight_unit": product["weight_unit"],
    }


# Partial: fields given replace, fields left out stay (no defaults applied). Only the
# top-level fields are optional: a packaging entry given still needs unit and amount.
product_update_schema = ProductSchema(partial=tuple(ProductSchema._declared_fields))


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


# --- shared pieces of orders, batches and filters ------------------------------------------

class IntOrDigits(fields.Field):
    """A whole number sent as a JSON number or as a numeric string ("12"), nothing around it."""

    def __init__(self, minimum: int = 0, **kwargs):
        super().__init__(**kwargs)
        self.minimum = minimum
        self.json_schema = {"type": ["integer", "string"], "pattern": "^-?[0-9]+$",
                            "minimum": minimum, "maximum": BIGINT_MAX,
                            "description": "A whole number, as a JSON number or a string of digits."}

    def _deserialize(self, value, attr, data, **kwargs):
        # Up to 30 digits are read, so that 2**63 answers "at most", not "not a number".
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,30}", value, re.ASCII):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("Not a whole number.")
        if value < self.minimum:
            raise ValidationError(f"Must be at least {self.minimum}.")
        if value > BIGINT_MAX:
            raise ValidationError(f"Must be at most {BIGINT_MAX}.")
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class OptionalDay(fields.Field):
    """A filter date: YYYY-MM-DD, or empty for no bound (null is no date: 422, as elsewhere)."""

    json_schema = {"type": "string", "pattern": OPTIONAL_DATE_PATTERN,
                   "description": "YYYY-MM-DD, inclusive; empty for no bound."}

    def _deserialize(self, value, attr, data, **kwargs):
        return None if value == "" else parse_day(value)


# --- query parameters: text as sent, every one checked as bodies are (DESIGN 4) -------------

class QueryNumber(fields.Field):
    """A whole number in the query: ASCII digits only, nothing around them.

    Empty means "any", as an empty filter field does in a body; with
    `required` it must be given and not empty.
    """

    def __init__(self, choices: tuple = (), minimum: int = 0, **kwargs):
        super().__init__(**kwargs)
        self.choices, self.minimum = choices, minimum
        if choices:
            allowed = ([] if self.required else [""]) + [str(choice) for choice in choices]
            self.json_schema = {"type": "string", "enum": allowed}
        else:
            self.json_schema = {"type": "string", "pattern": "^[0-9]+$" if self.required else "^([0-9]+)?$"}

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "" and not self.required:
            return None
        if not re.fullmatch(r"[0-9]{1,30}", value, re.ASCII):
            raise ValidationError("Not a whole number.")
        number = int(value)
        if self.choices and (number not in self.choices or str(number) != value):
            raise ValidationError(f"Must be one of: {', '.join(map(str, self.choices))}.")
        if not self.minimum <= number <= BIGINT_MAX:
            raise ValidationError(f"Must be between {self.minimum} and {BIGINT_MAX}.")
        return number


class QueryFlag(fields.Field):
    """The `headers` flag: 1/true or 0/false/empty, exactly so."""

    VALUES = {"1": True, "true": True, "0": False, "false": False, "": False}
    json_schema = {"type": "string", "enum": list(VALUES),
                   "description": "1 or true: the records without their item arrays."}

    def _deserialize(self, value, attr, data, **kwargs):
        if value not in self.VALUES:
            raise ValidationError("Must be 1, true, 0, false or empty.")
        return self.VALUES[value]


class HeadersQuerySchema(Schema):
    headers = QueryFlag()


headers_query_schema = HeadersQuerySchema()


Direction = lambda **kw: fields.String(validate=validate.OneOf(["I", "O"]), **kw)  # noqa: E731
FilterDirection = lambda: fields.String(validate=validate.OneOf(["", "I", "O"]))  # noqa: E731
Level = lambda: Int(validate=validate.OneOf([-1, 0, 1]))  # noqa: E731
Warehouses = lambda: fields.List(Int(validate=in_bigint(0)))  # noqa: E731


# --- order documents ------------------------------------------------------------------------

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
                              validate=validate.Range(min=1, error="Must be greater than 0."))
    direction = Direction()
    wplace = fields.List(fields.String(), load_default=list)
    meta = fields.Nested(OrderLineMetaSchema, load_default=lambda: {"note": ""})


class OrderCreateSchema(Schema):
    # "acquire/..." would be read as the acquire operation in GET /v1/documents/{number}.
    document_number = Name(validate.Regexp(r"(?!acquire/)", error="Must not begin with 'acquire/'."))
    description = Text(load_default="")
    id_warehouse = Int(required=True, validate=in_bigint(0))
    id_customer = Int(load_default=0, validate=in_bigint(0))
    expiration_limit = Int(load_default=0, validate=validate.Range(min=0, max=36500))
    batch_settings = fields.Nested(OrderBatchSettingsSchema, required=True)
    items = fields.List(fields.Nested(OrderItemCreateSchema), required=True,
                        validate=validate.Length(min=1, error="An order needs at least one item."))


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
    wplace = fields.Function(lambda item: json.loads(item.wplace),
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


# --- batches --------------------------------------------------------------------------------

# The item parsers run about ten times per scanned item: each lets a good value
# through with one test and only then looks for what is wrong.

def _text(value):
    if value.__class__ is str and len(value) <= 1000:
        return value
    if not isinstance(value, str):
        raise ValidationError("Not a valid string.")
    if len(value) > 1000:
        raise ValidationError("Longer than 1000 characters.")
    return value


def _code(value):
    """A product code, unit or lot: as the columns that hold them, at most 200 printable characters."""
    if value.__class__ is str and len(value) <= 200 and value.isprintable():
        return value
    if not isinstance(value, str):
        raise ValidationError("Not a valid string.")
    if len(value) > 200:
        raise ValidationError("Longer than 200 characters.")
    printable(value)
    return value


def _required_code(value):
    if value.__class__ is str and 0 < len(value) <= 200 and value.isprintable():
        return value
    if not _code(value):
        raise ValidationError("Must not be empty.")
    return value


def _whole(value):
    if value.__class__ is int and -BIGINT_MAX - 1 <= value <= BIGINT_MAX:
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError("Not a valid integer.")
    if not -BIGINT_MAX - 1 <= value <= BIGINT_MAX:
        raise ValidationError("Too large for a whole number of 64 bits.")
    return value


_KNOWN_QUANTITIES: dict[str, int] = {}  # amounts as sent: a batch repeats a few ("1", "2", "10")


def _quantity(value):
    if value.__class__ is str:
        milli = _KNOWN_QUANTITIES.get(value)
        if milli is not None:
            return milli
    try:
        milli = to_milli(value)
    except NotAQuantity as error:
        raise ValidationError(str(error)) from None
    if value.__class__ is str:
        if len(_KNOWN_QUANTITIES) >= 4096:
            _KNOWN_QUANTITIES.clear()  # bounded, as _KNOWN_DAYS
        _KNOWN_QUANTITIES[value] = milli
    return milli


_KNOWN_DAYS: dict[str, None] = {}  # expiry dates found valid: a batch repeats a few of them


def _day_text(value):
    if value.__class__ is str and value in _KNOWN_DAYS or not _text(value):
        return value
    parse_day(value)
    if len(_KNOWN_DAYS) >= 4096:
        _KNOWN_DAYS.clear()  # bounded; threads may race here, and lose only a lookup
    _KNOWN_DAYS[value] = None
    return value


class Parsed(fields.Field):
    """A batch item field: a plain parser function does the work, the field names and describes it.

    BatchItems calls the parsers directly (one function call per value); the
    schema they sit in describes the item for the API document.
    """

    def __init__(self, parser, json_schema: dict, **kwargs):
        super().__init__(**kwargs)
        self.parser, self.json_schema = parser, json_schema

    def _deserialize(self, value, attr, data, **kwargs):
        return self.parser(value)


_TEXT = {"type": "string", "maxLength": 1000}
_CODE = {"type": "string", "maxLength": 200}
_QUANTITY = Quantity.json_schema


class BatchItemCreateSchema(Schema):
    """One scanned item of POST /v1/batches/: the single source of the fast item table below."""

    product_code = Parsed(_required_code, {**_CODE, "minLength": 1}, required=True)
    amount = Parsed(_quantity, _QUANTITY, required=True, attribute="amount_milli")
    unit = Parsed(_required_code, {**_CODE, "minLength": 1}, required=True)
    amount_base_unit = Parsed(_quantity, _QUANTITY, attribute="amount_base_milli")
    barcode = Parsed(_text, _TEXT)
    date_exp = Parsed(_day_text, {"type": "string", "pattern": OPTIONAL_DATE_PATTERN})
    lot = Parsed(_code, _CODE)
    name = Parsed(_text, _TEXT)
    palette = Parsed(_whole, {"type": "integer", "minimum": -BIGINT_MAX - 1, "maximum": BIGINT_MAX})
    status = Parsed(_whole, {"type": "integer", "minimum": -BIGINT_MAX - 1, "maximum": BIGINT_MAX})
    timestamp_client = Parsed(check_timestamp, ClientTimestamp.json_schema)
    wplace = Parsed(_text, _TEXT)


# Item field -> (parser, required, key it is loaded into), from the schema's fields.
BATCH_ITEM_FIELDS = {
    name: (field.parser, field.required, field.attribute or name)
    for name, field in BatchItemCreateSchema._declared_fields.items()
}
_REQUIRED_ITEM_FIELDS = [name for name, (_, required, _) in BATCH_ITEM_FIELDS.items() if required]
_REQUIRED_ITEM_SET = frozenset(_REQUIRED_ITEM_FIELDS)
# The fields of an item in the order a scanner sends them -> their keys and parsers; a
# scanner sends every item alike, so a batch needs one or two. None: a field is unknown.
_ITEM_PLANS: dict[tuple, tuple | None] = {}


def _item_plan(names: tuple) -> tuple | None:
    if names not in _ITEM_PLANS:
        if len(_ITEM_PLANS) >= 256:
            _ITEM_PLANS.clear()  # bounded; threads may race here, and lose only a lookup
        known = all(name in BATCH_ITEM_FIELDS for name in names) and _REQUIRED_ITEM_SET.issubset(names)
        _ITEM_PLANS[names] = ((tuple(BATCH_ITEM_FIELDS[name][2] for name in names),
                               tuple(BATCH_ITEM_FIELDS[name][0] for name in names)) if known else None)
    return _ITEM_PLANS[names]


class BatchItems(fields.List):
    """The batch_items array, checked field by field without a schema per item.

    A scanner sends hundreds of items at once; a nested schema would cost more
    than the whole booking. Errors are keyed like marshmallow's: {index: {field: [...]}}.
    Fields left out stay left out (the retry digest must see what was sent).
    A List of BatchItemCreateSchema only to describe itself; it never loads through it.
    """

    def __init__(self, **kwargs):
        super().__init__(fields.Nested(BatchItemCreateSchema), validate=validate.Length(min=1), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ValidationError("Not a valid list.")
        if not value:
            raise ValidationError("A batch needs at least one item.")
        items, errors = [], {}
        for index, raw in enumerate(value):
            # A good item in one expression; any fault sends it the long way, which names them all.
            plan = _item_plan(tuple(raw)) if raw.__class__ is dict else None
            if plan is not None:
                try:
                    items.append({key: parse(given)
                                  for key, parse, given in zip(plan[0], plan[1], raw.values())})
                    continue
                except ValidationError:
                    pass
            if not isinstance(raw, dict):
                errors[index] = {"_schema": ["Invalid input type."]}
                continue
            item, item_errors = {}, {}
            for name, given in raw.items():
                spec = BATCH_ITEM_FIELDS.get(name)
                if spec is None:
                    item_errors[name] = ["Unknown field."]
                    continue
                try:
                    item[spec[2]] = spec[0](given)
                except ValidationError as error:
                    item_errors[name] = error.messages
            for name in _REQUIRED_ITEM_FIELDS:
                if name not in raw:
                    item_errors[name] = ["Missing data for required field."]
            if item_errors:
                errors[index] = item_errors
            items.append(item)
        if errors:
            raise ValidationError(errors)
        return items


class BatchSettingsCreateSchema(Schema):
    batch_number = IntOrDigits(minimum=1, required=True)
    id_warehouse = IntOrDigits(minimum=0, required=True)
    direction = Direction(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["R", "V"]))
    date = Day(metadata=REQUIRED_DATE)
    created_date = fields.Raw(load_only=True, metadata={
        "description": "Ignored: the server's day is the created date."})  # the server's day counts; a sent one is ignored
    app_version = Text()
    name = Text()
    truck = Int(validate=in_bigint())
    document_number = fields.String(validate=validate.Length(max=200))


class BatchExtraSchema(Schema):
    key = fields.String(required=True)
    value = fields.String(required=True)


class BatchCreateSchema(Schema):
    batch_settings = fields.Nested(BatchSettingsCreateSchema, required=True)
    batch_items = BatchItems(required=True)
    # No default: the retry digest must tell a left-out list from an empty one.
    batch_extras = fields.List(fields.Nested(BatchExtraSchema))


batch_create_schema = BatchCreateSchema()


class BatchSettingsOutSchema(Schema):
    batch_number = fields.Integer()
    app_version = fields.String()
    date = Day()
    created_date = Day()
    direction = fields.String()
    id_warehouse = fields.Integer()
    name = fields.String()
    truck = fields.Integer()
    type = fields.String()
    document_number = fields.String()


class BatchItemOutSchema(Schema):
    id_batch_item = fields.Integer()
    user_visible_batch_item_id = fields.Integer(attribute="position")
    batch_number = fields.Integer()
    doc_number = fields.Integer()
    doc_item_number = fields.Integer()
    amount_base_unit = Quantity(attribute="amount_base_milli")
    barcode = fields.String()
    date_exp = fields.String()
    lot = fields.String()
    name = fields.String()
    palette = fields.Integer()
    product_code = fields.String()
    status = fields.Integer()
    timestamp_client = fields.String()
    wplace = fields.String()


class BatchOutSchema(Schema):
    batch_settings = fields.Nested(BatchSettingsOutSchema)
    batch_items = fields.List(fields.Nested(BatchItemOutSchema))
    batch_extras = fields.List(fields.Nested(BatchExtraSchema))


batch_schema = BatchOutSchema()
batches_schema = BatchOutSchema(many=True)


class DocFilterSchema(Schema):
    """The filter of warehouse documents (operation 14); movements (18) take the same fields."""

    id_warehouses = Warehouses()
    level = Level()
    doc_direction = FilterDirection()
    date_from = OptionalDay()
    date_to = OptionalDay()


class BatchFilterSchema(DocFilterSchema):
    document_number = fields.String()


batch_filter_schema = BatchFilterSchema()


# --- warehouse documents --------------------------------------------------------------------

class DocItemOutSchema(Schema):
    doc_number = fields.Integer()
    item_number = fields.Integer()
    # The same number under a second name (marshmallow lets one attribute feed only one field).
    user_visible_item_number = fields.Function(lambda item: get_value(item, "item_number"),
                                               metadata={"type": "integer"})
    product_code = fields.String()
    name = fields.String()
    lot = fields.String()
    date_exp = fields.String()
    amount_base_unit = Quantity(attribute="amount_base_milli")
    doc_created_date = Day()
    timestamp_from_client = fields.String()


class DocItemFilterOutSchema(DocItemOutSchema):
    direction = fields.String()
    lot_level = fields.Integer()


class DocOutSchema(Schema):
    """A warehouse document as viewed by number."""

    doc_number = fields.Integer()
    id_warehouse = fields.Integer()
    direction = fields.String()
    date = Day()
    doc_created_date = Day()
    id_customer = fields.Integer()
    batch_number = fields.Integer()
    ufid = fields.String()
    wh_doc_items = fields.List(fields.Nested(DocItemOutSchema))


class DocFilterOutSchema(DocOutSchema):
    """A warehouse document as filtered: its items also say direction and lot level."""

    wh_doc_items = fields.List(fields.Nested(DocItemFilterOutSchema))


doc_view_schema = DocOutSchema()
docs_filter_out_schema = DocFilterOutSchema(many=True)


doc_filter_schema = DocFilterSchema()


# --- stocktakings, inventory, movements, overviews (operations 15-20) -----------------------

class StocktakingItemOutSchema(Schema):
    id_warehouse = fields.Integer()
    date = Day()
    product_code = fields.String()
    lot = fields.String()
    date_exp = fields.String()
    name = fields.String()
    amount_real = Quantity(attribute="amount_real_milli")
    amount_snap = Quantity(attribute="amount_snap_milli")
    amount_diff = Quantity(attribute="amount_diff_milli")


class StocktakingOutSchema(Schema):
    id_warehouse = fields.Integer()
    date = Day()
    status = fields.Integer()
    in_doc = fields.Integer()
    out_doc = fields.Integer()
    in_ufid = fields.String()
    out_ufid = fields.String()
    stocktaking_items = fields.List(fields.Nested(StocktakingItemOutSchema))


stocktakings_schema = StocktakingOutSchema(many=True)


class StocktakingDeleteQuerySchema(Schema):
    """Query of DELETE /v1/stocktakings/: both parameters are required."""

    date = Day(required=True, metadata=REQUIRED_DATE)
    id_warehouse = QueryNumber(required=True)


stocktaking_delete_query_schema = StocktakingDeleteQuerySchema()


class InventoryFilterSchema(Schema):
    id_warehouses = Warehouses()
    product_code = fields.String()
    level = Level()


inventory_filter_schema = InventoryFilterSchema()


class InventoryRowSchema(Schema):
    id_warehouse = fields.Integer()
    product_code = fields.String()
    product_name = fields.String()
    name = fields.String()
    lot = fields.String()
    level = fields.Integer()
    amount = Quantity(attribute="amount_milli")
    unit = fields.String()


inventory_rows_schema = InventoryRowSchema(many=True)


movement_filter_schema = DocFilterSchema()


class MovementRowSchema(Schema):
    doc_number = fields.Integer()
    item_number = fields.Integer()
    user_visible_item_number = fields.Function(lambda row: get_value(row, "item_number"),
                                               metadata={"type": "integer"})
    ufid = fields.String()
    id_customer = fields.Integer()
    customer_name = fields.String()
    product_code = fields.String()
    name = fields.String()
    lot = fields.String()
    date_exp = fields.String()
    doc_created_date = Day()
    timestamp_from_client = fields.String()
    amount_base_unit = Quantity(attribute="amount_base_milli")  # signed: goods-out negative
    unit = fields.String()


movement_rows_schema = MovementRowSchema(many=True)


class DocsAndStocktakingQuerySchema(Schema):
    id_warehouse = QueryNumber()


docs_and_stocktaking_query_schema = DocsAndStocktakingQuerySchema()


class DocsAndStocktakingRowSchema(Schema):
    id_warehouse = fields.Integer()
    ufid_in = fields.String()
    in_date = Day()
    ufid_out = fields.String()
    out_date = Day()
    stocktaking_date = Day()


docs_and_stocktaking_rows_schema = DocsAndStocktakingRowSchema(many=True)


class MonthlyMovementQuerySchema(Schema):
    date_from = OptionalDay()


monthly_movement_query_schema = MonthlyMovementQuerySchema()


class MonthlyMovementRowSchema(Schema):
    year = fields.Integer()
    month = fields.Integer()
    direction = fields.String()
    count = fields.Integer()


monthly_movement_rows_schema = MonthlyMovementRowSchema(many=True)


# --- what every answer is wrapped in, and the error body (DESIGN 3) -------------------------

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
