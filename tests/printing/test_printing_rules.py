"""printing/ on its own: the choice of symbology, what a label carries, its PDF and ZPL, and the
data of delivery notes and count sheets on a session (no HTTP).

tests/printing/test_printing.py tests the same through the office pages.
"""
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from reportlab.pdfbase.ttfonts import TTFontFile

from helpers import add_order, item, order, order_item, product
from printing import barcodes, label_pdf, labels, layout, paper, zpl
from schemas import product_schema
from scanning import page_size_mm, pdf_pages, scanned
from stock import catalog
from stock.errors import Invalid, NotFound
from helpers import add_customers

EAN = "4006381333931"


def a_label(**fields):
    return {"product_code": "MILK", "name": "Milk 1 l", "unit": "pc", "barcode": EAN, "lot": "", "date_exp": "",
            **fields}


# --- symbology ---------------------------------------------------------------------------------

@pytest.mark.parametrize("first_twelve, check", [("400638133393", 1), ("590123412345", 7), ("000000000000", 0),
                                                 ("978030640615", 7)])
def test_the_ean13_check_digit(first_twelve, check):
    assert barcodes.ean13_check_digit(first_twelve) == check


@pytest.mark.parametrize("barcode, kind", [
    (EAN, barcodes.EAN13), ("5901234123457", barcodes.EAN13),
    ("4006381333932", barcodes.CODE128),    # wrong check digit
    ("400638133393", barcodes.CODE128),     # 12 digits
    ("40063813339310", barcodes.CODE128),   # 14 digits
    ("４００６３８１３３３９３１", None),       # full-width digits: not ASCII, so no Code 128 either
    ("BOX-12/a b", barcodes.CODE128), ("", None), ("tab\there", None), ("Čaj", None),
])
def test_the_symbology_of_a_barcode(barcode, kind):
    assert barcodes.symbology(barcode) == kind


# --- what a label carries ----------------------------------------------------------------------

@pytest.fixture
def milk(session):
    catalog.create_product(session, product_schema.load(product(
        "MILK", name="Milk 1 l", base_unit_barcode=EAN, lot_level=1,
        packaging=[{"unit": "box", "amount_base_units": 12, "barcode": "BOX-1"},
                   {"unit": "crate", "amount_base_units": 120, "barcode": ""}])))
    return catalog.get_product(session, "MILK")


def test_a_label_of_the_base_unit_or_a_packaging_unit(milk):
    assert labels.product_label(milk) == a_label()
    assert labels.product_label(milk, "pc", "L1", "2030-01-31") == a_label(lot="L1", date_exp="2030-01-31")
    assert labels.product_label(milk, "box") == a_label(unit="box", barcode="BOX-1")
    assert labels.product_label(milk, "crate") == a_label(unit="crate", barcode="")


def test_a_unit_the_product_lacks_is_invalid_naming_unit(milk):
    with pytest.raises(Invalid) as refused:
        labels.product_label(milk, "pallet")
    assert refused.value.fields == {"unit": ["Must be one of: pc, box, crate."]}


@pytest.fixture
def booked(session, scanner, catalog_products, milk):
    """Goods-in of milk (by lot) and P1 in warehouse 1 (doc 1), in warehouse 2 (doc 2); goods-out (doc 3)."""
    scanner.book("R", "I", [item("MILK", 3, lot="A", date_exp="2030-01-31"), item("P1", 2, "box")])
    scanner.book("R", "I", [item("P2", 1)], warehouse=2)
    scanner.book("R", "O", [item("P1", 1)])


def test_goods_in_labels_one_per_line_in_base_units(session, callers, booked):
    assert labels.goods_in_labels(session, callers["alice"], 1) == [
        a_label(lot="A", date_exp="2030-01-31"),
        {"product_code": "P1", "name": "Product P1", "unit": "pc", "barcode": "", "lot": "", "date_exp": ""}]


@pytest.mark.parametrize("caller, number", [("alice", 3), ("alice", 4), ("carol", 2)])
def test_goods_in_labels_of_a_goods_out_unknown_or_unseen_document_are_not_found(session, callers, booked,
                                                                                  caller, number):
    with pytest.raises(NotFound):
        labels.goods_in_labels(session, callers[caller], number)


# --- layout ------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(62, 29), (15, 15), (100, 150), (300, 300), (25, 300)])
def test_the_layout_fits_inside_the_label_top_to_bottom(size):
    box = layout.layout(size)
    assert box.margin < box.code_top + box.code_height < box.name_top < box.name_top + box.name_height
    assert box.name_top + box.name_height < box.barcode_top
    assert box.barcode_height > 3
    assert box.barcode_top + box.barcode_height < box.foot_top
    assert box.foot_top + box.foot_height <= size[1] - box.margin + 1e-9


@pytest.mark.parametrize("size, grid", [((62, 29), (3, 9)), ((100, 50), (1, 5)), ((70, 37), (2, 7)),
                                        ((210, 297), (1, 1)), ((300, 300), (1, 1))])
def test_labels_on_a_sheet(size, grid):
    assert layout.sheet_grid(size) == grid


LABEL_SIZES = [(62, 29), (101.6, 152.4), (100, 50), (15, 15), (25, 300)]  # the default roll, 4x6 in, others
LOTS = ["", "L1", "L-2027-00012", "LOT-2027-0042-ABCDEFGH-XYZ", "X" * 60]


@pytest.mark.parametrize("width_of", [label_pdf.text_width, zpl.text_width], ids=["pdf", "zpl"])
@pytest.mark.parametrize("size", LABEL_SIZES)
@pytest.mark.parametrize("lot", LOTS)
def test_the_foot_keeps_the_whole_best_before_within_the_label(width_of, size, lot):
    box = layout.layout(size)
    bottom = layout.foot(a_label(lot=lot, date_exp="2027-01-31"), box, width_of)
    texts = [text for text, _, _ in bottom.lines]
    assert "Best before 2027-01-31" in " ".join(texts)  # the date whole, never cut
    for text, top, height in bottom.lines:
        assert width_of(text, height) <= box.inner_width + 1e-9
        assert box.barcode_top + bottom.barcode_height < top and top + height <= size[1] - box.margin + 1e-9
        # Readable on a label of a sane width; on a 15 mm one the date shrinks rather than lose a digit.
        assert height >= min(box.foot_height, layout.SMALLEST_TEXT) - 1e-9 or size[0] < 40
    assert bottom.barcode_height > 2
    if lot:
        shown = texts[0].split("   ")[0]
        # The lot shrinks or takes a line of its own; only one too long for even that is cut.
        assert shown == f"Lot {lot}" or (shown.endswith("…") and (len(lot) >= 25 or size[0] < 40))


def test_a_lot_and_date_that_fit_share_one_line_and_a_long_lot_gets_its_own():
    box = layout.layout((62, 29))
    short = layout.foot(a_label(lot="L1", date_exp="2030-01-31"), box, label_pdf.text_width)
    assert [text for text, _, _ in short.lines] == ["Lot L1   Best before 2030-01-31"]
    assert short.barcode_height == box.barcode_height and short.lines[0][2] == box.foot_height
    # The 12-character lot that cut the date (issue 34) shares the line, a little smaller.
    twelve = layout.foot(a_label(lot="L-2027-00012", date_exp="2030-01-31"), box, label_pdf.text_width)
    assert [text for text, _, _ in twelve.lines] == ["Lot L-2027-00012   Best before 2030-01-31"]
    assert box.foot_height * layout.ONE_LINE_SHRINK <= twelve.lines[0][2] < box.foot_height
    long = layout.foot(a_label(lot="LOT-2027-0042-ABCDEFGH", date_exp="2030-01-31"), box, label_pdf.text_width)
    assert [text for text, _, _ in long.lines] == ["Lot LOT-2027-0042-ABCDEFGH", "Best before 2030-01-31"]
    assert long.barcode_height < box.barcode_height
    assert layout.foot(a_label(), box, label_pdf.text_width).lines == ()
    assert [t for t, _, _ in layout.foot(a_label(lot="L1"), box, label_pdf.text_width).lines] == ["Lot L1"]


@pytest.mark.parametrize("size", [(62, 29), (101.6, 152.4)])
@pytest.mark.parametrize("lot", LOTS[1:4])
def test_a_label_pdf_prints_the_whole_best_before_and_its_barcode_scans(size, lot):
    body = label_pdf.labels_pdf([a_label(lot=lot, date_exp="2027-01-31")], size)
    text = pdf_pages(body).pages[0].extract_text()
    assert "Best before 2027-01-31" in text and f"Lot {lot}" in text
    assert scanned(body) == [(EAN, "EAN13")]


@pytest.mark.parametrize("size", [(62, 29), (101.6, 152.4)])
@pytest.mark.parametrize("lot", LOTS[1:])
def test_a_zpl_label_keeps_the_whole_best_before_inside_the_label(size, lot):
    text = zpl.label_zpl(a_label(lot=lot, date_exp="2027-01-31"), size)
    width = int(re.search(r"\^PW(\d+)", text).group(1))
    fields = re.findall(r"\^FO(\d+),(\d+)\^A0N,(\d+),\d+\^FH\\\^FD([^^]*)\^FS", text)
    assert any(data.endswith("Best before 2027-01-31") for *_, data in fields)
    for left, _, height, data in fields:  # each line ends within the label, by the printer font's estimate
        assert int(left) + len(data) * int(height) * zpl.FONT0_WIDTH <= width - int(left)


# --- PDF ---------------------------------------------------------------------------------------

def test_a_long_name_is_cut_with_an_ellipsis_and_accented_letters_are_kept():
    name = "Čerstvé plnotučné mlieko z horskej farmy, balené v sklenenej fľaši"
    reader = pdf_pages(label_pdf.labels_pdf([a_label(name=name)], (62, 29)))
    text = reader.pages[0].extract_text()
    shown = next(line for line in text.splitlines() if line.startswith("Čerstvé"))
    assert shown.endswith("…") and name.startswith(shown[:-1]) and len(shown) < len(name)


def test_a_long_code_128_shrinks_to_the_label_and_still_scans():
    code = "LONG-CODE-128-0123456789"
    assert scanned(label_pdf.labels_pdf([a_label(barcode=code)], (62, 29))) == [(code, "Code128")]


@pytest.mark.parametrize("size", [(100, 150), (40, 20)])
def test_other_label_sizes_scan(size):
    body = label_pdf.labels_pdf([a_label(), a_label(barcode="ABC-1")], size)
    reader = pdf_pages(body)
    assert len(reader.pages) == 2 and page_size_mm(reader) == (float(size[0]), float(size[1]))
    assert scanned(body, 1) == [(EAN, "EAN13")]
    assert scanned(body, 2) == [("ABC-1", "Code128")]


def test_labels_drawn_at_once_in_several_threads_each_carry_their_own_text():
    # The service draws in its worker threads; reportlab keeps fonts in one registry for all.
    names = [f"Product {index} Žltý" for index in range(16)]
    with ThreadPoolExecutor(4) as pool:
        bodies = list(pool.map(lambda name: label_pdf.labels_pdf([a_label(name=name)] * 3, (62, 29)), names))
    for name, body in zip(names, bodies):
        reader = pdf_pages(body)
        assert len(reader.pages) == 3
        assert all(name in page.extract_text() for page in reader.pages)


def test_labels_saved_in_several_threads_cut_their_fonts_one_at_a_time(monkeypatch):
    # The race above shows about once in 40 runs: here each cut of a font's subset is made slow
    # enough that two threads would meet in it every time, were they let in together.
    inside, most = [0], [0]
    counting = threading.Lock()
    make_subset = TTFontFile.makeSubset

    def slow_make_subset(self, subset):
        with counting:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.01)
        try:
            return make_subset(self, subset)
        finally:
            with counting:
                inside[0] -= 1

    monkeypatch.setattr(TTFontFile, "makeSubset", slow_make_subset)
    with ThreadPoolExecutor(4) as pool:
        bodies = list(pool.map(lambda n: label_pdf.labels_pdf([a_label(name=f"Žltý {n}")], (62, 29)), range(8)))
    assert most == [1]
    assert [pdf_pages(body).pages[0].extract_text().count(f"Žltý {n}") for n, body in enumerate(bodies)] == [1] * 8


# --- ZPL ---------------------------------------------------------------------------------------

def test_zpl_field_data_cannot_carry_a_command():
    assert zpl.field_data("a^XZ~JR\\b\x00c") == "a\\5EXZ\\7EJR\\5Cb" + "c"


def test_a_zpl_label_escapes_its_text_and_barcode():
    text = zpl.label_zpl(a_label(name="Milk ^XZ", barcode="A^B~C", lot="L~1"), (62, 29))
    assert text.count("^XZ") == 1 and text.endswith("^XZ\n")
    assert "^FH\\^FDMilk \\5EXZ^FS" in text
    assert "^BCN," in text and "^FDA\\5EB\\7EC^FS" in text
    assert "^FDLot L\\7E1^FS" in text
    assert "^CI28" in text  # UTF-8


def test_a_zpl_label_narrows_the_bars_of_a_long_code_and_cuts_a_long_name():
    short = zpl.label_zpl(a_label(barcode="AB1"), (62, 29))
    long = zpl.label_zpl(a_label(barcode="X" * 30, name="N" * 200), (62, 29))
    assert "^BY3^BC" in short and "^BY1^BC" in long
    name = re.search(r"\^FD(N+…)\^FS", long).group(1)
    assert 10 < len(name) < 60


def test_several_zpl_labels_are_one_format_each():
    text = zpl.labels_zpl([a_label(), a_label(barcode="B")], (62, 29))
    assert text.count("^XA") == 2 and text.count("^XZ") == 2 and "^BE" in text and "^BC" in text


# --- paper -------------------------------------------------------------------------------------

def test_a_delivery_note_has_the_orders_customer_and_the_lines(session, callers, scanner, catalog_products):
    add_customers(session, 7)
    add_order(session, callers["alice"], order("D1", items=[order_item(1, "P1", 2)], directions=("O",),
                                               id_customer=7))
    scanner.receive(("P1", 5))
    scanner.book("R", "O", [item("P1", 2)], document_number="D1")
    note = paper.delivery_note(session, callers["alice"], 2)
    assert note["customer"].name == "Customer 7"
    assert note["document"]["ufid"].startswith("O-")
    assert [(line["product_code"], line["amount_base_milli"]) for line in note["lines"]] == [("P1", 2000)]
    with pytest.raises(NotFound):
        paper.delivery_note(session, callers["alice"], 1)  # goods-in


def test_a_delivery_note_without_a_customer(session, callers, scanner, catalog_products):
    scanner.receive(("P1", 5), warehouse=2)
    scanner.ship(("P1", 1), warehouse=2)
    assert paper.delivery_note(session, callers["alice"], 2)["customer"] is None
    with pytest.raises(NotFound):
        paper.delivery_note(session, callers["carol"], 2)  # carol sees warehouse 1 only


def test_a_count_sheet_has_every_product_and_lot_in_book_stock_of_the_warehouse(session, callers, booked):
    sheet = paper.count_sheet(session, callers["carol"], 1)
    assert [(row["product_code"], row["lot"]) for row in sheet["rows"]] == [("MILK", "A"), ("P1", "")]
    assert paper.count_sheet(session, callers["alice"], 9)["rows"] == []
    with pytest.raises(NotFound):
        paper.count_sheet(session, callers["carol"], 2)


# --- a label that insists on Code 128 (a location's code, DESIGN 27) ----------------------------

def test_a_label_that_insists_on_code_128_never_prints_an_ean13():
    assert barcodes.symbology(EAN) == barcodes.EAN13
    assert barcodes.symbology(EAN, only=barcodes.CODE128) == barcodes.CODE128
    assert barcodes.symbology("", only=barcodes.CODE128) is None
    label = a_label(symbology=barcodes.CODE128)
    text = zpl.label_zpl(label, (62, 29))
    assert "^BC" in text and "^BE" not in text and f"^FD{EAN}^FS" in text
    body = label_pdf.labels_pdf([label, a_label()], (62, 29))
    assert scanned(body, 1) == [(EAN, "Code128")] and scanned(body, 2) == [(EAN, "EAN13")]
