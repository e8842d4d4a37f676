"""/v1/customers: the list, and the office adding and changing customers (DESIGN §5, §18)."""
import re

import pytest

from helpers import add_customers
from stock import audit


def test_list_is_empty_without_customers(api):
    r = api.get("/v1/customers/")
    assert r.status_code == 200
    assert r.json == {"list": []}


def test_list_gives_every_field_with_the_address_as_an_object(api, session):
    add_customers(session, 7)
    assert api.get("/v1/customers/").json == {"list": [{
        "id_customer": 7, "name": "Customer 7", "registration_number": "R7", "tax_id": "T7",
        "vat_number": "CZ7", "address": {"city": "Praha", "country": "CZ", "street": "Dlouhá 1", "zip": "110 00"},
    }]}


def test_id_customer_is_a_json_number(api, session):
    add_customers(session, 42)
    assert re.search(r'"id_customer":\s*42[,}]', api.get("/v1/customers/").get_data(as_text=True))


def test_list_is_sorted_by_id_customer_as_a_number(api, session):
    add_customers(session, 100, 9, 10, 2**40)
    assert [c["id_customer"] for c in api.get("/v1/customers/").json["list"]] == [9, 10, 100, 2**40]


def test_every_role_may_list_customers(api_as, session):
    add_customers(session, 1)
    for name in ("read", "scan", "admin", "read_w1", "scan_w1"):
        r = api_as(name).get("/v1/customers/")
        assert r.status_code == 200, name
        assert len(r.json["list"]) == 1


CUSTOMER = {"id_customer": 17, "name": "Fresh Foods Ltd", "registration_number": "HRB 4711",
            "tax_id": "143/123/45678", "vat_number": "DE123456789",
            "address": {"city": "Leipzig", "country": "DE", "street": "Marktweg 3", "zip": "04109"}}


def listed(api):
    return api.get("/v1/customers/").json["list"]


def test_an_admin_adds_a_customer_and_the_list_gives_it_back(api, session):
    r = api.post("/v1/customers/", CUSTOMER)
    assert (r.status_code, r.json) == (201, {})
    assert listed(api) == [CUSTOMER]
    [entry] = audit.list_entries(session, kind="customer.create")
    assert (entry["who"], entry["record"]) == ("admin", "17")
    assert entry["changes"]["name"] == [None, "Fresh Foods Ltd"]


def test_a_customer_needs_only_its_number_and_name(api):
    assert api.post("/v1/customers/", {"id_customer": 2, "name": "New"}).status_code == 201
    assert listed(api) == [{"id_customer": 2, "name": "New", "registration_number": "", "tax_id": "",
                            "vat_number": "", "address": {"city": "", "country": "", "street": "", "zip": ""}}]


def test_a_taken_number_is_409_and_keeps_the_first(api, session):
    add_customers(session, 1)
    r = api.post("/v1/customers/", {"id_customer": 1, "name": "Other"})
    assert r.status_code == 409
    assert [c["name"] for c in listed(api)] == ["Customer 1"]


@pytest.mark.parametrize("body, field", [
    ({"name": "No number"}, "id_customer"), ({"id_customer": 3}, "name"),
    ({"id_customer": 0, "name": "x"}, "id_customer"), ({"id_customer": "3", "name": "x"}, "id_customer"),
    ({"id_customer": 3, "name": ""}, "name"), ({"id_customer": 3, "name": "x", "colour": 1}, "colour"),
    ({"id_customer": 3, "name": "x", "address": {"planet": "Mars"}}, "address"),
    ({"id_customer": 3, "name": "x\x07"}, "name"),
])
def test_bad_fields_are_422_naming_them(api, body, field):
    r = api.post("/v1/customers/", body)
    assert r.status_code == 422
    assert field in r.json["error"]["fields"]["data"]
    assert listed(api) == []


def test_an_update_changes_only_the_fields_given_and_the_trail_has_before_and_after(api, session):
    api.post("/v1/customers/", CUSTOMER)
    r = api.post("/v1/customers/17", {"name": "Fresh Foods GmbH", "address": {"street": "Marktweg 5"}})
    assert (r.status_code, r.json) == (200, {})
    [customer] = listed(api)
    assert customer["name"] == "Fresh Foods GmbH"
    assert customer["address"] == {"city": "Leipzig", "country": "DE", "street": "Marktweg 5", "zip": "04109"}
    assert customer["tax_id"] == CUSTOMER["tax_id"]
    [entry] = audit.list_entries(session, kind="customer.update")
    assert entry["changes"] == {"name": ["Fresh Foods Ltd", "Fresh Foods GmbH"],
                                "street": ["Marktweg 3", "Marktweg 5"]}


def test_an_update_of_an_unknown_customer_is_404(api):
    assert api.post("/v1/customers/5", {"name": "x"}).status_code == 404
    assert api.post("/v1/customers/5", {"name": 7}).status_code == 404


def test_an_update_naming_another_number_is_422(api, session):
    add_customers(session, 1)
    assert api.post("/v1/customers/1", {"id_customer": 2}).status_code == 422
    assert api.post("/v1/customers/1", {"id_customer": 1, "name": "Same"}).status_code == 200


@pytest.mark.parametrize("name", ["read", "scan"])
def test_writing_customers_needs_an_admin_key(api_as, session, name):
    add_customers(session, 1)
    assert api_as(name).post("/v1/customers/", {"id_customer": 2, "name": "x"}).status_code == 403
    assert api_as(name).post("/v1/customers/1", {"name": "x"}).status_code == 403
    assert [c["name"] for c in listed(api_as(name))] == ["Customer 1"]


def test_list_needs_a_key(client, keys):
    assert client.get("/v1/customers/").status_code == 401
