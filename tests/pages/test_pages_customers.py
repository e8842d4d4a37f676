"""The customers pages (pages/customers.py, DESIGN §18) through the test client."""
import re

import pytest

from stock import audit, catalog
from conftest import token_of
from office import csv_rows


@pytest.fixture
def customers(session):
    catalog.save_customers(session, [
        {"id_customer": 7, "name": "Fresh Foods Ltd", "tax_id": "143/123", "vat_number": "DE123", "city": "Leipzig"},
        {"id_customer": 42, "name": "Acme", "city": "Praha", "street": "Dlouhá 1", "zip": "110 00",
         "country": "CZ"}])


def listed(response) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-customer="(\d+)"', response.get_data(as_text=True))]


def post_form(client, path, **fields):
    return client.post(path, data={"token": token_of(client.get(path)), **fields})


@pytest.mark.parametrize("search, found", [("", [7, 42]), ("acme", [42]), ("leipzig", [7]), ("DE123", [7]),
                                           ("42", [42]), ("%", [])])
def test_list_and_search(customers, office, search, found):
    assert listed(office.get(f"/customers?q={search}")) == found


def test_the_list_as_csv(customers, office):
    rows = csv_rows(office.get("/customers?format=csv&q=acme"))
    assert rows == [{"id_customer": "42", "name": "Acme", "registration_number": "", "tax_id": "", "vat_number": "",
                     "street": "Dlouhá 1", "city": "Praha", "zip": "110 00", "country": "CZ"}]


def test_an_admin_creates_a_customer(admin, api, session):
    response = post_form(admin, "/customers/new", id_customer="17", name="Bakery Novak", city="Brno", country="CZ")
    assert response.status_code == 303, response.get_data(as_text=True)
    [customer] = api.get("/v1/customers/").json["list"]
    assert (customer["id_customer"], customer["name"], customer["address"]["city"]) == (17, "Bakery Novak", "Brno")
    [entry] = audit.list_entries(session, kind="customer.create")
    assert (entry["who"], entry["record"]) == ("admin", "17")


@pytest.mark.parametrize("fields, status, field", [
    ({"id_customer": "7", "name": "Again"}, 409, "id_customer"),
    ({"id_customer": "x", "name": "Bad"}, 422, "id_customer"),
    ({"id_customer": "8", "name": ""}, 422, "name"),
    ({"id_customer": "8", "name": "Bell", "city": "a\x07"}, 422, "city"),
])
def test_a_refusal_is_shown_beside_its_field(customers, admin, api, fields, status, field):
    response = post_form(admin, "/customers/new", **fields)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert re.search(rf'<label class="refused">[^<]*<input[^>]*name="{field}"', html), html
    assert [c["id_customer"] for c in api.get("/v1/customers/").json["list"]] == [7, 42]


def test_an_admin_edits_a_customer_and_the_trail_has_before_and_after(customers, admin, api, session):
    assert 'value="Fresh Foods Ltd"' in admin.get("/customers/7").get_data(as_text=True)
    response = post_form(admin, "/customers/7", name="Fresh Foods GmbH", registration_number="", tax_id="143/123",
                         vat_number="DE123", street="Marktweg 3", zip="04109", city="Leipzig", country="DE")
    assert response.status_code == 303
    customer = api.get("/v1/customers/").json["list"][0]
    assert customer["name"] == "Fresh Foods GmbH"
    assert customer["address"] == {"street": "Marktweg 3", "zip": "04109", "city": "Leipzig", "country": "DE"}
    [entry] = audit.list_entries(session, kind="customer.update")
    assert entry["changes"] == {"name": ["Fresh Foods Ltd", "Fresh Foods GmbH"], "street": ["", "Marktweg 3"],
                                "zip": ["", "04109"], "country": ["", "DE"]}


def test_a_read_key_may_not_change_customers(customers, office, api):
    assert office.get("/customers/new").status_code == 403
    assert office.get("/customers/7").status_code == 403
    token = token_of(office.get("/customers"))
    assert office.post("/customers/7", data={"token": token, "name": "Stolen"}).status_code == 403
    assert api.get("/v1/customers/").json["list"][0]["name"] == "Fresh Foods Ltd"


def test_an_unknown_customer_is_an_html_404(admin):
    response = admin.get("/customers/99")
    assert response.status_code == 404 and response.mimetype == "text/html"
