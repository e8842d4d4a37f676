"""A list as a file to download: CSV or XLSX, written as it is sent, whatever its length.

The pages' lists and the exports of each kind (in the import's columns) all come here with a
header and rows of plain values (text, whole numbers, amounts, dates): CSV is a generator of
text; XLSX is written to an anonymous temporary file, then read out in pieces.
"""
from itertools import chain

from transfer import csv_format, xlsx_format

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMATS = ("csv", "xlsx")


def export(name: str, header: list[str], rows, format: str, separator: str = ",", decimal_comma: bool = False):
    """(media type, file name, iterator of the file's pieces) of the list in `format`; a CSV's
    `separator`, and amounts with a decimal comma, as the office's language writes them."""
    if format == "xlsx":
        file = xlsx_format.write(header, rows, title=name)
        return XLSX_TYPE, f"{name}.xlsx", xlsx_format.chunks(file)
    # The first row is read now, before the answer begins: rows read from a cursor as they are
    # written run their statement here, and a database that fails is then the normal error
    # page, not a download cut after its header.
    rows = iter(rows)
    first = next(rows, None)
    if first is not None:
        rows = chain((first,), rows)
    return "text/csv; charset=utf-8", f"{name}.csv", (piece.encode("utf-8")
                                                     for piece in csv_format.write(header, rows, separator, decimal_comma))
