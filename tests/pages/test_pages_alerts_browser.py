"""/alerts, the navigation's alert count and the pick list in a real browser, at 1280 px and on a 390 px phone.

The browser comes from tests/conftest.py; the demo depot and the tab that may reach only the
service from tests/pages/test_pages_browser.py.
"""

import pytest
from playwright.sync_api import expect

from conftest import sideways, laid_out
from browsing import keep_screenshot, sign_in

pytestmark = pytest.mark.live


@pytest.fixture
def warned(demo_depot):  # noqa: F811
    """The demo depot with reorder levels that put two products in warehouse 1 below their min."""
    server, password = demo_depot
    status, body = server.post("/v1/inventory/filter", {"id_warehouses": [1], "level": 0})
    assert status == 200, body
    stocked = [row for row in body["list"] if row["amount"] > 0][:2]
    status, body = server.request("PUT", "/v1/reorder_levels/", [
        {"id_warehouse": 1, "product_code": row["product_code"], "min_amount": row["amount"] + 5,
         "target_amount": row["amount"] + 20} for row in stocked])
    assert status == 200, body
    status, body = server.get("/v1/alerts/")
    return server, password, body["item"]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_alerts_page_and_its_count_in_the_navigation(page, warned, width, tmp_path):  # noqa: F811
    server, password, found = warned
    page.set_viewport_size({"width": width, "height": 900})
    sign_in(page, password)
    total = len(found["low_stock"]) + len(found["expiring"])
    assert len(found["low_stock"]) >= 2
    if width == 390:  # on a phone the count stands on the menu button, the link inside the menu
        expect(page.locator("#menu-alerts")).to_have_text(str(total))
        page.locator("details.menu > summary").click()
    count = page.locator("#nav-alerts .alert-count")
    expect(count).to_have_text(str(total))
    expect(count).to_be_visible()
    page.locator("#nav-alerts").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Alerts")
    rows = page.locator("#low-stock-table tbody tr")
    expect(rows).to_have_count(len(found["low_stock"]))
    first = rows.first
    expect(first).to_contain_text(found["low_stock"][0]["product_code"])
    expect(page.locator("#alert-totals")).to_contain_text(f"{len(found['low_stock'])} below the reorder level")
    assert sideways(page) <= 0
    shot = tmp_path / f"alerts-{width}.png"
    page.screenshot(path=shot, full_page=True)
    keep_screenshot(shot, f"alerts-{'desktop' if width == 1280 else 'phone'}.png")
    if width == 390:
        # One card per row: the header row is hidden, each cell says what it is.
        expect(page.locator("#low-stock-table thead")).to_be_hidden()
        box = laid_out(first)
        assert box["width"] <= 390
        assert first.locator("td").first.evaluate("td => getComputedStyle(td, '::before').content") == '"Warehouse"'
    # One kind alone, by the form: the other lists go.
    page.locator("select[name=kind]").select_option("low_stock")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#low-stock-table tbody tr")).to_have_count(len(found["low_stock"]))
    expect(page.locator("#expiring-table, #expired-table")).to_have_count(0)
    assert "kind=low_stock" in page.url
    for other in ("/", "/orders"):
        page.goto(page.base + other)
        if width == 390:
            page.locator("details.menu > summary").click()
        expect(page.locator("#nav-alerts .alert-count")).to_have_text(str(total))
        # The navigation with its count fits the width (the other pages' tables are theirs to fit).
        assert page.locator("header").evaluate("h => h.scrollWidth - h.clientWidth") <= 0
        assert laid_out(page.locator("#nav-alerts"))["x"] + laid_out(page.locator("#nav-alerts"))["width"] <= width
    assert page.elsewhere == []


@pytest.mark.parametrize("width", [1280, 390])
def test_the_pick_list_prints_without_the_navigation(page, demo_depot, width):  # noqa: F811
    server, password = demo_depot
    status, body = server.post("/v1/inventory/filter", {"id_warehouses": [1], "level": 0})
    product = next(row for row in body["list"] if row["amount"] > 1)
    status, body = server.post("/v1/documents/", {
        "document_number": "PICK-1", "id_warehouse": 1,
        "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
        "items": [{"item_number": 1, "product_code": product["product_code"], "amount_ordered": 1}]})
    assert status == 201, body
    page.set_viewport_size({"width": width, "height": 900})
    sign_in(page, password)
    page.goto(page.base + "/orders/PICK-1/pick-list")
    expect(page.get_by_role("heading", level=1)).to_have_text("Pick list PICK-1")
    # The demo's main hall has locations: the list goes stop by stop, one for this one line.
    expect(page.locator("section.pick-stop")).to_have_count(1)
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    assert laid_out(page.get_by_role("button", name="Print"))["height"] >= 40
    assert sideways(page) <= 0
    page.emulate_media(media="print")
    expect(page.locator("header")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    assert page.elsewhere == []
