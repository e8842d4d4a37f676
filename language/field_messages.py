"""marshmallow's own messages, as a page shows them in its language.

A form's field refused by a schema comes back in marshmallow's English ("Not a valid number.",
"Longer than maximum length 30."). Those without values are in the catalogues as they are; those
with values reach a page already formatted, so they are read back by their pattern here and
translated as one message with named places. The API answers them in English, as always.
"""
import re


def _(message: str) -> str:
    """Marks a message for `pybabel extract`; translated when a page shows it (catalogue.py)."""
    return message


WITHOUT_VALUES = (
    _("Field may not be null."), _("Missing data for required field."), _("Unknown field."),
    _("Invalid value."), _("Invalid input type."), _("Invalid type."), _("Not a valid integer."),
    _("Not a valid number."), _("Number too large."), _("Not a valid string."), _("Not a valid date."),
    _("Not a valid boolean."), _("Not a valid email address."), _("Not a valid URL."), _("Not a valid list."),
    _("Not a valid mapping type."), _("Not a valid UUID."),
    _("Special numeric values (nan or infinity) are not permitted."),
)
# The longer first: "greater than or equal to" before "greater than".
WITH_VALUES = (
    _("Must be greater than or equal to %(min)s and less than or equal to %(max)s."),
    _("Must be greater than or equal to %(min)s and less than %(max)s."),
    _("Must be greater than %(min)s and less than or equal to %(max)s."),
    _("Must be greater than %(min)s and less than %(max)s."),
    _("Must be greater than or equal to %(min)s."), _("Must be greater than %(min)s."),
    _("Must be less than or equal to %(max)s."), _("Must be less than %(max)s."),
    _("Longer than maximum length %(max)s."), _("Shorter than minimum length %(min)s."),
    _("Length must be between %(min)s and %(max)s."), _("Length must be %(equal)s."),
    _("Must be one of: %(choices)s."),
)
_PLACE = re.compile(r"%\((\w+)\)s")
_PATTERNS = [(re.compile("^" + _PLACE.sub(lambda place: f"(?P<{place.group(1)}>.+?)", re.escape(message)
                                          .replace(r"%\(", "%(").replace(r"\)s", ")s")) + "$"), message)
             for message in WITH_VALUES]


def read_back(message: str) -> tuple[str, dict] | None:
    """(the catalogue's message, its values) of a formatted marshmallow message; None for another."""
    for pattern, template in _PATTERNS:
        found = pattern.match(message)
        if found:
            return template, found.groupdict()
    return None
