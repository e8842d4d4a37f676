"""The items of a scanned batch: the one shape a request brings by the thousand, so it is
checked by a table of plain parsers built from BatchItemCreateSchema (see BatchItems).

A scanner sends every item with the same fields, so a batch is checked a field at a time
over all its items, each check a loop the interpreter runs in C (map, set, max); a value
that does not pass sends the batch the long way, item by item, which names every fault.
"""
import re
from itertools import repeat

from marshmallow import Schema, ValidationError, fields, validate

from stock.errors import say

from schemas.fields import (BIGINT_MAX, CLIENT_TIMESTAMP_JSON, OPTIONAL_DATE_PATTERN, Quantity, check_timestamp,
                            parse_day, printable)
from stock.quantities import NotAQuantity, to_milli

# The item parsers run about ten times per scanned item: each lets a good value
# through with one test and only then looks for what is wrong.

def _text(value):
    if value.__class__ is str and len(value) <= 1000:
        return value
    if not isinstance(value, str):
        raise ValidationError(say("Not a valid string."))
    if len(value) > 1000:
        raise ValidationError(say("Longer than 1000 characters."))
    return value


def _code(value):
    """A product code, unit or lot: as the columns that hold them, at most 200 printable characters."""
    if value.__class__ is str and len(value) <= 200 and value.isprintable():
        return value
    if not isinstance(value, str):
        raise ValidationError(say("Not a valid string."))
    if len(value) > 200:
        raise ValidationError(say("Longer than 200 characters."))
    printable(value)
    return value


def _required_code(value):
    if value.__class__ is str and 0 < len(value) <= 200 and value.isprintable():
        return value
    if not _code(value):
        raise ValidationError(say("Must not be empty."))
    return value


def _whole(value):
    if value.__class__ is int and -BIGINT_MAX - 1 <= value <= BIGINT_MAX:
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(say("Not a valid integer."))
    if not -BIGINT_MAX - 1 <= value <= BIGINT_MAX:
        raise ValidationError(say("Too large for a whole number of 64 bits."))
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
        raise ValidationError(error.args[0]) from None
    if value.__class__ is str and len(value) <= 32:  # "1" padded with a megabyte of blanks is good, once
        if len(_KNOWN_QUANTITIES) >= 4096:
            _KNOWN_QUANTITIES.clear()  # bounded, as _KNOWN_DAYS
        _KNOWN_QUANTITIES[value] = milli
    return milli


_KNOWN_DAYS: dict[str, None] = {"": None}  # expiry dates found valid: a batch repeats a few of them


def _day_text(value):
    if value.__class__ is str and value in _KNOWN_DAYS or not _text(value):
        return value
    parse_day(value)
    if len(_KNOWN_DAYS) >= 4096:
        _KNOWN_DAYS.clear()  # bounded; threads may race here, and lose only a lookup
        _KNOWN_DAYS[""] = None
    _KNOWN_DAYS[value] = None
    return value


# --- the same checks, a column (one field of every item) at a time ---------------------------
# Each answers the column loaded (for most fields the values as they are) when every value
# passes at a glance, else None. None, or a TypeError on a value of another type, only
# means "not at a glance": each value then goes through the field's parser.

def _only(kind, column) -> bool:
    return set(map(type, column)) == {kind}


def _texts(column):
    return column if _only(str, column) and max(map(len, column)) <= 1000 else None


def _codes(column):
    if _only(str, column) and max(map(len, column)) <= 200 and all(map(str.isprintable, column)):
        return column
    return None


def _required_codes(column):
    return column if _codes(column) is not None and min(map(len, column)) > 0 else None


def _wholes(column):
    return column if _only(int, column) and -BIGINT_MAX - 1 <= min(column) and max(column) <= BIGINT_MAX else None


def _known_days(column):
    return column if all(map(_KNOWN_DAYS.__contains__, column)) else None


# Empty, or a timestamp whose fields are in range on any calendar (check_timestamp looks
# at a year 0000 and at a day past the 28th, and says what is wrong).
_PLAIN_TIMESTAMP = re.compile(
    r"((?!0000)[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])"
    r"T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\.[0-9]{3}[+-]([01][0-9]|2[0-3])[0-5][0-9])?", re.ASCII)


def _plain_timestamps(column):
    return column if _only(str, column) and all(map(_PLAIN_TIMESTAMP.fullmatch, column)) else None


def _known_quantities(column) -> list | None:
    milli = list(map(_KNOWN_QUANTITIES.get, column))
    return None if None in milli else milli


def _load_column(plain, parser, column):
    """The column loaded; ValidationError if a value is wrong (the long way then names it)."""
    try:
        loaded = plain(column)
    except TypeError:  # a value the glance cannot take (a list where text belongs...)
        loaded = None
    return loaded if loaded is not None else list(map(parser, column))


class Parsed(fields.Field):
    """A batch item field: plain functions do the work, the field names and describes it.

    `parser` checks one value; `plain` passes a whole column of good values at once
    (see above). BatchItems calls them directly; the schema they sit in describes
    the item for the API document.
    """

    def __init__(self, parser, plain, json_schema: dict, **kwargs):
        super().__init__(**kwargs)
        self.parser, self.plain, self.json_schema = parser, plain, json_schema

    def _deserialize(self, value, attr, data, **kwargs):
        return self.parser(value)


_TEXT = {"type": "string", "maxLength": 1000}
_CODE = {"type": "string", "maxLength": 200}
_QUANTITY = Quantity.json_schema


class BatchItemCreateSchema(Schema):
    """One scanned item of POST /v1/batches/: the single source of the fast item table below."""

    product_code = Parsed(_required_code, _required_codes, {**_CODE, "minLength": 1}, required=True)
    amount = Parsed(_quantity, _known_quantities, _QUANTITY, required=True, attribute="amount_milli")
    unit = Parsed(_required_code, _required_codes, {**_CODE, "minLength": 1}, required=True)
    amount_base_unit = Parsed(_quantity, _known_quantities, _QUANTITY, attribute="amount_base_milli")
    barcode = Parsed(_text, _texts, _TEXT)
    date_exp = Parsed(_day_text, _known_days, {"type": "string", "pattern": OPTIONAL_DATE_PATTERN})
    lot = Parsed(_code, _codes, _CODE)
    name = Parsed(_text, _texts, _TEXT)
    palette = Parsed(_whole, _wholes, {"type": "integer", "minimum": -BIGINT_MAX - 1, "maximum": BIGINT_MAX})
    status = Parsed(_whole, _wholes, {"type": "integer", "minimum": -BIGINT_MAX - 1, "maximum": BIGINT_MAX})
    timestamp_client = Parsed(check_timestamp, _plain_timestamps, CLIENT_TIMESTAMP_JSON)
    wplace = Parsed(_text, _texts, _TEXT)


# Item field -> (parser, required, key it is loaded into, column check), from the schema's fields.
BATCH_ITEM_FIELDS = {
    name: (field.parser, field.required, field.attribute or name, field.plain)
    for name, field in BatchItemCreateSchema._declared_fields.items()
}
_REQUIRED_ITEM_FIELDS = [name for name, spec in BATCH_ITEM_FIELDS.items() if spec[1]]
_REQUIRED_ITEM_SET = frozenset(_REQUIRED_ITEM_FIELDS)


def _load_by_column(names: tuple, raws: list[dict]) -> list[dict] | None:
    """Items that all have the fields `names`, in that order, loaded a field at a time.

    None when a field is unknown or a required one missing; ValidationError when a
    value is wrong. Either way the long way then says what is wrong with which item.
    """
    if not _REQUIRED_ITEM_SET.issubset(names) or not all(name in BATCH_ITEM_FIELDS for name in names):
        return None
    specs = [BATCH_ITEM_FIELDS[name] for name in names]
    columns = [_load_column(plain, parser, column)
               for (parser, _, _, plain), column in zip(specs, zip(*map(dict.values, raws)))]
    keys = [spec[2] for spec in specs]
    return list(map(dict, map(zip, repeat(keys), zip(*columns))))


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
            raise ValidationError(say("Not a valid list."))
        if not value:
            raise ValidationError(say("A batch needs at least one item."))
        if _only(dict, value):
            names = set(map(tuple, value))
            if len(names) == 1:
                try:
                    items = _load_by_column(names.pop(), value)
                except ValidationError:
                    items = None
                if items is not None:
                    return items
        # The long way: item by item, field by field, naming every fault.
        items, errors = [], {}
        for index, raw in enumerate(value):
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
