"""/admin/warehouses through the test client (pages/admin_warehouses.py): add, rename, move,
deactivate and activate again, each in the audit trail, through the rule functions of
/v1/warehouses; and the warehouses picked by name in the people and keys forms.

tests/pages/test_pages_depot_browser.py drives the same pages in chromium at 1280 and 390 px.
"""
import re

import pytest

from conftest import Api, sign_in, signed_in, token_of
from helpers import batch, item, product
from identity import api_keys, people
from stock import audit, warehouses


def listed(session) -> dict[int, dict]:
    session.remove()
    return {w["id_warehouse"]: w for w in warehouses.list_warehouses(session)}


def post(client, path, **form):
    token = token_of(client.get("/admin/warehouses"))
    return client.post(path, data={"token": token, **form})


def problem(html: str, field: str) -> str:
    """The message shown beside a form's field ("" when none is)."""
    found = re.search(rf'<span class="problem" id="{field}-problem" role="alert">([^<]*)</span>', html)
    return found.group(1) if found else ""


@pytest.mark.parametrize("path", ["/admin/warehouses", "/admin/warehouses/1"])
def test_only_an_admin_manages_warehouses(office, path):
    assert office.get(path).status_code == 403
    assert post(office, "/admin/warehouses", id_warehouse="12", name="Cold store").status_code == 403


def test_without_a_session_the_page_goes_to_the_login_form(client):
    response = client.get("/admin/warehouses")
    assert response.status_code == 302 and response.headers["Location"].startswith("/login?next=")


def test_the_list_shows_every_warehouse_by_name_with_a_next_number_to_add(admin):
    html = admin.get("/admin/warehouses").get_data(as_text=True)
    rows = re.findall(r'<tr data-warehouse="(\d+)"', html)
    assert rows == [str(n) for n in range(1, 10)]
    assert '<a href="/admin/warehouses/1">Main</a>' in html
    assert 'name="id_warehouse" value="10"' in html  # the number after the highest
    assert 'href="/admin/warehouses"' in admin.get("/").get_data(as_text=True)


def test_adding_a_warehouse_is_audited_and_the_api_lists_it(admin, client, keys, session):
    response = post(admin, "/admin/warehouses", id_warehouse="12", name="Cold store", address="Dock 3")
    assert response.status_code == 303 and response.headers["Location"] == "/admin/warehouses"
    assert "Warehouse 12, Cold store, is added." in admin.get("/admin/warehouses").get_data(as_text=True)
    answer = Api(client, keys["read"]).get("/v1/warehouses/").json["list"]
    assert {"id_warehouse": 12, "name": "Cold store", "address": "Dock 3", "active": 1} in answer
    [entry] = audit.list_entries(session, kind="warehouse.create")
    assert (entry["who"], entry["from"], entry["record"]) == ("admin", "127.0.0.1", "12")
    assert entry["changes"]["name"] == [None, "Cold store"]


@pytest.mark.parametrize("form, status, field, says", [
    ({"id_warehouse": "Cold store", "name": "Cold store"}, 422, "id_warehouse", "A whole number from 1 up"),
    ({"id_warehouse": "0", "name": "Cold store"}, 422, "id_warehouse", "e.g. 10"),
    ({"id_warehouse": "", "name": "Cold store"}, 422, "id_warehouse", "A whole number from 1 up"),
    ({"id_warehouse": "12", "name": ""}, 422, "name", "Give a name"),
    ({"id_warehouse": "12", "name": "Main"}, 409, "name", "Warehouse 1 is named &#39;Main&#39; already: choose another"),
    ({"id_warehouse": "2", "name": "Cold store"}, 409, "id_warehouse", "Warehouse 2 exists already: choose a number"),
    ({"id_warehouse": "12", "name": "Cold\x07store"}, 422, "name", "Give a name"),
])
def test_a_refused_warehouse_is_named_beside_its_field_and_nothing_changes(admin, session, form, status, field,
                                                                          says):
    before = listed(session)
    response = post(admin, "/admin/warehouses", **form)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert says in problem(html, field), html
    assert html.count('class="problem"') == 1
    assert f'value="{form["name"]}"' in html  # what was typed stays in the form
    assert listed(session) == before
    assert audit.list_entries(session, kind="warehouse") == []


def test_renaming_and_moving_a_warehouse(admin, session):
    form = admin.get("/admin/warehouses/2").get_data(as_text=True)
    assert 'name="name" value="Warehouse 2"' in form
    response = post(admin, "/admin/warehouses/2", name="Cold store", address="Dock 3")
    assert response.status_code == 303
    assert listed(session)[2] == {"id_warehouse": 2, "name": "Cold store", "address": "Dock 3", "active": 1}
    [entry] = audit.list_entries(session, kind="warehouse.update")
    assert entry["changes"] == {"name": ["Warehouse 2", "Cold store"], "address": ["", "Dock 3"]}
    # Every page names it so from now on.
    assert ">Cold store</option>" in admin.get("/").get_data(as_text=True)


@pytest.mark.parametrize("form, status, field", [({"name": "", "address": ""}, 422, "name"),
                                                 ({"name": "Main", "address": ""}, 409, "name"),
                                                 ({"name": "X", "address": "a" * 1001}, 422, "address")])
def test_a_refused_rename_is_named_beside_its_field(admin, session, form, status, field):
    before = listed(session)
    response = post(admin, "/admin/warehouses/2", **form)
    assert response.status_code == status
    assert problem(response.get_data(as_text=True), field)
    assert listed(session) == before


def test_a_deactivated_warehouse_takes_no_batch_until_it_is_active_again(admin, api, session):
    created = api.post("/v1/products/", product("P1"))
    assert created.status_code == 201
    assert post(admin, "/admin/warehouses/3/active", active="0").status_code == 303
    assert listed(session)[3]["active"] == 0
    html = admin.get("/admin/warehouses").get_data(as_text=True)
    assert re.search(r'<tr data-warehouse="3" class="inactive">.*?inactive.*?>Activate</button>', html, re.S)
    refused = api.post("/v1/batches/", batch(1, [item("P1", 1)], id_warehouse="3", direction="I", type="R"))
    assert refused.status_code == 422 and "not active" in refused.json["error"]["message"]
    assert post(admin, "/admin/warehouses/3/active", active="1").status_code == 303
    assert api.post("/v1/batches/", batch(1, [item("P1", 1)], id_warehouse="3", direction="I",
                                          type="R")).status_code == 201
    assert [e["changes"] for e in audit.list_entries(session, kind="warehouse.update")] == [
        {"active": [0, 1]}, {"active": [1, 0]}]


def test_a_form_without_its_token_changes_nothing(admin, session):
    before = listed(session)
    for path, form in (("/admin/warehouses", {"id_warehouse": "12", "name": "X"}),
                       ("/admin/warehouses/2", {"name": "X"}), ("/admin/warehouses/2/active", {"active": "0"})):
        assert admin.post(path, data={"token": "guessed", **form}).status_code == 403
    assert listed(session) == before


@pytest.mark.parametrize("path", ["/admin/warehouses/99", "/admin/warehouses/99/active"])
def test_an_unknown_warehouse_is_the_404_page(admin, path):
    response = admin.get(path) if not path.endswith("active") else post(admin, path, active="0")
    assert response.status_code == 404 and response.mimetype == "text/html"


def test_an_admin_limited_to_a_warehouse_sees_and_changes_only_that_one(client, person, session):
    signed_in(client, person, "admin_w1", [1])
    html = client.get("/admin/warehouses").get_data(as_text=True)
    assert re.findall(r'<tr data-warehouse="(\d+)"', html) == ["1"]
    assert client.get("/admin/warehouses/2").status_code == 404
    assert post(client, "/admin/warehouses/2/active", active="0").status_code == 404
    assert listed(session)[2]["active"] == 1


def test_the_page_and_the_api_call_the_same_rules_with_the_same_arguments(admin, api, monkeypatch):
    """Whatever decides who may manage a warehouse lives in those rules, so both must pass through them."""
    calls = []
    for name in ("create_warehouse", "update_warehouse"):
        real = getattr(warehouses, name)

        def recorded(*args, _real=real, _name=name):
            calls.append((_name, [type(arg).__name__ for arg in args[:2]], args[2:]))
            return _real(*args)

        monkeypatch.setattr(warehouses, name, recorded)
    assert api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store"}).status_code == 201
    assert post(admin, "/admin/warehouses", id_warehouse="13", name="Dry store").status_code == 303
    assert api.post("/v1/warehouses/12", {"name": "Cold store A"}).status_code == 200
    assert post(admin, "/admin/warehouses/13", name="Dry store B", address="").status_code == 303
    assert api.post("/v1/warehouses/12", {"active": 0}).status_code == 200
    assert post(admin, "/admin/warehouses/13/active", active="0").status_code == 303
    by_api, by_page = calls[0::2], calls[1::2]
    for api_call, page_call in zip(by_api, by_page):
        assert api_call[:2] == page_call[:2]  # the rule, then (session, actor) of the same kinds
    # Each passes its caller last (a key, a person): the rule decides what it may manage.
    assert [(call[2][:-1], type(call[2][-1]).__name__) for call in calls] == [
        (({"id_warehouse": 12, "name": "Cold store", "address": "", "active": 1},), "Caller"),
        (({"id_warehouse": 13, "name": "Dry store", "address": "", "active": 1},), "Caller"),
        ((12, {"name": "Cold store A"}), "Caller"), ((13, {"name": "Dry store B", "address": ""}), "Caller"),
        ((12, {"active": 0}), "Caller"), ((13, {"active": 0}), "Caller")]


# --- warehouses picked by name in the people and keys forms --------------------------------------

@pytest.mark.parametrize("path", ["/admin/people", "/admin/keys"])
def test_the_people_and_keys_forms_pick_warehouses_by_name(admin, api, path):
    assert api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store"}).status_code == 201
    assert api.post("/v1/warehouses/3", {"active": 0}).status_code == 200
    html = admin.get(path).get_data(as_text=True)
    picker = re.search(r'<fieldset class="warehouse-picker">(.*?)</fieldset>', html, re.S).group(1)
    ticks = re.findall(r'<input type="checkbox" name="warehouses" value="(\d+)"> ([^<\n]+)', picker)
    assert ("12", "Cold store") in ticks and ("1", "Main") in ticks
    assert "3" not in [number for number, _ in ticks]  # not active: a person or key may not name it
    assert 'name="warehouses" value="' not in html.replace(picker, "")  # no box for typing numbers


def test_a_person_limited_to_warehouses_ticked_by_name(admin, api, app, session):
    assert api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store"}).status_code == 201
    response = admin.post("/admin/people", data={"token": token_of(admin.get("/admin/people")), "name": "anna",
                                                 "role": "read", "warehouses": ["12", "1"],
                                                 "password": "a long enough password"})
    assert response.status_code == 302
    assert [p["warehouses"] for p in people.list_people(session) if p["name"] == "anna"] == [[1, 12]]
    row = re.search(r'<tr data-name="anna">.*?</tr>', admin.get("/admin/people").get_data(as_text=True), re.S).group(0)
    assert '<td data-label="Warehouses">Main, Cold store</td>' in row
    assert sign_in(app.test_client(), "anna").status_code == 302


def test_a_key_limited_to_warehouses_ticked_by_name(admin, session):
    response = admin.post("/admin/keys", data={"token": token_of(admin.get("/admin/keys")), "name": "gate-2",
                                               "role": "scan", "warehouses": ["2"]})
    assert response.status_code == 200
    assert "<dd>Warehouse 2</dd>" in response.get_data(as_text=True)
    assert [k.warehouses for k in api_keys.list_keys(session)] == ["2"]
    assert '<td data-label="Warehouses">Warehouse 2</td>' in admin.get("/admin/keys").get_data(as_text=True)


@pytest.mark.parametrize("form, field, says", [
    ({"name": "gate-2", "warehouses": "Cold store"}, "warehouses", "Tick the warehouses in the list"),
    ({"name": "gate-2", "warehouses": ["1", "99"]}, "warehouses", "No active warehouse 99"),
    ({"name": "gate-2", "expires_in_days": "0"}, "expires_in_days", "greater than or equal to 1"),
    ({"name": "", "role": "scan"}, "name", "Give the device a name"),
])
def test_a_refused_key_is_named_beside_its_field(admin, session, form, field, says):
    response = admin.post("/admin/keys", data={"token": token_of(admin.get("/admin/keys")), "role": "scan", **form})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert says in problem(html, field), html
    assert api_keys.list_keys(session) == []


def test_a_key_named_like_another_is_refused_beside_its_name(admin, session):
    api_keys.create_key(session, "gate-2", "scan")
    response = admin.post("/admin/keys", data={"token": token_of(admin.get("/admin/keys")), "name": "gate-2",
                                               "role": "scan"})
    assert response.status_code == 409
    assert "exists already: choose another name" in problem(response.get_data(as_text=True), "name")
