"""XLSX workbooks (openpyxl): read the sheet of a kind, write one a spreadsheet opens as typed.

Reading takes the sheet named like the kind (case ignored), else the first one, in read-only
mode, and refuses a formula (the file holds its text, not its result). Writing uses write-only
mode into a temporary file (flat memory), a bold frozen header row, numbers as numbers, dates
as dates, and every text cell stored as text so that none runs as a formula.
"""
import tempfile
import zipfile
from datetime import date, datetime
from decimal import Decimal

from stock.errors import say
from transfer.table import FileRefused, Table, column_letter

MAGIC = b"PK\x03\x04"
CHUNK = 64 * 1024
# A worksheet holds at most this many rows (Excel's limit, header included): a file with more
# is one that no spreadsheet opens whole.
SHEET_ROWS = 1_048_576


class TooLongForASheet(Exception):
    """More rows than one worksheet holds (`limit`, the header's row included)."""

    def __init__(self, limit: int):
        super().__init__(say("More than %(count)s rows: more than one worksheet holds.", count=format(limit - 1, ",")))


def read(file, kind: str) -> Table:
    # openpyxl is imported by the first workbook read or written, not with the service: it
    # holds about 7 MiB that a depot importing and exporting only CSV would carry for nothing.
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        workbook = load_workbook(file, read_only=True, data_only=False)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, OSError) as error:
        raise FileRefused(say("Not a readable XLSX workbook (%(error)s).", error=type(error).__name__)) from None
    try:
        sheets = workbook.worksheets
        if not sheets:
            raise FileRefused(say("The workbook has no sheet."))
        sheet = next((s for s in sheets if s.title.strip().lower() == kind), sheets[0])
        header, header_row, rows = None, 0, []
        for number, cells in enumerate(sheet.iter_rows(), start=1):
            number = next((c.row for c in cells if getattr(c, "row", None)), number)
            values = []
            for index, cell in enumerate(cells):
                if cell.data_type == "f":
                    raise FileRefused(say("A formula: type its value instead (or paste it as values)."),
                                      number, column_letter(index))
                values.append(cell.value)
            if all(v is None or (isinstance(v, str) and not v.strip()) for v in values):
                continue
            if header is None:
                header, header_row = ["" if v is None else str(v).strip() for v in values], number
            else:
                rows.append((number, values))
    except FileRefused:
        raise
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as error:
        raise FileRefused(say("Not a readable XLSX workbook (%(error)s).", error=type(error).__name__)) from None
    finally:
        workbook.close()
    if header is None:
        raise FileRefused(say("The file is empty."))
    return Table(header=header, header_row=header_row, rows=rows, format="xlsx")


def _cell(cell_type, sheet, value, bold=None):
    if isinstance(value, Decimal):
        value = int(value) if value == value.to_integral_value() else float(value)
    cell = cell_type(sheet, value=value)
    if isinstance(value, str):
        cell.data_type = "s"  # never a formula, whatever it begins with
    elif isinstance(value, datetime):
        cell.number_format = "yyyy-mm-dd hh:mm:ss"
    elif isinstance(value, date):
        cell.number_format = "yyyy-mm-dd"
    if bold is not None:
        cell.font = bold
    return cell


def write(header: list[str], rows, title: str = "Sheet1"):
    """The workbook in an anonymous temporary file, at its start (the caller closes it)."""
    from openpyxl import Workbook  # on first use, as in read()
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title[:31])
    sheet.freeze_panes = "A2"
    bold = Font(bold=True)
    sheet.append([_cell(WriteOnlyCell, sheet, name, bold) for name in header])
    too_long = None
    for written, row in enumerate(rows, start=2):
        if written > SHEET_ROWS:
            too_long = TooLongForASheet(SHEET_ROWS)
            break
        sheet.append([_cell(WriteOnlyCell, sheet, value) for value in row])
    file = tempfile.TemporaryFile(suffix=".xlsx")
    try:
        # Saved even when refused: saving is what ends the sheet's writer and removes openpyxl's
        # own temporary file of its rows.
        workbook.save(file)
    except BaseException:
        file.close()
        raise
    if too_long:
        file.close()
        raise too_long
    file.seek(0)
    return file


def chunks(file):
    """The file's bytes in pieces, then the file closed (and so deleted)."""
    try:
        while piece := file.read(CHUNK):
            yield piece
    finally:
        file.close()
