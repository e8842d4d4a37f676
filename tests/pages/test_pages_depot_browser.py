"""The depot's admin pages of the office's second day in a real browser, at 1280 px and on a 390 px phone:
warehouses (add, a refusal beside its field, rename, deactivate), warehouses picked by name in the
people and keys forms, the depot's profile with its logo, and backups (make, download).

The browser comes from tests/conftest.py; the demo depot and the tab that may reach only the
service from tests/pages/test_pages_browser.py. WAREHOUSE_SCREENSHOTS=docs/images keeps the screenshots
docs/office.md and docs/operations.md show.
"""
import os
import re

import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import expect

from sqlalchemy import text

from conftest import PASSWORD, sideways, laid_out
from safekeeping.backups import check_sqlite_copy
from storage.db import db
from browsing import keep_screenshot, sign_in

pytestmark = pytest.mark.live

WIDTHS = [1280, 390]
NAMES = {1280: "desktop", 390: "phone"}


@pytest.fixture
def boss(demo_depot, person, app):  # noqa: F811
    """The demo depot as `make demo` makes it (Main and Cold store, without the tests' other
    warehouses, which the demo never books in), with a person of role admin, "boss", signed in by
    `sign_in(page, PASSWORD, "boss")`."""
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(text("DELETE FROM warehouses WHERE id_warehouse > 2"))
        connection.execute(text("UPDATE warehouses SET name = 'Cold store' WHERE id_warehouse = 2"))
    person("boss", role="admin")
    return demo_depot


def open_as_boss(page, width):
    page.set_viewport_size({"width": width, "height": 844})
    sign_in(page, PASSWORD, "boss")


def fits(page, width) -> None:
    """Nothing scrolls sideways, and on a phone every button is big enough to touch."""
    assert sideways(page) <= 0
    if width < 700:
        for button in page.locator("main button:visible").all():
            assert laid_out(button)["height"] >= 40, button.inner_text()


def shot(page, tmp_path, name: str, full_page: bool = False) -> None:
    path = tmp_path / name
    page.screenshot(path=path, full_page=full_page)
    keep_screenshot(path, name)


@pytest.mark.parametrize("width", WIDTHS)
def test_warehouses_are_added_renamed_and_deactivated_on_their_page(page, boss, width, tmp_path):
    open_as_boss(page, width)
    page.goto(page.base + "/admin/warehouses")
    expect(page.get_by_role("heading", level=1)).to_have_text("Warehouses")
    rows = page.locator("#warehouses tbody tr")
    expect(rows).to_have_count(2)  # the demo's main hall and cold store
    form = page.locator("#add-warehouse")
    # The manager types the name where the number goes: told beside that field what to do.
    form.get_by_label("Number").fill("Cold store")
    form.get_by_label("Name").fill("Dry store")
    form.get_by_role("button", name="Add warehouse").click()
    problem = page.locator("#id_warehouse-problem")
    expect(problem).to_contain_text("A whole number from 1 up")
    expect(page.locator("#add-warehouse").get_by_label("Name")).to_have_value("Dry store")
    assert laid_out(problem)["y"] > laid_out(page.locator("#add-warehouse").get_by_label("Number"))["y"]
    fits(page, width)
    page.locator("#add-warehouse").get_by_label("Number").fill("3")
    page.locator("#add-warehouse").get_by_label("Address").fill("Dock 3, Riverside")
    page.locator("#add-warehouse").get_by_role("button", name="Add warehouse").click()
    expect(page.get_by_role("status")).to_have_text("Warehouse 3, Dry store, is added.")
    expect(rows).to_have_count(3)
    shot(page, tmp_path, f"admin-warehouses-{NAMES[width]}.png", full_page=width < 700)

    page.get_by_role("link", name="Rename or move Dry store").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Warehouse 3: Dry store")
    page.get_by_label("Name").fill("Dry goods")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("saved as Dry goods")
    page.get_by_role("button", name="Deactivate Dry goods").click()
    expect(page.locator('#warehouses tr[data-warehouse="3"]')).to_contain_text("inactive")
    expect(page.get_by_role("button", name="Activate Dry goods")).to_be_visible()
    fits(page, width)
    # The stock page picks it by its name.
    page.goto(page.base + "/")
    expect(page.get_by_label("Warehouse").locator("option", has_text="Dry goods")).to_have_count(1)
    assert page.elsewhere == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_person_is_limited_to_warehouses_ticked_by_name(page, boss, width, tmp_path):
    open_as_boss(page, width)
    page.goto(page.base + "/admin/people")
    form = page.locator("#add-person")
    form.get_by_label("Name", exact=True).fill("boss")
    form.get_by_label("Cold store").check()
    form.get_by_label("Password").fill("a long enough password")
    form.get_by_role("button", name="Add").click()
    expect(page.locator("#name-problem")).to_contain_text("exists already: choose another name")
    form = page.locator("#add-person")
    expect(form.get_by_label("Cold store")).to_be_checked()  # kept as ticked
    fits(page, width)
    if width > 700:
        shot(page, tmp_path, "admin-people-picker-desktop.png")
    form.locator('input[name="name"]').fill("anna")  # its label now also holds the problem
    form.get_by_label("Password").fill("a long enough password")
    form.get_by_role("button", name="Add").click()
    expect(page.get_by_role("status")).to_contain_text("anna may sign in now")
    expect(page.locator('#people tr[data-name="anna"]')).to_contain_text("Cold store")

    page.goto(page.base + "/admin/keys")
    pair = page.locator("#pair")
    pair.get_by_label("Device name").fill("gate-2")
    pair.get_by_label("Main", exact=True).check()
    pair.get_by_role("button", name=re.compile("Make key")).click()
    expect(page.locator("dd", has_text="Main")).to_be_visible()
    fits(page, width)
    assert page.elsewhere == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_depots_profile_with_its_logo_heads_the_delivery_note(page, boss, width, tmp_path):
    server, _ = boss
    logo = tmp_path / "logo.png"
    image = Image.new("RGB", (360, 120), "white")
    ImageDraw.Draw(image).rectangle((10, 10, 350, 110), outline=(20, 60, 120), width=8)
    ImageDraw.Draw(image).text((40, 45), "RIVERSIDE", fill=(20, 60, 120))
    image.save(logo)
    open_as_boss(page, width)
    page.goto(page.base + "/admin/depot")
    page.get_by_label("Name").fill("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#name-problem")).to_have_text("Give the name printed on the paper.")
    page.get_by_label("Name").fill("Riverside depot")
    page.get_by_label("Address").fill("Quay 4\n1000 Ljubljana")
    page.get_by_label("VAT number").fill("SI12345678")
    page.get_by_label(re.compile("^Logo")).set_input_files(str(logo))
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("profile is saved")
    expect(page.locator("img.depot-logo")).to_be_visible()
    assert page.locator("img.depot-logo").evaluate("img => img.naturalWidth") == 360
    fits(page, width)
    shot(page, tmp_path, f"admin-depot-{NAMES[width]}.png", full_page=width < 700)

    status, body = server.post("/v1/docs/filter?headers=1", {"doc_direction": "O"})
    assert status == 200, body
    shipped = next(doc for doc in reversed(body["list"]) if doc["id_customer"] and doc["batch_number"] > 0)
    page.goto(f"{page.base}/documents/{shipped['doc_number']}/delivery-note")
    sender = page.get_by_role("region", name="Sender")
    expect(sender).to_contain_text("Riverside depot")
    expect(sender).to_contain_text("1000 Ljubljana")
    expect(sender).to_contain_text("VAT SI12345678")
    assert page.locator("img.paper-logo").evaluate("img => img.complete && img.naturalWidth") == 360
    assert page.elsewhere == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_backup_is_made_listed_and_downloaded_and_its_restore_command_shown(page, boss, width, tmp_path):
    open_as_boss(page, width)
    page.goto(page.base + "/admin/backups")
    expect(page.get_by_role("heading", level=1)).to_have_text("Backups")
    before = page.locator("#backups tbody tr[data-kind]").count()
    page.get_by_role("button", name="Make a backup now").click()
    expect(page.get_by_role("status")).to_contain_text("is made and checked")
    made = page.locator('#backups tbody tr[data-kind="manual"]').first
    expect(page.locator("#backups tbody tr[data-kind]")).to_have_count(before + 1)
    name = made.get_attribute("data-name")
    with page.expect_download() as download:
        made.get_by_role("link", name=name).click()
    assert download.value.suggested_filename == name
    kept = download.value.path()
    if name.endswith(".db"):
        check_sqlite_copy(str(kept))  # what was downloaded is the whole, checked copy
    else:
        with open(kept, "rb") as file:
            assert file.read(5) == b"PGDMP"
    made.get_by_text("Command").click()
    expect(made.locator("code.command")).to_contain_text("--app app restore ")
    expect(made.locator("code.command")).to_contain_text(name)
    fits(page, width)
    shot(page, tmp_path, f"admin-backups-{NAMES[width]}.png", full_page=width < 700)
    assert os.path.getsize(kept) > 0
    assert page.elsewhere == []
