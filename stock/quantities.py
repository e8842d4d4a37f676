"""Exact quantities: decimals with at most three places, kept as integer thousandths."""
import re
from decimal import Decimal, InvalidOperation

from storage.errors import say  # stock.errors stands beside this module, on its floor

ASCII_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)
PLACES = 3
SCALE = 1000
# Keeps every amount within 15 significant digits (exact as a JSON double) and
# far from the 64-bit limit of the columns (stock/posting.py applies it again after a
# unit conversion).
LIMIT = 10**12


class NotAQuantity(ValueError):
    """Its one argument is the message (a Said, so that a page says it in its language)."""


# What scanners send ("12", "0.5", "-3.250"): read without Decimal. Anything else
# (exponents, ".5", numbers too long) takes the general path below.
PLAIN_NUMBER = re.compile(r"([+-]?)([0-9]{1,15})(?:\.([0-9]{0,15}))?", re.ASCII)


def to_milli(value) -> int:
    """Parse a JSON number or numeric string into thousandths; reject anything inexact."""
    # The two plain cases first: a batch of a thousand items reads two quantities each.
    if value.__class__ is str:
        match = PLAIN_NUMBER.fullmatch(value.strip())
        if match is not None:
            sign, whole, fraction = match.groups()
            fraction = (fraction or "").rstrip("0")
            if len(fraction) > PLACES:
                raise NotAQuantity(say("At most %(count)s decimal places.", count=PLACES))
            milli = int(whole) * SCALE + (int(fraction.ljust(PLACES, "0")) if fraction else 0)
            if milli >= LIMIT * SCALE:
                raise NotAQuantity(say("Must be less than %(limit)s in size.", limit=LIMIT))
            return -milli if sign == "-" else milli
    elif value.__class__ is int:
        if -LIMIT < value < LIMIT:
            return value * SCALE
        raise NotAQuantity(say("Must be less than %(limit)s in size.", limit=LIMIT))
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, str, float)):
        raise NotAQuantity(say("Not a number."))
    if isinstance(value, str) and not ASCII_NUMBER.fullmatch(value.strip()):
        # Decimal would also take "1_000" and digits of other scripts.
        raise NotAQuantity(say("Not a number."))
    try:
        # A float can only come from code, never from a request (JSON is parsed
        # with Decimal); its shortest repr is the decimal the writer meant.
        number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except (InvalidOperation, ValueError):
        raise NotAQuantity(say("Not a number.")) from None
    if not number.is_finite():
        raise NotAQuantity(say("Not a number."))
    if number.as_tuple().exponent < -PLACES and number != number.quantize(Decimal(1).scaleb(-PLACES)):
        raise NotAQuantity(say("At most %(count)s decimal places.", count=PLACES))
    if abs(number) >= LIMIT:
        raise NotAQuantity(say("Must be less than %(limit)s in size.", limit=LIMIT))
    return int(number * SCALE)


def from_milli(milli: int):
    """Thousandths as a JSON number: an int when whole, else the float whose repr is exact.

    Every amount with at most 15 significant digits survives the trip through a
    double: division is correctly rounded and repr picks the shortest string.
    """
    if milli % SCALE == 0:
        return milli // SCALE
    return milli / SCALE



def within_places(milli: int, places: int) -> bool:
    """Whether an amount in thousandths has at most `places` decimal places (0 to 3)."""
    return milli % 10 ** (PLACES - places) == 0
