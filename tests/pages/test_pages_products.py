"""The products pages (pages/products.py, DESIGN §18) through the test client: search, create,
edit, deactivate, the product's card, and refusals shown beside their fields.

tests/pages/test_pages_browser.py drives them in a real browser.
"""
import re
from decimal import Decimal

import pytest

from helpers import created, product
from stock import audit
from conftest import token_of
from office import Depot, csv_rows


@pytest.fixture
def milk(api):
    created(api.post("/v1/products/", product(
        "MILK-1L", name="Milk 1 l", base_unit_barcode="4006381333924",
        packaging=[{"unit": "crate", "amount_base_units": 12, "barcode": "4006381333931"}])))
    created(api.post("/v1/products/", product("SOAP", name="Liquid soap")))


def form(client, path, **fields):
    """Post a page's form with its token, as a browser would."""
    token = token_of(client.get(path))
    packaging = fields.pop("packaging", [])
    data = {"token": token, **fields, "pack_unit": [p[0] for p in packaging],
            "pack_amount": [p[1] for p in packaging], "pack_barcode": [p[2] for p in packaging]}
    return client.post(path, data=data)


NEW = {"product_code": "TEA", "name": "Green tea", "base_unit": "pc", "base_unit_barcode": "", "category": "3",
       "lot_level": "1", "decimal_places": "0", "active": "1", "weight_brutto": "0.12", "weight_netto": "0.1", "weight_unit": "kg",
       "packaging": [("box", "20", "5901234123457"), ("", "", "")]}


def listed_codes(response) -> list[str]:
    return re.findall(r'<tr data-code="([^"]+)"', response.get_data(as_text=True))


@pytest.mark.parametrize("search, codes", [("", ["MILK-1L", "SOAP"]), ("milk", ["MILK-1L"]), ("SOAP", ["SOAP"]),
                                           ("4006381333931", ["MILK-1L"]), ("4006381333924", ["MILK-1L"]),
                                           ("400638133393", []), ("%", [])])
def test_search_by_code_name_or_any_barcode(milk, office, search, codes):
    assert listed_codes(office.get(f"/products?q={search}")) == codes


def test_the_list_as_csv_in_the_import_columns(milk, office):
    rows = csv_rows(office.get("/products?format=csv&q=milk"))
    assert [(r["product_code"], r["packaging_1_unit"], r["packaging_1_amount_base_units"], r["packaging_1_barcode"],
             r["active"]) for r in rows] == [("MILK-1L", "crate", "12", "4006381333931", "1")]


def test_an_admin_creates_a_product_with_packaging_and_finds_it_by_its_barcode(admin, api, session):
    response = form(admin, "/products/new", **NEW)
    assert response.status_code == 303, response.get_data(as_text=True)
    assert response.headers["Location"].endswith("/products/TEA")
    assert api.get("/v1/products/TEA").json["item"] == {
        "product_code": "TEA", "name": "Green tea", "active": 1, "base_unit": "pc", "base_unit_barcode": "",
        "category": 3, "lot_level": 1, "weight_brutto": Decimal("0.12"), "weight_netto": Decimal("0.1"), "weight_unit": "kg",
        "decimal_places": 0,
        "packaging": [{"unit": "box", "amount_base_units": 20, "barcode": "5901234123457"}]}
    assert listed_codes(admin.get("/products?q=5901234123457")) == ["TEA"]
    [entry] = audit.list_entries(session, kind="product.create")
    assert (entry["who"], entry["record"]) == ("admin", "TEA")


@pytest.mark.parametrize("change, status, field", [
    ({"product_code": "MILK-1L"}, 409, "product_code"),
    ({"base_unit_barcode": "4006381333931"}, 409, "base_unit_barcode"),
    ({"packaging": [("box", "6", "4006381333924")]}, 409, "packaging"),
    ({"name": ""}, 422, "name"),
    ({"weight_netto": "-1"}, 422, "weight_netto"),
    ({"category": "many"}, 422, "category"),
    ({"packaging": [("pc", "6", "")]}, 422, "packaging"),
    ({"packaging": [("box", "0.0001", "")]}, 422, "packaging"),
])
def test_a_refusal_is_shown_beside_its_field_and_keeps_what_was_typed(milk, admin, api, change, status, field):
    response = form(admin, "/products/new", **{**NEW, **change})
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert re.search(rf'<fieldset id="packaging" class="refused"|<label class="refused">[^<]*<input[^>]*name="{field}"',
                     html), html
    assert 'value="Green tea"' in html or change.get("name") == ""
    assert api.get("/v1/products/TEA").status_code == 404 or change.get("product_code") == "MILK-1L"


def test_an_admin_edits_every_field_and_the_trail_has_before_and_after(milk, admin, api, session):
    edit = admin.get("/products/edit/MILK-1L").get_data(as_text=True)
    assert 'value="4006381333931"' in edit and 'value="Milk 1 l"' in edit
    response = form(admin, "/products/edit/MILK-1L", name="Milk 1 l fresh", base_unit="pc",
                    base_unit_barcode="4006381333924", category="2", lot_level="0", active="1",
                    weight_brutto="1.1", weight_netto="1", weight_unit="kg",
                    packaging=[("crate", "12", "4006381333931"), ("pallet", "480", "")])
    assert response.status_code == 303, response.get_data(as_text=True)
    item = api.get("/v1/products/MILK-1L").json["item"]
    assert (item["name"], item["category"], item["weight_brutto"]) == ("Milk 1 l fresh", 2, Decimal("1.1"))
    assert [p["unit"] for p in item["packaging"]] == ["crate", "pallet"]
    [entry] = audit.list_entries(session, kind="product.update")
    assert entry["changes"]["name"] == ["Milk 1 l", "Milk 1 l fresh"]
    assert set(entry["changes"]) == {"name", "category", "weight_brutto", "weight_netto", "packaging"}


def test_deactivating_from_the_card_and_back(milk, admin, api, session):
    token = token_of(admin.get("/products/SOAP"))
    assert admin.post("/products/active/SOAP", data={"token": token, "active": "0"}).status_code == 303
    assert api.get("/v1/products/SOAP").json["item"]["active"] == 0
    assert "Activate" in admin.get("/products/SOAP").get_data(as_text=True)
    admin.post("/products/active/SOAP", data={"token": token, "active": "1"})
    assert api.get("/v1/products/SOAP").json["item"]["active"] == 1
    assert [e["changes"] for e in audit.list_entries(session, kind="product.update")] == [
        {"active": [0, 1]}, {"active": [1, 0]}]


def test_a_read_key_sees_but_may_not_change(milk, office, api):
    assert "New product" not in office.get("/products").get_data(as_text=True)
    assert office.get("/products/new").status_code == 403
    assert office.get("/products/edit/SOAP").status_code == 403
    token = token_of(office.get("/products/SOAP"))
    assert office.post("/products/active/SOAP", data={"token": token, "active": "0"}).status_code == 403
    assert office.post("/products/new", data={"token": token, "product_code": "X", "name": "X",
                                              "base_unit": "pc"}).status_code == 403
    assert api.get("/v1/products/SOAP").json["item"]["active"] == 1
    assert api.get("/v1/products/X").status_code == 404


def test_a_form_without_its_token_is_refused(milk, admin, api):
    assert admin.post("/products/edit/SOAP", data={"name": "Stolen", "base_unit": "pc"}).status_code == 403
    assert api.get("/v1/products/SOAP").json["item"]["name"] == "Liquid soap"


def test_the_card_shows_stock_by_lot_with_best_before_movements_chart_and_labels(admin, api):
    created(api.post("/v1/products/", product("CHEESE", name="Edam", base_unit="kg", lot_level=1)))
    depot = Depot(api)
    depot.book("R", "I", [{"product_code": "CHEESE", "amount": "2.5", "unit": "kg", "lot": "L1",
                           "date_exp": "2027-01-31"},
                          {"product_code": "CHEESE", "amount": "1", "unit": "kg", "lot": "L1",
                           "date_exp": "2027-01-15"},
                          {"product_code": "CHEESE", "amount": "3", "unit": "kg", "lot": "L2"}])
    depot.book("R", "O", [{"product_code": "CHEESE", "amount": "0.5", "unit": "kg", "lot": "L2"}])
    html = admin.get("/products/CHEESE").get_data(as_text=True)
    stock = html[html.index('id="product-stock"'):html.index("</table>", html.index('id="product-stock"'))]
    assert re.findall(r"<tr><td>([^<]+)</td><td>(?:<a [^>]+>)?([^<]*)(?:</a>)?</td><td>([^<]*)</td>\s*<td[^>]*>([^<]*)</td>", stock) == [
        ("Main", "L1", "2027-01-15", "3.5"), ("Main", "L2", "", "2.5")]  # the warehouse by name
    movements = html[html.index('id="product-movements"'):]
    assert [a for a in re.findall(r'<td class="num[^"]*">([^<]*)</td>', movements)] == ["-0.5", "3", "1", "2.5"]
    bars = re.findall(r'<rect class="bar stock[^"]*"[^>]*data-month="([^"]+)" data-amount="([^"]+)"', html)
    assert len(bars) == 12 and bars[-1][1] == "6" and bars[0][1] == "0"
    assert 'href="/products/CHEESE/label.pdf"' in html and 'href="/products/CHEESE/label.zpl"' in html


def test_a_code_with_a_slash_and_a_space_reaches_its_card(admin, api):
    created(api.post("/v1/products/", product("A/B 1", name="Odd code")))
    assert "Odd code" in admin.get("/products/A%2FB%201").get_data(as_text=True)
    assert 'href="/products/A/B%201"' in admin.get("/products?q=odd").get_data(as_text=True)


def test_an_unknown_product_is_an_html_404(office):
    response = office.get("/products/NOPE")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
