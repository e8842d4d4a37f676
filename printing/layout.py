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


def foot_text(label: dict) -> str:
    """The bottom line: lot and best-before, whichever the label has."""
    parts = []
    if label.get("lot"):
        parts.append(f"Lot {label['lot']}")
    if label.get("date_exp"):
        parts.append(f"Best before {label['date_exp']}")
    return "   ".join(parts)
