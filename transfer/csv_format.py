"""CSV files: read one as a spreadsheet program saved it, and write one that any opens.

Reading: in the encoding asked for, else the one transfer/encodings.py finds (UTF-8 with or
without a byte-order mark, Windows-1250 or Windows-1252: what Excel saves on a Central or
Western European Windows); the delimiter is the one of `,` `;` or tab found most often in the
header row. Writing: UTF-8 with a byte-order mark (so Excel reads the accents), comma (or `;` with
decimal commas, as Slovenian and German Excel want), CRLF, as a generator of text pieces (a thousand rows each) that never holds the whole file.
"""
import csv
import io
from datetime import date, datetime
from decimal import Decimal
from itertools import islice

from stock.errors import say
from transfer import encodings
from transfer.table import FORMULA_STARTS, FileRefused, Table

DELIMITERS = (",", ";", "\t")
BOM = "\ufeff"
ROWS_PER_PIECE = 1000


def read(data: bytes, encoding: str | None = None, language: str | None = None) -> Table:
    text, used = decode(data, encoding, language)
    if not text.strip():
        raise FileRefused(say("The file is empty."))
    delimiter = detect_delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)
    header, header_row, rows = None, 0, []
    try:
        for number, record in enumerate(reader, start=1):
            if not any(cell.strip() for cell in record):
                continue
            if header is None:
                header, header_row = [cell.strip() for cell in record], number
            else:
                rows.append((number, [unescape(cell) for cell in record]))
    except csv.Error as error:
        raise FileRefused(say("Not a readable CSV file: %(error)s.", error=error)) from None
    return Table(header=header, header_row=header_row, rows=rows, decimal_comma=delimiter == ";",
                 encoding=used, encoding_detected=encoding is None)


def decode(data: bytes, encoding: str | None = None, language: str | None = None) -> tuple[str, str]:
    """(text, encoding used); `language`: the depot's (transfer/encodings.py detect)."""
    if b"\x00" in data[:65536]:
        raise FileRefused(say("Not a CSV, XLSX or ODS file (it holds binary data)."))
    try:
        return encodings.decode(data, encoding, language)
    except encodings.NotText as error:
        raise FileRefused(error.args[0]) from None


def detect_delimiter(text: str) -> str:
    """The delimiter of the first non-empty line, quoted parts left out."""
    first = next(line for line in text.splitlines() if line.strip())
    unquoted = "".join(part for index, part in enumerate(first.split('"')) if index % 2 == 0)
    counts = {delimiter: unquoted.count(delimiter) for delimiter in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def unescape(cell: str) -> str:
    """A text cell written escaped (below) reads back as it was."""
    if cell[:1] == "'" and cell[1:2] in FORMULA_STARTS and cell[1:2]:
        return cell[1:]
    return cell


# What csv.writer writes as it should, as they are: numbers, dates, None (an empty cell).
AS_THEY_ARE = frozenset({int, float, Decimal, date, bool, type(None)})


def cell_text(value):
    """A cell as csv.writer should write it: text that begins like a formula escaped, a date
    and time as ISO text; numbers, dates and None (empty) csv.writer writes as they are."""
    if isinstance(value, str):
        # A spreadsheet would run a text cell that begins like a formula; numbers stay numbers.
        return "'" + value if value[:1] in FORMULA_STARTS else value
    if isinstance(value, datetime):
        return value.isoformat()  # str() would put a space between the date and the time
    return value


def write(header: list[str], rows, separator: str = ",", decimal_comma: bool = False):
    """The CSV file as text pieces of a thousand rows each (a generator: flat memory however
    many rows; each piece is one write of the server, not one per row). Slovenian and German
    Excel open `;` with decimal commas (DESIGN 29): `decimal_comma` writes amounts so."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=separator, lineterminator="\r\n")
    if decimal_comma:
        rows = ([str(value).replace(".", ",") if value.__class__ in (Decimal, float) else value for value in row]
                for row in rows)
    writer.writerow(header)
    yield BOM + buffer.getvalue()
    rows = iter(rows)
    while chunk := list(islice(rows, ROWS_PER_PIECE)):
        buffer.seek(0)
        buffer.truncate()
        # cell_text, with its two commonest cases written inline (a call per cell cost more than
        # writing the row): plain text, and a value csv.writer writes as it is.
        writer.writerows([("'" + value if value[:1] in FORMULA_STARTS else value) if value.__class__ is str
                          else value if value.__class__ in AS_THEY_ARE else cell_text(value) for value in row]
                         for row in chunk)
        yield buffer.getvalue()
