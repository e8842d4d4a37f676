"""What the office looked for and found only in the API (issue 34, point 5), in chromium at 1280
and 390 px: movement lines paged and downloaded, reorder levels set on a page, stock in packaging
units, and times in the depot's time zone.

The browser is conftest's; the demo depot, its live server and the tab that may reach only the
service come from tests/pages/test_pages_browser.py.
"""
import csv
import re
from datetime import datetime, timezone

import pytest
from openpyxl import load_workbook
from playwright.sync_api import expect

from conftest import laid_out
from models import AuditEntry
from stock import audit
from storage.db import writing
from browsing import DESKTOP, PHONE, TIMEOUT_MS, fits, keep_screenshot, nav_link, sign_in, sign_in_as_admin

NAME = {"desktop": DESKTOP, "phone": PHONE}


def shown_lines(page) -> list[str]:
    """The page's lines, read once it has loaded: a click returns when the next page begins to
    arrive, and a page read then may hold only its first rows."""
    page.wait_for_load_state("load")
    return page.locator("#movement-lines tbody tr").evaluate_all("rows => rows.map(r => r.dataset.line)")


def pager_text(page) -> str:
    page.wait_for_load_state("load")
    return page.get_by_role("navigation", name="pages").inner_text()


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_movement_lines_page_by_page_while_a_booking_arrives_then_download(page, demo_depot, tmp_path, width):
    server, password = demo_depot
    page.set_viewport_size(NAME[width])
    sign_in(page, password)
    nav_link(page, "Movement lines").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Movement lines")
    first_pager = re.search(r"Page 1 of (\d+) · ([\d,]+) in all", pager_text(page))
    pages, total = int(first_pager.group(1)), int(first_pager.group(2).replace(",", ""))
    assert pages >= 3  # more lines than a page
    first = shown_lines(page)
    assert len(first) == 100 and len(set(first)) == 100
    shot = tmp_path / f"office-movement-lines-{width}.png"
    page.screenshot(path=shot)
    keep_screenshot(shot, f"office-movement-lines-{width}.png")

    # A scanner books while the office reads: the new line is newer than every one shown.
    status, body = server.post("/v1/batches/", {
        "batch_settings": {"batch_number": "990001", "id_warehouse": "1", "direction": "I", "type": "R",
                           "date": datetime.now().date().isoformat()},
        "batch_items": [{"product_code": "MILK-1L", "amount": "3", "unit": "pc"}], "batch_extras": []})
    assert status == 201, body
    seen = list(first)
    for _ in range(pages + 1):  # bounded: one page more than there were
        following = page.get_by_role("navigation", name="pages").get_by_role("link", name=re.compile("Next"))
        if following.count() == 0:
            break
        following.click()
        expect(page.get_by_role("navigation", name="pages")).to_contain_text(f"Page {len(seen) // 100 + 1} of")
        seen += shown_lines(page)
        assert fits(page)
    assert len(seen) == len(set(seen)) == total  # every line once: none repeated, none skipped
    assert f"{total + 1:,} in all" in pager_text(page)  # the total counts the new one

    # A product's lines, then all of them downloaded as the form holds them.
    page.get_by_label("Product code").fill("MILK-1L")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"product=MILK-1L"))
    milk = re.search(r"([\d,]+) in all", pager_text(page)).group(1)
    assert {line.split("/")[0][0] for line in shown_lines(page)} <= {"I", "O"}
    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV").click()
    assert download.value.suggested_filename == "movement-lines.csv"
    with open(download.value.path(), encoding="utf-8-sig", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == int(milk.replace(",", "")) and {row["product_code"] for row in rows} == {"MILK-1L"}
    assert rows[0]["date"] >= rows[-1]["date"]  # newest first, as the page lists them
    with page.expect_download() as download:
        page.get_by_role("button", name="Download XLSX").click()
    download.value.save_as(tmp_path / "movement-lines.xlsx")
    sheet = load_workbook(tmp_path / "movement-lines.xlsx").active
    header, *cells = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert header == list(rows[0]) and [line[1] for line in cells] == [row["ufid"] for row in rows]
    assert page.elsewhere == []


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_an_admin_sets_a_reorder_level_the_refusal_beside_its_field_then_the_audit_row(
        page, demo_depot, session, tmp_path, width):
    sign_in_as_admin(page, session)
    page.set_viewport_size(NAME[width])
    nav_link(page, "Reorder levels").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Reorder levels")
    form = page.locator("#set-level")
    form.get_by_label("Warehouse").select_option(label="Main")
    form.get_by_label("Product code").fill("MILK-1")  # a typo
    form.get_by_label("Reorder below").fill("500")
    form.get_by_label("Order up to").fill("400")
    form.get_by_role("button", name="Save the level").click()
    refusal = page.locator("#product_code-problem")
    expect(refusal).to_have_text("No product 'MILK-1'.")
    expect(page.locator("#target_amount-problem")).to_have_text("Must be at least min_amount.")
    # Beside its field: just below the box it speaks of, within the screen.
    field, said = laid_out(page.locator("#set-level").get_by_label("Product code")), laid_out(refusal)
    assert 0 <= said["y"] - (field["y"] + field["height"]) < 30 and said["x"] + said["width"] <= NAME[width]["width"]
    expect(page.locator("#set-level").get_by_label("Reorder below")).to_have_value("500")  # what was typed stays
    if width == "phone":
        shot = tmp_path / "office-reorder-levels-refused-phone.png"
        page.locator("#set-level").screenshot(path=shot)
        keep_screenshot(shot, "office-reorder-levels-refused-phone.png")

    form = page.locator("#set-level")
    form.get_by_label("Product code").fill("MILK-1L")
    form.get_by_label("Order up to").fill("900")
    form.get_by_role("button", name="Save the level").click()
    expect(page.get_by_role("status")).to_contain_text("MILK-1L in Main: reorder below 500, up to 900.")
    row = page.locator('#reorder-levels tr[data-level="1/MILK-1L"]')
    expect(row).to_contain_text("500")
    assert fits(page)
    shot = tmp_path / f"office-reorder-levels-{width}.png"
    page.screenshot(path=shot, full_page=True)
    keep_screenshot(shot, f"office-reorder-levels-{width}.png")

    # Changed from its row, then removed; each change is a row of the trail.
    row.get_by_role("link", name=re.compile("Change the level")).click()
    expect(page.locator("#set-level").get_by_label("Reorder below")).to_have_value("500")
    page.locator("#set-level").get_by_label("Reorder below").fill("450")
    page.locator("#set-level").get_by_role("button", name="Save the level").click()
    expect(page.get_by_role("status")).to_contain_text("reorder below 450")
    page.locator('#reorder-levels tr[data-level="1/MILK-1L"]').get_by_role("button", name=re.compile("Remove")).click()
    expect(page.get_by_role("status")).to_contain_text("MILK-1L in Main has no reorder level now.")
    nav_link(page, "Audit").click()
    trail = page.locator("#audit tbody tr").filter(has_text="1/MILK-1L")
    expect(trail).to_have_count(3)
    assert [e["kind"] for e in audit.list_entries(session, who="office-admin", kind="reorder")] == [
        "reorder.remove", "reorder.set", "reorder.set"]
    assert page.elsewhere == []


def in_packages_text(amount: float, packaging: list[dict], unit: str) -> str:
    """The largest package that fits and the rest, as docs/office.md says (for the test's check)."""
    fitting = [p for p in packaging if p["amount_base_units"] <= abs(amount)]
    if not fitting:
        return ""
    largest = max(fitting, key=lambda p: p["amount_base_units"])
    count, rest = divmod(abs(amount), largest["amount_base_units"])
    return f"{int(count)} {largest['unit']}" + (f" + {rest:g} {unit}" if rest else "")


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_stock_shows_its_packaging_units_beside_its_base_units(page, demo_depot, width):
    server, password = demo_depot
    _, products = server.get("/v1/products/")
    packaging = {p["product_code"]: p for p in products["list"]}
    _, stock = server.post("/v1/inventory/filter", {"id_warehouses": [1], "level": 0})
    row = next(r for r in stock["list"] if packaging[r["product_code"]]["packaging"]
               and r["amount"] > 2 * max(p["amount_base_units"] for p in packaging[r["product_code"]]["packaging"]))
    expected = in_packages_text(row["amount"], packaging[row["product_code"]]["packaging"], row["unit"])
    assert expected
    page.set_viewport_size(NAME[width])
    sign_in(page, password)
    page.goto(page.base + f"/?level=0&warehouse=1&q={row['product_code']}")
    found = page.locator("#stock tbody tr").filter(has_text=row["product_code"]).first
    expect(found.locator("td.packages")).to_have_text(expected)
    expect(page.locator("#stock thead")).to_contain_text("In packages")
    page.goto(page.base + f"/products/{row['product_code']}")
    cells = page.locator("#product-stock td.packages").all_inner_texts()
    assert cells and all(cell == "" or re.fullmatch(r"-?\d+ \S+( [+-] [\d.]+ \S+)?", cell) for cell in cells)
    assert fits(page)  # on a phone the column is in the table's own sideways scroll, after the amount
    assert page.elsewhere == []


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_time_shows_in_the_depots_time_zone(browser, demo_depot, live_server, session, monkeypatch, width):
    _, password = demo_depot
    with writing(session):  # a change made at 22:30 UTC on 1 July: 00:30 the next day in Ljubljana
        session.add(AuditEntry(at=datetime(2026, 7, 1, 22, 30, 5, tzinfo=timezone.utc), who="tests", address="cli",
                               kind="product.update", record="ZONE-CHECK", changes="{}"))
    session.remove()
    monkeypatch.setenv("WAREHOUSE_TIME_ZONE", "Europe/Ljubljana")
    server = live_server()  # the depot's own service, set to its zone
    context = browser.new_context(viewport=NAME[width])
    context.set_default_timeout(TIMEOUT_MS)
    try:
        tab = context.new_page()
        tab.base = f"http://127.0.0.1:{server.port}"
        sign_in_as_admin(tab, session)
        tab.goto(tab.base + "/admin/audit?kind=product")
        when = tab.locator("#audit tbody tr").filter(has_text="ZONE-CHECK").locator("time")
        expect(when).to_have_text("2026-07-02 00:30:05 CEST")
        assert when.get_attribute("datetime") == "2026-07-01T22:30:05Z"
        status, listed = server.get("/v1/audit/?kind=product.update")
        assert status == 200 and "2026-07-01T22:30:05Z" in [e["at"] for e in listed["list"]]  # the API stays UTC
    finally:
        context.close()
