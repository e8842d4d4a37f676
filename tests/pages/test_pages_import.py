"""The import page /admin/import through the test client: the dry run with its errors first, the
columns of the office's own files mapped and remembered, a CSV's encoding shown and chosen,
.ods files, apply, the file kept between the steps, the admin role, and every download of the
office imported back unchanged."""
import io
import json
import os
import re

import pytest
from openpyxl import load_workbook
from sqlalchemy import select

import sheets
from conftest import token_of
from models import AuditEntry
from pages import imports
from stock import catalog
from storage.db import db
from transfer import mapping

GOOD = "product_code,name,base_unit\nMILK,Milk,pc\nTEA,Tea,pc\n"
BAD = "product_code,name,base_unit\nMILK,Milk,pc\nTEA,,pc\n"


def check(client, data, kind="products", name="list.csv"):
    """Upload a file on the page and ask for its check."""
    data = data.encode("utf-8") if isinstance(data, str) else data
    token = token_of(client.get("/admin/import"))
    return client.post("/admin/import", data={"token": token, "step": "check", "kind": kind,
                                              "file": (io.BytesIO(data), name)}, content_type="multipart/form-data")


def file_token(page) -> str:
    return re.search(r'name="file_token" value="([^"]+)"', page.get_data(as_text=True))[1]


def step(client, page, name, **fields):
    """The page's next step (columns, map, encoding, apply) for the file it holds."""
    return client.post("/admin/import", data={"token": token_of(page), "step": name, "file_token": file_token(page),
                                              **fields})


def text(page) -> str:
    return page.get_data(as_text=True)


def products(app) -> dict:
    with app.app_context():
        found = {p["product_code"]: p for p in catalog.list_products(db.session)}
        db.session.remove()
    return found


def test_a_dry_run_shows_each_row_and_changes_nothing_then_apply(admin, api):
    r = check(admin, GOOD)
    assert r.status_code == 200 and "2 to create" in text(r) and "Apply the import" in text(r)
    assert api.get("/v1/products/MILK").status_code == 404
    kept = file_token(r)
    assert os.path.exists(os.path.join(imports.FOLDER, kept))
    applied = step(admin, r, "apply")
    assert applied.status_code == 200 and "2 created" in text(applied)
    assert api.get("/v1/products/MILK").status_code == 200
    assert not os.path.exists(os.path.join(imports.FOLDER, kept))
    assert not os.path.exists(os.path.join(imports.FOLDER, kept + ".json"))
    # The file is gone: applying it again is refused.
    again = admin.post("/admin/import", data={"token": token_of(r), "step": "apply", "file_token": kept})
    assert again.status_code == 409 and "upload it again" in text(again)


def test_errors_come_first_each_with_its_record_its_value_and_a_link_to_its_row(admin, api):
    rows, mistakes = sheets.products_with_errors(300)
    r = check(admin, sheets.csv_bytes(rows), name="products.csv")
    page = text(r)
    assert r.status_code == 422 and "Apply the import" not in page
    assert "297 to create" in page and "3 errors" in page
    summary = re.search(r'<ol class="error-list">(.*?)</ol>', page, re.S)[1]
    assert page.index('<ol class="error-list">') < page.index('id="names-read"') < page.index('id="import-rows"')
    items = re.findall(r"<li>(.*?)</li>", summary, re.S)
    assert len(items) == 3
    for item, (row, record, column, value, message) in zip(items, mistakes):
        assert f'<a href="#row-{row}">Row {row}</a>' in item
        assert f'<b class="row-record">{record}</b>' in item and f"<code>{column}</code>: {message}" in item
        assert (f"<q>{value}</q>" if value else "the cell holds nothing") in item
        line = re.search(rf'<tr class="refused" data-row="{row}" id="row-{row}">(.*?)</tr>', page, re.S)[1]
        assert record in line and message in line
    # Every row is one line of the table; the others say what they would do.
    assert page.count('class="created"') == 297 + 1  # the rows, and the count above them
    assert api.get("/v1/products/P0001").status_code == 404


def test_a_file_with_the_office_columns_asks_what_each_holds_remembers_it_and_applies(app, admin, api):
    r = check(admin, sheets.csv_bytes(sheets.FOREIGN), name="cenik.csv")
    page = text(r)
    assert r.status_code == 200 and "what does each column hold?" in page and "Apply the import" not in page
    assert "<q>Code</q>, <q>Description</q>, <q>Unit</q>, <q>EAN</q>, <q>Notes</q>" in page
    assert "TEA-GREEN · TEA-LEMON" in page  # each column's first values
    assert re.search(r'<select name="column_0"[^>]*>\s*<option value="\?" selected disabled>', page)

    columns = {f"column_{index}": sheets.FOREIGN_MAPPING[header] for index, header in enumerate(sheets.FOREIGN_HEADER)}
    mapped = step(admin, r, "map", **columns)
    assert mapped.status_code == 200, text(mapped)
    assert "2 to create" in text(mapped) and "<q>Code</q> → product_code" in text(mapped)
    assert "<q>Notes</q> → ignored" in text(mapped)
    with app.app_context():
        assert mapping.remembered(db.session, "products")["ean"] == "base_unit_barcode"
        entry = db.session.scalars(select(AuditEntry).where(AuditEntry.kind == "import.mapping")).one()
        assert (entry.who, entry.record, json.loads(entry.changes)["code"]) == ("admin", "products",
                                                                                 [None, "product_code"])
        db.session.remove()
    assert "2 created" in text(step(admin, mapped, "apply"))
    assert products(app)["TEA-LEMON"]["base_unit_barcode"] == "3830000000024"

    # The next file of the office's: no question, the columns remembered shown, and changeable.
    again = check(admin, sheets.csv_bytes(sheets.FOREIGN + [["TEA-MINT", "Mint tea", "pc", "", "new"]]))
    assert "1 to create" in text(again) and "2 unchanged" in text(again)
    assert "what does each column hold?" not in text(again) and "Change the columns" in text(again)
    asked = step(admin, again, "columns")
    assert "what does each column hold?" in text(asked)
    assert re.search(r'<select name="column_3"[^>]*>.*?<option value="base_unit_barcode" selected>', text(asked), re.S)


def test_the_mapping_step_marks_a_column_left_out_or_chosen_twice(admin, api):
    r = check(admin, sheets.csv_bytes(sheets.FOREIGN))
    columns = {f"column_{index}": sheets.FOREIGN_MAPPING[header] for index, header in enumerate(sheets.FOREIGN_HEADER)}
    left_out = step(admin, r, "map", **{**columns, "column_1": "?"})
    assert left_out.status_code == 422
    assert re.search(r'id="column-1-problem" role="alert">Choose what this column holds, or ignore it.', text(left_out))
    twice = step(admin, r, "map", **{**columns, "column_3": "product_code"})
    assert "&#39;Code&#39; holds product_code already." in text(twice)
    # What was chosen stays chosen on the page that asks again.
    assert re.search(r'<select name="column_1"[^>]*>.*?<option value="name" selected>', text(twice), re.S)
    nothing = step(admin, r, "map", **{name: "" for name in columns})
    assert "Choose the column that holds product_code: products needs it." in text(nothing)
    strange = step(admin, r, "map", **{**columns, "column_4": "colour"})
    assert "Not a column of products." in text(strange)
    assert api.get("/v1/products/TEA-GREEN").status_code == 404


def test_a_windows_1250_file_shows_the_names_as_read_and_is_read_again_as_chosen(app, admin):
    r = check(admin, sheets.csv_bytes(sheets.SLOVENIAN, "cp1250"), name="izdelki.csv")
    page = text(r)
    assert '<option value="windows-1250" selected>Windows-1250 (Central European)</option>' in page
    assert "found from the file's bytes" in page
    names = re.search(r'<table id="names-read".*?</table>', page, re.S)[0]
    assert "Čokolada mlečna 100 g" in names and "Pšenična moka tip 500" in names

    wrong = step(admin, r, "encoding", encoding="windows-1252")
    assert "Èokolada mleèna 100 g" in text(wrong) and "as chosen" in text(wrong)
    assert products(app) == {}  # a preview only
    assert step(admin, wrong, "encoding", encoding="latin-2").status_code == 422
    refused = step(admin, wrong, "encoding", encoding="utf-8")
    assert refused.status_code == 422 and "Not UTF-8 text (byte 0xc8" in text(refused)
    assert '<option value="utf-8" selected>' in text(refused)  # another may still be chosen
    right = step(admin, refused, "encoding", encoding="windows-1250")
    assert "5 created" in text(step(admin, right, "apply"))
    assert products(app)["COK-100"]["name"] == "Čokolada mlečna 100 g"


def test_an_ods_is_checked_and_applied(app, admin):
    r = check(admin, sheets.ods({"Products": sheets.SLOVENIAN}), name="izdelki.ods")
    assert "Read as an ODS spreadsheet." in text(r) and "Characters read as" not in text(r)
    assert "5 created" in text(step(admin, r, "apply"))
    assert products(app)["SOK-1L"]["name"] == "Jabolčni sok 1 l"


def test_a_file_token_of_another_session_is_refused(admin):
    r = check(admin, GOOD)
    other = admin.post("/admin/import", data={"token": token_of(r), "step": "apply", "file_token": "x" * 32})
    assert other.status_code == 409
    os.remove(os.path.join(imports.FOLDER, file_token(r)))
    assert step(admin, r, "map").status_code == 409


def test_the_page_needs_the_admin_role(office):
    assert office.get("/admin/import").status_code == 403
    assert office.get("/admin/export/products").status_code == 403


# Every download the office gets of each kind: the list page's (where the kind has one) and the
# import page's export in the import's columns.
DOWNLOADS = {"products": ["/products", "/admin/export/products"], "customers": ["/customers", "/admin/export/customers"],
             "orders": ["/orders", "/admin/export/orders"], "packaging": ["/admin/export/packaging"],
             "reorder_levels": ["/admin/export/reorder_levels"], "locations": ["/admin/export/locations"]}


@pytest.mark.parametrize("format", ["csv", "xlsx"])
def test_every_download_of_every_kind_imports_back_unchanged(admin, api, format):
    sheets.fill_every_kind(api)
    for kind, paths in DOWNLOADS.items():
        for path in paths:
            download = admin.get(f"{path}?format={format}")
            assert download.status_code == 200, path
            r = check(admin, download.data, kind=kind, name=f"{kind}.{format}")
            page = text(r)
            assert r.status_code == 200, (path, re.findall(r"<li>(.*?)</li>", page, re.S))
            assert "0 to create" in page and "0 to update" in page and "0 errors" in page, path


def test_list_pages_download_as_xlsx(admin):
    r = admin.get("/?format=xlsx")
    assert r.status_code == 200
    assert r.headers["Content-Disposition"] == 'attachment; filename="stock.xlsx"'
    sheet = load_workbook(io.BytesIO(r.data)).active
    assert [c.value for c in sheet[1]][:3] == ["id_warehouse", "warehouse_name", "product_code"]
    assert sheet.freeze_panes == "A2"
