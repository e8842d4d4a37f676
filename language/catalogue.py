"""The catalogues read for what is not a template's or a view's own string: a rule's message,
and the scanner's strings as JSON.

A rule raises its message as stock.errors.Said (`say("No product %(code)r.", code=code)`): the
API answers its English text; a page shows `translated(message)`, the catalogue's words with
the same values. A plain message (a schema's, marshmallow's own) is looked up as it is, and
stays as it is where the catalogue has no such message; marshmallow's with values written in
("Longer than maximum length 30.") by its pattern (field_messages.py).

The scanner (scanner/static/*.js) marks its strings `t("...")`; `pybabel extract` finds them
with the rest (babel.cfg), so they are in the same catalogues. `scanner_messages(language)`
reads the .po once and gives those the scanner's scripts use, {English: words}:
no build step, and nothing of the pages' strings is sent to a phone.
"""
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache

from babel.messages.pofile import read_po
from flask_babel import gettext, ngettext

from language import LANGUAGES, TRANSLATIONS
from language.choice import current
from language.field_messages import read_back
from language.formats import amount_text, day_text
from stock.errors import Said


def translated(message) -> str:
    """A message a person reads, in the request's language."""
    if isinstance(message, Said):
        # A value that is a message of its own ("lot %(lot)s", "warehouse %(number)s") is said in
        # the same language; any other value (a name, a code, an amount) stays as it is.
        params = {key: translated(value) if isinstance(value, Said) else written(value)
                  for key, value in message.params.items()}
        if message.plural:
            return ngettext(message.id, message.plural, params["count"], **params)
        return gettext(message.id, **params) if params else gettext(message.id)
    if isinstance(message, str) and message:
        formatted = read_back(message)  # marshmallow's, with its values written in
        if formatted is not None:
            template, params = formatted
            return gettext(template, **params)
        return gettext(message)
    return message


def written(value):
    """A value of a message as the language writes it: an amount with a fraction (a float or a
    Decimal, as stock.quantities.from_milli gives it) with the language's decimal sign (4,5 in sl
    and de), a day as the language writes it (27. 11. 2026 in sl; the API's English has it ISO,
    as str() writes a date). Whole numbers stay as they are: they may be a document's or a line's
    number."""
    if isinstance(value, (float, Decimal)) and not isinstance(value, bool):
        return amount_text(Decimal(str(value)), current())
    if isinstance(value, date) and not isinstance(value, datetime):
        return day_text(value, current())
    return value


def translated_fields(problems):
    """A rule's or a schema's complaints by field, each message translated."""
    if isinstance(problems, dict):
        return {key: translated_fields(inner) for key, inner in problems.items()}
    if isinstance(problems, list):
        return [translated_fields(inner) for inner in problems]
    return translated(problems)


def po_path(language: str):
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


@lru_cache(maxsize=len(LANGUAGES))
def scanner_messages(language: str) -> dict[str, str | list[str]]:
    """{English: the language's words} of every scanner string; {} for English. A count's message
    (tn("%(count)s line", "%(count)s lines", n)) by its first English form, with the language's
    forms in the catalogue's order (words.js picks one by Intl.PluralRules)."""
    if language not in LANGUAGES or language == "en":
        return {}
    with open(po_path(language), "rb") as file:
        catalogue = read_po(file, locale=language)
    return {message.id[0] if message.pluralizable else message.id:
            list(message.string) if message.pluralizable else message.string
            for message in catalogue
            if message.id and message.string and message.locations
            and any(place.startswith("scanner/static/") for place, _ in message.locations)}
