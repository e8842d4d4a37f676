"""The office pages in Slovenian and German in chromium, at 1280 and 390 px (DESIGN 29): a translated
label is often longer than the English, and still nothing scrolls sideways, no button wraps its
words, and on a desktop the menu stays one line.

The browser, the demo depot and its live server are conftest's (tests/pages/test_pages_browser.py).
"""
import pytest

from conftest import laid_out
from browsing import DESKTOP, PHONE, fits, keep_screenshot, sign_in_as_admin
from stock import depot
from stock.audit import cli_actor

PAGES = ["/", "/documents", "/orders", "/movements", "/movements/lines", "/alerts", "/products", "/products/new",
         "/reorder-levels", "/customers", "/customers/new", "/stocktakings",
         "/admin/people", "/admin/keys", "/admin/audit", "/admin/backups", "/admin/warehouses", "/admin/depot",
         "/admin/import", "/admin/webhooks", "/settings",
         "/warehouses/1/locations", "/locations/1/", "/moves/new", "/write-offs"]


def demo_pages(session) -> list[str]:
    """The pages of one of each thing the demo holds: a product, its lot, a customer, an order, a
    location, a warehouse, a delivery note."""
    from sqlalchemy import select

    from models import Customer, LocationBalance, OrderDocument, WarehouseDocument
    placed = session.execute(select(LocationBalance.id_warehouse, LocationBalance.location, LocationBalance.product_code,
                                    LocationBalance.lot).where(LocationBalance.location != "",
                                                               LocationBalance.lot != "",
                                                               LocationBalance.amount_milli > 0).limit(1)).one()
    order = session.scalars(select(OrderDocument.document_number).limit(1)).one()
    customer = session.scalars(select(Customer.id_customer).limit(1)).one()
    goods_out = session.scalars(select(WarehouseDocument.doc_number).where(WarehouseDocument.direction == "O")
                                .limit(1)).one()
    session.remove()
    return [f"/products/{placed.product_code}", f"/products/edit/{placed.product_code}",
            f"/lots/{placed.product_code}/{placed.lot}", f"/locations/{placed.id_warehouse}/{placed.location}",
            f"/customers/{customer}", f"/orders/{order}", f"/orders/{order}/pick-list",
            f"/admin/warehouses/{placed.id_warehouse}", f"/documents/{goods_out}/delivery-note"]
# What stands out past the right edge, for the failure message.
WIDE = """[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right
    > document.documentElement.clientWidth + 1).slice(0, 8).map(e => `${e.tagName}.${e.className} ${e.textContent.trim().slice(0, 40)}`)"""
WRAPPED_BUTTONS = """elements => elements
    .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height > 0)
    .filter(e => {
        const range = document.createRange();
        range.selectNodeContents(e);
        return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
    })
    .map(e => e.textContent.trim())"""


@pytest.mark.parametrize("language, stock", [("sl", "Zaloga"), ("de", "Bestand")])
def test_the_pages_in_sl_and_de_fit_a_desktop_and_a_phone(page, demo_depot, session, tmp_path, language, stock):
    sign_in_as_admin(page, session)  # signed in in English: the form's labels are the helper's
    depot.set_language(session, cli_actor(), language)
    session.remove()
    pages = PAGES + demo_pages(session)
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        for path in pages:
            page.goto(page.base + path)
            assert page.locator("html").get_attribute("lang") == language, path
            assert fits(page), (language, name, path, page.evaluate(WIDE))
            wrapped = page.locator("button, summary.button, a.button").evaluate_all(WRAPPED_BUTTONS)
            assert not wrapped, (language, name, path, wrapped)
        page.goto(page.base + "/")
        if size is DESKTOP:
            line = [page.locator("header .brand"), page.locator("#nav-alerts"), page.locator("#group-master > summary"),
                    page.locator("#group-admin > summary"), page.locator("header form.signout button"),
                    page.get_by_role("link", name=stock, exact=True)]
            middles = [laid_out(each)["y"] + laid_out(each)["height"] / 2 for each in line]
            assert max(middles) - min(middles) <= 4, (language, middles)  # the menu is one line
        shot = tmp_path / f"stock-{language}-{name}.png"
        page.screenshot(path=shot)
        keep_screenshot(shot, f"stock-{language}-{name}.png")
        page.goto(page.base + "/warehouses/1/locations")
        shot = tmp_path / f"locations-{language}-{name}.png"
        page.screenshot(path=shot)
        keep_screenshot(shot, f"locations-{language}-{name}.png")
    assert not page.elsewhere
