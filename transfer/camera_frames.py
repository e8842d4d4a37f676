"""A camera frame (JPEG, PNG or WebP) and the barcode it shows, read with zxing-cpp (DESIGN 24).

The browser scanner reads the camera itself where the browser has BarcodeDetector; elsewhere
(Chromium on a desktop, Firefox) it sends a few frames a second here. zxing-cpp reads the
codes a depot prints and receives: EAN-13, EAN-8, UPC-A, Code 128 and QR codes.
"""
import io

from stock.errors import Invalid, say

MOST_BYTES = 1024 * 1024  # a frame of a phone's camera, as JPEG, is a tenth of this
MOST_PIXELS = 4096 * 4096  # Pillow reads the size before the pixels: a bigger one is refused unread
FORMATS = ("EAN13", "EAN8", "UPCA", "Code128", "QRCode")


def read_frame(body: bytes) -> dict | None:
    """{text, format} of the first barcode the image shows, or None when it shows none."""
    # Imported at the first frame, not with the service: most depots scan with a wedge or
    # BarcodeDetector and never send one (tests/operations/test_startup.py holds the start's weight).
    import zxingcpp
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(body))
        if image.format not in ("JPEG", "PNG", "WEBP"):
            raise Invalid(say("A frame is a JPEG, PNG or WebP image, not %(format)s.", format=image.format))
        if image.width * image.height > MOST_PIXELS:
            raise Invalid(say("A frame has at most %(most)s pixels; this one has %(width)sx%(height)s.", most=MOST_PIXELS,
                              width=image.width, height=image.height))
        grey = image.convert("L")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        raise Invalid(say("The body is not a readable JPEG, PNG or WebP image.")) from None
    formats = zxingcpp.barcode_formats_from_str(",".join(FORMATS))
    found = zxingcpp.read_barcodes(grey, formats=formats)
    if not found:
        return None
    # zxing-cpp's own names of the formats: "EAN-13", "EAN-8", "UPC-A", "Code 128", "QR Code".
    return {"text": found[0].text, "format": str(found[0].format)}
