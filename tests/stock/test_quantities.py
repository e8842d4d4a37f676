"""Exact quantities: parsing into thousandths and writing back as JSON numbers."""
from decimal import Decimal

import pytest

from stock.quantities import NotAQuantity, from_milli, to_milli


@pytest.mark.parametrize("value, milli", [
    ("0.1", 100), (Decimal("0.1"), 100), (5, 5000), ("2.500", 2500), (" 3 ", 3000),
    ("1e2", 100000), (".5", 500), ("-2", -2000), (0.1, 100),
])
def test_exact_values_become_thousandths(value, milli):
    assert to_milli(value) == milli


@pytest.mark.parametrize("value", [
    "1.2345", Decimal("0.0001"), "1_000", "\u0661\u0662", "abc", "", "NaN", "Infinity",
    True, None, [], 10**12, "1e12",
])
def test_inexact_or_foreign_values_are_refused(value):
    with pytest.raises(NotAQuantity):
        to_milli(value)


def test_ten_tenths_make_exactly_one():
    assert from_milli(sum(to_milli("0.1") for _ in range(10))) == 1


@pytest.mark.parametrize("milli, text", [(1000, "1"), (100, "0.1"), (1234567891, "1234567.891"),
                                         (999999999999999, "999999999999.999"), (-2500, "-2.5")])
def test_thousandths_come_back_as_the_shortest_exact_number(milli, text):
    assert repr(from_milli(milli)) == text


def _by_decimal(text: str) -> int:
    """The general path's answer, for comparing the quick one's with."""
    number = Decimal(text)
    if number != number.quantize(Decimal("0.001")):
        raise NotAQuantity("places")
    if abs(number) >= 10**12:
        raise NotAQuantity("size")
    return int(number * 1000)


@pytest.mark.parametrize("text", [
    "0", "-0", "+7", "007", "12.", "12.5", "12.50", "12.500", "12.5000", "-3.250", "0.001",
    "0.0001", "1.2340000", "999999999999.999", "-999999999999.999", "1000000000000",
    "999999999999999", "1.0000000000000000001", " 4.5 ",
])
def test_plain_strings_read_as_decimal_reads_them(text):
    try:
        expected = _by_decimal(text)
    except NotAQuantity:
        with pytest.raises(NotAQuantity):
            to_milli(text)
    else:
        assert to_milli(text) == expected


@pytest.mark.parametrize("value", [10**12 - 1, -(10**12 - 1), 10**12, -(10**12), 0])
def test_whole_numbers_up_to_the_limit(value):
    if abs(value) < 10**12:
        assert to_milli(value) == value * 1000
    else:
        with pytest.raises(NotAQuantity):
            to_milli(value)
