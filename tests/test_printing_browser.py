"""The printable pages in a real browser: the demo's delivery notes and count sheets, on screen and
as printed (print media, and chromium's own PDF), at 1280 px and on a 390 px phone.

The browser is conftest's; the demo depot and its live server are those of tests/test_pages_browser.py.
"""
import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from models import WarehouseDocument
from scanning import pdf_pages
from test_pages_browser import demo_depot, demo_sqlite_depot, page, sign_in  # noqa: F401

NAVIGATION = ("Documents", "Orders", "Stocktakings", "Movements", "Sign out")


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def looks_printed(page) -> None:
    """As printed: no navigation, no print button, black on white, nothing wider than the paper."""
    page.emulate_media(media="print")
    expect(page.locator("header")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    colours = page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
                                      getComputedStyle(document.querySelector('main')).color,
                                      getComputedStyle(document.querySelector('thead th')).backgroundColor]""")
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)", "rgb(255, 255, 255)"]
    assert no_sideways_scroll(page)


@pytest.fixture
def goods_out(session):
    """The demo's last goods-out document with a customer: (doc_number, ufid)."""
    return session.execute(select(WarehouseDocument.doc_number, WarehouseDocument.ufid)
                           .where(WarehouseDocument.direction == "O", WarehouseDocument.id_customer != 0)
                           .order_by(WarehouseDocument.doc_number.desc()).limit(1)).one()


@pytest.mark.live
@pytest.mark.parametrize("width", [1280, 390])
def test_a_delivery_note_prints_without_the_navigation(page, demo_depot, goods_out, width, tmp_path):
    _, key = demo_depot
    sign_in(page, key)
    page.set_viewport_size({"width": width, "height": 900})
    doc_number, ufid = goods_out
    page.goto(f"{page.base}/documents/{doc_number}/delivery-note")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Delivery note {ufid}")
    expect(page.locator("header")).to_be_visible()
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    assert page.locator("table.lines tbody tr").count() >= 1
    assert no_sideways_scroll(page)  # a wide table scrolls in its own box
    page.screenshot(path=tmp_path / "screen.png", full_page=True)
    looks_printed(page)
    page.screenshot(path=tmp_path / "print.png", full_page=True)

    # What chromium itself prints (with the print media emulated now): the note, its signature boxes, and none of the navigation.
    printed = pdf_pages(page.pdf(format="A4"))
    text = "\n".join(p.extract_text() for p in printed.pages)
    assert ufid in text and "Received by" in text and "Handed over by" in text
    assert not [word for word in NAVIGATION if word in text]
    assert page.elsewhere == []


@pytest.mark.live
@pytest.mark.parametrize("width", [1280, 390])
def test_a_count_sheet_prints_without_the_navigation_and_without_book_amounts(page, demo_depot, width):
    _, key = demo_depot
    sign_in(page, key)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{page.base}/warehouses/1/count-sheet")
    expect(page.get_by_role("heading", level=1)).to_have_text("Count sheet: warehouse 1")
    rows = page.locator("tr[data-product]")
    assert rows.count() > 20
    expect(rows.first.locator("td.write")).to_have_text("")
    assert no_sideways_scroll(page)
    looks_printed(page)
    printed = pdf_pages(page.pdf(format="A4"))
    assert len(printed.pages) >= 1
    text = "\n".join(p.extract_text() for p in printed.pages)
    assert "Counted" in text and not [word for word in NAVIGATION if word in text]
    assert page.elsewhere == []
