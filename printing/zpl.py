"""Labels as ZPL II, the language of Zebra label printers, for 203 dpi (8 dots a millimetre).

One format per label (^XA ... ^XZ), printed `copies` times by the printer itself (^PQ), laid
out as the PDF is (layout.py). Text is sent as UTF-8 (^CI28) with ^FH, so that a ^ or ~ in a
name or a Code 128 barcode is data, never a command.
"""
from printing.barcodes import EAN13, symbology
from printing.layout import Layout, cut, foot, layout

DOTS_PER_MM = 8  # "203 dpi" is 8 dots a millimetre exactly: Zebra's own tables count so
# The average width of a character of the printer's font 0 (a condensed face), as a share of its
# height: an estimate (the printer cannot be asked), by which a long line is cut before the edge.
FONT0_WIDTH = 0.5


def dots(millimetres: float) -> int:
    return round(millimetres * DOTS_PER_MM)


def field_data(text: str) -> str:
    """Text as ^FH field data: the escape character, ^ and ~ as hexadecimal; control characters dropped."""
    text = "".join(ch for ch in text if ch.isprintable())
    return text.replace("\\", "\\5C").replace("^", "\\5E").replace("~", "\\7E")


def label_zpl(label: dict, size: tuple[float, float], copies: int = 1, words=None) -> str:
    """One label format, printed `copies` times; `words` translates its words (layout.py foot)."""
    box = layout(size)
    left = dots(box.margin)
    lines = ["^XA", "^CI28", f"^PW{dots(box.width)}", f"^LL{dots(box.height)}", "^LH0,0"]
    lines.append(_text(label["product_code"], left, box.code_top, box.code_height, box))
    lines.append(_text(label["name"], left, box.name_top, box.name_height, box))
    bottom = foot(label, box, text_width, words)
    barcode = _barcode(label["barcode"], left, box, bottom.barcode_height, label.get("symbology"))
    if barcode:
        lines.append(barcode)
    for text, top, height in bottom.lines:
        lines.append(_text(text, left, top, height, box))
    lines += [f"^PQ{copies}", "^XZ"]
    return "\n".join(lines) + "\n"


def labels_zpl(labels: list[dict], size: tuple[float, float], words=None) -> str:
    """Several labels, one format each, to send in one go; copies of one label in a row (a line's
    packages) are one format that the printer prints that many times."""
    formats, index = [], 0
    while index < len(labels):
        copies = 1
        while index + copies < len(labels) and labels[index + copies] == labels[index]:
            copies += 1
        formats.append(label_zpl(labels[index], size, copies, words))
        index += copies
    return "".join(formats)


def text_width(text: str, height_mm: float) -> float:
    """The width in millimetres the printer's font 0 takes for `text` at `height_mm`, as estimated."""
    return len(text) * height_mm * FONT0_WIDTH


def _text(text: str, left: int, top_mm: float, height_mm: float, box: Layout) -> str:
    # Whole dots, rounded down, so that a line fitted to the width (layout.foot) stays within it.
    # The printer does not shorten a line that is too long: one is cut here, as the PDF does.
    height = max(int(height_mm * DOTS_PER_MM), 1)
    text = cut(text, height / DOTS_PER_MM, box.inner_width, text_width)
    return f"^FO{left},{dots(top_mm)}^A0N,{height},{height}^FH\\^FD{field_data(text)}^FS"


def _barcode(barcode: str, left: int, box: Layout, height_mm: float, only: str | None = None) -> str | None:
    kind = symbology(barcode, only)
    if kind is None:
        return None
    room = dots(box.inner_width)
    # The digits printed under the bars take about 2.5 mm of the barcode's height.
    bar_height = max(dots(height_mm - 2.5), 8)
    top = dots(box.barcode_top)
    if kind == EAN13:
        module = _module_width(95 + 18, room)
        # ^BE takes the 12 digits and prints the check digit it computes itself, the same one.
        return f"^FO{left},{top}^BY{module}^BEN,{bar_height},Y,N^FD{barcode[:12]}^FS"
    # Start, check and stop symbols, and 11 modules for each character at most; 20 for quiet zones.
    module = _module_width(11 * len(barcode) + 35 + 20, room)
    return f"^FO{left},{top}^BY{module}^BCN,{bar_height},Y,N,N,A^FH\\^FD{field_data(barcode)}^FS"


def _module_width(modules: int, room: int) -> int:
    """The widest narrow bar, in dots, with which the symbol fits (1 at the least: a long code
    on a small label is printed too wide rather than not at all)."""
    return next((width for width in (3, 2) if modules * width <= room), 1)
