"""/admin/import in a real browser at 1280 px and on a 390 px phone: the errors of a 300-row
workbook first, each a link to its row; the office's own columns mapped; a Windows-1250 file's
names previewed, read again as another encoding, then applied.

The browser comes from tests/conftest.py; the demo depot, the tab that may reach only the
service and the admin's sign-in from tests/pages/test_pages_browser.py. WAREHOUSE_SCREENSHOTS=docs/images
keeps the screenshots docs/import-export.md shows.
"""
import pytest
from playwright.sync_api import expect

from conftest import sideways, laid_out

import sheets
from stock import catalog
from browsing import keep_screenshot, sign_in_as_admin

pytestmark = pytest.mark.live

NAMES = {1280: "desktop", 390: "phone"}


def open_import(page, session, width):  # noqa: F811
    page.set_viewport_size({"width": width, "height": 900 if width > 700 else 844})
    sign_in_as_admin(page, session)
    page.goto(page.base + "/admin/import")
    expect(page.get_by_role("heading", level=1)).to_have_text("Import")


def upload(page, path, kind="products"):  # noqa: F811
    page.get_by_label("The file holds").last.select_option(kind)
    page.get_by_label("File (.xlsx, .ods or .csv)").last.set_input_files(str(path))
    page.get_by_role("button", name="Check the file").last.click()


def shot(page, tmp_path, name, width, full_page=False):  # noqa: F811
    path = tmp_path / f"{name}-{NAMES[width]}.png"
    page.screenshot(path=path, full_page=full_page)
    keep_screenshot(path, path.name)


@pytest.mark.parametrize("width", [1280, 390])
def test_the_errors_of_a_300_row_workbook_stand_first_each_a_link_to_its_row(
        page, session, tmp_path, width):  # noqa: F811
    open_import(page, session, width)
    rows, mistakes = sheets.products_with_errors(300)
    path = tmp_path / "products.xlsx"
    path.write_bytes(sheets.xlsx(rows, title="Products"))
    upload(page, path)

    summary = page.locator("ol.error-list li")
    expect(summary).to_have_count(3)
    viewport = page.viewport_size["height"]
    # The summary is on the first screen, not 5,000 px down.
    assert laid_out(summary.last)["y"] + laid_out(summary.last)["height"] <= viewport
    for item, (row, record, column, value, message) in zip(summary.all(), mistakes):
        expect(item).to_contain_text(f"Row {row} {record} {column}: {message}")
        expect(item).to_contain_text(f"the cell holds {value}" if value else "the cell holds nothing")
    expect(page.get_by_role("button", name="Apply the import")).to_have_count(0)
    assert sideways(page) <= 0
    shot(page, tmp_path, "import-errors", width)

    # Each row is one short line, the file's 300 rows in a few screens.
    table = laid_out(page.locator("#import-rows"))
    assert table["height"] / 300 <= (26 if width > 700 else 40)
    row = mistakes[1][0]
    page.get_by_role("link", name=f"Row {row}").click()
    line = page.locator(f"#row-{row}")
    expect(line).to_be_in_viewport()
    expect(line).to_contain_text(f"{mistakes[1][2]}: {mistakes[1][4]}")
    assert page.evaluate("() => location.hash") == f"#row-{row}"
    if width == 390:  # a phone's finger reaches each link
        assert laid_out(summary.first.get_by_role("link"))["height"] >= 40
    assert catalog.list_products(session, "P0001") == []
    assert page.elsewhere == []


@pytest.mark.parametrize("width", [1280, 390])
def test_the_office_columns_are_mapped_then_the_file_applied(page, session, tmp_path, width):  # noqa: F811
    open_import(page, session, width)
    path = tmp_path / "cenik.csv"
    path.write_bytes(sheets.csv_bytes(sheets.FOREIGN))
    upload(page, path)
    expect(page.locator("#columns h2")).to_contain_text("what does each column hold?")
    for header, column in sheets.FOREIGN_MAPPING.items():
        select = page.get_by_label(f"{header} holds")
        expect(select).to_be_visible()
        box = laid_out(select)
        assert box["x"] + box["width"] <= width and box["height"] >= 40
        select.select_option(value=column)
    assert sideways(page) <= 0
    shot(page, tmp_path, "import-columns", width, full_page=True)
    page.get_by_role("button", name="Use these columns").click()
    expect(page.locator("#report .counts")).to_contain_text("2 to create")
    expect(page.locator("#reading")).to_contain_text("Code → product_code")
    page.get_by_role("button", name="Apply the import").click()
    expect(page.locator("#report .counts")).to_contain_text("2 created")
    assert catalog.list_products(session, "TEA-GREEN")[0]["base_unit_barcode"] == "3830000000017"
    assert page.elsewhere == []


@pytest.mark.parametrize("width", [1280, 390])
def test_a_windows_1250_file_is_previewed_read_again_then_applied(page, session, tmp_path, width):  # noqa: F811
    open_import(page, session, width)
    path = tmp_path / "izdelki.csv"
    path.write_bytes(sheets.csv_bytes(sheets.SLOVENIAN, "cp1250"))
    upload(page, path)
    names = page.locator("#names-read")
    encoding = page.get_by_label("Characters read as")
    expect(encoding).to_have_value("windows-1250")
    expect(names).to_contain_text("Čokolada mlečna 100 g")
    expect(page.locator("#report .counts")).to_contain_text("5 to create")
    assert sideways(page) <= 0
    shot(page, tmp_path, "import-encoding", width, full_page=True)

    encoding.select_option("windows-1252")
    page.get_by_role("button", name="Read again").click()
    expect(names).to_contain_text("Èokolada mleèna 100 g")
    assert catalog.list_products(session, "COK-100") == []  # only read, nothing written
    session.remove()  # the next look is a new transaction, which sees what the service commits
    page.get_by_label("Characters read as").select_option("windows-1250")
    page.get_by_role("button", name="Read again").click()
    expect(names).to_contain_text("Čokolada mlečna 100 g")
    page.get_by_role("button", name="Apply the import").click()
    expect(page.locator("#report .counts")).to_contain_text("5 created")
    assert catalog.list_products(session, "COK-100")[0]["name"] == "Čokolada mlečna 100 g"
    assert page.elsewhere == []
