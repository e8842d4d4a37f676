"""The printable pages in a real browser: the demo's delivery notes, count sheets and pick lists, on
screen and as printed (print media, and chromium's own PDF), at 1280 px and on a 390 px phone.

Chromium's PDF of each is rasterised (pdftoppm) and looked at: every ruled box (a table, a
signature box) closed on all four sides and all ink inside the printable area of A4.

The browser is conftest's; the demo depot and its live server are those of tests/pages/test_pages_browser.py.
"""
import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect
from sqlalchemy import select

from conftest import sideways
from models import WarehouseDocument
from scanning import ink_extent, page_images, page_size_mm, pdf_pages, ruled_boxes
from stock import depot
from stock.audit import Actor
from browsing import keep_screenshot, sign_in

NAVIGATION = ("Documents", "Orders", "Stocktakings", "Movements", "Sign out")


def no_sideways_scroll(page) -> bool:
    return sideways(page) <= 0


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
    _, password = demo_depot
    sign_in(page, password)
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
    _, password = demo_depot
    sign_in(page, password)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{page.base}/warehouses/1/count-sheet")
    expect(page.get_by_role("heading", level=1)).to_have_text("Count sheet: Main")  # by name (DESIGN 17)
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


# --- as chromium prints it on A4, looked at ------------------------------------------------------

DPI = 100
MARGIN_MM = 12  # paper.css: @page { size: A4; margin: 12mm }
NOTICE = ("A blind count: write what is on the shelf; the book amounts are not printed. Products found that are "
          "not listed go in the empty rows at the end.")


@pytest.fixture
def printed_depot(demo_depot, session, goods_out):  # noqa: F811
    """The demo with the depot's profile and logo, and an open order to pick: {paper: its path}."""
    logo = io.BytesIO()
    Image.new("RGB", (240, 80), (20, 60, 120)).save(logo, "PNG")
    depot.update_profile(session, Actor("tests", "cli"), {
        "name": "Riverside depot", "address": "Quay 4\n1000 Ljubljana", "vat_number": "SI12345678"}, logo.getvalue())
    session.remove()
    server, _ = demo_depot
    status, body = server.post("/v1/inventory/filter", {"id_warehouses": [1], "level": 0})
    products = [row["product_code"] for row in body["list"] if row["amount"] > 3][:3]
    status, body = server.post("/v1/documents/", {
        "document_number": "PICK-2", "id_warehouse": 1, "description": "Friday's delivery to the school kitchen",
        "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
        "items": [{"item_number": n, "product_code": code, "amount_ordered": 2} for n, code in enumerate(products, 1)]})
    assert status == 201, body
    return {"delivery-note": f"/documents/{goods_out[0]}/delivery-note", "count-sheet": "/warehouses/1/count-sheet",
            "pick-list": "/orders/PICK-2/pick-list"}


def within_the_printable_area(image) -> None:
    """All ink inside A4 less its margins, and none in the last half millimetre before the edge where
    chromium cuts what overflows (a right border, the end of a line)."""
    width, height = image.size
    edge, slack = MARGIN_MM * DPI / 25.4, 0.5 * DPI / 25.4
    left, top, right, bottom = ink_extent(image)
    assert left >= edge - 1 and top >= edge - 1
    assert right <= width - edge - slack and bottom <= height - edge + 1, (left, top, right, bottom)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("paper", ["delivery-note", "count-sheet", "pick-list"])
def test_printed_on_a4_every_border_and_line_lies_within_the_page(page, demo_depot, printed_depot, paper, width,
                                                                 tmp_path):
    _, password = demo_depot
    page.set_viewport_size({"width": width, "height": 900})
    sign_in(page, password)
    page.goto(page.base + printed_depot[paper])
    expect(page.locator("img.paper-logo")).to_be_visible()
    assert page.locator("img.paper-logo").evaluate("img => img.naturalWidth") == 240
    assert no_sideways_scroll(page)
    if paper != "count-sheet":
        shot = tmp_path / f"{paper}-{width}.png"
        page.screenshot(path=shot, full_page=True)
        keep_screenshot(shot, f"{paper}-{'desktop' if width > 700 else 'phone'}.png")
    looks_printed(page)
    # The size the page asks for itself (paper.css), as the print dialog takes it: A4, never Letter.
    body = page.pdf(prefer_css_page_size=True, print_background=False)
    reader = pdf_pages(body)
    for number in range(len(reader.pages)):  # chromium rounds A4 to whole points: 209.9 mm
        assert [round(side) for side in page_size_mm(reader, number)] == [210, 297]
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    assert "Riverside depot" in text and not [word for word in NAVIGATION if word in text]
    if paper == "count-sheet":
        assert NOTICE in text
    images = page_images(body, DPI)
    assert len(images) == len(reader.pages)
    for number, image in enumerate(images, 1):
        within_the_printable_area(image)
        boxes = ruled_boxes(image)
        assert boxes or number > 1, f"no table on page {number}"
        assert [box for box in boxes if not box["closed"]] == [], f"a box open on page {number}: {boxes}"
    if paper == "delivery-note" and width > 700:
        images[0].save(tmp_path / "delivery-note-printed.png")
        keep_screenshot(tmp_path / "delivery-note-printed.png", "delivery-note-printed.png")
    assert page.elsewhere == []


def test_the_delivery_note_names_its_order_sender_and_each_lots_best_before(page, demo_depot, printed_depot,
                                                                           session):
    _, password = demo_depot
    sign_in(page, password)
    page.goto(page.base + printed_depot["delivery-note"])
    sender = page.get_by_role("region", name="Sender")
    expect(sender).to_contain_text("Riverside depot")
    expect(sender).to_contain_text("VAT SI12345678")
    expect(page.locator("#order-number")).to_have_text(re.compile(r"^SO-\d{8}-\d{4}$"))
    page.wait_for_load_state("load")
    for row in page.locator("table.lines tbody tr").all():
        lot, best_before = (cell.inner_text() for cell in row.locator("td").all()[3:5])
        assert not lot or re.fullmatch(r"\d{4}-\d{2}-\d{2}", best_before), (lot, best_before)


PAPER_TITLES = {"sl": {"delivery-note": "Dobavnica", "count-sheet": "Popisni list", "pick-list": "Seznam za komisioniranje"},
                "de": {"delivery-note": "Lieferschein", "count-sheet": "Zählliste", "pick-list": "Kommissionierliste"}}
DAYS = {"sl": r"\d{1,2}\. \d{1,2}\. \d{4}", "de": r"\d{2}\.\d{2}\.\d{4}"}


@pytest.mark.parametrize("language", ["sl", "de"])
@pytest.mark.parametrize("paper", ["delivery-note", "count-sheet", "pick-list"])
def test_paper_in_sl_and_de_is_printed_whole_within_a4(page, demo_depot, printed_depot, paper, language, tmp_path):
    """The paper in another language than the office's (DESIGN 29): its words, its dates, and still
    every ruled box closed and all ink within the printable area."""
    _, password = demo_depot
    page.set_viewport_size({"width": 390, "height": 900})
    sign_in(page, password)
    page.goto(f"{page.base}{printed_depot[paper]}?language={language}")
    assert page.locator("html").get_attribute("lang") == language
    assert no_sideways_scroll(page)
    page.emulate_media(media="print")
    body = page.pdf(prefer_css_page_size=True, print_background=False)
    reader = pdf_pages(body)
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    assert PAPER_TITLES[language][paper] in text
    if paper == "delivery-note":
        assert re.search(DAYS[language], text), text[:500]
    images = page_images(body, DPI)
    for number, image in enumerate(images, 1):
        within_the_printable_area(image)
        assert [box for box in ruled_boxes(image) if not box["closed"]] == [], f"a box open on page {number}"
    if number == 1 and paper == "delivery-note":
        images[0].save(tmp_path / f"delivery-note-{language}.png")
        keep_screenshot(tmp_path / f"delivery-note-{language}.png", f"delivery-note-{language}-printed.png")
    assert page.elsewhere == []
