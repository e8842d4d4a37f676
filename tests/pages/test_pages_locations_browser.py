"""The locations pages of the demo depot in chromium, at 1280 px and on a 390 px phone (DESIGN 27,
"Pages"): a warehouse's locations (added, refused beside the field, deactivation refused while a
location holds stock, labels of the ticked locations decoded from the PDF), the stock page's
Location column and filter, a location's page, a product's places, the Move form, and the pick
list in walking order on screen and as chromium prints it.

Nothing scrolls sideways and, on a phone, every touch target is 40 px high at least.
WAREHOUSE_SCREENSHOTS=docs/images keeps the screenshots docs/locations.md shows.
"""
import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect
from sqlalchemy import text

from browsing import fits, keep_screenshot, short_targets, sign_in
from conftest import PASSWORD
from operations.demo import MAIN_SHELVES
from scanning import pdf_pages, scanned
from storage.db import db

pytestmark = pytest.mark.live

WIDTHS = [1280, 390]
NAMES = {1280: "desktop", 390: "phone"}


@pytest.fixture
def boss(demo_depot, person, app):
    """The demo depot (Main and Cold store alone) with a person of role admin, "boss"."""
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(text("DELETE FROM warehouses WHERE id_warehouse > 2"))
    person("boss", role="admin")
    return demo_depot


def open_as_boss(page, width):
    page.set_viewport_size({"width": width, "height": 844})
    sign_in(page, PASSWORD, "boss")


def laid_out_well(page, width) -> None:
    """Nothing scrolls sideways; on a phone every link, button and field is big enough to touch."""
    assert fits(page), page.evaluate("document.documentElement.scrollWidth")
    if width < 700:
        assert short_targets(page) == []


def shot(page, tmp_path, name: str) -> None:
    path = tmp_path / name
    page.screenshot(path=path, full_page=True)
    keep_screenshot(path, name)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_warehouses_locations_are_added_refused_and_labelled(page, boss, width, tmp_path):
    open_as_boss(page, width)
    page.goto(page.base + "/admin/warehouses")
    page.get_by_role("link", name="Locations of Main").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Locations: Main")
    rows = page.locator("#locations tbody tr")
    expect(rows).to_have_count(1 + len(MAIN_SHELVES))
    assert rows.first.get_attribute("data-code") == "DOCK"  # walked first
    laid_out_well(page, width)
    shot(page, tmp_path, f"locations-{NAMES[width]}.png")

    form = page.locator("#add-location")
    form.get_by_label("Code").fill("D 01")
    form.get_by_label("Name").fill("Aisle D, bay 1")
    form.get_by_role("button", name="Add location").click()
    expect(page.locator("#code-problem")).to_contain_text("letters, digits")
    expect(page.locator("#add-location").get_by_label("Name")).to_have_value("Aisle D, bay 1")
    laid_out_well(page, width)
    page.locator("#add-location").locator('input[name="code"]').fill("D-01")
    page.locator("#add-location").locator('input[name="code"]').press("Enter")
    expect(page.get_by_role("status")).to_have_text("Location D-01 is added.")
    expect(page.locator('#locations tr[data-code="D-01"]')).to_be_visible()

    # A shelf that holds stock is not deactivated: the page says why and keeps the list in view.
    full = page.locator("#locations tbody tr", has_not_text="0 lots").nth(1).get_attribute("data-code")
    page.get_by_role("button", name=f"Deactivate {full}").click()
    expect(page.locator("#refused")).to_contain_text(f"Location {full} holds stock")
    expect(page.locator(f'#locations tr[data-code="{full}"]')).not_to_have_class("inactive")
    laid_out_well(page, width)

    # Labels of the ticked locations, as the form sends them.
    page.locator('#locations input[name="code"]').evaluate_all("boxes => boxes.forEach(b => b.checked = false)")
    page.get_by_label("Label of A-02").check()
    page.get_by_label("Label of DOCK").check()
    query = page.locator("#labels").evaluate(
        "form => new URLSearchParams(new FormData(form)).toString()")
    action = page.locator("#labels").get_attribute("action")
    body = page.request.get(f"{page.base}{action}?{query}").body()
    assert len(pdf_pages(body).pages) == 2
    assert [scanned(body, 1), scanned(body, 2)] == [[("DOCK", "Code128")], [("A-02", "Code128")]]
    assert page.elsewhere == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_stock_page_says_where_and_a_location_shows_what_lies_there(page, boss, width, tmp_path):
    open_as_boss(page, width)
    page.goto(page.base + "/?warehouse=1")
    header = page.locator("#stock thead th")
    if width > 700:
        expect(header.nth(1)).to_have_text("Location")
    locations = page.locator('#stock td[data-label="Location"]')
    assert locations.count() > 10
    laid_out_well(page, width)
    shot(page, tmp_path, f"stock-locations-{NAMES[width]}.png")
    if width < 700:
        page.locator("details.filters-fold > summary").click()
    page.get_by_label("Location").fill("a-02")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("details.filters-fold > summary")).to_contain_text("location a-02")
    assert set(locations.all_inner_texts()) == {"A-02"}
    laid_out_well(page, width)

    locations.first.get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Location A-02: Main")
    product = page.locator("#location-stock tbody tr").first.get_attribute("data-product")
    laid_out_well(page, width)
    shot(page, tmp_path, f"location-{NAMES[width]}.png")
    page.locator("#location-stock tbody tr").first.get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(product)
    expect(page.locator("#product-stock td.where").first).to_contain_text("A-02")
    laid_out_well(page, width)
    assert page.elsewhere == []


@pytest.mark.parametrize("width", WIDTHS)
def test_stock_is_moved_from_a_location_on_the_move_form(page, boss, width, tmp_path):
    open_as_boss(page, width)
    page.goto(page.base + "/locations/1/A-03")
    first = page.locator("#location-stock tbody tr").first
    code = first.get_attribute("data-product")
    page.get_by_role("link", name="Move from here").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Move stock")
    rows = page.locator(".move-row")
    expect(rows.first.locator('input[name="product_code"]')).to_have_value(code)
    page.locator('input[name="to_location"]').fill("C-06")
    rows.first.locator('input[name="amount"]').fill("100000")
    page.get_by_role("button", name="Move").click()
    expect(page.locator(".move-row").first.locator(".problem")).to_contain_text("Not enough stock")
    laid_out_well(page, width)
    shot(page, tmp_path, f"move-{NAMES[width]}.png")
    page.locator(".move-row").first.locator('input[name="amount"]').fill("1")
    page.get_by_role("button", name="Move").click()
    expect(page.get_by_role("status")).to_contain_text("Moved 1 item(s) from A-03 (Main) to C-06 (Main).")
    expect(page.get_by_role("heading", level=1)).to_have_text("Location C-06: Main")
    expect(page.locator(f'#location-stock tr[data-product="{code}"]')).to_be_visible()
    laid_out_well(page, width)
    assert page.elsewhere == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_pick_list_goes_location_by_location_on_screen_and_on_paper(page, boss, width, tmp_path):
    server, _ = boss
    status, body = server.post("/v1/inventory/filter", {"id_warehouses": [1], "level": 0})
    products = [row["product_code"] for row in body["list"] if row["amount"] > 3][:6]
    status, body = server.post("/v1/documents/", {
        "document_number": "WALK-1", "id_warehouse": 1,
        "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
        "items": [{"item_number": n, "product_code": code, "amount_ordered": 2}
                  for n, code in enumerate(reversed(products), 1)]})
    assert status == 201, body
    status, plan = server.get("/v1/documents/WALK-1/pick")
    walked = []
    for row in plan["list"]:
        if row["location"] not in walked:
            walked.append(row["location"])
    open_as_boss(page, width)
    page.goto(page.base + "/orders/WALK-1/pick-list")
    stops = page.locator("section.pick-stop")
    assert [stops.nth(n).get_attribute("data-location") for n in range(stops.count())] == walked
    assert len(walked) > 1
    laid_out_well(page, width)
    shot(page, tmp_path, f"pick-list-locations-{NAMES[width]}.png")
    page.emulate_media(media="print")
    printed = " ".join(" ".join(p.extract_text().split()) for p in pdf_pages(page.pdf(format="A4")).pages)
    places = [printed.index(f"Location {stop}") for stop in walked if stop]
    assert places == sorted(places)  # the paper walks the racks in the same order
    page.emulate_media(media="screen")
    page.goto(page.base + "/warehouses/1/count-sheet")
    seen = page.locator("table.by-location tr.first-at-location").evaluate_all(
        "rows => rows.map(r => r.dataset.location)")
    assert seen[:2] == ["DOCK", MAIN_SHELVES[0]] or seen[:3] == ["", "DOCK", MAIN_SHELVES[0]]
    laid_out_well(page, width)
    assert page.elsewhere == []
