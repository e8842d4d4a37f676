"""Printing from the office pages (DESIGN §21): labels as PDF and ZPL, goods-in labels, delivery
notes and count sheets, through the test client; their errors as the HTML error page.

tests/printing/test_printing_rules.py tests printing/ on its own; tests/printing/test_printing_browser.py prints
the delivery note in a real browser.
"""
import re

import pytest
from sqlalchemy import select

from conftest import Scanner, sign_in
from helpers import created, item, order, order_item, product
from models import WarehouseDocument
from operations import settings
from scanning import page_size_mm, pdf_pages, scanned
from stock import depot as depot_profile
from stock.audit import Actor
from stock.errors import SettingError
from storage.db import db
from helpers import add_customers

EAN = "4006381333931"           # a valid EAN-13
BOX_CODE = "BOX-MILK/12"        # not an EAN-13: printed as Code 128
NOT_EAN = "4006381333932"       # 13 digits, wrong check digit: Code 128 too


@pytest.fixture
def depot(api, session):
    """Milk (EAN, box of 12 with a Code 128 barcode), cheese by lot, soap without any barcode;
    a goods-in document of warehouse 1 (doc 1), a goods-out for customer 7 (doc 2), a goods-in of
    warehouse 2 (doc 3)."""
    add_customers(session, 7)
    session.remove()
    for body in (product("MILK", name="Milk 1 l", base_unit_barcode=EAN, lot_level=1,
                         packaging=[{"unit": "box", "amount_base_units": 12, "barcode": BOX_CODE}]),
                 product("CHEESE", name="Edam cheese", base_unit="kg", lot_level=1, base_unit_barcode=NOT_EAN),
                 product("SOAP", name="Liquid soap")):
        created(api.post("/v1/products/", body))
    created(api.post("/v1/documents/", order("OUT-7", items=[order_item(1, "MILK", 5)], directions=("O",),
                                             id_customer=7)))
    scanner = Scanner(api)
    scanner.book("R", "I", [item("MILK", 40, lot="L-MILK", date_exp="2030-01-31"),
                            item("CHEESE", "2.5", "kg", lot="C1", date_exp="2030-03-01"),
                            item("SOAP", 6)])
    scanner.book("R", "O", [item("MILK", 5, lot="L-MILK", date_exp="2030-01-31")], document_number="OUT-7")
    scanner.book("R", "I", [item("SOAP", 7)], warehouse=2)
    with db.engine.connect() as connection:
        numbers = connection.execute(select(WarehouseDocument.doc_number, WarehouseDocument.direction,
                                            WarehouseDocument.id_warehouse)
                                     .order_by(WarehouseDocument.doc_number)).all()
    assert [(d, w) for _, d, w in numbers] == [("I", 1), ("O", 1), ("I", 2)]
    return [number for number, _, _ in numbers]


def error_page(response, status):
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert f"Error {status}" in html
    return html


# --- product labels as PDF ---------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/products/MILK/label.pdf", "/products/MILK/label.zpl",
                                  "/documents/1/labels.pdf", "/documents/1/labels.zpl", "/documents/2/delivery-note",
                                  "/warehouses/1/count-sheet"])
def test_every_printing_page_wants_a_signed_in_office(client, depot, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login?next=")


def test_a_label_pdf_is_one_page_of_the_label_size_with_the_ean13_that_scans(office, depot):
    response = office.get("/products/MILK/label.pdf?lot=L-7&date_exp=2031-05-06")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"] == 'inline; filename="label-MILK.pdf"'
    reader = pdf_pages(response.data)
    assert len(reader.pages) == 1
    assert page_size_mm(reader) == (62.0, 29.0)
    text = reader.pages[0].extract_text()
    for shown in ("MILK", "Milk 1 l", "Lot L-7", "Best before 2031-05-06"):
        assert shown in text
    assert scanned(response.data) == [(EAN, "EAN13")]


def test_a_label_for_a_packaging_unit_carries_that_units_barcode_in_code_128(office, depot):
    response = office.get("/products/MILK/label.pdf?unit=box")
    assert response.status_code == 200
    assert scanned(response.data) == [(BOX_CODE, "Code128")]
    assert "Lot" not in pdf_pages(response.data).pages[0].extract_text()


def test_thirteen_digits_with_a_wrong_check_digit_print_as_code_128(office, depot):
    assert scanned(office.get("/products/CHEESE/label.pdf").data) == [(NOT_EAN, "Code128")]


def test_the_base_unit_named_as_unit_is_the_base_units_label(office, depot):
    assert scanned(office.get("/products/MILK/label.pdf?unit=pc").data) == [(EAN, "EAN13")]


def test_a_product_without_a_barcode_gets_code_and_name_only(office, depot):
    response = office.get("/products/SOAP/label.pdf")
    assert response.status_code == 200
    text = pdf_pages(response.data).pages[0].extract_text()
    assert "SOAP" in text and "Liquid soap" in text
    assert scanned(response.data) == []


@pytest.mark.parametrize("copies", [1, 3, 500])
def test_copies_are_pages(office, depot, copies):
    response = office.get(f"/products/MILK/label.pdf?copies={copies}")
    assert len(pdf_pages(response.data).pages) == copies


def test_a_sheet_puts_the_labels_on_a4_pages(office, depot):
    # 62x29 mm labels: 3 across and 9 down the 190x277 mm inside the margins.
    response = office.get("/products/MILK/label.pdf?copies=28&sheet=a4")
    reader = pdf_pages(response.data)
    assert len(reader.pages) == 2
    assert page_size_mm(reader) == (210.0, 297.0)
    assert reader.pages[0].extract_text().count("Milk 1 l") == 27
    assert reader.pages[1].extract_text().count("Milk 1 l") == 1
    assert scanned(response.data, page=2) == [(EAN, "EAN13")]


def test_the_label_size_follows_the_setting(make_app, depot, person):
    person("read")
    client = make_app(LABEL_SIZE=(100.0, 50.0)).test_client()
    sign_in(client, "read")
    response = client.get("/products/MILK/label.pdf")
    assert page_size_mm(pdf_pages(response.data)) == (100.0, 50.0)
    assert "^PW800\n^LL400" in client.get("/products/MILK/label.zpl").get_data(as_text=True)


@pytest.mark.parametrize("query, field", [("copies=0", "copies"), ("copies=501", "copies"), ("copies=two", "copies"),
                                          ("date_exp=2031-02-30", "date_exp"), ("sheet=letter", "sheet"),
                                          ("lot=" + "x" * 201, "lot"), ("colour=red", "colour")])
@pytest.mark.parametrize("kind", ["pdf", "zpl"])
def test_bad_parameters_are_the_422_page_naming_them(office, depot, kind, query, field):
    html = error_page(office.get(f"/products/MILK/label.{kind}?{query}"), 422)
    assert f"<code>{field}</code>" in html


@pytest.mark.parametrize("kind", ["pdf", "zpl"])
def test_a_unit_the_product_does_not_have_is_422(office, depot, kind):
    html = error_page(office.get(f"/products/MILK/label.{kind}?unit=crate"), 422)
    assert "<code>unit</code>" in html and "pc, box" in html


@pytest.mark.parametrize("path", ["/products/NOPE/label.pdf", "/products/NOPE/label.zpl"])
def test_an_unknown_product_is_the_404_page(office, depot, path):
    error_page(office.get(path), 404)


def test_a_code_with_a_slash_has_its_label(office, api, depot):
    created(api.post("/v1/products/", product("A/B", name="Slashed", base_unit_barcode="AB-1")))
    response = office.get("/products/A/B/label.pdf")
    assert response.status_code == 200
    assert scanned(response.data) == [("AB-1", "Code128")]
    assert 'filename="label-A_B.pdf"' in response.headers["Content-Disposition"]


# --- product labels as ZPL ---------------------------------------------------------------------

def test_a_zpl_label_is_one_format_with_the_ean13_field(office, depot):
    response = office.get("/products/MILK/label.zpl?lot=L-7&date_exp=2031-05-06&copies=4")
    assert response.status_code == 200
    assert response.mimetype == "application/zpl"
    assert response.headers["Content-Disposition"] == 'attachment; filename="label-MILK.zpl"'
    zpl = response.get_data(as_text=True)
    assert zpl.startswith("^XA\n") and zpl.endswith("^XZ\n") and zpl.count("^XA") == 1
    # 62x29 mm at 203 dpi.
    assert "^PW496\n" in zpl and "^LL232\n" in zpl
    # ^BE takes 12 digits and prints the check digit it computes: the same 13th digit.
    assert re.search(r"\^BY\d\^BEN,\d+,Y,N\^FD" + EAN[:12] + r"\^FS", zpl)
    assert "^FDMILK^FS" in zpl and "^FDMilk 1 l^FS" in zpl
    assert "^FDLot L-7   Best before 2031-05-06^FS" in zpl
    assert "^PQ4\n" in zpl


def test_a_zpl_label_of_a_packaging_unit_has_a_code_128_field(office, depot):
    zpl = office.get("/products/MILK/label.zpl?unit=box").get_data(as_text=True)
    assert re.search(r"\^BCN,\d+,Y,N,N,A\^FH\\\^FD" + re.escape(BOX_CODE) + r"\^FS", zpl)
    assert "^BE" not in zpl


def test_a_zpl_label_without_a_barcode_has_no_barcode_field(office, depot):
    zpl = office.get("/products/SOAP/label.zpl").get_data(as_text=True)
    assert "^FDSOAP^FS" in zpl and "^BC" not in zpl and "^BE" not in zpl


# --- labels of a goods-in document -------------------------------------------------------------

def test_a_goods_in_document_has_one_label_per_line_with_its_lot_and_best_before(office, depot):
    response = office.get(f"/documents/{depot[0]}/labels.pdf")
    assert response.status_code == 200
    reader = pdf_pages(response.data)
    assert len(reader.pages) == 3
    first, second, third = (page.extract_text() for page in reader.pages)
    assert "MILK" in first and "Lot L-MILK" in first and "Best before 2030-01-31" in first
    assert "CHEESE" in second and "Lot C1" in second and "Best before 2030-03-01" in second
    assert "SOAP" in third and "Lot" not in third
    assert scanned(response.data, 1) == [(EAN, "EAN13")]
    assert scanned(response.data, 2) == [(NOT_EAN, "Code128")]
    assert scanned(response.data, 3) == []


def test_a_goods_in_documents_labels_as_zpl_are_one_format_per_line(office, depot):
    response = office.get(f"/documents/{depot[0]}/labels.zpl")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == f'attachment; filename="labels-{depot[0]}.zpl"'
    formats = re.findall(r"\^XA\n.*?\^XZ\n", response.get_data(as_text=True), re.S)
    assert len(formats) == 3
    assert "^FDMILK^FS" in formats[0] and "^BE" in formats[0] and "^FDLot L-MILK   Best before 2030-01-31^FS" in formats[0]
    assert "^FDCHEESE^FS" in formats[1] and "^FH\\^FD" + NOT_EAN + "^FS" in formats[1]
    assert "^FDSOAP^FS" in formats[2] and "^BC" not in formats[2] and "^BE" not in formats[2]
    error_page(office.get(f"/documents/{depot[1]}/labels.zpl"), 404)


def test_a_goods_in_documents_labels_on_a_sheet(office, depot):
    reader = pdf_pages(office.get(f"/documents/{depot[0]}/labels.pdf?sheet=a4").data)
    assert len(reader.pages) == 1 and page_size_mm(reader) == (210.0, 297.0)


@pytest.mark.parametrize("number", ["2", "99", "0"])
def test_labels_of_an_unknown_or_goods_out_document_are_the_404_page(office, depot, number):
    error_page(office.get(f"/documents/{number}/labels.pdf"), 404)


def test_a_key_limited_to_warehouses_gets_labels_of_those_only(office_w1, depot):
    assert office_w1.get(f"/documents/{depot[0]}/labels.pdf").status_code == 200
    error_page(office_w1.get(f"/documents/{depot[2]}/labels.pdf"), 404)


# --- delivery note -----------------------------------------------------------------------------

def test_a_delivery_note_shows_customer_lines_and_a_signature_box(office, depot):
    response = office.get(f"/documents/{depot[1]}/delivery-note")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<h1>Delivery note O-" in html
    for shown in ("Customer 7", "Dlouhá 1", "110 00 Praha", "CZ7", "MILK", "Milk 1 l", "L-MILK", "2030-01-31",
                  ">5<", "Received by", "Handed over by", "<dd>Main</dd>"):
        assert shown in html, shown
    assert re.search(r'href="/assets/paper\.[0-9a-f]{12}\.css"', html)  # the paper's stylesheet, hashed


def test_a_stocktakings_adjustment_has_no_delivery_note(office, depot, api):
    # Found by a new user: a count's loss was offered a delivery note, "deliver to" nobody.
    Scanner(api).book("V", "I", [item("SOAP", 4)], number=60)
    with db.engine.connect() as connection:
        adjustment = connection.execute(select(WarehouseDocument.doc_number).where(
            WarehouseDocument.direction == "O", WarehouseDocument.batch_number < 0)).scalar_one()
    error_page(office.get(f"/documents/{adjustment}/delivery-note"), 404)
    html = office.get("/documents").get_data(as_text=True)
    assert html.count("A stocktaking's adjustment") == 1
    assert html.count(">Delivery note</a>") == 1  # the shipment's, depot[1]


@pytest.mark.parametrize("number", ["1", "99"])
def test_a_delivery_note_of_an_unknown_or_goods_in_document_is_the_404_page(office, depot, number):
    error_page(office.get(f"/documents/{number}/delivery-note"), 404)


def test_a_key_limited_to_warehouses_gets_delivery_notes_of_those_only(office_w1, api, depot):
    assert office_w1.get(f"/documents/{depot[1]}/delivery-note").status_code == 200
    Scanner(api).book("R", "O", [item("SOAP", 1)], warehouse=2, number=50)
    error_page(office_w1.get(f"/documents/{depot[2] + 1}/delivery-note"), 404)


# --- count sheet -------------------------------------------------------------------------------

def test_a_count_sheet_lists_products_and_lots_in_book_stock_without_amounts(office, depot):
    response = office.get("/warehouses/1/count-sheet")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    rows = re.findall(r'<tr data-product="([^"]+)"><td>\d+</td><td>[^<]*</td><td>([^<]*)</td>\s*<td>([^<]*)</td>'
                      r'<td>([^<]*)</td><td class="write"></td></tr>', html)
    assert rows == [("CHEESE", "Edam cheese", "C1", "kg"), ("MILK", "Milk 1 l", "L-MILK", "pc"),
                    ("SOAP", "Liquid soap", "", "pc")]
    # A blind count: neither 35 milk nor 2.5 cheese nor 6 soap is on the sheet.
    for amount in (">35<", ">2.5<", ">6<"):
        assert amount not in html
    assert html.count('<tr class="extra">') == 10


def test_a_count_sheet_of_a_warehouse_without_stock_says_so(office, depot):
    html = office.get("/warehouses/5/count-sheet").get_data(as_text=True)
    assert "data-product" not in html and "Nothing is in book stock in Warehouse 5" in html


def test_a_key_limited_to_warehouses_gets_count_sheets_of_those_only(office_w1, depot):
    assert "data-product=\"MILK\"" in office_w1.get("/warehouses/1/count-sheet").get_data(as_text=True)
    html = error_page(office_w1.get("/warehouses/2/count-sheet"), 404)
    assert "SOAP" not in html


# --- the setting -------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, size", [("", (62.0, 29.0)), ("100x50", (100.0, 50.0)), (" 101.6X152.4 ", (101.6, 152.4)),
                                       ("62x29mm", (62.0, 29.0)), ("15x300", (15.0, 300.0))])
def test_the_label_size_setting_is_read(raw, size):
    assert settings.app_config({"WAREHOUSE_LABEL_SIZE": raw})["LABEL_SIZE"] == size


@pytest.mark.parametrize("raw", ["62", "62x", "x29", "62x29x3", "wide", "62;29", "14x29", "62x301", "nanxnan",
                                 "-62x29"])
def test_a_label_size_that_does_not_parse_stops_the_start_naming_the_setting(raw):
    with pytest.raises(SettingError, match="WAREHOUSE_LABEL_SIZE"):
        settings.app_config({"WAREHOUSE_LABEL_SIZE": raw})


def test_the_documents_page_links_each_document_to_its_paper(office, depot):
    html = office.get("/documents?date_from=2000-01-01").get_data(as_text=True)
    assert f'href="/documents/{depot[0]}/labels.pdf"' in html
    assert f'href="/documents/{depot[1]}/delivery-note"' in html
    assert f'href="/documents/{depot[1]}/labels.pdf"' not in html


# --- goods-in labels per package ---------------------------------------------------------------

@pytest.fixture
def crates(api, depot):
    """A goods-in of warehouse 1: 16 boxes of 12 milk (192 pc), 2.5 boxes (30 pc), 7 soap scanned as pieces
    and 2.5 kg of cheese; its doc_number."""
    Scanner(api).book("R", "I", [item("MILK", 16, "box", lot="L-16", date_exp="2030-02-28"),
                                 item("MILK", "2.5", "box", lot="L-HALF", date_exp="2030-02-28"),
                                 item("SOAP", 7), item("CHEESE", "2.5", "kg", lot="C2", date_exp="2030-03-01")],
                      number=70)
    return depot[2] + 1


def test_labels_per_package_are_one_per_box_with_the_boxs_barcode(office, crates):
    by_line = pdf_pages(office.get(f"/documents/{crates}/labels.pdf").data)
    assert len(by_line.pages) == 4  # one a line, as before
    response = office.get(f"/documents/{crates}/labels.pdf?per=package")
    assert response.status_code == 200
    reader = pdf_pages(response.data)
    # 16 boxes; 2 whole boxes and 6 loose pieces of the half box; 7 pieces of soap; the cheese weighed, once.
    assert len(reader.pages) == 16 + 2 + 6 + 7 + 1
    pages = [page.extract_text() for page in reader.pages]
    assert all("Lot L-16" in text and "Best before 2030-02-28" in text for text in pages[:16])
    for page in (1, 16, 17, 18):
        assert scanned(response.data, page) == [(BOX_CODE, "Code128")]
    for page in (19, 24):  # the loose pieces scan as pieces
        assert scanned(response.data, page) == [(EAN, "EAN13")]
    assert "Lot L-HALF" in pages[23] and "SOAP" in pages[24] and "CHEESE" in pages[31]


def test_labels_per_package_as_zpl_are_one_format_printed_as_often_as_there_are_boxes(office, crates):
    zpl = office.get(f"/documents/{crates}/labels.zpl?per=package").get_data(as_text=True)
    formats = re.findall(r"\^XA\n.*?\^XZ\n", zpl, re.S)
    assert [re.search(r"\^PQ(\d+)", f).group(1) for f in formats] == ["16", "2", "6", "7", "1"]
    assert re.escape(BOX_CODE) and "^FH\\^FD" + BOX_CODE + "^FS" in formats[0]
    assert "^BE" in formats[2]  # the loose pieces: the base unit's EAN


@pytest.mark.parametrize("query, field", [("per=box", "per"), ("sheet=a4&per=package", "sheet")])
def test_a_bad_labels_parameter_is_the_422_page_naming_it(office, crates, query, field):
    html = error_page(office.get(f"/documents/{crates}/labels.zpl?{query}"), 422)
    assert f"<code>{field}</code>" in html


def test_the_documents_page_offers_labels_per_package(office, crates):
    html = office.get("/documents?date_from=2000-01-01").get_data(as_text=True)
    assert f'href="/documents/{crates}/labels.pdf?per=package"' in html


# --- the depot on paper, warehouses by name -----------------------------------------------------

@pytest.fixture
def profile(session):
    depot_profile.update_profile(session, Actor("tests", "cli"), {
        "name": "Riverside depot", "address": "Quay 4\n1000 Ljubljana", "vat_number": "SI12345678"})
    session.remove()


def test_a_delivery_note_names_its_order_its_sender_and_the_lots_best_before(office, api, depot, profile):
    # A scanner that sends no best-before with a goods-out: the lot's own is known from its goods-in.
    created(api.post("/v1/documents/", order("OUT-8", items=[order_item(1, "MILK", 3)], directions=("O",),
                                             id_customer=7)))
    Scanner(api).book("R", "O", [item("MILK", 3, lot="L-MILK")], document_number="OUT-8", number=80)
    html = office.get(f"/documents/{depot[2] + 1}/delivery-note").get_data(as_text=True)
    assert '<dd id="order-number">OUT-8</dd>' in html
    sender = re.search(r'<section class="sender".*?</section>', html, re.S).group(0)
    for shown in ("Riverside depot", "Quay 4<br>", "1000 Ljubljana<br>", "VAT SI12345678"):
        assert shown in sender, shown
    assert re.search(r"<td>L-MILK</td>\s*<td class=\"date\">2030-01-31</td>", html)
    assert '<strong class="depot-name">Riverside depot</strong>' in html


def test_a_delivery_note_of_a_shipment_without_an_order_has_no_order_line(office, api, depot, profile):
    Scanner(api).book("R", "O", [item("SOAP", 1)], number=81)
    html = office.get(f"/documents/{depot[2] + 1}/delivery-note").get_data(as_text=True)
    assert 'id="order-number"' not in html and "Riverside depot" in html


def test_the_depots_logo_heads_the_paper_when_it_has_one(office, session, depot):
    import io

    from PIL import Image
    logo = io.BytesIO()
    Image.new("RGB", (60, 20), (0, 0, 0)).save(logo, "PNG")
    depot_profile.update_profile(session, Actor("tests", "cli"), {"name": "Riverside depot"}, logo.getvalue())
    session.remove()
    for path in (f"/documents/{depot[1]}/delivery-note", "/warehouses/1/count-sheet"):
        assert '<img src="/depot/logo" alt="Riverside depot" class="paper-logo">' in office.get(path).get_data(as_text=True)


def test_a_count_sheet_and_a_pick_list_carry_the_depot_and_the_warehouses_name(office, api, depot, profile):
    assert api.post("/v1/warehouses/1", {"name": "Main hall"}).status_code == 200
    sheet = office.get("/warehouses/1/count-sheet").get_data(as_text=True)
    assert "<h1>Count sheet: Main hall</h1>" in sheet and "<dd>Main hall</dd>" in sheet
    assert '<strong class="depot-name">Riverside depot</strong>' in sheet and "warehouse 1" not in sheet
    picks = office.get("/orders/OUT-7/pick-list").get_data(as_text=True)
    assert "<dd>Main hall</dd>" in picks and "Riverside depot" in picks
    assert re.search(r'href="/assets/paper\.[0-9a-f]{12}\.css"', picks)


def test_each_open_order_links_its_pick_list_and_stock_and_stocktakings_link_count_sheets(office, api, app, person,
                                                                                          depot):
    person("read_w1", [1])  # before any page: the depot's session would keep a view from before it
    created(api.post("/v1/documents/", order("OPEN-9", items=[order_item(1, "MILK", 2)], directions=("O",))))
    assert 'href="/orders/OPEN-9/pick-list"' in office.get("/orders/OPEN-9").get_data(as_text=True)
    assert "/pick-list" not in office.get("/orders/OUT-7").get_data(as_text=True)  # delivered: closed
    for path in ("/", "/stocktakings"):
        html = office.get(path).get_data(as_text=True)
        assert '<a href="/warehouses/1/count-sheet">Main</a>' in html
        assert '<a href="/warehouses/2/count-sheet">Warehouse 2</a>' in html
    limited = app.test_client()
    assert sign_in(limited, "read_w1").status_code == 302
    html = limited.get("/stocktakings").get_data(as_text=True)
    assert 'href="/warehouses/1/count-sheet"' in html and 'href="/warehouses/2/count-sheet"' not in html
