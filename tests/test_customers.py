"""Operation 5: the customer list (read only over HTTP; the CLI imports customers)."""
import re

from models import Customer
from storage.db import writing


def add_customers(session, *ids):
    with writing(session):
        for id_customer in ids:
            session.add(Customer(
                id_customer=id_customer, name=f"Customer {id_customer}", registration_number=f"R{id_customer}",
                tax_id=f"T{id_customer}", vat_number=f"CZ{id_customer}", street="Dlouhá 1", city="Praha",
                zip="110 00", country="CZ",
            ))


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


def test_customers_are_read_only_over_http(api, session):
    add_customers(session, 1)
    r = api.post("/v1/customers/", {"id_customer": 2, "name": "New"})
    assert r.status_code == 405
    assert r.json["error"]["code"] == "method_not_allowed"
    assert api.post("/v1/customers/1", {"name": "Changed"}).status_code == 404
    assert [c["name"] for c in api.get("/v1/customers/").json["list"]] == ["Customer 1"]


def test_list_needs_a_key(client, keys):
    assert client.get("/v1/customers/").status_code == 401
