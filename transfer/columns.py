"""A kind's columns and what a cell becomes before the kind's schema reads it.

Blank cells: a text column's blank is the empty text; a number column's blank is "not given"
(the field keeps its value on an update, takes its default on a create).
"""
import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from stock.errors import say

TEXT, WHOLE, QUANTITY = "text", "whole", "quantity"
NOT_GIVEN = object()


@dataclass(frozen=True)
class Column:
    name: str
    type: str = TEXT
    required: bool = False  # the file must have this column


class CellError(ValueError):
    pass


def convert(column: Column, value, decimal_comma: bool):
    """The cell as the schemas take it: text, a whole number, a numeric text; or NOT_GIVEN."""
    if isinstance(value, str):
        value = value.strip() if column.type != TEXT else value
    if value is None or (isinstance(value, str) and not value.strip()):
        return "" if column.type == TEXT else NOT_GIVEN
    if column.type == TEXT:
        return as_text(value)
    if isinstance(value, bool) or isinstance(value, (date, datetime)):
        raise CellError(say("Must be a number."))
    if column.type == WHOLE:
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, int):
            return value
        if isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]{1,30}", value, re.ASCII):
            return int(value)
        raise CellError(say("Must be a whole number."))
    # QUANTITY: given on as text, so that the schema's exact reading decides (stock/quantities).
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (int, Decimal)):
        return str(value)
    if decimal_comma and "," in value and "." not in value:
        value = value.replace(",", ".", 1)
    return value


def as_text(value) -> str:
    """A cell as text: what a text column reads, and what a report echoes of a refused cell."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # a barcode typed into a number cell
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


@dataclass(frozen=True)
class Kind:
    """A kind of record a file may hold: its columns, how its rows apply, how it is exported.

    `apply(context, rows)` checks and applies the rows [(row number, {column: value})] inside
    the import's transaction; `export(session, caller)` gives (header, rows) in the same columns.
    `numbered` names columns that come in numbered groups (products' packaging_1_unit...).
    `record` names the columns that say which record a row is (shown beside its errors), and
    `label` the one a person recognises it by (the preview of how a file's text was read).
    `informational` names columns a page's download adds for people (an order's state, what was
    delivered): an import reads past them, so that the download imports back unchanged.
    """

    name: str
    columns: tuple
    apply: object
    export: object
    # (pattern, {last part: Column}, how the help names them, name of group N's part)
    numbered: tuple | None = None
    record: tuple = ()
    label: str = ""
    informational: tuple = ()

    def column(self, name: str) -> Column | None:
        for column in self.columns:
            if column.name == name:
                return column
        if self.numbered is not None:
            pattern, by_part = self.numbered[:2]
            match = pattern.fullmatch(name)
            if match and match[1] != "0" and not match[1].startswith("0"):
                return Column(name, by_part[match[2]].type)
        return None

    def column_names(self) -> list[str]:
        names = [column.name for column in self.columns]
        if self.numbered is not None:
            names.append(self.numbered[2])
        return names

    def choices(self, groups: int = 0) -> list[str]:
        """Every column a file's header may be mapped to; numbered ones up to group `groups`."""
        names = [column.name for column in self.columns]
        if self.numbered is not None:
            names += [self.numbered[3].format(group=group, part=part)
                      for group in range(1, groups + 1) for part in self.numbered[1]]
        return names
