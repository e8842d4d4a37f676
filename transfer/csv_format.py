"""CSV files: read one as a spreadsheet program saved it, and write one that any opens.

Reading: in the encoding asked for, else the one transfer/encodings.py finds (UTF-8 with or
without a byte-order mark, Windows-1250 or Windows-1252: what Excel saves on a Central or
Western European Windows); the delimiter is the one of `,` `;` or tab found most often in the
header row. Writing: UTF-8 with a byte-order mark (so Excel reads the accents), comma,
CRLF, as a generator of text pieces that never holds the whole file.
"""
import csv
import io

from transfer import encodings
from transfer.table import FORMULA_STARTS, FileRefused, Table

DELIMITERS = (",", ";", "\t")
BOM = "\ufeff"


def read(data: bytes, encoding: str | None = None) -> Table:
    text, used = decode(data, encoding)
    if not text.strip():
        raise FileRefused("The file is empty.")
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
        raise FileRefused(f"Not a readable CSV file: {error}.") from None
    return Table(header=header, header_row=header_row, rows=rows, decimal_comma=delimiter == ";",
                 encoding=used, encoding_detected=encoding is None)


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """(text, encoding used)."""
    if b"\x00" in data[:65536]:
        raise FileRefused("Not a CSV, XLSX or ODS file (it holds binary data).")
    try:
        return encodings.decode(data, encoding)
    except encodings.NotText as error:
        raise FileRefused(str(error)) from None


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


def cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        # A spreadsheet would run a text cell that begins like a formula; numbers stay numbers.
        return "'" + value if value[:1] in FORMULA_STARTS else value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


class _Line:
    """csv.writer writes into this; each row's text is taken out at once."""

    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text


def write(header: list[str], rows):
    """The CSV file as text pieces, row by row (a generator: flat memory however many rows)."""
    line = _Line()
    writer = csv.writer(line, lineterminator="\r\n")
    writer.writerow(header)
    yield BOM + line.text
    for row in rows:
        line.text = ""
        writer.writerow([cell_text(value) for value in row])
        yield line.text
