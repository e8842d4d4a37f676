"""/admin/import in a real browser (Debian's chromium via Playwright) at desk and phone width:
a file with an error shows it beside its row; the corrected file is checked, then applied.
WAREHOUSE_SCREENSHOTS=docs keeps the screenshot for docs/import-export.md."""
import pytest
from playwright.sync_api import expect

from stock import api_keys, catalog
from test_pages_browser import (browser, demo_depot, demo_sqlite_depot, keep_screenshot, page,  # noqa: F401
                                sign_in)

WITH_ERROR = ("product_code,name,base_unit,weight_netto,packaging_1_unit,packaging_1_amount_base_units\n"
              "NEW-1,Oat drink 1 l,pc,1.03,crate,12\n"
              "NEW-2,,pc,0.5,,\n"
              "NEW-3,Rye bread,pc,0.7505,,\n")
CORRECTED = WITH_ERROR.replace("NEW-2,,pc", "NEW-2,Spelt flour 1 kg,pc").replace("0.7505", "0.75")


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_an_error_beside_its_row_then_the_corrected_file_applied(page, session, tmp_path, width, height):
    page.set_viewport_size({"width": width, "height": height})
    key = api_keys.create_key(session, "office-admin", "admin")
    session.remove()
    sign_in(page, key)
    page.get_by_role("link", name="Import", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Import")

    bad = tmp_path / "products.csv"
    bad.write_text(WITH_ERROR, encoding="utf-8")
    page.get_by_label("The file holds").select_option("products")
    page.get_by_label("File (.xlsx or .csv)").set_input_files(str(bad))
    page.get_by_role("button", name="Check the file").click()
    row3 = page.locator('#import-rows tr[data-row="3"]')
    expect(row3).to_contain_text("name: Length must be between 1 and 200.")
    expect(row3).to_have_class("refused")
    expect(page.locator('#import-rows tr[data-row="4"]')).to_contain_text(
        "weight_netto: At most 3 decimal places.")
    expect(page.locator('#import-rows tr[data-row="2"]')).to_contain_text("to create")
    expect(page.get_by_role("button", name="Apply the import")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if width == 1280:
        shot = tmp_path / "import.png"
        page.screenshot(path=shot, full_page=True)
        keep_screenshot(shot, "import.png")

    good = tmp_path / "products-corrected.csv"
    good.write_text(CORRECTED, encoding="utf-8")
    page.get_by_label("File (.xlsx or .csv)").set_input_files(str(good))
    page.get_by_role("button", name="Check the file").click()
    expect(page.locator("#report .counts")).to_contain_text("3 to create")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.get_by_role("button", name="Apply the import").click()
    expect(page.locator("#report h2")).to_contain_text("imported")
    expect(page.locator("#report .counts")).to_contain_text("3 created")
    codes = [p["product_code"] for p in catalog.list_products(session)]
    assert {"NEW-1", "NEW-2", "NEW-3"} <= set(codes)
    assert page.elsewhere == []
