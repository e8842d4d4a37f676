"""GET /v1/barcodes/{barcode}: the product and unit a scanned code names (DESIGN §18); POST
/v1/barcodes/read: the code a camera frame shows (DESIGN 24)."""
import io

import pytest

from helpers import created, product


@pytest.fixture
def milk(api):
    created(api.post("/v1/products/", product(
        "MILK-1L", name="Milk 1 l", base_unit_barcode="4006381333924",
        packaging=[{"unit": "crate", "amount_base_units": 12, "barcode": "4006381333931"},
                   {"unit": "half", "amount_base_units": "0.5", "barcode": "A/B 1"}])))


def test_a_base_unit_barcode_names_the_base_unit_with_factor_1(api, milk):
    r = api.get("/v1/barcodes/4006381333924")
    assert r.status_code == 200
    assert r.json == {"item": {"product_code": "MILK-1L", "name": "Milk 1 l", "unit": "pc",
                               "amount_base_units": 1, "active": 1}}


def test_a_packaging_barcode_names_its_packaging(api, milk):
    assert api.get("/v1/barcodes/4006381333931").json["item"] == {
        "product_code": "MILK-1L", "name": "Milk 1 l", "unit": "crate", "amount_base_units": 12, "active": 1}
    assert api.get("/v1/barcodes/A%2FB%201").json["item"]["amount_base_units"] == 0.5


def test_an_inactive_product_is_found_and_says_so(api, milk):
    assert api.post("/v1/products/MILK-1L", {"active": 0}).status_code == 200
    assert api.get("/v1/barcodes/4006381333931").json["item"]["active"] == 0


def test_an_unknown_barcode_is_404(api, milk):
    r = api.get("/v1/barcodes/999")
    assert r.status_code == 404
    assert r.json["error"]["code"] == "not_found"


def test_a_freed_barcode_is_found_no_more(api, milk):
    api.post("/v1/products/MILK-1L", {"packaging": []})
    assert api.get("/v1/barcodes/4006381333931").status_code == 404


def test_every_key_may_read_and_none_without_one(api_as, client, milk):
    for name in ("read", "scan", "read_w1"):
        assert api_as(name).get("/v1/barcodes/4006381333924").status_code == 200
    assert client.get("/v1/barcodes/4006381333924").status_code == 401


# --- POST /v1/barcodes/read: a camera frame read by zxing-cpp (DESIGN 24) ----------------------

def frame(text: str, symbology: str, kind: str = "JPEG", size=(1280, 720), angle: float = 4.0) -> bytes:
    """A camera's view of a printed code: the code on a label, a little turned, on a grey shelf."""
    import zxingcpp
    from PIL import Image, ImageFilter

    drawn = memoryview(zxingcpp.create_barcode(text, getattr(zxingcpp.BarcodeFormat, symbology)).to_image(scale=3))
    code = Image.frombytes("L", (drawn.shape[1], drawn.shape[0]), bytes(drawn))
    label = Image.new("L", (code.width + 80, code.height + 80), 250)
    label.paste(code, (40, 40))
    shelf = Image.new("L", size, 110)
    turned = label.rotate(angle, expand=True, fillcolor=110)
    shelf.paste(turned, ((size[0] - turned.width) // 2, (size[1] - turned.height) // 2))
    out = io.BytesIO()
    shelf.filter(ImageFilter.GaussianBlur(0.8)).convert("RGB").save(out, kind, quality=80)
    return out.getvalue()


def read(api, body: bytes, content_type="image/jpeg"):
    return api.client.post("/v1/barcodes/read", data=body,
                           headers={"TS-Apikey": api.key, "Content-Type": content_type})


@pytest.mark.parametrize("text, symbology, name", [
    ("4006381333931", "EAN13", "EAN-13"), ("40063812", "EAN8", "EAN-8"),
    # A UPC-A is the EAN-13 with a leading 0, and is read as such (the scanner page looks up both forms).
    ("036000291452", "UPCA", "EAN-13"),
    ("MILK-1L/L2611", "Code128", "Code 128"), ("PAL-000042", "QRCode", "QR Code")])
def test_a_frame_is_read_in_each_format_a_depot_prints(api_as, text, symbology, name):
    r = read(api_as("scan"), frame(text, symbology))
    assert r.status_code == 200, r.json
    assert r.json == {"item": {"text": text if symbology != "UPCA" else "0" + text, "format": name}}


@pytest.mark.parametrize("kind", ["PNG", "WEBP"])
def test_png_and_webp_frames_are_read_too(api_as, kind):
    assert read(api_as("scan"), frame("4006381333931", "EAN13", kind), f"image/{kind.lower()}").json["item"][
        "text"] == "4006381333931"


def test_a_frame_with_no_code_is_404(api_as):
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (640, 480), (120, 120, 120)).save(out, "JPEG")
    r = read(api_as("scan"), out.getvalue())
    assert r.status_code == 404
    assert r.json["error"]["message"] == "No barcode is seen in the frame."


@pytest.mark.parametrize("body, message", [(b"not an image at all", "not a readable"),
                                           (b"GIF89a" + b"\0" * 64, "not a readable")])
def test_a_body_that_is_no_frame_is_422(api_as, body, message):
    r = read(api_as("scan"), body)
    assert r.status_code == 422
    assert message in r.json["error"]["message"]


def test_an_empty_body_is_400_and_a_frame_over_1_mb_is_413(api_as):
    assert read(api_as("scan"), b"").status_code == 400
    r = read(api_as("scan"), b"\xff" * (1024 * 1024 + 1))
    assert r.status_code == 413
    assert r.json["error"]["code"] == "payload_too_large"


def test_a_frame_of_more_pixels_than_a_camera_gives_is_refused_unread(api_as):
    body = frame("4006381333931", "EAN13", "PNG", size=(5000, 3600))
    assert len(body) < 1024 * 1024  # a flat grey compresses well: under the body's limit
    r = read(api_as("scan"), body)
    assert r.status_code == 422
    assert "at most 16777216 pixels; this one has 5000x3600" in r.json["error"]["message"]


def test_only_scanning_keys_send_frames(api_as):
    assert read(api_as("read"), frame("4006381333931", "EAN13")).status_code == 403
