"""app.py: where the database lives, and the one log line per request."""
import logging
import os

from app import database_url
from helpers import product


def test_relative_sqlite_file_sits_in_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert database_url("sqlite:///warehouse.db") == f"sqlite:///{os.path.join(tmp_path, 'warehouse.db')}"


def test_absolute_sqlite_file_and_memory_are_kept():
    assert database_url("sqlite:////data/w.db") == "sqlite:////data/w.db"
    assert database_url("sqlite:///:memory:") == "sqlite:///:memory:"


def test_plain_postgresql_url_uses_psycopg_3():
    assert database_url("postgresql://user@host/db") == "postgresql+psycopg://user@host/db"


def test_each_request_logs_one_line_with_the_key_name_never_the_key(api, client, keys, caplog):
    api.post("/v1/products/", product("P1"))
    with caplog.at_level(logging.INFO, logger="warehouse.access"):
        api.get("/v1/products/P1")
        client.get("/v1/products/P1")  # no key
    lines = [record.getMessage() for record in caplog.records if record.name == "warehouse.access"]
    assert len(lines) == 2
    client_address, method, path, status, took, name = lines[0].split(" ")
    assert (client_address, method, path, status, name) == ("127.0.0.1", "GET", "/v1/products/P1", "200", "admin")
    assert took.endswith("ms") and float(took[:-2]) >= 0
    assert lines[1].split(" ")[3:6:2] == ["401", "-"]
    assert not any(key in line for line in lines for key in keys.values())


def test_the_access_line_of_a_revoked_key_names_it(api, client, keys, session, caplog):
    from identity import api_keys

    api_keys.revoke_key(session, "scan")
    with caplog.at_level(logging.INFO, logger="warehouse.access"):
        refused = client.get("/v1/products/", headers={"TS-Apikey": keys["scan"]})
        unknown = client.get("/v1/products/", headers={"TS-Apikey": "no-such-key"})
    # The caller learns nothing more than for an unknown key; the operator's log does.
    assert refused.status_code == unknown.status_code == 401
    assert refused.json == unknown.json
    lines = [record.getMessage() for record in caplog.records if record.name == "warehouse.access"]
    assert [line.split(" ")[3:6:2] for line in lines] == [["401", "scan"], ["401", "-"]]
