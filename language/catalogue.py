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
no build step, and nothing of the pages' strings is sent to a phone. `scanner_refusals(language)`
gives the messages a refusal of the API may carry, by the English the API answers them in, for
the scanner to read a refusal back (words.js `said`).
"""
import ast
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


def _read_catalogue(language: str):
    with open(po_path(language), "rb") as file:
        return read_po(file, locale=language)


@lru_cache(maxsize=len(LANGUAGES))
def scanner_messages(language: str) -> dict[str, str | list[str]]:
    """{English: the language's words} of every scanner string; {} for English. A count's message
    (tn("%(count)s line", "%(count)s lines", n)) by its first English form, with the language's
    forms in the catalogue's order (words.js picks one by Intl.PluralRules)."""
    if language not in LANGUAGES or language == "en":
        return {}
    catalogue = _read_catalogue(language)
    return {message.id[0] if message.pluralizable else message.id:
            list(message.string) if message.pluralizable else message.string
            for message in catalogue
            if message.id and message.string and message.locations
            and any(place.startswith("scanner/static/") for place, _ in message.locations)}


# Where the messages of the API's refusals are written: the rules and their errors, the imports,
# keys and people, the schemas, and marshmallow's own (field_messages.py). Not pages/ or
# printing/: the API never answers their words.
REFUSING = ("stock/", "transfer/", "identity/", "schemas/", "storage/", "language/field_messages.py")
ROOT = TRANSLATIONS.parent.parent


@lru_cache(maxsize=len(LANGUAGES))
def scanner_refusals(language: str) -> dict[str, str | list[str]]:
    """{English as the API answers it: the language's words} of every message a refusal of the API
    may carry; {} for English. A count's message is answered in its own English ("2 line(s)
    refused"), which the catalogue does not hold: it is keyed by that (`answered_counts`), with the
    language's forms in the catalogue's order, as scanner_messages gives them, for words.js to
    choose one by the count it reads."""
    if language not in LANGUAGES or language == "en":
        return {}
    answered = answered_counts()
    refusals: dict[str, str | list[str]] = {}
    for message in _read_catalogue(language):
        if not (message.id and message.string and not message.context
                and any(place.startswith(REFUSING) for place, _ in message.locations)):
            continue
        if message.pluralizable:
            one = message.id[0]
            for english in answered.get(tuple(message.id[:2])) or message.id[:2]:
                # A count the English leaves out ("Unknown event(s).", "No active warehouse 4.")
                # cannot choose the form: the one the English says, singular or plural.
                refusals[english] = (list(message.string) if "%(count)" in english
                                     else message.string[0] if english == one else message.string[-1])
        else:
            refusals[message.id] = message.string
    return refusals


@lru_cache(maxsize=1)
def answered_counts() -> dict[tuple[str, str], list[str]]:
    """{(one, many): the English the API answers} of every say_count(one, many, n, text=...) of the
    code, read from the code itself: `text` is no message of the catalogue, and a count's message
    is answered in it alone. Read once, as the first scanner page in another language than
    English is drawn."""
    answered: dict[tuple[str, str], list[str]] = {}
    for room in REFUSING:
        folder = ROOT / room
        for path in sorted(folder.rglob("*.py")) if folder.is_dir() else ():
            source = path.read_text(encoding="utf-8")
            if "say_count(" not in source:
                continue
            for call in ast.walk(ast.parse(source, str(path))):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "say_count"):
                    continue
                forms = [argument.value for argument in call.args[:2] if isinstance(argument, ast.Constant)]
                text = next((keyword.value.value for keyword in call.keywords
                             if keyword.arg == "text" and isinstance(keyword.value, ast.Constant)), None)
                if len(forms) == 2 and isinstance(text, str):
                    texts = answered.setdefault((forms[0], forms[1]), [])
                    if text not in texts:
                        texts.append(text)
    return answered
