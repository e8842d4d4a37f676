"""The pages under /admin/ (DESIGN §16) through the test client: people, keys and pairing, the audit trail.

tests/pages/test_pages_browser.py signs in, pairs a device and reads the trail in a real browser.
"""
import json
import re

import pytest

from conftest import PASSWORD, Api
from helpers import qr_holds
from identity import api_keys, people
from stock import audit
from conftest import sign_in, token_of

OTHER = "another long password"


@pytest.fixture
def admin(client, person):
    person("boss", role="admin")
    assert sign_in(client, "boss").status_code == 302
    return client


def admin_at(client, base_url):
    """The admin signed in on another address of the service (the cookie is the host's)."""
    token = token_of(client.get("/login", base_url=base_url))
    assert client.post("/login", data={"username": "boss", "password": PASSWORD, "token": token},
                       base_url=base_url).status_code == 302
    return token_of(client.get("/admin/keys", base_url=base_url))


def post(client, path, **form):
    token = token_of(client.get("/admin/people"))
    return client.post(path, data={"token": token, **form})


@pytest.mark.parametrize("path", ["/admin/people", "/admin/keys", "/admin/audit"])
@pytest.mark.parametrize("role", ["read", "scan"])
def test_only_an_admin_sees_the_admin_pages(client, person, path, role):
    person(role)
    sign_in(client, role)
    response = client.get(path)
    assert response.status_code == 403
    assert "role admin" in response.get_data(as_text=True)
    assert 'href="/admin/' not in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("path", ["/admin/people", "/admin/keys", "/admin/audit"])
def test_without_a_session_the_admin_pages_go_to_the_login_form(client, path):
    response = client.get(path)
    assert response.status_code == 302 and response.headers["Location"].startswith("/login?next=/admin/")


def test_an_admin_has_the_links(admin):
    html = admin.get("/").get_data(as_text=True)
    for path in ("/admin/people", "/admin/keys", "/admin/audit"):
        assert f'href="{path}"' in html


def test_adding_a_person_who_then_signs_in(admin, app, session):
    response = post(admin, "/admin/people", name="anna", role="scan", warehouses="2, 1", password=PASSWORD)
    assert response.status_code == 302
    page = admin.get("/admin/people").get_data(as_text=True)
    assert "anna may sign in now" in page and 'data-name="anna"' in page
    assert [(p["name"], p["role"], p["warehouses"]) for p in people.list_people(session) if p["name"] == "anna"] \
        == [("anna", "scan", [1, 2])]
    assert sign_in(app.test_client(), "anna").status_code == 302
    [entry] = audit.list_entries(session, kind="user.create", who="boss")
    assert entry["record"] == "anna" and entry["from"] == "127.0.0.1"


@pytest.mark.parametrize("form, field, says", [
    ({"name": "anna", "role": "read", "password": "short"}, "password", "At least 10 characters"),
    ({"name": "anna", "role": "chief", "password": PASSWORD}, "role", "Must be one of: read, scan, admin"),
    ({"name": "anna", "role": "read", "warehouses": "Cold store", "password": PASSWORD}, "warehouses",
     "Tick the warehouses in the list"),
    ({"name": "anna", "role": "read", "warehouses": ["1", "99"], "password": PASSWORD}, "warehouses",
     "No active warehouse 99"),
    ({"name": "boss", "role": "read", "password": PASSWORD}, "name", "exists already: choose another name"),
])
def test_a_bad_person_is_named_beside_its_field_and_nothing_is_added(admin, session, form, field, says):
    response = post(admin, "/admin/people", **form)
    assert response.status_code in (409, 422)
    html = response.get_data(as_text=True)
    # Beside the field, with what to do (the office typed "Cold store" and saw no field marked).
    assert re.search(rf'<span class="problem" id="{field}-problem" role="alert">[^<]*{says}', html), html
    assert html.count('class="problem"') == 1
    assert form["password"] not in html
    assert [p["name"] for p in people.list_people(session)] == ["boss"]


def test_a_form_without_the_token_changes_nothing(admin, session, person):
    person("anna", role="read")
    for path, form in (("/admin/people", {"name": "x", "role": "read", "password": PASSWORD}),
                       ("/admin/people/anna/disable", {}), ("/admin/people/anna/password", {"password": OTHER}),
                       ("/admin/keys", {"name": "gate"}), ("/admin/keys/boss/revoke", {})):
        assert admin.post(path, data={"token": "guessed", **form}).status_code == 403
    assert [(p["name"], p["disabled"]) for p in people.list_people(session)] == [("anna", ""), ("boss", "")]
    assert api_keys.list_keys(session) == []


def test_resetting_a_password_and_disabling_end_the_persons_sessions(admin, app, person, session):
    person("anna", role="read")
    anna = app.test_client()
    sign_in(anna, "anna")
    assert post(admin, "/admin/people/anna/password", password=OTHER).status_code == 302
    assert anna.get("/").status_code == 302
    assert sign_in(anna, "anna", OTHER).status_code == 302
    # Disabling asks first, on a page of its own; nothing changes until it is confirmed.
    asked = post(admin, "/admin/people/anna/disable")
    assert asked.status_code == 200 and "Disable anna?" in asked.get_data(as_text=True)
    assert anna.get("/").status_code == 200
    assert post(admin, "/admin/people/anna/disable", confirm="yes").status_code == 302
    assert anna.get("/").status_code == 302
    assert sign_in(anna, "anna", OTHER).status_code == 401
    assert "disabled" in admin.get("/admin/people").get_data(as_text=True)
    kinds = [e["kind"] for e in audit.list_entries(session, who="boss")]
    assert kinds == ["user.disable", "user.password"]


def test_pairing_shows_the_key_once_as_text_and_as_a_qr_code(admin, client, session):
    token = admin_at(admin, "http://depot.local:8000")
    response = admin.post("/admin/keys", data={"token": token, "name": "gate-2", "role": "scan",
                                               "warehouses": "1", "expires_in_days": "90"},
                          base_url="http://depot.local:8000")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    html = response.get_data(as_text=True)
    key = re.search(r'<code id="pair-key">([^<]+)</code>', html).group(1)
    assert re.search(r'<code id="pair-url">([^<]+)</code>', html).group(1) == "http://depot.local:8000/"
    scanner_svg, json_svg = re.findall(r"<svg.*?</svg>", html, re.S)
    # First the code that opens the browser scanner paired, then the JSON for other scanner apps.
    assert qr_holds(scanner_svg, f"http://depot.local:8000/scan#pair={key}")
    assert qr_holds(json_svg, json.dumps({"url": "http://depot.local:8000/", "key": key}))
    assert not qr_holds(json_svg, json.dumps({"url": "http://depot.local:8000/", "key": key + "x"}))
    # The key works, with what the form asked for.
    scanner = Api(client, key)
    assert scanner.get("/v1/products/").status_code == 200
    [made] = [api_keys.key_view(k) for k in api_keys.list_keys(session)]
    assert (made["name"], made["role"], made["warehouses"], bool(made["expires"])) == ("gate-2", "scan", [1], True)
    # The list shows it without the key, and never again the key.
    listing = admin.get("/admin/keys").get_data(as_text=True)
    assert 'data-name="gate-2"' in listing and key not in listing
    [entry] = audit.list_entries(session, kind="key.create")
    assert entry["who"] == "boss" and key not in str(entry)


def test_pairing_over_https_names_the_https_address(admin):
    token = admin_at(admin, "https://depot.example")
    html = admin.post("/admin/keys", data={"token": token, "name": "gate-3"},
                      base_url="https://depot.example").get_data(as_text=True)
    assert '<code id="pair-url">https://depot.example/</code>' in html


def test_a_name_in_use_is_refused_on_the_keys_page(admin, session):
    token = token_of(admin.get("/admin/keys"))
    admin.post("/admin/keys", data={"token": token, "name": "gate-2"})
    response = admin.post("/admin/keys", data={"token": token, "name": "gate-2"})
    assert response.status_code == 409
    assert "exists already" in response.get_data(as_text=True)
    assert len(api_keys.list_keys(session)) == 1


def test_revoking_a_key_from_the_page(admin, client, session):
    key = api_keys.create_key(session, "gate-2", "scan")
    assert Api(client, key).get("/v1/products/").status_code == 200
    assert post(admin, "/admin/keys/gate-2/revoke").status_code == 302
    assert Api(client, key).get("/v1/products/").status_code == 401
    assert "revoked" in admin.get("/admin/keys").get_data(as_text=True)
    assert [e["kind"] for e in audit.list_entries(session, who="boss")] == ["key.revoke"]


def test_the_keys_page_shows_last_use_and_where_from(admin, client, api):
    # (No `session` here: its open read would keep the page's reads in the snapshot before the note.)
    key = api.post("/v1/keys/", {"name": "gate-2", "role": "scan"}).json["item"]["key"]
    client.get("/v1/products/", headers={"TS-Apikey": key}, environ_base={"REMOTE_ADDR": "192.0.2.44"}).close()
    row = re.search(r'<tr data-name="gate-2".*?</tr>', admin.get("/admin/keys").get_data(as_text=True), re.S).group(0)
    assert "192.0.2.44" in row and "never" in row  # used from there; it never expires


def test_the_audit_page_filters_and_pages_as_the_api_does(admin, session, api):
    for n in range(5):
        api.post("/v1/keys/", {"name": f"gate-{n}", "role": "scan"})
    api.delete("/v1/keys/gate-0")
    html = admin.get("/admin/audit?kind=key.create&limit=2").get_data(as_text=True)
    records = re.findall(r'<tr data-id="\d+"><td data-label="When"><time[^>]*>[^<]*</time></td>'
                         r'<td data-label="Who">admin</td><td data-label="As">key</td><td data-label="From">127.0.0.1</td>\s*'
                         r'<td data-label="What">key.create</td><td data-label="Record">([^<]+)</td>', html)
    assert records == ["gate-4", "gate-3"]
    older = re.search(r'<a href="([^"]+)" rel="next">', html).group(1).replace("&amp;", "&")
    html = admin.get(older).get_data(as_text=True)
    assert re.findall(r'key.create</td><td data-label="Record">([^<]+)</td>', html) == ["gate-2", "gate-1"]
    assert "key.revoke" in admin.get("/admin/audit?who=admin").get_data(as_text=True)
    assert "No entries" in admin.get("/admin/audit?since=2999-01-01").get_data(as_text=True)
    assert admin.get("/admin/audit?limit=5000").status_code == 422


# --- who may do what (DESIGN 26) --------------------------------------------------------------

@pytest.fixture
def admin_w1_page(app, person):
    """A person of role admin limited to warehouse 1, signed in on a client of their own."""
    person("chief_w1", [1], role="admin")
    client = app.test_client()
    assert sign_in(client, "chief_w1").status_code == 302
    return client


def trail(session):
    """The changes of people and keys made on the pages (not by the fixtures that make people)."""
    return [(e["kind"], e["record"]) for e in audit.list_entries(session)
            if e["kind"].startswith(("user.", "key.")) and e["who"] != "tests"]


def test_a_limited_admin_sees_only_the_people_and_keys_within_its_warehouses(admin, admin_w1_page, person, session):
    person("anna_w1", [1], role="read")
    person("ben_w2", [2], role="read")
    api_keys.create_key(session, "gate-1", "scan", [1])
    api_keys.create_key(session, "gate-all", "scan")
    html = admin_w1_page.get("/admin/people").get_data(as_text=True)
    assert re.findall(r'<tr data-name="([^"]+)"', html) == ["anna_w1", "chief_w1"]
    assert 'name="warehouses" value="1"' in html  # the form offers its own warehouses
    html = admin_w1_page.get("/admin/keys").get_data(as_text=True)
    assert re.findall(r'<tr data-name="([^"]+)"', html) == ["gate-1"]
    # An admin for every warehouse sees everyone.
    html = admin.get("/admin/people").get_data(as_text=True)
    assert re.findall(r'<tr data-name="([^"]+)"', html) == ["anna_w1", "ben_w2", "boss", "chief_w1"]


@pytest.mark.parametrize("warehouses", ["", "2", "1, 2"])
def test_a_limited_admin_adds_nobody_who_reaches_further(admin, admin_w1_page, session, warehouses):
    response = post(admin_w1_page, "/admin/people", name="anna", role="read", warehouses=warehouses, password=PASSWORD)
    assert response.status_code == 403
    assert "only an admin for every warehouse" in response.get_data(as_text=True)
    assert "anna" not in [p["name"] for p in people.list_people(session)]
    assert trail(session) == []
    # The admin for every warehouse adds the same person.
    assert post(admin, "/admin/people", name="anna", role="read", warehouses=warehouses,
                password=PASSWORD).status_code == 302


def test_a_limited_admin_changes_nobody_who_reaches_further(admin, admin_w1_page, app, person, session):
    person("ben_w2", [2], role="read")
    boss = app.test_client()
    sign_in(boss, "boss")
    for path, form in (("/admin/people/boss/password", {"password": OTHER}),
                       ("/admin/people/boss/disable", {"confirm": "yes"}),
                       ("/admin/people/boss/access", {"role": "read", "warehouses": "1"}),
                       ("/admin/people/ben_w2/password", {"password": OTHER}),
                       ("/admin/people/ben_w2/disable", {"confirm": "yes"})):
        response = post(admin_w1_page, path, **form)
        assert response.status_code == 404, path
        assert "No person named" in response.get_data(as_text=True)
    assert boss.get("/").status_code == 200  # boss's session and password hold
    assert sign_in(app.test_client(), "boss").status_code == 302
    assert [(p["name"], p["role"], p["disabled"]) for p in people.list_people(session)] == [
        ("ben_w2", "read", ""), ("boss", "admin", ""), ("chief_w1", "admin", "")]
    assert trail(session) == []
    # The admin for every warehouse may.
    assert post(admin, "/admin/people/ben_w2/password", password=OTHER).status_code == 302
    assert trail(session) == [("user.password", "ben_w2")]


def test_a_limited_admin_pairs_no_key_that_reaches_further_nor_revokes_one(admin, admin_w1_page, client, session):
    key = api_keys.create_key(session, "gate-all", "scan")
    token = token_of(admin_w1_page.get("/admin/keys"))
    response = admin_w1_page.post("/admin/keys", data={"token": token, "name": "gate-2"})
    assert response.status_code == 403 and "A key for every warehouse" in response.get_data(as_text=True)
    response = admin_w1_page.post("/admin/keys/gate-all/revoke", data={"token": token})
    assert response.status_code == 404
    assert Api(client, key).get("/v1/products/").status_code == 200
    assert [k.name for k in api_keys.list_keys(session)] == ["gate-all"] and trail(session) == []
    assert admin_w1_page.post("/admin/keys", data={"token": token, "name": "gate-2", "warehouses": "1"}
                              ).status_code == 200
    assert post(admin, "/admin/keys/gate-all/revoke").status_code == 302
    assert trail(session) == [("key.revoke", "gate-all"), ("key.create", "gate-2")]


def test_the_audit_page_of_a_limited_admin_shows_its_warehouses_only(admin, admin_w1_page, person, session):
    person("anna_w1", [1], role="read")
    person("ben_w2", [2], role="read")
    shown = re.findall(r'<td data-label="What">user.create</td><td data-label="Record">([^<]+)</td>', admin_w1_page.get("/admin/audit").get_data(as_text=True))
    assert shown == ["anna_w1", "chief_w1"]
    shown = re.findall(r'<td data-label="What">user.create</td><td data-label="Record">([^<]+)</td>', admin.get("/admin/audit").get_data(as_text=True))
    assert shown == ["ben_w2", "anna_w1", "chief_w1", "boss"]


def test_nobody_disables_demotes_or_limits_themselves(admin, session):
    asked = post(admin, "/admin/people/boss/disable").get_data(as_text=True)
    assert "This is you" in asked
    for path, form in (("/admin/people/boss/disable", {"confirm": "yes"}),
                       ("/admin/people/boss/access", {"role": "scan"}),
                       ("/admin/people/boss/access", {"role": "admin", "warehouses": "1"})):
        response = post(admin, path, **form)
        assert response.status_code == 409, path
        assert "Nobody may" in response.get_data(as_text=True)
    assert [(p["name"], p["role"], p["warehouses"], p["disabled"]) for p in people.list_people(session)] == [
        ("boss", "admin", [], "")]
    assert trail(session) == []
    assert admin.get("/").status_code == 200


def test_an_admin_changes_another_persons_role_and_warehouses(admin, app, person, session):
    person("anna", role="read")
    anna = app.test_client()
    sign_in(anna, "anna")
    assert anna.get("/admin/people").status_code == 403
    assert post(admin, "/admin/people/anna/access", role="admin", warehouses="2").status_code == 302
    assert [(p["role"], p["warehouses"]) for p in people.list_people(session) if p["name"] == "anna"] == [
        ("admin", [2])]
    assert anna.get("/admin/people").status_code == 200  # from the next page on
    [entry] = audit.list_entries(session, kind="user.change")
    assert entry["changes"] == {"role": ["read", "admin"], "warehouses": [[], [2]]}


def test_a_disabled_person_is_enabled_on_the_page(admin, app, person, session):
    person("anna", role="read")
    assert post(admin, "/admin/people/anna/disable", confirm="yes").status_code == 302
    html = admin.get("/admin/people").get_data(as_text=True)
    row = re.search(r'<tr data-name="anna".*?</tr>', html, re.S).group(0)
    assert 'aria-label="Enable anna"' in row and "Disable anna" not in row
    assert post(admin, "/admin/people/anna/enable").status_code == 302
    assert sign_in(app.test_client(), "anna").status_code == 302
    assert trail(session) == [("user.enable", "anna"), ("user.disable", "anna")]
