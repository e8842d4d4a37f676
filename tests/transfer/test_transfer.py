"""transfer/: imports of each kind and file variant on a session (no HTTP), and the exports
that import back unchanged."""
import io
import json

import pytest
from openpyxl import Workbook, load_workbook
from sqlalchemy import select

import sheets
from models import AuditEntry, Customer, OrderDocument
from schemas import ENCODINGS, product_schema
from stock import catalog, reorder
from stock.audit import Actor
from transfer import csv_format, encodings, exporting, importing, mapping

OFFICE = Actor("office", "127.0.0.1")
PRODUCT_HEADER = "product_code,name,base_unit,base_unit_barcode,weight_netto,packaging_1_unit," \
                 "packaging_1_amount_base_units,packaging_1_barcode"


def run(session, kind, data, name="file.csv", **kw):
    data = data.encode("utf-8") if isinstance(data, str) else data
    return importing.run(session, kind, io.BytesIO(data), name, actor=OFFICE, **kw)


def xlsx(rows, title="Sheet1", formula_at=None) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = title
    for row in rows:
        sheet.append(row)
    if formula_at:
        sheet[formula_at] = "=1+1"
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def errors(report):
    return [(e["row"], e["column"], e["message"]) for e in report.answer()["errors"]]


def products(session):
    return {p["product_code"]: p for p in catalog.list_products(session)}


def add(session, code="MILK", **fields):
    catalog.create_product(session, product_schema.load({"product_code": code, "name": f"{code} name",
                                                         "base_unit": "pc", **fields}))


def test_a_csv_creates_and_then_changes_nothing(session):
    text = f"{PRODUCT_HEADER}\nMILK,Milk 1 l,pc,400638,1.03,crate,12,400639\nBUTTER,Butter,pc,,0.25,,,\n"
    report = run(session, "products", text)
    assert report.answer() == {"created": 2, "updated": 0, "unchanged": 0, "errors": []}
    milk = products(session)["MILK"]
    assert milk["weight_netto_milli"] == 1030 and milk["base_unit_barcode"] == "400638"
    assert [dict(p) for p in milk["packaging"]] == [
        {"product_code": "MILK", "unit": "crate", "amount_base_units_milli": 12000, "barcode": "400639"}]
    again = run(session, "products", text)
    assert again.answer() == {"created": 0, "updated": 0, "unchanged": 2, "errors": []}


def test_semicolon_decimal_comma_and_windows_1252(session):
    text = "product_code;name;base_unit;weight_brutto\nKAESE;Käse würzig;Stück;1,25\n"
    report = run(session, "products", text.encode("cp1252"))
    assert report.answer()["created"] == 1, errors(report)
    cheese = products(session)["KAESE"]
    assert cheese["name"] == "Käse würzig" and cheese["base_unit"] == "Stück"
    assert cheese["weight_brutto_milli"] == 1250


def test_byte_order_mark_and_tab(session):
    text = "\ufeffproduct_code\tname\tbase_unit\nA\tApple\tpc\n"
    report = run(session, "products", text.encode("utf-8"))
    assert report.answer()["created"] == 1, errors(report)
    assert "A" in products(session)


def test_header_case_and_spaces_are_ignored(session):
    report = run(session, "products", " Product_Code ,NAME, base_unit\nA,Apple,pc\n")
    assert report.answer()["created"] == 1, errors(report)


def test_xlsx_first_sheet_or_the_sheet_named_like_the_kind(session):
    data = xlsx([["product_code", "name", "base_unit", "weight_netto", "base_unit_barcode"],
                 ["X1", "Xylitol", "pc", 0.5, 4006381333924]])
    report = run(session, "products", data, "products.xlsx")
    assert report.answer()["created"] == 1, errors(report)
    x1 = products(session)["X1"]
    assert x1["weight_netto_milli"] == 500 and x1["base_unit_barcode"] == "4006381333924"
    workbook = Workbook()
    workbook.active.append(["not", "this"])
    named = workbook.create_sheet("Customers")
    named.append(["id_customer", "name"])
    named.append([7, "Fresh Foods"])
    out = io.BytesIO()
    workbook.save(out)
    report = run(session, "customers", out.getvalue(), "c.xlsx")
    assert report.answer()["created"] == 1, errors(report)


def test_a_dry_run_changes_nothing(session):
    report = run(session, "products", "product_code,name,base_unit\nA,Apple,pc\n", dry_run=True)
    assert report.answer() == {"created": 1, "updated": 0, "unchanged": 0, "errors": []}
    assert products(session) == {}
    assert session.scalars(select(AuditEntry)).all() == []


def test_all_or_nothing_and_every_error_beside_its_row(session):
    text = "product_code,name,base_unit,weight_netto\nA,Apple,pc,1\nB,,pc,1\nC,Cherry,pc,1.2345\nA,Again,pc,1\n"
    report = run(session, "products", text)
    assert errors(report) == [
        (3, "name", "Length must be between 1 and 200."),
        (4, "weight_netto", "At most 3 decimal places."),
        (5, "product_code", "The product repeats row 2."),
    ]
    assert report.created == 1  # what would have been, had the file been right
    assert products(session) == {}


def test_a_column_left_out_keeps_the_field(session):
    add(session, "MILK", weight_netto="1.5", base_unit_barcode="111",
        packaging=[{"unit": "crate", "amount_base_units": 12, "barcode": "222"}])
    report = run(session, "products", "product_code,name\nMILK,Milk fresh\n")
    assert report.answer()["updated"] == 1, errors(report)
    milk = products(session)["MILK"]
    assert milk["name"] == "Milk fresh" and milk["weight_netto_milli"] == 1500
    assert milk["base_unit_barcode"] == "111" and [p["barcode"] for p in milk["packaging"]] == ["222"]


def test_packaging_rows_replace_the_packaging_of_the_products_named(session):
    add(session, "MILK", packaging=[{"unit": "crate", "amount_base_units": 12, "barcode": "222"}])
    add(session, "TEA", packaging=[{"unit": "box", "amount_base_units": 20}])
    report = run(session, "packaging", "product_code,unit,amount_base_units\nMILK,crate,12\nMILK,pallet,480\n")
    assert report.answer() == {"created": 0, "updated": 1, "unchanged": 0, "errors": []}
    found = products(session)
    # The barcode column was left out: crate keeps its barcode; TEA is not named and keeps its box.
    assert [(p["unit"], p["barcode"]) for p in found["MILK"]["packaging"]] == [("crate", "222"), ("pallet", "")]
    assert [p["unit"] for p in found["TEA"]["packaging"]] == ["box"]
    report = run(session, "packaging", "product_code,unit,amount_base_units\nNONE,crate,1\nMILK,crate,0\n")
    assert errors(report) == [(2, "product_code", "No product 'NONE'."),
                              (3, "amount_base_units", "Must be greater than 0.")]


@pytest.mark.parametrize("data, expected", [
    (b"", [(0, "", "The file is empty.")]),
    (b"  \r\n\r\n", [(0, "", "The file is empty.")]),
    (b"product_code,name,base_unit\r\n", [(1, "", "The file has a header row but no rows below it.")]),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR", [(0, "", "Not a CSV, XLSX or ODS file (it holds binary data).")]),
    (b"PK\x03\x04 not really a zip", [(0, "", "Not a readable XLSX workbook (BadZipFile).")]),
    (b"product_code,name,colour\nA,B,red\n",
     [(1, "colour", "Unknown column; products has the columns product_code, name, active, base_unit, "
                    "base_unit_barcode, category, lot_level, weight_brutto, weight_netto, weight_unit, decimal_places, "
                    "packaging_N_unit, packaging_N_amount_base_units, packaging_N_barcode.")]),
    (b"product_code,name,Name\nA,B,C\n", [(1, "Name", "The column appears twice (columns B and C).")]),
    (b"name,base_unit\nA,pc\n", [(1, "product_code", "This column is required.")]),
])
def test_bad_files_get_a_report(session, data, expected):
    report = run(session, "products", data)
    if "active" in expected[0][2]:  # the list follows the product schema's fields
        names = [c.name for c in importing.KINDS["products"].columns]
        assert expected[0][2].startswith("Unknown column; products has the columns " + ", ".join(names))
        assert [(e[0], e[1]) for e in errors(report)] == [(1, "colour")]
    else:
        assert errors(report) == expected
    assert products(session) == {}


def test_a_formula_cell_is_refused(session):
    data = xlsx([["product_code", "name", "base_unit"], ["A", "Apple", "pc"]], formula_at="B2")
    report = run(session, "products", data, "p.xlsx")
    assert errors(report) == [(2, "B", "A formula: type its value instead (or paste it as values).")]


def test_customers_create_update_and_unchanged(session):
    text = "id_customer,name,city\n1,Fresh Foods,Leipzig\n2,Dairy Co,Graz\n"
    assert run(session, "customers", text).answer()["created"] == 2
    report = run(session, "customers", "id_customer,city\n1,Halle\n2,Graz\n")
    assert report.answer() == {"created": 0, "updated": 1, "unchanged": 1, "errors": []}
    first = session.get(Customer, 1)
    assert (first.name, first.city) == ("Fresh Foods", "Halle")
    report = run(session, "customers", "id_customer,name\nx,Bad\n3,\n")
    assert errors(report) == [(2, "id_customer", "Must be a whole number."),
                              (3, "name", "Length must be between 1 and 200.")]


ORDER_HEADER = "document_number,id_warehouse,id_customer,description,expiration_limit,item_number," \
               "product_code,lot,amount_ordered,direction"


def test_orders_rows_of_one_number_make_one_order(session):
    add(session, "MILK")
    add(session, "TEA")
    text = (f"{ORDER_HEADER}\nPO-1,1,0,Dairy,0,1,MILK,,24,I\nPO-1,,,,,2,TEA,,5.5,I\n"
            "PO-2,1,0,Out,0,1,MILK,,3,O\n")
    report = run(session, "orders", text)
    assert report.answer() == {"created": 2, "updated": 0, "unchanged": 0, "errors": []}
    order = session.get(OrderDocument, "PO-1")
    assert [(i.item_number, i.product_code, i.amount_ordered_milli) for i in order.items] == [
        (1, "MILK", 24000), (2, "TEA", 5500)]
    assert order.allowed_directions == "I" and order.allowed_types == "R"
    assert run(session, "orders", text).answer()["unchanged"] == 2
    changed = text.replace(",24,I", ",25,I")
    assert errors(run(session, "orders", changed)) == [
        (2, "document_number", "The order exists already with other content; an imported order is never "
                               "changed by a file.")]


def test_orders_follow_the_rules_of_the_order_import(session):
    add(session, "MILK")
    text = (f"{ORDER_HEADER}\nPO-9,1,0,,0,1,NOPE,,1,I\nPO-9,2,,,,2,MILK,,1,I\n"
            "PO-8,1,0,,0,1,MILK,L1,1,I\nPO-7,1,0,,0,1,MILK,,1,I\nPO-7,,,,,1,MILK,,2,I\n")
    assert errors(run(session, "orders", text)) == [
        (3, "id_warehouse", "Differs from row 2 of the same order."),
        (4, "lot", "The product is not kept by lot: the lot must be empty."),
        (6, "item_number", "Repeats an item_number of this document."),
    ]
    assert session.scalars(select(OrderDocument)).all() == []


def test_an_import_writes_one_audit_row_with_its_counts(session):
    run(session, "products", "product_code,name,base_unit\nA,Apple,pc\nB,Banana,pc\n", name="list.csv")
    [entry] = session.scalars(select(AuditEntry)).all()
    assert (entry.kind, entry.record, entry.who) == ("import.products", "list.csv", "office")
    assert json.loads(entry.changes) == {"created": [None, 2], "updated": [None, 0], "unchanged": [None, 0]}


REORDER_HEADER = "id_warehouse;product_code;min_amount;target_amount\n"


def test_reorder_levels_import_with_every_bad_row_named_then_applied(session):
    add(session, "MILK")
    add(session, "TEA")
    bad = run(session, "reorder_levels", (REORDER_HEADER + "1;MILK;10,5;40\n1;NOPE;1;2\n99;TEA;1;2\n"
                                          "1;TEA;5;2\n").encode("cp1252"))
    assert errors(bad) == [(3, "product_code", "No product 'NOPE'."), (4, "id_warehouse", "No active warehouse 99."),
                           (5, "target_amount", "Must be at least min_amount.")]
    assert reorder.list_reorder_levels(session) == []
    good = run(session, "reorder_levels", REORDER_HEADER + "1;MILK;10,5;40\n1;TEA;2;6\n", name="levels.csv")
    assert good.answer()["created"] == 2 and errors(good) == []
    assert [(level["product_code"], level["min_amount_milli"], level["target_amount_milli"])
            for level in reorder.list_reorder_levels(session)] == [("MILK", 10500, 40000), ("TEA", 2000, 6000)]
    again = run(session, "reorder_levels", REORDER_HEADER + "1;MILK;10,5;40\n1;TEA;0;0\n").answer()
    assert (again["unchanged"], again["updated"]) == (1, 1)  # TEA's level removed
    assert [level["product_code"] for level in reorder.list_reorder_levels(session)] == ["MILK"]
    kinds = [entry.kind for entry in session.scalars(select(AuditEntry).order_by(AuditEntry.id))
             if entry.kind.startswith(("reorder", "import.reorder"))]
    assert kinds == ["reorder.set", "reorder.set", "import.reorder_levels", "reorder.remove", "import.reorder_levels"]


def exported(session, kind, format):
    header, rows = importing.KINDS[kind].export(session)
    media, name, pieces = exporting.export(kind, header, rows, format)
    return b"".join(pieces), name


@pytest.mark.parametrize("format", ["csv", "xlsx"])
def test_export_then_import_changes_nothing_for_each_kind(session, format):
    add(session, "MILK", weight_netto="1.03", base_unit_barcode="=40",
        packaging=[{"unit": "crate", "amount_base_units": "12.5", "barcode": "4006"},
                   {"unit": "pallet", "amount_base_units": 480}])
    add(session, "-TEA", name="+Tea @home", lot_level=1)
    run(session, "customers", "id_customer,name,street\n1,Fresh Foods,-3 Marktweg\n")
    run(session, "orders", f"{ORDER_HEADER},allowed_types,note\nPO-1,1,1,Dairy,5,1,MILK,,24.5,I,R,cold\n"
                           "PO-1,,,,,2,-TEA,L1,2,I,,\n")
    run(session, "reorder_levels", "id_warehouse,product_code,min_amount,target_amount\n1,MILK,10.5,40\n")
    run(session, "locations", "id_warehouse,code,name,hold,receiving\n1,A-10,=Aisle A,1,\n1,a/2.3,,,1\n")
    for kind in importing.KINDS:
        data, name = exported(session, kind, format)
        report = run(session, kind, data, name)
        answer = report.answer()
        assert answer["errors"] == [] and answer["created"] == 0 and answer["updated"] == 0, (kind, answer)
        assert answer["unchanged"] >= 1, kind


def test_an_exported_workbook_has_typed_cells_and_a_bold_frozen_header(session):
    from datetime import date
    header = ["code", "amount", "count", "day", "text"]
    media, name, pieces = exporting.export("stock", header, [["A", 1.25, 3, date(2026, 11, 21), "=SUM(A1)"]],
                                           "xlsx")
    workbook = load_workbook(io.BytesIO(b"".join(pieces)))
    sheet = workbook.active
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.bold for cell in sheet[1])
    code, amount, count, day, text = sheet[2]
    assert (amount.data_type, amount.value) == ("n", 1.25) and (count.data_type, count.value) == ("n", 3)
    assert day.is_date and day.value.date() == date(2026, 11, 21)
    assert (text.data_type, text.value) == ("s", "=SUM(A1)")  # text, never run as a formula


def test_an_exported_csv_escapes_formulas_but_not_numbers():
    media, name, pieces = exporting.export("x", ["a", "b", "c"], [["=cmd", -5, "@x"]], "csv")
    text = b"".join(pieces).decode("utf-8")
    assert text == "\ufeffa,b,c\r\n'=cmd,-5,'@x\r\n"


# --- a CSV's encoding (transfer/encodings.py) -------------------------------------------------

def test_a_windows_1250_file_reads_its_letters_right_and_says_how_it_was_read(session):
    report = run(session, "products", sheets.csv_bytes(sheets.SLOVENIAN, "cp1250"))
    assert report.answer()["created"] == 5, errors(report)
    assert products(session)["COK-100"]["name"] == "Čokolada mlečna 100 g"
    assert products(session)["MOKA-1"]["name"] == "Pšenična moka tip 500"
    reading = report.reading
    assert (reading.format, reading.encoding, reading.encoding_detected) == ("csv", "windows-1250", True)
    assert [line["label"] for line in reading.preview] == [row[1] for row in sheets.SLOVENIAN[1:]]


def test_the_encoding_given_is_the_one_read(session):
    data = sheets.csv_bytes(sheets.SLOVENIAN, "cp1250")
    wrong = run(session, "products", data, encoding="windows-1252", dry_run=True)
    assert wrong.reading.preview[0]["label"] == "Èokolada mleèna 100 g"  # what the preview shows, nothing written
    assert (wrong.reading.encoding, wrong.reading.encoding_detected) == ("windows-1252", False)
    refused = run(session, "products", data, encoding="utf-8")
    assert errors(refused) == [(0, "", "Not UTF-8 text (byte 0xc8 at position 38): choose the file's encoding.")]
    assert products(session) == {}


@pytest.mark.parametrize("text, codec", [
    ("Čokolada", "cp1250"), ("Čokolada mlečna", "cp1250"), ("Řepkový olej", "cp1250"), ("Jabłka łąckie", "cp1250"),
    ("Sütőpor", "cp1250"), ("Šťava jablková", "cp1250"),
    ("Crème brûlée à la vanille", "cp1252"), ("Piñones tostados", "cp1252"), ("Rødkål på glas", "cp1252"),
    ("Açúcar refinado", "cp1252"), ("Süßstoff", "cp1252"),
])
def test_short_files_of_either_code_page_read_right(text, codec):
    data = f"product_code;name\r\nP1;{text}\r\n".encode(codec)
    assert encodings.decode(data)[0] == f"product_code;name\r\nP1;{text}\r\n"


def test_utf_8_with_or_without_a_byte_order_mark_and_bytes_no_encoding_reads():
    assert encodings.decode("\ufeffČokolada".encode("utf-8")) == ("Čokolada", "utf-8")
    assert encodings.decode("Čokolada".encode("utf-8")) == ("Čokolada", "utf-8")
    with pytest.raises(encodings.NotText, match="Not text in UTF-8, Windows-1250 or Windows-1252"):
        encodings.decode(b"name\r\n\x81\x90\r\n")


def test_the_api_offers_the_encodings_the_reader_reads():
    assert ENCODINGS == tuple(encodings.NAMES)


# --- the office's own column names, mapped (transfer/mapping.py) ------------------------------

def test_foreign_headers_are_refused_without_a_mapping_and_imported_with_one(session):
    data = sheets.csv_bytes(sheets.FOREIGN)
    refused = run(session, "products", data)
    assert [(row, column) for row, column, _ in errors(refused)] == [
        (1, "Code"), (1, "Description"), (1, "EAN"), (1, "Notes"), (1, "Unit"), (1, "product_code")]
    assert errors(refused)[0][2].endswith("Map it to one of them, or ignore it.")
    assert importing.unknown_headers("products", csv_format.read(data), {}) == sheets.FOREIGN_HEADER
    assert importing.unknown_headers("products", csv_format.read(data), {"code": "product_code"}) == \
        ["Description", "Unit", "EAN", "Notes"]

    report = run(session, "products", data, mapping=sheets.FOREIGN_MAPPING)
    assert report.answer() == {"created": 2, "updated": 0, "unchanged": 0, "errors": []}
    assert products(session)["TEA-GREEN"]["base_unit_barcode"] == "3830000000017"
    assert report.reading.mapped == list(sheets.FOREIGN_MAPPING.items())
    # Case and spaces around a name do not count, in the mapping as in the file.
    again = run(session, "products", data, mapping={f" {h.upper()} ": c for h, c in sheets.FOREIGN_MAPPING.items()})
    assert again.answer()["unchanged"] == 2, errors(again)


def test_a_mapping_to_no_column_or_two_columns_to_one_is_an_error(session):
    data = sheets.csv_bytes(sheets.FOREIGN)
    report = run(session, "products", data, mapping={**sheets.FOREIGN_MAPPING, "Notes": "colour",
                                                     "EAN": "product_code"})
    assert [(row, column, message.split(";")[0]) for row, column, message in errors(report)] == [
        (1, "EAN", "Both 'Code' and 'EAN' would be the column product_code."),
        (1, "Notes", "Mapped to 'colour', which is no column of products")]
    assert products(session) == {}


def test_a_mapping_is_remembered_per_kind_with_each_change_in_the_audit_trail(session):
    assert mapping.remembered(session, "products") == {}
    changes = mapping.remember(session, OFFICE, "products", {**sheets.FOREIGN_MAPPING, "name": "name"})
    assert changes == {"code": [None, "product_code"], "description": [None, "name"], "unit": [None, "base_unit"],
                       "ean": [None, "base_unit_barcode"], "notes": [None, ""]}
    assert mapping.remembered(session, "products") == {
        "code": "product_code", "description": "name", "unit": "base_unit", "ean": "base_unit_barcode", "notes": ""}
    assert mapping.remembered(session, "customers") == {}
    # The same again changes nothing; a column mapped to its own name needs no entry.
    assert mapping.remember(session, OFFICE, "products", sheets.FOREIGN_MAPPING) == {}
    assert mapping.remember(session, OFFICE, "products", {"Notes": "notes", "EAN": "packaging_1_barcode"}) == {
        "notes": ["", None], "ean": ["base_unit_barcode", "packaging_1_barcode"]}
    entries = session.scalars(select(AuditEntry).where(AuditEntry.kind == "import.mapping")
                              .order_by(AuditEntry.id)).all()
    assert [(e.who, e.record) for e in entries] == [("office", "products"), ("office", "products")]
    assert json.loads(entries[1].changes) == {"notes": ["", None], "ean": ["base_unit_barcode", "packaging_1_barcode"]}


# --- every error names its row's record and echoes the value refused --------------------------

@pytest.mark.parametrize("format", ["csv", "xlsx", "ods"])
def test_a_300_row_file_with_three_mistakes_names_each_with_its_record_and_value(session, format):
    rows, mistakes = sheets.products_with_errors(300)
    data = {"csv": lambda: sheets.csv_bytes(rows), "xlsx": lambda: sheets.xlsx(rows),
            "ods": lambda: sheets.ods({"Products": rows})}[format]()
    report = run(session, "products", data, f"products.{format}")
    assert report.answer()["created"] == 297
    assert [(e["row"], e["record"], e["column"], e["value"], e["message"]) for e in report.sorted_errors()] == \
        mistakes
    assert products(session) == {}


@pytest.mark.parametrize("kind, text, expected", [
    ("customers", "id_customer,name\n1,Fresh Foods\nx,Bad\n", (3, "x", "id_customer", "x")),
    ("packaging", "product_code,unit,amount_base_units\nMILK,crate,-2\n", (2, "MILK / crate", "amount_base_units", "-2")),
    ("orders", "document_number,id_warehouse,item_number,product_code,amount_ordered,direction\n"
               "PO-1,1,1,MILK,2,I\nPO-1,,2,MILK,-3,I\n", (3, "PO-1 / 2", "amount_ordered", "-3")),
    ("reorder_levels", "id_warehouse,product_code,min_amount,target_amount\n1,MILK,5,2\n",
     (2, "1 / MILK", "target_amount", "2")),
])
def test_each_kind_names_the_record_of_a_refused_row_and_the_value(session, kind, text, expected):
    add(session, "MILK")
    report = run(session, kind, text)
    assert [(e["row"], e["record"], e["column"], e.get("value")) for e in report.sorted_errors()] == [expected], \
        report.errors


def test_errors_of_the_file_or_its_header_have_no_record(session):
    report = run(session, "products", "name,base_unit\nA,pc\n")
    assert report.sorted_errors() == [{"row": 1, "column": "product_code", "message": "This column is required."}]


def test_the_preview_shows_the_first_names_then_those_with_accents():
    rows = [["product_code", "name", "base_unit"]] + [[f"P{n}", f"Product {n}", "pc"] for n in range(1, 30)]
    rows[20][1] = "Čaj"
    table = csv_format.read(sheets.csv_bytes(rows))
    columns = {"product_code": 0, "name": 1, "base_unit": 2}
    assert [(line["row"], line["label"]) for line in importing.preview(importing.KINDS["products"], table, columns)] \
        == [(2, "Product 1"), (3, "Product 2"), (4, "Product 3"), (5, "Product 4"), (6, "Product 5"), (21, "Čaj")]


# --- OpenDocument spreadsheets (transfer/ods_format.py) ---------------------------------------

def test_an_ods_is_read_from_the_sheet_named_like_the_kind(session):
    data = sheets.ods({"Notes": [["nothing", "here"]],
                       "Products": [[None], ["product_code", "name", "base_unit", "base_unit_barcode", "weight_netto"],
                                    ["COK-100", "Čokolada", "pc", 3830000000017, 0.1],
                                    ["TEA", "Tea", "pc", None, 1.03], [None, None], ["BAD", "", "pc", None, 1]]})
    report = run(session, "products", data, "list.ods")
    assert errors(report) == [(6, "name", "Length must be between 1 and 200.")]  # rows as LibreOffice numbers them
    assert report.reading.format == "ods" and report.reading.encoding is None
    fixed = sheets.ods({"Products": [["product_code", "name", "base_unit", "base_unit_barcode", "weight_netto"],
                                     ["COK-100", "Čokolada", "pc", 3830000000017, 0.1],
                                     ["TEA", "Tea", "pc", None, 1.03]]})
    assert run(session, "products", fixed, "list.ods").answer()["created"] == 2
    found = products(session)
    assert (found["COK-100"]["name"], found["COK-100"]["base_unit_barcode"]) == ("Čokolada", "3830000000017")
    assert found["TEA"]["weight_netto_milli"] == 1030


@pytest.mark.parametrize("data, name, message", [
    (sheets.ods({"Text": [["a"]]}, media_type="application/vnd.oasis.opendocument.text"), "letter.odt",
     "An OpenDocument that is not a spreadsheet: save the list as .ods, .xlsx or CSV."),
    (b"not a spreadsheet at all", "list.ods", "Not a readable ODS spreadsheet."),
])
def test_what_is_no_ods_says_what_to_do(session, data, name, message):
    assert errors(run(session, "products", data, name)) == [(0, "", message)]


def test_a_broken_ods_is_refused_with_a_report(session):
    data = sheets.ods({"Products": [["product_code"], ["A"]]})
    broken = data.replace(b"content.xml", b"contents.xm")
    assert errors(run(session, "products", broken, "list.ods"))[0][2].startswith("Not a readable ODS spreadsheet (")


@pytest.mark.parametrize("language, expected", [("de", encodings.WESTERN), ("sl", encodings.CENTRAL)])
def test_a_code_page_the_bytes_leave_open_is_the_depot_languages(language, expected):
    """Issue 41: "Crème" saved by a German Excel reads as a word in either code page ("Crčme" is one
    in Central Europe too); the depot's language settles it, and a file the bytes decide stays decided."""
    crème = "product_code,name\r\nC1,Crème\r\n".encode("cp1252")
    assert encodings.detect(crème, language) == expected
    text, used = encodings.decode(crème, None, language)
    assert used == expected and ("Crème" in text) == (expected == encodings.WESTERN)
    decided = "product_code,name\r\nP1,Pšenična moka\r\n".encode("cp1250")
    assert encodings.detect(decided, "de") == encodings.detect(decided) == encodings.CENTRAL
