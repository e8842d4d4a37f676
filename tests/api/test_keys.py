"""API keys over HTTP (/v1/keys, DESIGN §16): list, make, revoke, expiry, last use, the trail."""
import logging
import re
from datetime import datetime, timedelta, timezone

import pytest

from conftest import Api
from helpers import error_fields
from identity import api_keys
from identity.api_keys import UseNotes
from stock.caller import Caller, ExpiredKey
from stock import audit
from storage.db import db

UTC_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def make(api, **data):
    return api.post("/v1/keys/", {"name": "gate-2", "role": "scan", **data})


def listed(api) -> dict:
    response = api.get("/v1/keys/")
    assert response.status_code == 200, response.json
    return {key["name"]: key for key in response.json["list"]}


def test_a_made_key_is_shown_once_and_works(api, client):
    response = make(api, warehouses=[2, 1])
    assert response.status_code == 201, response.json
    item = response.json["item"]
    assert set(item) == {"name", "role", "warehouses", "expires", "key"}
    assert (item["name"], item["role"], item["warehouses"], item["expires"]) == ("gate-2", "scan", [1, 2], "")
    scanner = Api(client, item["key"])
    assert scanner.get("/v1/products/").status_code == 200
    assert scanner.get("/v1/keys/").status_code == 403  # a scan key
    # The list never shows it again.
    assert item["key"] not in api.get("/v1/keys/").get_data(as_text=True)


def test_the_list_shows_every_key_with_its_times(api, keys):
    make(api, expires_in_days=30)
    found = listed(api)
    assert sorted(found) == sorted([*keys, "gate-2"])
    key = found["gate-2"]
    assert set(key) == {"name", "role", "warehouses", "created", "expires", "last_used", "last_used_from",
                        "revoked"}
    assert UTC_TIME.fullmatch(key["created"]) and UTC_TIME.fullmatch(key["expires"])
    created = datetime.strptime(key["created"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    expires = datetime.strptime(key["expires"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    assert abs(created - datetime.now(timezone.utc)) < timedelta(minutes=2)
    assert abs(expires - created - timedelta(days=30)) < timedelta(seconds=2)
    assert (key["last_used"], key["last_used_from"], key["revoked"]) == ("", "", "")
    assert found["read_w1"]["warehouses"] == [1] and found["read"]["warehouses"] == []


@pytest.mark.parametrize("data, field", [
    ({"role": "boss"}, "role"), ({"name": ""}, "name"), ({"name": "a\u0000b"}, "name"),
    ({"warehouses": ["1"]}, "warehouses"), ({"expires_in_days": 0}, "expires_in_days"),
    ({"expires_in_days": "7"}, "expires_in_days"), ({"colour": "red"}, "colour"),
])
def test_a_bad_key_request_is_422_naming_the_field_and_makes_nothing(api, keys, data, field):
    assert field in error_fields(make(api, **data))["data"]
    assert "gate-2" not in listed(api)


def test_a_name_in_use_is_409(api):
    assert make(api).status_code == 201
    response = make(api, role="read")
    assert response.status_code == 409 and response.json["error"]["code"] == "conflict"


def test_only_an_admin_manages_keys(api_as, keys):
    for name in ("read", "scan"):
        assert api_as(name).get("/v1/keys/").status_code == 403
        assert make(api_as(name)).status_code == 403
        assert api_as(name).delete("/v1/keys/read").status_code == 403
    assert api_as(None).get("/v1/keys/").status_code == 401


def test_a_revoked_key_is_refused_from_the_next_request(api, client):
    key = make(api).json["item"]["key"]
    scanner = Api(client, key)
    assert scanner.get("/v1/products/").status_code == 200
    response = api.delete("/v1/keys/gate-2")
    assert response.status_code == 200 and response.json == {}
    assert scanner.get("/v1/products/").status_code == 401
    assert UTC_TIME.fullmatch(listed(api)["gate-2"]["revoked"])
    assert api.delete("/v1/keys/gate-2").status_code == 200  # revoked already: nothing changes


def test_a_key_cannot_revoke_itself_and_keeps_working(api, client):
    key = make(api, role="admin").json["item"]["key"]
    office = Api(client, key)
    response = office.delete("/v1/keys/gate-2")
    assert response.status_code == 409 and "itself" in response.json["error"]["message"]
    assert office.get("/v1/products/").status_code == 200
    assert listed(api)["gate-2"]["revoked"] == ""
    assert api.delete("/v1/keys/gate-2").status_code == 200  # another admin key may


def test_revoking_an_unknown_key_is_404(api):
    response = api.delete("/v1/keys/nobody")
    assert response.status_code == 404 and response.json["error"]["code"] == "not_found"


def test_an_expired_key_is_401_saying_it_expired(api, client, session):
    key = make(api, expires_in_days=1).json["item"]["key"]
    scanner = Api(client, key)
    assert scanner.get("/v1/products/").status_code == 200
    # A day later (the key's expiry moved back instead of the clock forward).
    from models import ApiKey
    from sqlalchemy import select
    from storage.db import writing
    with writing(session):
        session.scalar(select(ApiKey).where(ApiKey.name == "gate-2")).expires_at = \
            datetime.now(timezone.utc) - timedelta(seconds=1)
    response = scanner.get("/v1/products/")
    assert response.status_code == 401
    assert "expired" in response.json["error"]["message"]
    assert key not in response.get_data(as_text=True)


def test_a_key_kept_in_memory_is_refused_once_its_time_is_up(monkeypatch):
    caller = Caller(1, "gate-2", "scan", None, expires=datetime.now(timezone.utc) + timedelta(hours=1))
    caller.refuse_if_expired()
    with pytest.raises(ExpiredKey, match="expired"):
        caller.refuse_if_expired(datetime.now(timezone.utc) + timedelta(hours=1))


def test_last_use_is_noted_with_the_client_address(api, client):
    key = make(api).json["item"]["key"]
    scanner = Api(client, key)
    response = scanner.client.get("/v1/products/", headers={"TS-Apikey": key},
                                  environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert response.status_code == 200
    response.close()
    noted = listed(api)["gate-2"]
    assert noted["last_used_from"] == "192.0.2.7"
    used = datetime.strptime(noted["last_used"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    assert abs(used - datetime.now(timezone.utc)) < timedelta(minutes=2)


def count_writes(engine) -> list:
    """The UPDATEs of api_keys the engine runs, as they happen."""
    from sqlalchemy import event

    seen = []

    def note(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith("UPDATE API_KEYS"):
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    return seen


def test_last_use_is_written_at_most_once_a_minute_per_key(app, api, client, keys):
    key = make(api).json["item"]["key"]
    with app.app_context():
        writes = count_writes(db.engine)
    for _ in range(20):
        client.get("/v1/products/", headers={"TS-Apikey": key}).close()
    for _ in range(5):
        client.get("/v1/products/", headers={"TS-Apikey": keys["read"]}).close()
    assert 2 <= len(writes) <= 4  # gate-2 once, read once (and the admin's, if its minute turned)


def test_the_notes_allow_one_write_per_key_per_minute_across_processes(app, api, keys):
    """Two processes (two UseNotes) on one database: the second finds the minute noted already."""
    make(api)
    with app.app_context():
        key_id = next(k.id for k in api_keys.list_keys(db.session) if k.name == "gate-2")
        engine = db.engine
        writes = count_writes(engine)
        now = datetime.now(timezone.utc).replace(second=10)
        first, second = UseNotes(), UseNotes()
        assert first.due(key_id, now.timestamp())
        assert first.write(engine, key_id, "192.0.2.1", now)
        assert not first.due(key_id, now.timestamp())
        assert second.write(engine, key_id, "192.0.2.2", now + timedelta(seconds=20))
        assert first.due(key_id, (now + timedelta(minutes=1)).timestamp())
        assert first.write(engine, key_id, "192.0.2.3", now + timedelta(minutes=1))
        db.session.remove()
    assert len(writes) == 3  # the second process's UPDATE matched no row
    noted = listed(api)["gate-2"]
    assert noted["last_used_from"] == "192.0.2.3"
    assert noted["last_used"] == (now + timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_making_and_revoking_a_key_are_in_the_trail_without_the_key(api, session, caplog):
    caplog.set_level(logging.DEBUG)
    key = make(api, warehouses=[1], expires_in_days=7).json["item"]["key"]
    api.delete("/v1/keys/gate-2")
    entries = audit.list_entries(session)
    assert [(e["kind"], e["who"], e["from"], e["record"]) for e in entries] == [
        ("key.revoke", "admin", "127.0.0.1", "gate-2"), ("key.create", "admin", "127.0.0.1", "gate-2")]
    assert entries[1]["changes"]["role"] == [None, "scan"]
    assert entries[1]["changes"]["warehouses"] == [None, [1]]
    assert key not in str(entries)
    assert key not in caplog.text


# --- an admin limited to warehouses (DESIGN 26) -----------------------------------------------

@pytest.mark.parametrize("warehouses", [[], [2], [1, 2]])
def test_an_admin_limited_to_warehouses_makes_no_key_that_reaches_further(admin_w1, api, session, warehouses):
    response = make(admin_w1, role="admin", warehouses=warehouses)
    assert error_fields(response, 403) == {}
    assert "limited" in response.json["error"]["message"]
    assert "gate-2" not in listed(api)
    assert audit.list_entries(session, kind="key") == []
    # An admin for every warehouse makes the same key.
    assert make(api, role="admin", warehouses=warehouses).status_code == 201


def test_an_admin_limited_to_warehouses_makes_keys_within_them(admin_w1, client, session):
    response = make(admin_w1, role="admin", warehouses=[1])
    assert response.status_code == 201, response.json
    assert Api(client, response.json["item"]["key"]).get("/v1/keys/").status_code == 200
    [entry] = audit.list_entries(session, kind="key.create")
    assert (entry["who"], entry["who_kind"], entry["record"]) == ("admin_w1", "key", "gate-2")


def test_an_admin_limited_to_warehouses_lists_only_the_keys_within_them(admin_w1, api, keys):
    assert sorted(listed(admin_w1)) == ["admin_w1", "read_w1", "scan_w1"]
    assert sorted(listed(api)) == sorted([*keys, "admin_w1"])


def test_a_key_beyond_a_limited_admin_is_not_found_and_stays(admin_w1, api, client, keys, session):
    for name in ("admin", "scan"):
        assert error_fields(admin_w1.delete(f"/v1/keys/{name}"), 404) == {}
        assert Api(client, keys[name]).get("/v1/products/").status_code == 200
    assert audit.list_entries(session, kind="key.revoke") == []
    # Within its warehouses it revokes; an admin for every warehouse revokes anything.
    assert admin_w1.delete("/v1/keys/scan_w1").status_code == 200
    assert api.delete("/v1/keys/scan").status_code == 200
    assert api.delete("/v1/keys/admin_w1").status_code == 200
    assert admin_w1.get("/v1/keys/").status_code == 401
