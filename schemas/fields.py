"""The value types every shape is made of: exact quantities, days, client timestamps,
names, whole numbers sent as text, and the query parameters' own types."""
import re
from datetime import date, datetime

from marshmallow import Schema, ValidationError, fields, validate

from stock.errors import say

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
            raise ValidationError(error.args[0]) from None

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


# A client timestamp as the API document describes it; check_timestamp reads one.
CLIENT_TIMESTAMP_JSON = {"type": "string", "pattern": TIMESTAMP_PATTERN,
                         "description": "YYYY-MM-DDThh:mm:ss.SSS+hhmm as the client's clock showed it, or empty."}


# A timestamp whose fields are all in range; only a day past the 28th needs the calendar.
_TIMESTAMP_IN_RANGE = re.compile(
    r"([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8]|(29|30|31))"
    r"T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"\.[0-9]{3}[+-]([01][0-9]|2[0-3])[0-5][0-9]", re.ASCII)


def check_timestamp(text):
    """The client timestamp as sent, or ValidationError; "" is allowed (not given)."""
    if not isinstance(text, str):
        raise ValidationError(say("Not a valid string."))
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
        raise ValidationError(say("Not a timestamp of the form YYYY-MM-DDThh:mm:ss.SSS+hhmm.")) from None
    return text


def parse_day(value) -> date:
    if not isinstance(value, str) or not DATE_RE.fullmatch(value):
        raise ValidationError(say("Not a date of the form YYYY-MM-DD."))
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValidationError(say("Not a valid calendar date.")) from None


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
        raise ValidationError(say("Only printable characters are allowed."))


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
            raise ValidationError(say("Not a whole number."))
        if value < self.minimum:
            raise ValidationError(say("Must be at least %(minimum)s.", minimum=self.minimum))
        if value > BIGINT_MAX:
            raise ValidationError(say("Must be at most %(limit)s.", limit=BIGINT_MAX))
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
            raise ValidationError(say("Not a whole number."))
        number = int(value)
        if self.choices and (number not in self.choices or str(number) != value):
            raise ValidationError(say("Must be one of: %(choices)s.", choices=", ".join(map(str, self.choices))))
        if not self.minimum <= number <= BIGINT_MAX:
            raise ValidationError(say("Must be between %(minimum)s and %(maximum)s.", minimum=self.minimum, maximum=BIGINT_MAX))
        return number


class QueryFlag(fields.Field):
    """The `headers` flag: 1/true or 0/false/empty, exactly so."""

    VALUES = {"1": True, "true": True, "0": False, "false": False, "": False}
    json_schema = {"type": "string", "enum": list(VALUES),
                   "description": "1 or true: the records without their item arrays."}

    def _deserialize(self, value, attr, data, **kwargs):
        if value not in self.VALUES:
            raise ValidationError(say("Must be 1, true, 0, false or empty."))
        return self.VALUES[value]


class HeadersQuerySchema(Schema):
    headers = QueryFlag()


headers_query_schema = HeadersQuerySchema()


def Direction(**kwargs):
    """A goods direction: I (in) or O (out)."""
    return fields.String(validate=validate.OneOf(["I", "O"]), **kwargs)


def FilterDirection():
    """A direction to filter by; empty for both."""
    return fields.String(validate=validate.OneOf(["", "I", "O"]))


def Level():
    """The lot level to filter by: 0 without lots, 1 with lots, -1 both."""
    return Int(validate=validate.OneOf([-1, 0, 1]))


def Warehouses():
    """The warehouse ids to filter by; empty for all the key may see."""
    return fields.List(Int(validate=in_bigint(0)))
