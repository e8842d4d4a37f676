"""The office pages in a real browser: Debian's chromium driven by Playwright, against the live service.

The browser is conftest's `browser`. The depot is the demo's (operations/demo.py), served by waitress in a subprocess
(tests/server.py). Every request the page makes must go to that server: the
pages work offline. WAREHOUSE_SCREENSHOTS=docs/images keeps the screenshots the README shows.
"""
import csv
import json
import re

import pytest
from playwright.sync_api import expect

from browsing import (DESKTOP, PHONE, TIMEOUT_MS, fits, keep_screenshot, nav_link, office_paths, short_targets,
                      sign_in, sign_in_as_admin)
from conftest import PASSWORD, laid_out, sideways
from helpers import qr_holds
from identity import api_keys, people
from operations.demo import OFFICE_PERSON
from stock import audit, catalog
from stock.audit import cli_actor

def test_office_signs_in_visits_every_page_filters_downloads_and_sees_the_chart(page, demo_depot, tmp_path):
    _, password = demo_depot
    sign_in(page, password)
    assert page.locator("#stock tbody tr").count() > 20
    shot = tmp_path / "stock.png"
    page.screenshot(path=shot)
    keep_screenshot(shot, "stock.png")

    # A filter: search by name, per product.
    page.get_by_role("searchbox", name="Product").fill("milk")
    page.get_by_label("Level").select_option("0")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"q=milk.*level=0|level=0.*q=milk"))
    page.wait_for_load_state("load")  # every row arrived, not the first ones only
    codes = page.locator('#stock tbody tr td[data-label="Code"]').all_inner_texts()
    assert codes and all("MILK" in code for code in codes)

    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV").click()
    with open(download.value.path(), encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert download.value.suggested_filename == "stock.csv"
    assert sorted({row["product_code"] for row in rows}) == sorted(set(codes))

    # Warehouses by name (DESIGN 17): picked from a list, and named in the table.
    warehouse = page.get_by_label("Warehouse")
    names = warehouse.locator("option").all_inner_texts()
    assert names[:2] == ["all", "Main"] and len(names) >= 3
    warehouse.select_option(label=names[2])
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"warehouse=\d"))  # the filtered page, not the one before it
    expect(page.locator("#stock tbody tr td:nth-child(1)").first).to_have_text(names[2])
    page.wait_for_load_state("load")
    shown = page.locator("#stock tbody tr td:nth-child(1)").all_inner_texts()
    assert shown and set(shown) == {names[2]}

    for name in ("Documents", "Orders", "Stocktakings", "Movements"):
        nav_link(page, name).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(name)

    bars = page.locator("svg#chart rect.bar")
    expect(bars).to_have_count(24)
    counts = [int(bar.get_attribute("data-count")) for bar in bars.all()]
    heights = [laid_out(bar)["height"] for bar in bars.all()]
    tallest = max(range(len(counts)), key=counts.__getitem__)
    assert counts[tallest] > 0 and heights[tallest] == max(heights) > 50
    shot = tmp_path / "movements.png"
    page.locator("figure").screenshot(path=shot)
    keep_screenshot(shot, "movements.png")
    assert page.elsewhere == []


def test_documents_orders_and_stocktakings_show_the_demo(page, demo_depot):
    sign_in(page, demo_depot[1])
    page.goto(page.base + "/documents")
    expect(page.locator("section.document").first).to_be_visible()
    page.get_by_label("Direction").select_option("I")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"direction=I"))  # the page asked for, not the one before it
    page.wait_for_load_state("load")
    assert set(page.locator("section.document").evaluate_all(
        "sections => sections.map(s => s.dataset.ufid[0])")) <= {"I"}

    page.goto(page.base + "/orders")
    page.get_by_label("State").select_option("3")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("tbody.order").first).to_be_visible()
    assert page.locator("tbody.order:not(.state-3)").count() == 0

    page.goto(page.base + "/stocktakings")
    expect(page.locator("tr.differs").first).to_be_visible()
    assert page.elsewhere == []


@pytest.mark.parametrize("width", [1280, 390])
def test_the_documents_download_takes_the_range_typed_in_the_form_even_before_show(
        page, demo_depot, tmp_path, width):
    # Found by a new user: the download was a link to the range last shown, not the one typed.
    page.set_viewport_size({"width": width, "height": 844})
    sign_in(page, demo_depot[1])
    page.goto(page.base + "/documents")
    shown = set(page.locator("section.document").evaluate_all("sections => sections.map(s => s.dataset.ufid)"))
    page.get_by_label("From").fill("2000-01-01")
    page.get_by_label("Direction").select_option("O")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV").click()
    assert download.value.suggested_filename == "documents.csv"
    with open(download.value.path(), encoding="utf-8-sig", newline="") as file:
        rows = list(csv.DictReader(file))
    ufids = {row["ufid"] for row in rows}
    assert {row["direction"] for row in rows} == {"O"}
    assert min(row["date"] for row in rows) < page.get_by_label("To").input_value()
    assert len(ufids) > len({u for u in shown if u.startswith("O")})  # older documents than were shown
    expect(page).to_have_url(re.compile(r"/documents$"))  # the page stayed as it was
    with page.expect_download() as download:
        page.get_by_role("button", name="Download XLSX").click()
    assert download.value.suggested_filename == "documents.xlsx"
    # Both buttons are within the page's width, and on a phone big enough to touch.
    for name in ("Download CSV", "Download XLSX"):
        box = laid_out(page.get_by_role("button", name=name))
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert width > 700 or box["height"] >= 40
    assert page.elsewhere == []


@pytest.mark.parametrize("width", [1280, 390])
def test_a_long_list_pages_by_its_next_link_with_the_total_shown(page, demo_depot, width):
    page.set_viewport_size({"width": width, "height": 844})
    sign_in(page, demo_depot[1])
    page.goto(page.base + "/documents?date_from=2000-01-01")
    pager = page.get_by_role("navigation", name="pages")
    expect(pager).to_contain_text(re.compile(r"Page 1 of (\d+) · [\d,]+ in all"))
    page.wait_for_load_state("load")
    first = page.locator("section.document").evaluate_all("sections => sections.map(s => s.dataset.ufid)")
    pager.get_by_role("link", name=re.compile("Next")).click()
    expect(pager).to_contain_text("Page 2 of")
    page.wait_for_load_state("load")
    second = page.locator("section.document").evaluate_all("sections => sections.map(s => s.dataset.ufid)")
    assert first and second and not set(first) & set(second)
    # The pager fits the screen, a phone's too: nothing scrolls sideways.
    box = laid_out(pager)
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    pager.get_by_role("link", name=re.compile("First page")).click()
    expect(pager).to_contain_text("Page 1 of")
    page.wait_for_load_state("load")
    assert page.locator("section.document").evaluate_all("sections => sections.map(s => s.dataset.ufid)") == first
    assert page.elsewhere == []


def test_a_disabled_person_is_signed_out_at_their_next_page(page, demo_depot, session):
    sign_in(page, demo_depot[1])
    nav_link(page, "Orders").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Orders")
    people.disable_person(session, cli_actor(), OFFICE_PERSON)
    nav_link(page, "Stocktakings").click()
    expect(page).to_have_url(re.compile(r"/login\?next=/stocktakings"))
    page.get_by_label("Name").fill(OFFICE_PERSON)
    page.get_by_label("Password").fill(demo_depot[1])
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("name or the password is wrong")


def test_signing_out_ends_the_session(page, demo_depot):
    sign_in(page, demo_depot[1])
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    page.goto(page.base + "/movements")
    expect(page).to_have_url(re.compile(r"/login\?next=/movements"))


def test_a_login_form_on_another_site_cannot_sign_the_browser_in(browser, demo_depot):
    server, password = demo_depot
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    try:
        # A page of another origin that posts the service's login form with a password it knows.
        context.route("http://elsewhere.test/**", lambda route: route.fulfill(
            content_type="text/html", body=f"""<form method="post" action="http://127.0.0.1:{server.port}/login">
            <input name="username" value="{OFFICE_PERSON}"><input name="password" value="{password}">
            <input name="token" value="guessed"><button>go</button></form>"""))
        tab = context.new_page()
        tab.goto(f"http://127.0.0.1:{server.port}/login")  # the browser holds a session with a token
        tab.goto("http://elsewhere.test/")
        with tab.expect_response(re.compile(r"/login$")) as posted:
            tab.get_by_role("button", name="go").click()
        assert posted.value.status == 403
        tab.goto(f"http://127.0.0.1:{server.port}/")
        expect(tab).to_have_url(re.compile(r"/login\?next="))
    finally:
        context.close()


# --- the office's day (DESIGN §18): every page on a phone, products, orders, paper --------------

def test_every_page_fits_a_phone_with_touch_targets_of_40_px(page, demo_depot, session):
    sign_in_as_admin(page, session)
    paths = office_paths(page)
    assert len(paths) >= 27  # every page of the menu (an admin's: all its groups) and of a record
    page.set_viewport_size(PHONE)
    short = {}
    for path in paths:
        page.goto(page.base + path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert fits(page), (path, page.evaluate("document.documentElement.scrollWidth"))
        # The menu's groups opened too, so their links are measured where a finger meets them.
        page.locator("details.menu, details.group").evaluate_all("folds => folds.forEach(f => f.open = true)")
        short.update({path: found for found in [short_targets(page)] if found})
    assert short == {}
    # Signed out: the sign-in form too.
    page.context.clear_cookies()
    page.goto(page.base + "/login")
    assert fits(page) and short_targets(page) == []
    assert page.elsewhere == []


def test_the_new_pages_at_desktop_and_phone_width_with_screenshots(page, demo_depot, session, tmp_path):
    sign_in_as_admin(page, session)
    order = office_paths(page)[3]
    shots = [("products", "/products?q=milk", "Products"), ("product", "/products/YOG-NAT", "YOG-NAT"),
             ("product-form", "/products/edit/WATER-15", "Edit WATER-15"), ("customers", "/customers", "Customers"),
             ("orders", "/orders", "Orders"), ("order", order, "Order ")]
    for width, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        for name, path, heading in shots:
            page.goto(page.base + path)
            expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
            assert fits(page), (width, path)
            shot = tmp_path / f"office-{name}-{width}.png"
            page.screenshot(path=shot, full_page=True)
            keep_screenshot(shot, f"office-{name}-{width}.png")
    # The product's stock chart: twelve months, the last bar its stock today.
    page.goto(page.base + "/products/WATER-15")
    bars = page.locator("svg#stock-chart rect.bar")
    expect(bars).to_have_count(12)
    assert page.locator("#product-stock tbody tr").count() >= 1
    expect(page.get_by_role("link", name="Label (PDF)")).to_have_attribute("href", "/products/WATER-15/label.pdf")
    expect(page.get_by_role("link", name="Label (ZPL)")).to_have_attribute("href", "/products/WATER-15/label.zpl")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_product_with_packaging_is_created_on_the_page_and_found_by_its_packaging_barcode(
        page, demo_depot, session, size):
    sign_in_as_admin(page, session)
    page.set_viewport_size(size)
    nav_link(page, "Products").click()
    page.get_by_role("link", name="New product").click()
    page.get_by_label("Code", exact=True).fill("KEFIR-05")
    page.get_by_label("Name", exact=True).fill("Kefir 0.5 l")
    page.get_by_label("Base unit", exact=True).fill("pc")
    page.get_by_label("Barcode of the base unit").fill("8590000000017")
    rows = page.locator(".packaging-row")
    rows.nth(0).get_by_label("Unit", exact=True).fill("crate")
    rows.nth(0).get_by_label("Base units in it").fill("20")
    rows.nth(0).get_by_label("Barcode", exact=True).fill("8590000000024")
    # First a clash: the demo's MILK-1L already carries a barcode; the refusal sits beside the field.
    taken = page.evaluate("""async () => (await (await fetch('/products?format=csv&q=MILK-1L')).text())""")
    milk_barcode = next(csv.DictReader(taken.splitlines()))["base_unit_barcode"]
    page.get_by_label("Barcode of the base unit").fill(milk_barcode)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#base_unit_barcode-problem")).to_contain_text("already used by Milk 1 l (MILK-1L)")
    assert page.get_by_label("Name", exact=True).input_value() == "Kefir 0.5 l"
    page.get_by_label("Barcode of the base unit").fill("8590000000017")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("KEFIR-05")
    expect(page.locator("dl.facts")).to_contain_text("crate = 20 pc (8590000000024)")

    nav_link(page, "Products").click()
    page.get_by_role("searchbox", name="Search").fill("8590000000024")
    page.get_by_role("button", name="Show").click()
    found = page.locator("#products tbody tr")
    expect(found).to_have_count(1)
    expect(found.first).to_contain_text("KEFIR-05")
    assert fits(page)
    assert page.elsewhere == []


def test_an_order_is_released_and_closed_from_its_page(page, demo_depot, session):
    server, _ = demo_depot
    sign_in_as_admin(page, session)
    page.goto(page.base + "/orders?state=1")
    number = page.locator("#orders tbody.order").first.get_attribute("data-document")
    # A scanner takes the order.
    server.api_key = api_keys.create_key(session, "gate-2", "scan")
    status, _ = server.get(f"/v1/documents/acquire/{number}")
    assert status == 200

    page.set_viewport_size(PHONE)
    page.get_by_role("link", name=number, exact=True).click()
    expect(page.locator("#order-state")).to_have_attribute("data-state", "2")
    expect(page.locator("#order-lock")).to_contain_text("gate-2 since")
    page.get_by_text("Release the lock…").click()
    page.get_by_role("button", name="Release now").click()
    expect(page.locator("#order-state")).to_have_attribute("data-state", "1")
    expect(page.locator("#order-lock")).to_have_text("nobody")

    page.get_by_text("Close the order…").click()
    page.get_by_label("Reason").fill("Customer cancelled by phone")
    page.get_by_role("button", name="Close the order", exact=True).click()
    expect(page.locator("#order-state")).to_have_attribute("data-state", "0")
    expect(page.locator("#order-closing")).to_contain_text("office-admin")
    expect(page.locator("#order-closing")).to_contain_text("Customer cancelled by phone")
    expect(page.get_by_text("Close the order…")).to_have_count(0)
    assert fits(page)
    # The scanner now gets 409 for it.
    status, body = server.get(f"/v1/documents/acquire/{number}")
    assert status == 409, body
    page.goto(page.base + "/orders")
    expect(page.locator(f'#orders tbody[data-document="{number}"]')).to_have_count(0)


def test_paper_shows_no_navigation_black_on_white(page, demo_depot, session):
    sign_in_as_admin(page, session)
    page.goto(page.base + "/documents")
    expect(page.locator("header")).to_be_visible()
    page.emulate_media(media="print")
    for path in ("/documents", "/products/MILK-1L", "/orders"):
        page.goto(page.base + path)
        expect(page.locator("header")).to_be_hidden()
        for hidden in page.locator("form.filters, .actions").all():
            expect(hidden).to_be_hidden()
        colours = page.evaluate("""() => [getComputedStyle(document.body).color,
                                          getComputedStyle(document.body).backgroundColor,
                                          getComputedStyle(document.querySelector('h1')).color]""")
        assert colours == ["rgb(0, 0, 0)", "rgb(255, 255, 255)", "rgb(0, 0, 0)"], path
    page.goto(page.base + "/documents")
    breaks = page.locator("section.document").evaluate_all(
        "sections => sections.map(s => getComputedStyle(s).breakBefore)")
    assert len(breaks) > 1 and breaks[0] != "page" and set(breaks[1:]) == {"page"}


# --- the admin pages (DESIGN 16): people, pairing a scanner, the audit trail -------------------------

@pytest.mark.parametrize("width, height", [(1280, 820), (390, 844)])
def test_an_admin_pairs_a_scanner_whose_qr_code_holds_the_address_and_key(browser, demo_depot, session, tmp_path,
                                                                          width, height):
    server, _ = demo_depot
    people.create_person(session, cli_actor(), "anna", "admin", PASSWORD)
    session.remove()
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(TIMEOUT_MS)
    base = f"http://127.0.0.1:{server.port}"
    try:
        tab = context.new_page()
        tab.base = base
        sign_in(tab, PASSWORD, "anna")
        nav_link(tab, "Keys").click()
        expect(tab.get_by_role("heading", level=1)).to_have_text("Keys")
        tab.get_by_label("Device name").fill("scanner-gate-2")
        tab.get_by_label("Main", exact=True).check()  # warehouses are ticked by name
        tab.get_by_label("Expires after (days)").fill("365")
        with tab.expect_response(re.compile(r"/admin/keys$")) as answered:
            tab.get_by_role("button", name="Make key and show pairing code").click()
        assert answered.value.headers["cache-control"] == "no-store"
        expect(tab.get_by_role("heading", level=1)).to_have_text("Pair scanner-gate-2")
        key = tab.locator("#pair-key").inner_text()
        assert tab.locator("#pair-url").inner_text() == base + "/"
        qr = tab.locator("svg.qr").first
        expect(qr).to_be_visible()
        box = laid_out(qr)
        assert box["width"] >= 200 and box["x"] >= 0 and box["x"] + box["width"] <= width  # whole on screen
        assert qr_holds(qr.evaluate("svg => svg.outerHTML"), f"{base}/scan#pair={key}")
        # The JSON code of other scanner apps, one click away.
        json_qr = tab.locator(".other-apps svg.qr")
        expect(json_qr).to_be_hidden()
        tab.get_by_text("Code for another scanner app").click()
        expect(json_qr).to_be_visible()
        assert qr_holds(json_qr.evaluate("svg => svg.outerHTML"), json.dumps({"url": base + "/", "key": key}))
        # The key the code carries works, for what the form asked.
        answer = tab.request.get(base + "/v1/products/", headers={"TS-Apikey": key})
        assert answer.status == 200
        if width == 1280:
            shot = tmp_path / "admin-keys-pairing.png"
            tab.screenshot(path=shot, full_page=True)
            keep_screenshot(shot, "admin-keys-pairing.png")

        # Leaving the page forgets the key: the list shows the device, never the key.
        tab.get_by_role("link", name="Done: back to the keys").click()
        row = tab.locator('#keys tr[data-name="scanner-gate-2"]')
        expect(row).to_contain_text("scan")
        assert key not in tab.content()

        # A person, from the people page.
        nav_link(tab, "People").click()
        form = tab.locator("#add-person")
        form.get_by_label("Name").fill("ben")
        form.get_by_label("Role").select_option("read")
        form.get_by_label("Password").fill("a password for ben")
        form.get_by_role("button", name="Add").click()
        expect(tab.get_by_role("status")).to_contain_text("ben may sign in now")
        expect(tab.locator('#people tr[data-name="ben"]')).to_contain_text("read")
        if width == 1280:
            shot = tmp_path / "admin-people.png"
            tab.screenshot(path=shot, full_page=True)
            keep_screenshot(shot, "admin-people.png")

        # The trail shows both, newest first, with who and from where.
        nav_link(tab, "Audit").click()
        expect(tab.get_by_role("heading", level=1)).to_have_text("Audit trail")
        rows = tab.locator("#audit tbody tr")
        expect(rows.first).to_contain_text("user.create")
        tab.wait_for_load_state("load")
        assert "ben" in rows.nth(0).inner_text() and "anna" in rows.nth(0).inner_text()
        assert "key.create" in rows.nth(1).inner_text() and "scanner-gate-2" in rows.nth(1).inner_text()
        tab.get_by_label("Kind").fill("key")
        tab.get_by_role("button", name="Show").click()
        # The scanner's key, made on the page from this address; besides it only the key the
        # service made at its start (from cli).
        expect(rows.filter(has_text="scanner-gate-2")).to_have_count(1)
        assert "127.0.0.1" in rows.filter(has_text="scanner-gate-2").inner_text()
        assert all("key." in text for text in rows.all_inner_texts())
        assert all("scanner-gate-2" in text or "cli" in text for text in rows.all_inner_texts())
    finally:
        context.close()
    assert [e["kind"] for e in audit.list_entries(session, who="anna")] == ["user.create", "key.create"]


def test_a_person_of_role_read_gets_no_admin_page(page, demo_depot):
    sign_in(page, demo_depot[1])
    assert page.get_by_role("link", name="Keys", exact=True).count() == 0
    page.goto(page.base + "/admin/keys")
    expect(page.get_by_role("alert")).to_contain_text("role admin")


# --- /admin/import (transfer/): an error beside its row, then the corrected file applied ----

WITH_ERROR = ("product_code,name,base_unit,weight_netto,packaging_1_unit,packaging_1_amount_base_units\n"
              "NEW-1,Oat drink 1 l,pc,1.03,crate,12\n"
              "NEW-2,,pc,0.5,,\n"
              "NEW-3,Rye bread,pc,0.7505,,\n")
CORRECTED = WITH_ERROR.replace("NEW-2,,pc", "NEW-2,Spelt flour 1 kg,pc").replace("0.7505", "0.75")


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_an_error_beside_its_row_then_the_corrected_file_applied(page, session, tmp_path, width, height):
    page.set_viewport_size({"width": width, "height": height})
    sign_in_as_admin(page, session)
    nav_link(page, "Import").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Import")

    bad = tmp_path / "products.csv"
    bad.write_text(WITH_ERROR, encoding="utf-8")
    page.get_by_label("The file holds").select_option("products")
    page.get_by_label("File (.xlsx, .ods or .csv)").set_input_files(str(bad))
    page.get_by_role("button", name="Check the file").click()
    row3 = page.locator('#import-rows tr[data-row="3"]')
    expect(row3).to_contain_text("name: Length must be between 1 and 200.")
    expect(row3).to_have_class("refused")
    expect(page.locator('#import-rows tr[data-row="4"]')).to_contain_text(
        "weight_netto: At most 3 decimal places.")
    expect(page.locator('#import-rows tr[data-row="2"]')).to_contain_text("to create")
    expect(page.get_by_role("button", name="Apply the import")).to_have_count(0)
    assert sideways(page) <= 0
    if width == 1280:
        shot = tmp_path / "import.png"
        page.screenshot(path=shot, full_page=True)
        keep_screenshot(shot, "import.png")

    good = tmp_path / "products-corrected.csv"
    good.write_text(CORRECTED, encoding="utf-8")
    page.get_by_label("File (.xlsx, .ods or .csv)").set_input_files(str(good))
    page.get_by_role("button", name="Check the file").click()
    expect(page.locator("#report .counts")).to_contain_text("3 to create")
    assert sideways(page) <= 0
    page.get_by_role("button", name="Apply the import").click()
    expect(page.locator("#report h2")).to_contain_text("imported")
    expect(page.locator("#report .counts")).to_contain_text("3 created")
    codes = [p["product_code"] for p in catalog.list_products(session)]
    assert {"NEW-1", "NEW-2", "NEW-3"} <= set(codes)
    assert page.elsewhere == []
