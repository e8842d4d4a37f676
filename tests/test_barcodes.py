"""GET /v1/barcodes/{barcode}: the product and unit a scanned code names (DESIGN §18)."""
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
