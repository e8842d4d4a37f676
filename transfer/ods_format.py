"""OpenDocument spreadsheets (.ods, what LibreOffice and OpenOffice save), read with python-calamine.

Read only, like an XLSX: the sheet named like the kind (case ignored), else the first one. A
cell holds what the spreadsheet shows: text, a number, a date; a formula's cell its last
result, which LibreOffice always saves with it (an XLSX written by other programs may hold
none, which is why xlsx_format refuses formulas). Exports stay CSV and XLSX.
"""
import zipfile

from stock.errors import say
from transfer.table import FileRefused, Table

MEDIA_TYPE = b"application/vnd.oasis.opendocument.spreadsheet"
OTHER_OPEN_DOCUMENTS = b"application/vnd.oasis.opendocument."


def kind_of_zip(file) -> str:
    """"ods", "odf" (another OpenDocument: a text, a drawing...) or "" (not an OpenDocument)."""
    try:
        with zipfile.ZipFile(file) as archive:
            media = archive.read("mimetype").strip() if "mimetype" in archive.namelist() else b""
    except (zipfile.BadZipFile, OSError, KeyError):
        media = b""
    finally:
        file.seek(0)
    if media == MEDIA_TYPE:
        return "ods"
    return "odf" if media.startswith(OTHER_OPEN_DOCUMENTS) else ""


def read(file, kind: str) -> Table:
    # Imported by the first .ods read, as openpyxl is by the first .xlsx.
    from python_calamine import CalamineError, CalamineWorkbook

    try:
        workbook = CalamineWorkbook.from_filelike(file)
    except (CalamineError, ValueError, OSError) as error:
        raise FileRefused(say("Not a readable ODS spreadsheet (%(error)s).", error=error)) from None
    try:
        names = workbook.sheet_names
        if not names:
            raise FileRefused(say("The spreadsheet has no sheet."))
        name = next((n for n in names if n.strip().lower() == kind), names[0])
        header, header_row, rows = None, 0, []
        # From cell A1, empty rows and columns included: row numbers and column letters hold.
        cells = workbook.get_sheet_by_name(name).to_python(skip_empty_area=False)
        for number, values in enumerate(cells, start=1):
            values = [None if value == "" else value for value in values]
            if all(v is None or (isinstance(v, str) and not v.strip()) for v in values):
                continue
            if header is None:
                header, header_row = ["" if v is None else str(v).strip() for v in values], number
            else:
                rows.append((number, values))
    except FileRefused:
        raise
    except (CalamineError, ValueError, OSError) as error:
        raise FileRefused(say("Not a readable ODS spreadsheet (%(error)s).", error=error)) from None
    finally:
        workbook.close()
    if header is None:
        raise FileRefused(say("The file is empty."))
    return Table(header=header, header_row=header_row, rows=rows, format="ods")
