"""GET /v1/audit/ (DESIGN §16): the trail newest first, its filters and keyset paging; role admin."""
import re

import pytest

from helpers import error_fields
from stock import audit
from stock.audit import Actor
from storage.db import writing


@pytest.fixture
def trail(session):
    """Seven entries of three people and three kinds, in this order."""
    made = [("anna", "product.create", "MILK"), ("anna", "product.update", "MILK"), ("ben", "key.create", "gate-1"),
            ("anna", "customer.update", "17"), ("ben", "key.revoke", "gate-1"), ("carl", "product.create", "SOAP"),
            ("anna", "product.update", "SOAP")]
    for who, kind, record in made:
        with writing(session):
            audit.record(session, Actor(who, "192.0.2.9"), kind, record, {"name": ["old", "new"]})
    return made


def entries(api, query="") -> list[dict]:
    response = api.get("/v1/audit/" + query)
    assert response.status_code == 200, response.json
    return response.json["list"]


def test_newest_first_in_the_documented_shape(api, trail):
    found = entries(api)
    assert [(e["who"], e["kind"], e["record"]) for e in found] == list(reversed(trail))
    first = found[0]
    assert set(first) == {"id", "at", "who", "who_kind", "from", "kind", "record", "changes"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", first["at"])
    assert first["from"] == "192.0.2.9" and first["changes"] == {"name": ["old", "new"]}
    assert [e["id"] for e in found] == sorted((e["id"] for e in found), reverse=True)


def test_filters_by_kind_family_and_who(api, trail):
    assert [e["record"] for e in entries(api, "?kind=product.update")] == ["SOAP", "MILK"]
    assert [e["kind"] for e in entries(api, "?kind=key")] == ["key.revoke", "key.create"]
    assert [e["kind"] for e in entries(api, "?kind=key.*")] == ["key.revoke", "key.create"]
    assert [e["kind"] for e in entries(api, "?who=ben")] == ["key.revoke", "key.create"]
    assert entries(api, "?who=nobody") == []


def test_since_takes_a_day_or_a_moment(api, trail):
    assert len(entries(api, "?since=2000-01-01")) == 7
    assert entries(api, "?since=2999-01-01T00:00:00Z") == []


def test_pages_by_limit_and_before_id(api, trail):
    first = entries(api, "?limit=3")
    assert [e["record"] for e in first] == ["SOAP", "SOAP", "gate-1"]
    second = entries(api, f"?limit=3&before_id={first[-1]['id']}")
    assert [e["kind"] for e in second] == ["customer.update", "key.create", "product.update"]
    third = entries(api, f"?limit=3&before_id={second[-1]['id']}")
    assert [e["record"] for e in third] == ["MILK"]


@pytest.mark.parametrize("query, field", [("?limit=1001", "limit"), ("?limit=0", "limit"), ("?limit=x", "limit"),
                                          ("?since=yesterday", "since"), ("?since=2026-02-30", "since"),
                                          ("?before_id=-1", "before_id"), ("?colour=red", "colour")])
def test_a_bad_parameter_is_422_naming_it(api, query, field):
    assert field in error_fields(api.get("/v1/audit/" + query))


def test_limit_is_at_most_1000_and_100_by_default(api, session):
    with writing(session):
        for n in range(120):
            audit.record(session, Actor("anna", "cli"), "product.update", f"P{n}")
    assert len(entries(api)) == 100
    assert len(entries(api, "?limit=1000")) == 120


def test_only_an_admin_reads_the_trail(api_as, keys):
    assert api_as("scan").get("/v1/audit/").status_code == 403
    assert api_as("read").get("/v1/audit/").status_code == 403
    assert api_as(None).get("/v1/audit/").status_code == 401


def test_a_limited_admin_reads_only_the_changes_within_its_warehouses(api, admin_w1, session):
    for who, kind, record, reach in [("anna", "product.update", "MILK", frozenset()),
                                     ("ben", "order.close", "ORD-2", frozenset({2})),
                                     ("ben", "order.close", "ORD-1", frozenset({1})),
                                     ("ben", "key.create", "gate-all", None),
                                     ("ben", "key.create", "gate-12", frozenset({1, 2}))]:
        with writing(session):
            audit.record(session, Actor(who, "192.0.2.9", "person"), kind, record, reach=reach)
    assert [e["record"] for e in entries(admin_w1)] == ["ORD-1", "MILK"]
    assert [e["record"] for e in entries(admin_w1, "?kind=order")] == ["ORD-1"]
    assert [e["record"] for e in entries(api)] == ["gate-12", "gate-all", "ORD-1", "ORD-2", "MILK"]


def test_a_key_and_a_person_of_one_name_are_told_apart(api, session):
    with writing(session):
        audit.record(session, Actor("gate", "192.0.2.9", "person"), "product.update", "MILK")
        audit.record(session, Actor("gate", "192.0.2.8", "key"), "product.update", "SOAP")
    assert [(e["who"], e["who_kind"]) for e in entries(api, "?who=gate")] == [("gate", "key"), ("gate", "person")]
    assert [e["record"] for e in entries(api, "?who=gate&who_kind=person")] == ["MILK"]
    assert "who_kind" in error_fields(api.get("/v1/audit/?who_kind=robot"))
