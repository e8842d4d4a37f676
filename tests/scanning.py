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


def scanned(body: bytes, page: int = 1) -> list[tuple[str, str]]:
    """(text, format) of every barcode found on one page (1 first) of a PDF: format "EAN13" or "Code128"."""
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm is missing: `make test` installs Debian's poppler-utils", pytrace=False)
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "labels.pdf")
        with open(source, "wb") as file:
            file.write(body)
        subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-f", str(page), "-l", str(page), "-singlefile",
                        source, os.path.join(folder, "page")], check=True, timeout=60)
        with Image.open(os.path.join(folder, "page.png")) as image:
            found = zxingcpp.read_barcodes(image.convert("L"))
    return sorted((barcode.text, barcode.format.name) for barcode in found)
