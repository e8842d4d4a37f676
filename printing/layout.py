"""Where things stand on a label, in millimetres from its top left: one layout for PDF and ZPL.

From the top: the product code (large), the name, the barcode with its digits, and at the
bottom the lot and best-before line. Every height follows the label's height within bounds, so
that a 62x29 mm roll label and a 100x150 mm shipping label both come out readable.
"""
from dataclasses import dataclass

A4 = (210.0, 297.0)
SHEET_MARGIN = 10.0  # most office printers cannot print nearer the edge


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    margin: float
    code_top: float
    code_height: float
    name_top: float
    name_height: float
    barcode_top: float
    barcode_height: float
    foot_top: float
    foot_height: float

    @property
    def inner_width(self) -> float:
        return self.width - 2 * self.margin


def _within(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def layout(size: tuple[float, float]) -> Layout:
    width, height = size
    margin = _within(min(width, height) * 0.07, 1.0, 4.0)
    gap = _within(height * 0.03, 0.5, 2.0)
    code = _within(height * 0.13, 2.5, 9.0)
    name = _within(height * 0.10, 2.0, 6.0)
    foot = name
    barcode = height - 2 * margin - code - name - foot - 3 * gap
    code_top = margin
    name_top = code_top + code + gap
    barcode_top = name_top + name + gap
    foot_top = barcode_top + barcode + gap
    return Layout(width, height, margin, code_top, code, name_top, name, barcode_top, barcode,
                  foot_top, foot)


def sheet_grid(size: tuple[float, float]) -> tuple[int, int]:
    """(columns, rows) of labels of this size on an A4 page; a label too big for it gets a page alone."""
    width, height = size
    usable_width, usable_height = A4[0] - 2 * SHEET_MARGIN, A4[1] - 2 * SHEET_MARGIN
    return max(1, int(usable_width // width)), max(1, int(usable_height // height))


# The smallest a lot is printed, in millimetres (about 4.5 pt): smaller would not be read on the shelf.
SMALLEST_TEXT = 1.6
# How far one line of the foot may shrink before the lot goes on a line of its own.
ONE_LINE_SHRINK = 0.7


@dataclass(frozen=True)
class Foot:
    """The bottom of a label: its lines (text, top, height; millimetres from the label's top) and the
    height the barcode keeps above them."""

    lines: tuple
    barcode_height: float


def english(message: str, **values) -> str:
    """The label's words as written here, in English: the translator when none is given."""
    return message % values if values else message


def foot(label: dict, box: Layout, width_of, words=None) -> Foot:
    """Lot and best-before at the bottom, the best-before always whole.

    `width_of(text, height)` is the text's width in millimetres at that height (the PDF's font
    metrics, or ZPL's estimate). The two share a line while they fit at most a little smaller;
    else the lot takes a line of its own above the date, from the barcode's height, shrinking as
    far as SMALLEST_TEXT. Only a lot too long even for that is cut, and never the date.
    `words(message, **values)`: the label's words in the paper's language (the page gives its
    translator; printing/ knows no Flask); English when none is given.
    """
    words = words or english
    lot = words("Lot %(lot)s", lot=label["lot"]) if label.get("lot") else ""
    best = words("Best before %(day)s", day=label["date_exp"]) if label.get("date_exp") else ""
    height, room = box.foot_height, box.inner_width
    if not (lot or best):
        return Foot((), box.barcode_height)
    together = "   ".join(part for part in (lot, best) if part)
    size = fitting(together, height, room, width_of)
    if size >= height * ONE_LINE_SHRINK or not (lot and best):
        if best and not lot:
            return Foot((_line(best, box.foot_top, height, size),), box.barcode_height)
        size = max(size, min(height, SMALLEST_TEXT))
        return Foot((_line(cut(together, size, room, width_of), box.foot_top, height, size),), box.barcode_height)
    gap = box.foot_top - box.barcode_top - box.barcode_height
    lot_size = max(fitting(lot, height, room, width_of), min(height, SMALLEST_TEXT))
    return Foot((_line(cut(lot, lot_size, room, width_of), box.foot_top - height - gap, height, lot_size),
                 _line(best, box.foot_top, height, fitting(best, height, room, width_of))),
                box.barcode_height - height - gap)


def fitting(text: str, height: float, room: float, width_of) -> float:
    """The tallest size, at most `height`, at which `text` fits in `room` (widths grow with height)."""
    width = width_of(text, height)
    # A hair under the exact fit, so that rounding never makes the line a fraction too wide.
    return height if width <= room else height * room / width * 0.99


def cut(text: str, size: float, room: float, width_of) -> str:
    """The text, or as much of it as fits with an ellipsis."""
    if width_of(text, size) <= room:
        return text
    while text and width_of(text + "…", size) > room:
        text = text[:-1]
    return text + "…"


def _line(text: str, top: float, box_height: float, size: float) -> tuple:
    # A smaller line keeps the bottom of its box, so lines of either size sit on one baseline.
    return text, top + box_height - size, size
