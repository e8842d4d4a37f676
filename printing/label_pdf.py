"""Labels as PDF, drawn with reportlab: one label per page, or sheets of them on A4.

Text is set in DejaVu Sans where Debian's fonts-dejavu-core is installed (it covers the
accented and Cyrillic letters of product names), else in Bitstream Vera, which reportlab
itself ships. Both are embedded in the PDF, so it prints alike on any computer.
"""
import io
import os
import threading

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode import code128, eanbc
from reportlab.graphics.shapes import Drawing
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from printing.barcodes import EAN13, symbology
from printing.layout import A4, SHEET_MARGIN, Layout, foot, layout, sheet_grid

FONT, BOLD = "LabelSans", "LabelSans-Bold"
_FONT_FILES = (
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    ("Vera.ttf", "VeraBd.ttf"),  # found on reportlab's own font path
)
# A module of EAN-13 at 100 % is 0.33 mm; Code 128 is read well from 0.25 mm up to about 0.5 mm.
EAN13_MODULE_MM = 0.33
CODE128_MODULE_MM = 0.4
_fonts_lock = threading.Lock()
_fonts_ready = False
# Saving a PDF cuts the subset of each font it used out of the font file, read through the
# one read position that file keeps for every document (reportlab's TTFontFile seek and read).
# Two labels saved at once in two of the service's threads moved it under each other: a
# composite letter (Ž is Z and a caron) then came out as another glyph, or not at all
# (KeyError). One save at a time; the drawing before it needs no lock.
_saving_lock = threading.Lock()


def _register_fonts() -> None:
    global _fonts_ready
    with _fonts_lock:
        if _fonts_ready:
            return
        for regular, bold in _FONT_FILES:
            if regular.startswith("/") and not (os.path.exists(regular) and os.path.exists(bold)):
                continue
            pdfmetrics.registerFont(TTFont(FONT, regular))
            pdfmetrics.registerFont(TTFont(BOLD, bold))
            break
        _fonts_ready = True


def labels_pdf(labels: list[dict], size: tuple[float, float], sheet: bool = False,
               title: str = "Labels", words=None) -> bytes:
    """The labels as one PDF: each on a page of the label's size (mm), or side by side on A4.
    `words`: the translator of the labels' words (layout.py foot), English when none."""
    _register_fonts()
    out = io.BytesIO()
    page = A4 if sheet else size
    pdf = canvas.Canvas(out, pagesize=(page[0] * mm, page[1] * mm), pageCompression=1)
    pdf.setTitle(title)
    pdf.setCreator("Warehouse service")
    box = layout(size)
    columns, rows = sheet_grid(size) if sheet else (1, 1)
    per_page = columns * rows
    # Each different label is drawn once, as a form that every copy of it places: 500 copies
    # cost one drawing, and the file holds it once. So is each barcode (at each height a foot
    # leaves it), which is the slow part to draw and which the lines of one product share,
    # lot after lot.
    forms, barcodes = {}, {}
    for index, label in enumerate(labels):
        key = tuple(sorted(label.items()))
        if key not in forms:
            bottom = foot(label, box, text_width, words)
            barcode = (label["barcode"], bottom.barcode_height, label.get("symbology"))
            if barcode not in barcodes:
                barcodes[barcode] = f"barcode{len(barcodes)}"
                pdf.beginForm(barcodes[barcode], 0, 0, box.inner_width * mm, bottom.barcode_height * mm)
                draw_barcode(pdf, label["barcode"], 0, 0, box.inner_width * mm, bottom.barcode_height * mm,
                             label.get("symbology"))
                pdf.endForm()
            forms[key] = f"label{len(forms)}"
            pdf.beginForm(forms[key], 0, 0, size[0] * mm, size[1] * mm)
            _draw_label(pdf, label, box, bottom, barcodes[barcode])
            pdf.endForm()
        if index and index % per_page == 0:
            pdf.showPage()
        cell = index % per_page
        if sheet:
            x = SHEET_MARGIN + (cell % columns) * size[0]
            y = A4[1] - SHEET_MARGIN - (cell // columns + 1) * size[1]
        else:
            x = y = 0.0
        pdf.saveState()
        pdf.translate(x * mm, y * mm)
        pdf.doForm(forms[key])
        pdf.restoreState()
    pdf.showPage()
    with _saving_lock:
        pdf.save()
    return out.getvalue()


def text_width(text: str, height_mm: float) -> float:
    """The width in millimetres of `text` set in the labels' font at a height of `height_mm`."""
    if not _fonts_ready:
        _register_fonts()
    return pdfmetrics.stringWidth(text, FONT, height_mm * mm) / mm


def _draw_label(pdf, label: dict, box: Layout, bottom, barcode_form: str) -> None:
    def top_to_y(top_mm: float, height_mm: float) -> float:
        """reportlab counts up from the bottom; the layout counts down from the top."""
        return (box.height - top_mm - height_mm) * mm

    x = box.margin * mm
    width = box.inner_width * mm
    _text(pdf, label["product_code"], BOLD, box.code_height, x, top_to_y(box.code_top, box.code_height), width)
    _text(pdf, label["name"], FONT, box.name_height, x, top_to_y(box.name_top, box.name_height), width)
    for text, top, height in bottom.lines:
        _text(pdf, text, FONT, height, x, top_to_y(top, height), width)
    pdf.saveState()
    pdf.translate(x, top_to_y(box.barcode_top, bottom.barcode_height))
    pdf.doForm(barcode_form)
    pdf.restoreState()


def _text(pdf, text: str, font: str, height_mm: float, x: float, y: float, width: float) -> None:
    """One line in a box height_mm tall (the font's size), cut with an ellipsis where it is too wide."""
    size = height_mm * mm
    pdf.setFont(font, size)
    # The baseline sits above the descenders, which take about a fifth of the font size.
    pdf.drawString(x, y + size * 0.2, fit(text, font, size, width))


def fit(text: str, font: str, size: float, width: float) -> str:
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def draw_barcode(pdf, barcode: str, x: float, y: float, width: float, height: float,
                 only: str | None = None) -> None:
    """The barcode with its digits below, at most `width` wide and `height` tall (points), its
    bottom left at (x, y); nothing when there is no barcode. Modules shrink below the nominal
    size only as far as the width demands. `only`: the symbology a label insists on (symbology)."""
    kind = symbology(barcode, only)
    if kind is None:
        return
    font_size = min(8.0, height * 0.22)
    if kind == EAN13:
        # The widget takes 12 digits and computes the 13th, which symbology() has checked.
        symbol = eanbc.Ean13BarcodeWidget(barcode[:12])
        modules = 113  # 95 modules and the quiet zones, 11 left and 7 right
        symbol.barWidth = min(EAN13_MODULE_MM * mm, width / modules)
        symbol.fontSize, symbol.fontName, symbol.barHeight = font_size, "Helvetica", height
        drawing = Drawing(symbol.barWidth * modules, height)
        drawing.add(symbol)
        renderPDF.draw(drawing, pdf, x, y)
        return
    modules = code128.Code128(barcode, barWidth=1, quiet=1).width
    symbol = code128.Code128(barcode, barWidth=min(CODE128_MODULE_MM * mm, width / modules),
                             barHeight=height - font_size * 1.25, quiet=1, humanReadable=True,
                             fontName="Helvetica", fontSize=font_size)
    # Code 128 sets its digits below its own bottom edge: lift it by their height.
    symbol.drawOn(pdf, x, y + font_size * 1.25)
