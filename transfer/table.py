"""What a file is once read, whatever its format: a header and numbered rows of cell values.

The format modules (csv_format, xlsx_format) make a Table; importing.py matches its header to
a kind's columns. Row numbers are those a spreadsheet shows (the first row of the file is 1).
"""
from dataclasses import dataclass, field


@dataclass
class Table:
    header: list[str]  # each header cell as written, spaces around it removed
    header_row: int
    rows: list[tuple[int, list]] = field(default_factory=list)  # (row number, cell values)
    # A CSV separated by ";" comes from a spreadsheet set to a decimal comma: "1,5" is 1.5.
    decimal_comma: bool = False
    format: str = "csv"  # csv, xlsx or ods
    encoding: str | None = None  # a CSV's, as read (transfer/encodings.py)
    encoding_detected: bool = False  # guessed from the bytes, not chosen


class FileRefused(Exception):
    """A file that is no table at all (empty, binary, a formula...): one error of the report."""

    def __init__(self, message: str, row: int = 0, column: str = ""):
        super().__init__(message)
        self.message, self.row, self.column = message, row, column


# A text cell a spreadsheet would run as a formula if it began like one (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def column_letter(index: int) -> str:
    """A, B, ... Z, AA...: a column as a spreadsheet names it (index from 0)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters
