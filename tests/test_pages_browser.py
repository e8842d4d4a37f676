"""The office pages in a real browser: Debian's chromium driven by Playwright, against the live service.

The depot is the demo's (operations/demo.py), served by waitress in a subprocess
(tests/server.py). Every request the page makes must go to that server: the
pages work offline. WAREHOUSE_SCREENSHOTS=docs keeps the screenshots for the README.
"""
import csv
import os
import re
import shutil
import sqlite3
from contextlib import closing

import pytest
from playwright.sync_api import expect, sync_playwright
from sqlalchemy.engine import make_url

from app import create_app
from conftest import close_app
from stock import api_keys, catalog
from storage.db import sqlite_file

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
TIMEOUT_MS = 15_000


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package", pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


def make_demo(app) -> str:
    """The demo depot in the app's database; its office key."""
    result = app.test_cli_runner().invoke(args=["demo"])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()[-1]


@pytest.fixture(scope="session")
def demo_sqlite_depot(sqlite_template, tmp_path_factory):
    """On SQLite the demo is made once per worker, in a copy of the template: each test copies it."""
    if sqlite_template is None:
        return None
    path = tmp_path_factory.mktemp("demo") / "warehouse.db"
    shutil.copyfile(sqlite_template, path)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    key = make_demo(app)
    close_app(app)
    return path, key


@pytest.fixture
def demo_depot(app, database_config, demo_sqlite_depot, live_server):
    """The demo depot on the test's database, its office key, and the service serving it."""
    if demo_sqlite_depot is None:
        return live_server(), make_demo(app)
    path, key = demo_sqlite_depot
    # SQLite's own copy, page by page: safe where the test's app has the file open.
    with closing(sqlite3.connect(path)) as demo, \
            closing(sqlite3.connect(sqlite_file(make_url(database_config["SQLALCHEMY_DATABASE_URI"])))) as test:
        demo.backup(test)
    return live_server(), key


@pytest.fixture
def page(browser, demo_depot):
    """A fresh browser tab that may reach the service only; `page.elsewhere` lists any other request."""
    server, _ = demo_depot
    context = browser.new_context(viewport={"width": 1200, "height": 820}, accept_downloads=True)
    context.set_default_timeout(TIMEOUT_MS)
    base = f"http://127.0.0.1:{server.port}"
    elsewhere = []

    def only_the_service(route):
        if route.request.url.startswith(base + "/"):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_service)
    tab = context.new_page()
    tab.base, tab.elsewhere = base, elsewhere
    yield tab
    context.close()


def sign_in(page, key):
    page.goto(page.base + "/")
    expect(page).to_have_url(re.compile(r"/login\?next="))
    page.get_by_label("Key").fill(key)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Stock")


def keep_screenshot(path, name: str) -> None:
    folder = os.environ.get("WAREHOUSE_SCREENSHOTS")
    if folder:
        shutil.copyfile(path, os.path.join(folder, name))


def test_office_signs_in_visits_every_page_filters_downloads_and_sees_the_chart(page, demo_depot, tmp_path):
    _, key = demo_depot
    sign_in(page, key)
    assert page.locator("#stock tbody tr").count() > 20
    shot = tmp_path / "stock.png"
    page.screenshot(path=shot)
    keep_screenshot(shot, "stock.png")

    # A filter: search by name, per product.
    page.get_by_role("searchbox", name="Product").fill("milk")
    page.get_by_label("Level").select_option("0")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"q=milk.*level=0|level=0.*q=milk"))
    codes = page.locator("#stock tbody tr td:nth-child(2)").all_inner_texts()
    assert codes and all("MILK" in code for code in codes)

    with page.expect_download() as download:
        page.get_by_role("link", name="Download CSV").click()
    with open(download.value.path(), encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert download.value.suggested_filename == "stock.csv"
    assert sorted({row["product_code"] for row in rows}) == sorted(set(codes))

    for name in ("Documents", "Orders", "Stocktakings", "Movements"):
        page.get_by_role("link", name=name, exact=True).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(name)

    bars = page.locator("svg#chart rect.bar")
    expect(bars).to_have_count(24)
    counts = [int(bar.get_attribute("data-count")) for bar in bars.all()]
    heights = [bar.bounding_box()["height"] for bar in bars.all()]
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


def test_a_revoked_key_is_signed_out_at_its_next_page(page, demo_depot, session):
    sign_in(page, demo_depot[1])
    page.get_by_role("link", name="Orders", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Orders")
    api_keys.revoke_key(session, "demo-office")
    page.get_by_role("link", name="Stocktakings", exact=True).click()
    expect(page).to_have_url(re.compile(r"/login\?next=/stocktakings"))
    page.get_by_label("Key").fill(demo_depot[1])
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("unknown or revoked")


def test_signing_out_ends_the_session(page, demo_depot):
    sign_in(page, demo_depot[1])
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    page.goto(page.base + "/movements")
    expect(page).to_have_url(re.compile(r"/login\?next=/movements"))


def test_a_login_form_on_another_site_cannot_sign_the_browser_in(browser, demo_depot):
    server, key = demo_depot
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    try:
        # A page of another origin that posts the service's login form with a key it knows.
        context.route("http://elsewhere.test/**", lambda route: route.fulfill(
            content_type="text/html", body=f"""<form method="post" action="http://127.0.0.1:{server.port}/login">
            <input name="key" value="{key}"><input name="token" value="guessed"><button>go</button></form>"""))
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


# --- /admin/import (transfer/): an error beside its row, then the corrected file applied ----

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
