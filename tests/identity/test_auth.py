"""API keys (DESIGN §1-2): 401 and 403, roles, warehouse limits, revocation, hashing, bootstrap."""
import pytest
from sqlalchemy import select

from helpers import product
from identity import api_keys
from models import ApiKey
from stock import audit
from stock.audit import Actor
from stock.errors import Conflict, Forbidden, Invalid, Unauthorized
from version import VERSION

ROLE_NAMES = ["read", "scan", "admin", "read_w1", "scan_w1"]

# (method, path, data, the weakest role allowed, success status)
OPERATIONS = [
    ("GET", "/v1/products/", None, "read", 200),
    ("GET", "/v1/products/P1", None, "read", 200),
    ("POST", "/v1/products/", product("NEW"), "admin", 201),
    ("POST", "/v1/products/P1", {"name": "renamed"}, "admin", 200),
    ("GET", "/v1/customers/", None, "read", 200),
]


def call(api, method, path, data):
    return api.get(path) if method == "GET" else api.post(path, data)


@pytest.fixture
def with_product(api):
    assert api.post("/v1/products/", product("P1")).status_code == 201


# --- 401 ------------------------------------------------------------------------------------

@pytest.mark.parametrize("method, path, data, _role, _status", OPERATIONS)
@pytest.mark.parametrize("key", [None, "", "not-a-key", "x" * 500])
def test_missing_or_unknown_key_is_401(api_as, with_product, method, path, data, _role, _status, key):
    r = call(api_as(key), method, path, data)
    assert r.status_code == 401
    assert r.json["error"]["code"] == "unauthorized"


def test_401_comes_before_404_of_an_unknown_path(api_as, keys):
    assert api_as(None).get("/v1/no-such-thing").status_code == 401
    assert api_as("admin").get("/v1/no-such-thing").status_code == 404


def test_a_key_is_only_read_from_the_ts_apikey_header(client, keys):
    assert client.get("/v1/products/", headers={"Authorization": f"Bearer {keys['admin']}"}).status_code == 401
    assert client.get(f"/v1/products/?TS-Apikey={keys['admin']}").status_code == 401
    assert client.get("/v1/products/", headers={"ts-apikey": keys["admin"]}).status_code == 200


def test_health_needs_no_key(client):
    r = client.get("/health")
    assert r.status_code == 200
    assert r.json == {"status": "ok", "version": VERSION}


def test_health_ignores_a_wrong_key(client):
    assert client.get("/health", headers={"TS-Apikey": "wrong"}).status_code == 200


# --- roles ----------------------------------------------------------------------------------

@pytest.mark.parametrize("method, path, data, weakest, status", OPERATIONS)
@pytest.mark.parametrize("name", ROLE_NAMES)
def test_each_role_may_do_what_its_rank_allows(api_as, with_product, method, path, data, weakest, status, name):
    allowed = api_keys.ROLES.index(name.removesuffix("_w1")) >= api_keys.ROLES.index(weakest)
    r = call(api_as(name), method, path, data)
    if allowed:
        assert r.status_code == status, r.json
    else:
        assert r.status_code == 403, r.json
        assert r.json["error"]["code"] == "forbidden"


@pytest.mark.parametrize("name", ["read", "scan", "read_w1", "scan_w1"])
def test_a_refused_write_changes_nothing(api, api_as, with_product, name):
    assert api_as(name).post("/v1/products/", product("NEW")).status_code == 403
    assert api_as(name).post("/v1/products/P1", {"name": "renamed"}).status_code == 403
    assert [p["name"] for p in api.get("/v1/products/").json["list"]] == ["Product P1"]


def test_403_comes_before_a_bad_body(api_as, keys):
    r = api_as("read").client.post("/v1/products/", data="not json", headers={"TS-Apikey": keys["read"]})
    assert r.status_code == 403


def test_roles_rank_read_scan_admin():
    read, scan, admin = (api_keys.Caller(1, r, r, None) for r in api_keys.ROLES)
    assert read.has_role("read") and not read.has_role("scan") and not read.has_role("admin")
    assert scan.has_role("read") and scan.has_role("scan") and not scan.has_role("admin")
    assert admin.has_role("read") and admin.has_role("scan") and admin.has_role("admin")


# --- warehouse limits -----------------------------------------------------------------------

def test_a_limited_key_reads_master_data(api_as, with_product):
    assert [p["product_code"] for p in api_as("read_w1").get("/v1/products/").json["list"]] == ["P1"]
    assert api_as("scan_w1").get("/v1/products/P1").status_code == 200


def test_authenticate_gives_the_warehouses_of_the_key(session, keys):
    assert api_keys.authenticate(session, keys["scan_w1"]).warehouses == frozenset({1})
    assert api_keys.authenticate(session, keys["scan"]).warehouses is None


def test_create_key_stores_several_warehouses(session):
    key = api_keys.create_key(session, "two", "read", [3, 1, 3])
    caller = api_keys.authenticate(session, key)
    assert caller.warehouses == frozenset({1, 3})
    assert session.scalar(select(ApiKey.warehouses).where(ApiKey.name == "two")) == "1,3"


def test_a_limited_key_sees_only_its_warehouses():
    limited = api_keys.Caller(1, "w", "scan", frozenset({1, 3}))
    assert limited.sees(1) and limited.sees(3) and not limited.sees(2)
    assert limited.narrow([]) == [1, 3]
    assert limited.narrow([3, 2]) == [3]
    assert limited.narrow([2]) == []
    limited.require_warehouse(3)
    with pytest.raises(Forbidden):
        limited.require_warehouse(2)


def test_an_unlimited_key_sees_every_warehouse():
    unlimited = api_keys.Caller(1, "all", "scan", None)
    assert unlimited.sees(12345)
    assert unlimited.narrow([]) is None
    assert unlimited.narrow([5, 2, 5]) == [2, 5]
    unlimited.require_warehouse(99)


# --- revocation and storage -----------------------------------------------------------------

def test_a_revoked_key_is_refused_at_the_next_request(api_as, session):
    reader = api_as("read")
    assert reader.get("/v1/products/").status_code == 200
    api_keys.revoke_key(session, "read")
    r = reader.get("/v1/products/")
    assert r.status_code == 401
    assert r.json["error"]["code"] == "unauthorized"
    assert api_as("scan").get("/v1/products/").status_code == 200


def test_revoking_twice_keeps_the_first_time(session, keys):
    api_keys.revoke_key(session, "read")
    first = session.scalar(select(ApiKey.revoked_at).where(ApiKey.name == "read"))
    api_keys.revoke_key(session, "read")
    assert session.scalar(select(ApiKey.revoked_at).where(ApiKey.name == "read")) == first


def test_keys_are_stored_only_as_a_hash(session, keys):
    rows = session.execute(select(ApiKey)).scalars().all()
    assert len(rows) == len(keys)
    stored = [str(getattr(row, column.key)) for row in rows for column in ApiKey.__table__.columns]
    for key in keys.values():
        assert not any(key in value for value in stored)
    assert {row.key_hash for row in rows} == {api_keys.hash_key(key) for key in keys.values()}


def test_keys_are_long_and_distinct(keys):
    assert len(set(keys.values())) == len(keys)
    assert all(len(key) >= 40 for key in keys.values())


@pytest.mark.parametrize("name, role", [("x", "owner"), ("x", ""), ("", "read"), ("  ", "read")])
def test_create_key_refuses_a_bad_role_or_name(session, name, role):
    with pytest.raises(Invalid):
        api_keys.create_key(session, name, role)
    assert session.scalar(select(ApiKey.id)) is None


def test_create_key_refuses_a_taken_name(session, keys):
    with pytest.raises(Conflict):
        api_keys.create_key(session, "read", "admin")


# --- bootstrap ------------------------------------------------------------------------------

def key_names(session):
    return session.scalars(select(ApiKey.name).order_by(ApiKey.name)).all()


def test_bootstrap_without_any_key_issues_one_admin_key(session, client):
    new_key = api_keys.bootstrap(session, None)
    assert new_key
    assert api_keys.authenticate(session, new_key).role == "admin"
    assert client.post("/v1/products/", json={"data": product("P1")}, headers={"TS-Apikey": new_key}).status_code == 201
    assert api_keys.bootstrap(session, None) is None  # only once
    assert len(key_names(session)) == 1


def test_bootstrap_issues_nothing_when_keys_exist(session, keys):
    assert api_keys.bootstrap(session, None) is None
    assert len(key_names(session)) == len(keys)


def test_bootstrap_issues_nothing_when_every_key_is_revoked(session, keys):
    for name in keys:
        api_keys.revoke_key(session, name)
    assert api_keys.bootstrap(session, None) is None


def test_configured_key_becomes_the_admin_key_named_bootstrap(session, client, keys):
    assert api_keys.bootstrap(session, "configured-secret-key-1") is None
    caller = api_keys.authenticate(session, "configured-secret-key-1")
    assert (caller.name, caller.role, caller.warehouses) == ("bootstrap", "admin", None)
    r = client.post("/v1/products/", json={"data": product("P1")}, headers={"TS-Apikey": "configured-secret-key-1"})
    assert r.status_code == 201


def test_the_keys_made_at_start_up_are_in_the_audit_trail(session, live_server):
    # Found by a new user: the first admin key was only in the log, not in the trail.
    actor = Actor("depot-user", "cli")
    assert api_keys.bootstrap(session, None, actor)
    api_keys.bootstrap(session, "configured-secret-key-1", actor)
    api_keys.bootstrap(session, "configured-secret-key-2", actor)
    found = [(e["kind"], e["record"], e["who"], e["from"]) for e in reversed(audit.list_entries(session, kind="key"))]
    replaced = [record for kind, record, _, _ in found if kind == "key.revoke"]
    assert found == [("key.create", "admin", "depot-user", "cli"), ("key.create", "bootstrap", "depot-user", "cli"),
                     ("key.revoke", replaced[0], "depot-user", "cli"),
                     ("key.create", "bootstrap", "depot-user", "cli")]
    assert replaced[0].startswith("bootstrap-replaced-")
    # python app.py itself: its configured key's creation is read back over the API.
    server = live_server()
    status, body = server.get("/v1/audit/?kind=key.create")
    assert status == 200
    assert [(e["record"], e["from"]) for e in body["list"]][0] == ("bootstrap", "cli")


def test_configured_key_is_not_added_twice(session):
    api_keys.bootstrap(session, "configured-secret-key-1")
    api_keys.bootstrap(session, "configured-secret-key-1")
    assert key_names(session) == ["bootstrap"]


def test_a_changed_configured_key_replaces_the_previous_one(session):
    api_keys.bootstrap(session, "configured-secret-key-1")
    api_keys.bootstrap(session, "configured-secret-key-2")
    assert api_keys.authenticate(session, "configured-secret-key-2").name == "bootstrap"
    with pytest.raises(Unauthorized):
        api_keys.authenticate(session, "configured-secret-key-1")


def test_a_revoked_configured_key_refuses_to_start(session):
    api_keys.bootstrap(session, "configured-secret-key-1")
    api_keys.revoke_key(session, "bootstrap")
    with pytest.raises(api_keys.KeyRefused, match="revoked"):
        api_keys.bootstrap(session, "configured-secret-key-1")
    with pytest.raises(Unauthorized):
        api_keys.authenticate(session, "configured-secret-key-1")


def test_a_replaced_configured_key_stays_revoked_when_configured_again(session):
    api_keys.bootstrap(session, "configured-secret-key-1")
    api_keys.bootstrap(session, "configured-secret-key-2")
    with pytest.raises(api_keys.KeyRefused):
        api_keys.bootstrap(session, "configured-secret-key-1")
