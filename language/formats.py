"""Dates and amounts as each language writes them, and amounts as a person types them.

English keeps what the pages always showed (ISO dates, amounts as the API writes them, 1234.5):
the office's tests and its people read those. Slovenian and German write as their people do
(GLOSSARY.md): sl `27. 11. 2026`, de `27.11.2026`, both `1.234,5`, times `14:05`, by Babel's
number formatting with each language's symbols. Every function takes the language, so paper
and downloads may be drawn in another language than the page's.
"""
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from babel.dates import format_date, format_time
from babel.numbers import format_decimal

DAY_PATTERNS = {"sl": "d. M. y", "de": "dd.MM.y"}
# A CSV download as each language's spreadsheet opens it: (separator, decimal comma or not).
CSV_CONVENTIONS = {"en": (",", False), "sl": (";", True), "de": (";", True)}


def amount_text(value: Decimal | int | str, language: str) -> str:
    """An amount (a Decimal of at most three places) as the language writes it: 1.234,5 in sl and de."""
    if language in DAY_PATTERNS:
        return format_decimal(Decimal(value), format="#,##0.###", locale=language)
    return str(value)


def count_text(count: int, language: str) -> str:
    """A whole number with its thousands grouped: 12,345 (en), 12.345 (sl, de)."""
    if language in DAY_PATTERNS:
        return format_decimal(count, format="#,##0", locale=language)
    return f"{count:,}"


def day_text(day: date, language: str) -> str:
    """A calendar day: 2026-11-27 (en), 27. 11. 2026 (sl), 27.11.2026 (de)."""
    pattern = DAY_PATTERNS.get(language)
    return format_date(day, pattern, locale=language) if pattern else day.isoformat()


def moment_text(moment: datetime, language: str, seconds: bool = False) -> str:
    """A moment already in the depot's zone, as a day and a 24-hour time (without the zone)."""
    clock = "HH:mm:ss" if seconds else "HH:mm"
    if language not in DAY_PATTERNS:
        return moment.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    return f"{day_text(moment.date(), language)} {format_time(moment, clock, locale=language)}"


def amount_to_type(value: Decimal | int | str, language: str) -> str:
    """An amount filled into a form, as the person would type it: no thousands grouped (a German
    "1.234" typed back would read as one point two three four), the language's decimal sign."""
    text = format(Decimal(value).normalize(), "f")  # "f": normalize() alone writes 1000 as 1E+3
    return text.replace(".", decimal_sign(language))


def decimal_sign(language: str) -> str:
    """The sign a person types between an amount's whole part and its fraction: "," in sl and de."""
    return "," if CSV_CONVENTIONS.get(language, (",", False))[1] else "."


def typed_amount(text: str, language: str) -> str:
    """An amount as a person typed it, as the API's schemas read it ("1.234,5" -> "1234.5" in sl, de).

    In sl and de a comma is the decimal sign and points group thousands; with no comma a single
    point is still taken as the decimal sign, as the scanners and the English pages write it.
    What is not a number is handed on unchanged, for the schema to refuse in its own words.
    """
    text = (text or "").strip().replace("\u00a0", "").replace(" ", "")
    if language not in DAY_PATTERNS or "," not in text:
        return text
    candidate = text.replace(".", "").replace(",", ".")
    try:
        Decimal(candidate)
    except InvalidOperation:
        return text
    return candidate


def csv_convention(language: str, other: bool = False) -> tuple[str, bool]:
    """(separator, decimal comma) of a download in the language; `other`: the other form."""
    separator, comma = CSV_CONVENTIONS.get(language, CSV_CONVENTIONS["en"])
    if other:
        return (",", False) if comma else (";", True)
    return separator, comma
