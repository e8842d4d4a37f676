"""The office pages on a 390 px phone and a 1280 px desktop, in chromium (issue 34, points 4 and 6):
the navigation folded behind a menu button on a phone, the amounts in view, people's and the audit
trail's rows as cards with their actions, and each empty list saying what to do next.

The browser is conftest's; the demo depot, its live server and the tab that may reach only the
service come from tests/pages/test_pages_browser.py.
"""
import re

import pytest
from playwright.sync_api import expect

from conftest import PASSWORD, sideways, laid_out
from identity import people
from stock.audit import cli_actor
from browsing import DESKTOP, PHONE, TIMEOUT_MS, fits, keep_screenshot, nav_link, sign_in, sign_in_as_admin

MENU_AT_MOST = 120  # px of a 390x844 phone the closed navigation may take (it took 220)


def header_height(page) -> float:
    return laid_out(page.locator("header"))["height"]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_navigation_folds_behind_a_menu_button_on_a_phone_and_opens_by_keyboard(
        page, demo_depot, session, tmp_path, size):
    sign_in_as_admin(page, session)
    page.set_viewport_size(size)
    page.goto(page.base + "/")
    button, stock_link = page.locator("details.menu > summary"), page.get_by_role("link", name="Stock", exact=True)
    if size is DESKTOP:
        # Wide enough: one line (issue 38: 11 links, the person and Sign out wrapped onto two):
        # the daily lists stand in the header, master data and admin each under its name, and
        # there is no button.
        expect(button).to_be_hidden()
        for name in ("Stock", "Documents", "Orders", "Stocktakings", "Movements", "Movement lines", "Scanner"):
            expect(page.get_by_role("link", name=name, exact=True)).to_be_visible()
        expect(page.locator("#nav-alerts")).to_be_visible()
        master, admin = page.locator("#group-master > summary"), page.locator("#group-admin > summary")
        expect(master).to_have_text("Master data")
        expect(admin).to_have_text("Admin")
        line = [page.locator("header .brand"), page.locator("#nav-alerts"), master, admin,
                page.get_by_role("button", name="Sign out"), page.get_by_role("link", name="Stock", exact=True)]
        middles = [laid_out(each)["y"] + laid_out(each)["height"] / 2 for each in line]
        assert max(middles) - min(middles) <= 4, middles  # one line
        assert header_height(page) <= 60
        expect(page.get_by_role("link", name="Reorder levels", exact=True)).to_be_hidden()
        shot = tmp_path / "office-menu-desktop.png"
        page.screenshot(path=shot)
        keep_screenshot(shot, "office-menu-desktop.png")
        # The keyboard opens a group: Tab to its name, Enter, Tab on to its links.
        master.focus()
        page.keyboard.press("Enter")
        products = page.get_by_role("link", name="Products", exact=True)
        expect(products).to_be_visible()
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Products"
        assert header_height(page) <= 60  # it opens over the page
        admin.click()
        for name in ("People", "Keys", "Warehouses", "Depot", "Backups", "Webhooks", "Audit", "Import"):
            expect(page.get_by_role("link", name=name, exact=True)).to_be_visible()
        shot = tmp_path / "office-menu-desktop-open.png"
        page.screenshot(path=shot)
        keep_screenshot(shot, "office-menu-desktop-open.png")
        page.keyboard.press("Enter")  # the focus is on Admin's name: it closes again
        expect(page.get_by_role("link", name="People", exact=True)).to_be_hidden()
        return
    expect(stock_link).to_be_hidden()
    expect(button).to_be_visible()
    closed = header_height(page)
    assert closed <= MENU_AT_MOST, closed
    assert laid_out(button)["height"] >= 40
    expect(page.locator("#menu-alerts")).to_be_visible()  # the alerts' count stays in sight
    shot = tmp_path / "office-menu-phone.png"
    page.screenshot(path=shot)
    keep_screenshot(shot, "office-menu-phone.png")

    # The keyboard alone opens it: the button is the first thing Tab reaches.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    page.keyboard.press("Enter")
    expect(stock_link).to_be_visible()
    assert header_height(page) == closed  # it opens over the page, the header stays as it was
    body = laid_out(page.locator(".menu-body"))
    assert body["x"] >= 0 and body["x"] + body["width"] <= PHONE["width"]
    # The daily lists lie open; master data and admin fold under their names, one tap each.
    for group in ("#group-master", "#group-admin"):
        assert laid_out(page.locator(f"{group} > summary"))["height"] >= 40
        page.locator(f"{group} > summary").click()
    links = page.locator(".menu-body a")
    assert links.count() >= 19
    for box in links.evaluate_all("links => links.map(a => a.getBoundingClientRect().toJSON())"):
        assert box["height"] >= 40 and 0 <= box["left"] and box["right"] <= PHONE["width"], box
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    shot = tmp_path / "office-menu-phone-open.png"
    page.screenshot(path=shot)
    keep_screenshot(shot, "office-menu-phone-open.png")
    button.focus()
    page.keyboard.press("Enter")  # and closes it again
    expect(stock_link).to_be_hidden()

    nav_link(page, "Movement lines").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Movement lines")
    expect(page.get_by_role("link", name="Movement lines", exact=True)).to_be_hidden()  # a new page: closed
    assert fits(page)
    assert page.elsewhere == []


def right_edge_in_view(page, locator, width) -> None:
    """The element is whole within the screen's width, without scrolling anything sideways."""
    box = laid_out(locator)
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_amount_comes_before_the_long_texts_so_a_phone_shows_it(page, demo_depot, session, size):
    sign_in_as_admin(page, session)
    page.set_viewport_size(size)
    width = size["width"]
    page.goto(page.base + "/")
    right_edge_in_view(page, page.locator("#stock tbody tr").first.locator("td.num"), width)
    page.goto(page.base + "/documents")
    right_edge_in_view(page, page.locator("section.document").first.locator("tbody tr").first.locator("td.num"), width)
    page.goto(page.base + "/orders")
    page.locator("#orders tbody.order a").first.click()
    first_line = page.locator("#order-lines tbody tr").first
    right_edge_in_view(page, first_line.locator("td.num").nth(0), width)  # ordered
    right_edge_in_view(page, first_line.locator("td.num").nth(1), width)  # delivered
    page.goto(page.base + "/movements/lines")
    right_edge_in_view(page, page.locator("#movement-lines tbody tr").first.locator("td.num"), width)
    assert fits(page)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_peoples_and_the_audit_trails_rows_keep_their_actions_in_view(page, demo_depot, session, tmp_path, size):
    people.create_person(session, cli_actor(), "ben", "read", PASSWORD)
    session.remove()
    sign_in_as_admin(page, session)
    page.set_viewport_size(size)
    width = size["width"]
    page.goto(page.base + "/admin/people")
    ben = page.locator('#people tr[data-name="ben"]')
    # Disabling asks first (DESIGN 26): its opener is the action in view.
    for action in (ben.get_by_role("button", name="Set password"), ben.get_by_text("Disable…"),
                   ben.get_by_label("New password for ben")):
        right_edge_in_view(page, action, width)
    assert laid_out(ben)["height"] < 400
    if size is PHONE:
        # One card per person: the header row is hidden, each cell names itself.
        expect(page.locator("#people thead")).to_be_hidden()
        assert ben.locator("td").first.evaluate("td => getComputedStyle(td, '::before').content") == '"Name"'
        shot = tmp_path / "admin-people-phone.png"
        page.screenshot(path=shot, full_page=True)
        keep_screenshot(shot, "admin-people-phone.png")
    # The password is set from the card, on a phone too.
    ben.get_by_label("New password for ben").fill("another good password")
    ben.get_by_role("button", name="Set password").click()
    expect(page.get_by_role("status")).to_contain_text("The password of ben is changed")

    page.goto(page.base + "/admin/audit")
    entry = page.locator("#audit tbody tr").first
    expect(entry).to_contain_text("user.password")
    for label in ("When", "Who", "What", "Record"):
        right_edge_in_view(page, entry.locator(f'td[data-label="{label}"]'), width)
    assert laid_out(entry)["height"] < 260
    assert fits(page)
    if size is PHONE:
        shot = tmp_path / "admin-audit-phone.png"
        page.screenshot(path=shot)
        keep_screenshot(shot, "admin-audit-phone.png")
    assert page.elsewhere == []


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_empty_depot_says_on_each_page_what_to_do_next(browser, live_server, session, tmp_path, size):
    people.create_person(session, cli_actor(), "anna", "admin", PASSWORD)
    session.remove()
    server = live_server()
    context = browser.new_context(viewport=size)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        tab = context.new_page()
        tab.base = f"http://127.0.0.1:{server.port}"
        sign_in(tab, PASSWORD, "anna")
        expect(tab.locator(".empty")).to_contain_text("No stock yet")
        nav_link(tab, "Products").click()
        empty = tab.locator("#products .empty")
        expect(empty).to_contain_text("No products yet")
        right_edge_in_view(tab, empty.get_by_role("link", name="import a list"), size["width"])
        if size is PHONE:
            shot = tmp_path / "office-products-empty-phone.png"
            tab.screenshot(path=shot)
            keep_screenshot(shot, "office-products-empty-phone.png")
        empty.get_by_role("link", name="add one").click()
        expect(tab.get_by_role("heading", level=1)).to_have_text("New product")
        for path, text in (("/orders", "No open orders"), ("/movements/lines", "No movements yet"),
                           ("/reorder-levels", "No reorder levels yet"), ("/stocktakings", "No stocktakings yet"),
                           ("/customers", "No customers yet")):
            tab.goto(tab.base + path)
            expect(tab.locator(".empty").first).to_contain_text(text)
            assert sideways(tab) <= 0, path
        tab.goto(tab.base + "/products?q=" + "nothing-like-it")
        tab.locator("#products .empty").get_by_role("link", name="show every product").click()
        expect(tab).to_have_url(re.compile(r"/products$"))
    finally:
        context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_stock_page_shows_code_name_lot_best_before_and_amount_and_cards_on_a_phone(
        page, demo_depot, session, tmp_path, size):
    sign_in_as_admin(page, session)
    page.set_viewport_size(size)
    page.goto(page.base + "/?level=1")
    headings = page.locator("#stock thead th").all_inner_texts()
    # The demo's warehouses have locations (DESIGN 27): each row says where it lies, after its warehouse.
    assert headings[:7] == ["Warehouse", "Location", "Code", "Name", "Lot", "Best before", "Amount"]
    lotted = page.locator("#stock tbody tr").filter(has=page.locator("td[data-label='Best before']:not(:empty)"))
    assert lotted.count() > 0  # the demo's lots carry their best-before
    first = page.locator("#stock tbody tr").first
    filters = page.locator("form.filters")
    if size is DESKTOP:
        expect(page.locator("#stock thead")).to_be_visible()
        expect(filters).to_be_visible()
        expect(page.locator("details.filters-fold > summary")).to_be_hidden()
        assert len({round(laid_out(cell)["y"]) for cell in first.locator("td").all()}) == 1  # a row, one line
    else:
        # The filters fold under one line; the first screen shows stock, a card per row.
        expect(filters).to_be_hidden()
        expect(page.locator("#stock thead")).to_be_hidden()
        card = laid_out(first)
        assert card["y"] + card["height"] <= PHONE["height"] and card["x"] >= 0
        assert card["x"] + card["width"] <= PHONE["width"]
        labels = first.locator("td:visible").evaluate_all(
            "cells => cells.map(c => getComputedStyle(c, '::before').content)")
        assert labels[:4] == ['"Warehouse"', '"Location"', '"Code"', '"Name"'], labels
        expect(first.locator("td[data-label='Amount']")).to_be_visible()
        page.locator("details.filters-fold > summary").click()
        expect(filters).to_be_visible()
        page.get_by_role("searchbox", name="Product").fill("yog")
        page.get_by_role("button", name="Show").click()
        expect(page.locator("details.filters-fold > summary")).to_have_text(re.compile("Filters: .yog."))
        expect(filters).to_be_hidden()
    assert fits(page)
    if size is PHONE:  # the desktop's is test_pages_browser.py's stock.png
        page.goto(page.base + "/")
        shot = tmp_path / "stock-phone.png"
        page.screenshot(path=shot)
        keep_screenshot(shot, "stock-phone.png")
    assert page.elsewhere == []
