from helpers import product


def test_product_roundtrip(api):
    r = api.post("/v1/products/", product("A/1 x", packaging=[{"unit": "box", "amount_base_units": "2.5"}]))
    assert r.status_code == 201, r.json
    r = api.get("/v1/products/A%2F1%20x")
    assert r.status_code == 200, r.json
    print(r.json)
