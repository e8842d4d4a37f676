"""Reading printed labels back as a scanner would, for the label tests.

A PDF page is turned into an image by poppler's pdftoppm (Debian's poppler-utils, which
`make test` installs) and its barcodes are read by zxing-cpp; the PDF itself is opened with pypdf.
"""
import io
import os
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
