"""The items of a scanned batch: the one shape a request brings by the thousand, so it is
checked by a table of plain parsers built from BatchItemCreateSchema (see BatchItems)."""

from marshmallow import Schema, ValidationError, fields, validate

from schemas.fields import (BIGINT_MAX, CLIENT_TIMESTAMP_JSON, OPTIONAL_DATE_PATTERN, Quantity, check_timestamp,
                            parse_day, printable)
from stock.quantities import NotAQuantity, to_milli

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
    timestamp_client = Parsed(check_timestamp, CLIENT_TIMESTAMP_JSON)
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
