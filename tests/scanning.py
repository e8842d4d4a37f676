"""Reading printed labels back as a scanner would, for the label tests.

A PDF page is turned into an image by poppler's pdftoppm (Debian's poppler-utils, which
`make test` installs) and its barcodes are read by zxing-cpp; the PDF itself is opened with pypdf.
"""
import io
import os
import re
import shutil
import subprocess
import tempfile

import pytest
import zxingcpp
from PIL import Image
from pypdf import PdfReader

DPI = 300


def pdf_pages(body: bytes) -> PdfReader:
    assert body.startswith(b"%PDF-"), body[:20]
    return PdfReader(io.BytesIO(body))


def page_size_mm(reader: PdfReader, index: int = 0) -> tuple[float, float]:
    box = reader.pages[index].mediabox
    return round(float(box.width) * 25.4 / 72, 1), round(float(box.height) * 25.4 / 72, 1)


def page_image(body: bytes, page: int = 1, dpi: int = DPI) -> Image.Image:
    """One page (1 first) of a PDF as poppler's pdftoppm draws it, in grey."""
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm is missing: `make test` installs Debian's poppler-utils", pytrace=False)
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "labels.pdf")
        with open(source, "wb") as file:
            file.write(body)
        subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-f", str(page), "-l", str(page), "-singlefile",
                        source, os.path.join(folder, "page")], check=True, timeout=60)
        with Image.open(os.path.join(folder, "page.png")) as image:
            return image.convert("L")


def scanned(body: bytes, page: int = 1) -> list[tuple[str, str]]:
    """(text, format) of every barcode found on one page (1 first) of a PDF: format "EAN13" or "Code128"."""
    found = zxingcpp.read_barcodes(page_image(body, page))
    return sorted((barcode.text, barcode.format.name) for barcode in found)


def camera_film(labels: list[Image.Image], path, size=(640, 480), frames_each: int = 15) -> None:
    """A camera's film of printed labels, held up one after another on a grey shelf, as a y4m file
    (YUV 4:2:0) that chromium plays as its camera (--use-file-for-fake-video-capture)."""
    width, height = size
    with open(path, "wb") as film:
        film.write(f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode())
        for label in labels:
            shelf = Image.new("RGB", size, (105, 110, 115))
            shown = label.copy()
            shown.thumbnail((width - 60, height - 60))
            shelf.paste(shown.convert("RGB"), ((width - shown.width) // 2, (height - shown.height) // 2))
            luma, blue, red = shelf.convert("YCbCr").split()
            half = (width // 2, height // 2)
            frame = b"FRAME\n" + luma.tobytes() + blue.resize(half).tobytes() + red.resize(half).tobytes()
            film.write(frame * frames_each)


# --- printed pages, looked at -------------------------------------------------------------------

def page_images(body: bytes, dpi: int = 100) -> list:
    """Every page of a PDF as a greyscale image (pdftoppm), first page first."""
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm is missing: `make test` installs Debian's poppler-utils", pytrace=False)
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "paper.pdf")
        with open(source, "wb") as file:
            file.write(body)
        subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", source, os.path.join(folder, "page")],
                       check=True, timeout=120)
        # pdftoppm numbers the pages with as many digits as the last needs: they sort by name.
        names = sorted(name for name in os.listdir(folder) if name.endswith(".png"))
        images = []
        for name in names:
            with Image.open(os.path.join(folder, name)) as image:
                images.append(image.convert("L").copy())
    return images


DARK = 128  # a pixel darker than this is ink
INK = bytes(1 if value < DARK else 0 for value in range(256))


def ink_extent(image) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) of every dark pixel on the page; None for a blank page."""
    return image.point(lambda value: 255 if value < DARK else 0).getbbox()


def ruled_boxes(image, min_share: float = 0.15) -> list[dict]:
    """Every ruled box on a page (a table, a signature box): at least two horizontal rules of one
    extent, at least `min_share` of the page wide, with a vertical rule down their left end.

    Each is {left, top, right, bottom, closed}: `closed` whether a vertical rule also runs down
    the right end, as on paper it must; a box whose right border is cut off is not closed.
    """
    width, height = image.size
    ink = image.tobytes().translate(INK)  # 1 for ink, 0 for paper
    run = re.compile(b"\x01{%d,}" % max(1, int(width * min_share)))
    rules = [(y, found.start(), found.end() - 1) for y in range(height)
             for found in run.finditer(ink, y * width, (y + 1) * width)]
    rules = [(y, x0 - y * width, x1 - y * width) for y, x0, x1 in rules]
    groups: dict[tuple[int, int], list[int]] = {}
    for y, x0, x1 in rules:
        key = next((k for k in groups if abs(k[0] - x0) <= 2 and abs(k[1] - x1) <= 2), (x0, x1))
        groups.setdefault(key, []).append(y)

    def vertical(x: int, top: int, bottom: int) -> bool:
        """Whether ink runs down one of the columns at x (±2) over 95 % of top..bottom."""
        return any(ink[top * width + column:(bottom + 1) * width:width].count(1) >= 0.95 * (bottom - top + 1)
                   for column in range(max(0, x - 2), min(width, x + 3)))

    boxes = []
    for (x0, x1), ys in groups.items():
        top, bottom = min(ys), max(ys)
        if bottom - top < 3 or not vertical(x0, top, bottom):
            continue  # one rule, or rules without a left border: underlines, not a box
        boxes.append({"left": x0, "top": top, "right": x1, "bottom": bottom, "closed": vertical(x1, top, bottom)})
    return boxes
