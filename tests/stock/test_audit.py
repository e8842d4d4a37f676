"""The audit trail's rule layer (stock/audit.py): rows written with their change, read newest first."""
from datetime import timedelta

import pytest

from stock import audit
from storage.db import utc_now, writing

OFFICE = audit.Actor("jana", "192.0.2.10")


def test_a_row_commits_with_the_change_and_reads_back_whole(session):
    with writing(session):
        audit.record(session, OFFICE, "product.update", "MILK-1L", {"name": ["Milk", "Milk 1 l"]})
    [entry] = audit.list_entries(session)
    assert entry["who"] == "jana" and entry["from"] == "192.0.2.10"
    assert (entry["kind"], entry["record"]) == ("product.update", "MILK-1L")
    assert entry["changes"] == {"name": ["Milk", "Milk 1 l"]}
    assert abs(entry["at"] - utc_now()) < timedelta(minutes=1)


def test_a_change_that_fails_leaves_no_row(session):
    with pytest.raises(RuntimeError):
        with writing(session):
            audit.record(session, OFFICE, "customer.create", "7")
            raise RuntimeError("the change itself failed")
    assert audit.list_entries(session) == []


def test_filters_and_keyset_pages_newest_first(session):
    with writing(session):
        for n, (who, kind) in enumerate([("jana", "product.create"), ("petr", "product.update"),
                                         ("jana", "key.create"), ("jana", "product.update")]):
            audit.record(session, audit.Actor(who, "cli"), kind, str(n))
    assert [e["record"] for e in audit.list_entries(session)] == ["3", "2", "1", "0"]
    assert [e["record"] for e in audit.list_entries(session, kind="product.update")] == ["3", "1"]
    assert [e["record"] for e in audit.list_entries(session, kind="product.*")] == ["3", "1", "0"]
    assert [e["record"] for e in audit.list_entries(session, kind="product")] == ["3", "1", "0"]
    assert [e["record"] for e in audit.list_entries(session, who="jana", kind="product")] == ["3", "0"]
    first = audit.list_entries(session, limit=2)
    second = audit.list_entries(session, limit=2, before_id=first[-1]["id"])
    assert [e["record"] for e in first + second] == ["3", "2", "1", "0"]
    assert audit.list_entries(session, since=utc_now() + timedelta(minutes=1)) == []


def test_a_kind_filter_is_not_a_pattern(session):
    with writing(session):
        audit.record(session, OFFICE, "product.update", "A")
    assert audit.list_entries(session, kind="produc%") == []
    assert audit.list_entries(session, kind="p_oduct") == []


def test_changed_fields_names_only_what_differs():
    assert audit.changed_fields({"name": "A", "active": 1}, {"name": "B", "active": 1}) == {"name": ["A", "B"]}


def test_a_command_records_the_operating_system_user():
    actor = audit.cli_actor()
    assert actor.address == "cli" and actor.who


def test_the_client_address_is_the_connections_unless_the_trusted_proxy_forwards_one():
    from identity.client import client_address
    direct = {"REMOTE_ADDR": "192.0.2.7", "HTTP_X_FORWARDED_FOR": "10.9.9.9"}
    assert client_address(direct, None) == "192.0.2.7"
    assert client_address(direct, "127.0.0.1") == "192.0.2.7"
    proxied = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "10.9.9.9, 192.0.2.50"}
    assert client_address(proxied, "127.0.0.1") == "192.0.2.50"
    assert client_address({"REMOTE_ADDR": "127.0.0.1"}, "127.0.0.1") == "127.0.0.1"
