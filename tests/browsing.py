"""The office pages in chromium: signing in, the menu, screenshots, and what a page's layout is
measured by (tests/pages/, tests/printing/). The demo depot and the tab that may reach only the
service are conftest's fixtures (`demo_depot`, `page`)."""
import os
import re
import shutil

from playwright.sync_api import expect

from conftest import PASSWORD, sideways
from identity import people
from operations.demo import OFFICE_PERSON
from stock.audit import cli_actor

TIMEOUT_MS = 15_000



def make_demo(app) -> str:
    """The demo depot in the app's database; the password of its office person (role read)."""
    result = app.test_cli_runner().invoke(args=["demo"])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()[-1]


def sign_in(page, password, name=OFFICE_PERSON):
    page.goto(page.base + "/")
    expect(page).to_have_url(re.compile(r"/login\?next="))
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Stock")


def nav_link(page, name: str):
    """A link of the navigation, the menu opened first where it is folded (on a phone)."""
    # Whether the menu is folded is the stylesheet's to say: until the page has loaded it, the
    # button shows as a plain <details> would, on any screen.
    page.wait_for_load_state("load")
    if page.locator("details.menu > summary").is_visible() and page.locator("details.menu[open]").count() == 0:
        page.locator("details.menu > summary").click()
    link = page.locator("header").get_by_role("link", name=name, exact=True)
    # Master data and admin fold under their names (a click opens one), on any screen. A folded
    # link is hidden, which role locators pass over: the group is found by its links' text.
    groups = page.locator("header details.group")
    for number in range(groups.count()):
        group = groups.nth(number)
        if name in [text.strip() for text in group.locator("a").all_text_contents()] and not link.is_visible():
            group.locator("> summary").click()
    return link


def keep_screenshot(path, name: str) -> None:
    folder = os.environ.get("WAREHOUSE_SCREENSHOTS")
    if folder:
        shutil.copyfile(path, os.path.join(folder, name))


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Every link, button, fold and field a finger may aim at (DESIGN 18: 40 px at least on a phone).
TOUCH_TARGETS = "a[href], button, summary, select, input:not([type=hidden]):not([type=checkbox])"



def sign_in_as_admin(page, session) -> None:
    """Sign the tab in as a fresh admin person (the demo's office person only reads)."""
    people.create_person(session, cli_actor(), "office-admin", "admin", PASSWORD)
    session.remove()
    sign_in(page, PASSWORD, "office-admin")


def office_paths(page) -> list[str]:
    """Every page of the office, old and new, with records of the demo where a page shows one:
    every page the menu links (an admin's menu, all its groups), then the pages of one record."""
    page.goto(page.base + "/orders")
    order = page.locator("#orders tbody.order a").first.get_attribute("href")
    menu = page.locator("header nav a[href]").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    records = [order, "/products/MILK-1L", "/products/new", "/products/edit/MILK-1L", "/customers/new",
               "/customers/1", "/admin/warehouses/1", "/warehouses/1/locations", "/locations/1/A-01",
               "/moves/new?from_warehouse=1&from_location=A-01", "/logout", "/no-such-page"]
    menu = [path for path in menu if path != "/scan"]  # the scanner's own page: tests/scanner/
    return ["/", "/documents", "/orders", order] + [path for path in menu + records
                                                     if path not in ("/", "/documents", "/orders", order)]


def fits(page) -> bool:
    return sideways(page) <= 0


def short_targets(page) -> list[str]:
    """Visible touch targets under 40 px high, described for the failure message (measured, as
    fits does, once the page's stylesheet is applied)."""
    page.wait_for_load_state("load")
    return page.locator(TOUCH_TARGETS).evaluate_all("""elements => elements
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height > 0)
        .filter(e => e.getBoundingClientRect().height < 40)
        .map(e => `${e.tagName} ${e.textContent.trim().slice(0, 30)} ${e.getBoundingClientRect().height}`)""")


def fits_and_kept(page, size, tmp_path, name: str) -> None:
    """The page fits its width (on a phone, every touch target a thumb high) and its screenshot is
    kept for docs/ as `<name>-desktop.png` or `<name>-phone.png`."""
    assert fits(page)
    if size is PHONE:
        assert short_targets(page) == []
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=shot)
    keep_screenshot(shot, f"{name}-{'desktop' if size is DESKTOP else 'phone'}.png")
