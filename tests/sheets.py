"""Spreadsheet files as an office saves them, for the import tests: XLSX written by openpyxl, ODS
written as LibreOffice writes one (the OpenDocument zip: its mimetype first and stored, a
manifest, content.xml with each cell's typed value), CSV in a Windows code page, and a
product list of 300 rows with mistakes far down."""
import csv
import io
import zipfile
from datetime import date, timedelta
from xml.sax.saxutils import escape, quoteattr

from openpyxl import Workbook

ODS_TYPE = "application/vnd.oasis.opendocument.spreadsheet"
NAMESPACES = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
              'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
              'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
              'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"')


def xlsx(rows, title="Sheet1") -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = title
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _ods_cell(value) -> str:
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value="{str(value).lower()}">'
                f"<text:p>{str(value).upper()}</text:p></table:table-cell>")
    if isinstance(value, (int, float)):
        return (f'<table:table-cell office:value-type="float" office:value="{value!r}">'
                f"<text:p>{value}</text:p></table:table-cell>")
    if isinstance(value, date):
        return (f'<table:table-cell office:value-type="date" office:date-value="{value.isoformat()}">'
                f"<text:p>{value.isoformat()}</text:p></table:table-cell>")
    return f'<table:table-cell office:value-type="string"><text:p>{escape(value)}</text:p></table:table-cell>'


def ods(sheets: dict, media_type: str = ODS_TYPE) -> bytes:
    """An .ods of the sheets {title: rows}, in their order; `media_type` another OpenDocument's."""
    tables = "".join(
        f"<table:table table:name={quoteattr(title)}>"
        + "".join("<table:table-row>" + "".join(_ods_cell(value) for value in row) + "</table:table-row>"
                  for row in rows)
        + "</table:table>" for title, rows in sheets.items())
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {NAMESPACES} office:version="1.3">'
               f"<office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body>"
               "</office:document-content>")
    manifest = (f'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest {NAMESPACES} manifest:version="1.3">'
                f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{media_type}"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        # The OpenDocument rule: the media type first, uncompressed, so a reader sees it at once.
        archive.writestr(zipfile.ZipInfo("mimetype"), media_type, compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def csv_bytes(rows, encoding="utf-8", delimiter=",") -> bytes:
    """A CSV as a spreadsheet program saves it: CRLF, in its encoding ("cp1250" for a Slovenian,
    Czech or Polish Windows)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    for row in rows:
        writer.writerow(["" if value is None else value for value in row])
    return out.getvalue().encode(encoding)


# What a depot in Ljubljana keeps: saved as CSV by Excel on a Slovenian Windows it is Windows-1250.
SLOVENIAN = [["product_code", "name", "base_unit"],
             ["COK-100", "Čokolada mlečna 100 g", "pc"],
             ["KAVA-250", "Kava mleta 250 g", "pc"],
             ["SOK-1L", "Jabolčni sok 1 l", "pc"],
             ["MOKA-1", "Pšenična moka tip 500", "pc"],
             ["ZIT-375", "Žitarice z medom", "pc"]]

# The office's own headers for a product list (DESIGN 19's columns under other names).
FOREIGN_HEADER = ["Code", "Description", "Unit", "EAN", "Notes"]
FOREIGN_MAPPING = {"Code": "product_code", "Description": "name", "Unit": "base_unit", "EAN": "base_unit_barcode",
                   "Notes": ""}
FOREIGN = [FOREIGN_HEADER,
           ["TEA-GREEN", "Green tea 20 bags", "pc", "3830000000017", "shelf 4"],
           ["TEA-LEMON", "Lemon tea 20 bags", "pc", "3830000000024", ""]]

PRODUCT_HEADER = ["product_code", "name", "base_unit", "base_unit_barcode", "weight_netto", "lot_level"]


def products_with_errors(count: int = 300):
    """A product list of `count` rows with three mistakes far down: (rows, header first; the
    mistakes as (row, record, column, value, message) in row order)."""
    rows = [PRODUCT_HEADER] + [[f"P{n:04d}", f"Product {n}", "pc", f"290{n:010d}", 0.25, 0]
                               for n in range(1, count + 1)]
    mistakes = [(154, "name", "", "Length must be between 1 and 200."),
                (231, "weight_netto", 1.2345, "At most 3 decimal places."),
                (count - 1, "lot_level", 7, "Must be one of: 0, 1.")]
    found = []
    for row, column, value, message in mistakes:
        rows[row - 1][PRODUCT_HEADER.index(column)] = value
        found.append((row, rows[row - 1][0], column, str(value), message))
    return rows, found


def fill_every_kind(api) -> None:
    """A depot holding records of every kind an import knows, through the API: products with
    packaging, lots and text that looks like a formula, a customer, an order half delivered
    (state 3) and one untouched, a reorder level. Its downloads must all import back unchanged."""
    def ok(response):
        assert response.status_code in (200, 201), response.json

    ok(api.post("/v1/products/", {"product_code": "COK-100", "name": "Čokolada mlečna 100 g", "base_unit": "pc",
                                  "base_unit_barcode": "3830000000017", "weight_netto": "0.1", "decimal_places": 0,
                                  "packaging": [{"unit": "box", "amount_base_units": 24, "barcode": "3830000000024"},
                                                {"unit": "pallet", "amount_base_units": "1440.5"}]}))
    ok(api.post("/v1/products/", {"product_code": "-CHEESE", "name": "=Sir @ 1 kg", "base_unit": "kg",
                                  "lot_level": 1, "weight_brutto": "1.125"}))
    ok(api.post("/v1/customers/", {"id_customer": 7, "name": "Trgovina Žalec d.o.o.", "vat_number": "SI12345678",
                                   "address": {"street": "Savinjska 3", "city": "Žalec", "zip": "3310",
                                               "country": "SI"}}))
    ok(api.post("/v1/documents/", {"document_number": "SO-7", "description": "Za Žalec", "id_warehouse": 1,
                                   "id_customer": 7, "expiration_limit": 3,
                                   "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
                                   "items": [{"item_number": 1, "product_code": "COK-100", "amount_ordered": 48,
                                              "meta": {"note": "box"}},
                                             {"item_number": 2, "product_code": "-CHEESE", "lot": "L7",
                                              "amount_ordered": "2.5"}]}))
    ok(api.post("/v1/documents/", {"document_number": "PO-1", "id_warehouse": 1,
                                   "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["I"]},
                                   "items": [{"item_number": 1, "product_code": "COK-100", "amount_ordered": 240}]}))
    ok(api.post("/v1/batches/", {"batch_settings": {"batch_number": "1", "id_warehouse": "1", "direction": "I",
                                                    "type": "R"},
                                 "batch_items": [{"product_code": "COK-100", "amount": 100, "unit": "pc"}]}))
    ok(api.post("/v1/batches/", {"batch_settings": {"batch_number": "2", "id_warehouse": "1", "direction": "O",
                                                    "type": "R", "document_number": "SO-7"},
                                 "batch_items": [{"product_code": "COK-100", "amount": 1, "unit": "box",
                                                  "date_exp": (date.today() + timedelta(days=90)).isoformat()}]}))
    ok(api.client.put("/v1/reorder_levels/", headers={"TS-Apikey": api.key}, json={"data": [
        {"id_warehouse": 1, "product_code": "COK-100", "min_amount": 48, "target_amount": "240.5"}]}))
    for location in ({"id_warehouse": 1, "code": "A-10", "name": "=Aisle A, 10", "sequence": 3},
                     {"id_warehouse": 1, "code": "A-2", "hold": 1, "receiving": 1},
                     {"id_warehouse": 2, "code": "q/1.2"}):
        ok(api.post("/v1/locations/", location))
    ok(api.post("/v1/locations/1/A-10", {"active": 0}))
