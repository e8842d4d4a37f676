"""/v1/reorder_levels: read the levels, set and remove them (DESIGN section 20)."""
import json

from helpers import error_fields
from models import AuditEntry
from storage.db import db

PATH = "/v1/reorder_levels/"


def put(api, rows, **kw):
    return api.client.put(PATH, json={"data": rows}, headers={"TS-Apikey": api.key}, **kw)


def level(warehouse, code, low, target):
    return {"id_warehouse": warehouse, "product_code": code, "min_amount": low, "target_amount": target}


def test_levels_are_set_listed_changed_and_removed(api, known_products):
    r = put(api, [level(1, "P1", 10, "25.5"), level(2, "P1", "0.125", 1), level(1, "P2", 3, 3)])
    assert r.status_code == 200, r.json
    assert r.json == {}
    assert api.get(PATH).json == {"list": [level(1, "P1", 10, 25.5), level(1, "P2", 3, 3),
                                           level(2, "P1", 0.125, 1)]}
    assert put(api, [level(1, "P1", 12, 30), level(1, "P2", 0, 0)]).status_code == 200
    assert api.get(PATH).json == {"list": [level(1, "P1", 12, 30), level(2, "P1", 0.125, 1)]}


def test_each_change_is_in_the_audit_trail(app, api, known_products):
    put(api, [level(1, "P1", 10, 20)])
    put(api, [level(1, "P1", 10, 25)])
    put(api, [level(1, "P1", 10, 25)])  # unchanged: no row
    put(api, [level(1, "P1", 0, 0)])
    with app.app_context():
        rows = [(e.kind, e.who, e.record, json.loads(e.changes))
                for e in db.session.query(AuditEntry).filter(AuditEntry.kind.startswith("reorder."))
                .order_by(AuditEntry.id)]
    assert rows == [
        ("reorder.set", "admin", "1/P1", {"min_amount": [None, 10], "target_amount": [None, 20]}),
        ("reorder.set", "admin", "1/P1", {"target_amount": [20, 25]}),
        ("reorder.remove", "admin", "1/P1", {"min_amount": [10, None], "target_amount": [25, None]}),
    ]


def test_a_key_limited_to_warehouses_sees_only_theirs(api, api_as, known_products):
    put(api, [level(1, "P1", 1, 2), level(2, "P1", 1, 2)])
    assert api_as("read_w1").get(PATH).json == {"list": [level(1, "P1", 1, 2)]}
    assert api_as("read").get(PATH).status_code == 200


def test_only_an_admin_sets_them(api_as, known_products):
    for name in ("read", "scan"):
        assert error_fields(put(api_as(name), [level(1, "P1", 1, 2)]), 403) == {}


def test_a_bad_row_refuses_them_all_naming_each(api, known_products):
    r = put(api, [level(1, "P1", 5, 10), level(1, "NOPE", 1, 1), level(1, "P2", 5, 4),
                  level(1, "P1", 6, 7)])
    fields = error_fields(r)
    assert set(fields["data"]) == {"1", "2", "3"}
    assert "product_code" in fields["data"]["1"]
    assert "target_amount" in fields["data"]["2"]
    assert "product_code" in fields["data"]["3"]  # the pair twice in one request
    assert api.get(PATH).json == {"list": []}


def test_shapes_are_checked(api, known_products):
    fields = error_fields(put(api, [{"id_warehouse": "x", "product_code": "P1", "min_amount": "0.0001",
                                     "target_amount": 1, "colour": 1}]))
    assert set(fields["data"]["0"]) == {"id_warehouse", "min_amount", "colour"}
    assert "target_amount" in error_fields(put(api, [{"id_warehouse": 1, "product_code": "P1",
                                                      "min_amount": 1}]))["data"]["0"]
    assert "min_amount" in error_fields(put(api, [level(1, "P1", -1, 1)]))["data"]["0"]


def test_the_body_must_hold_an_array_under_data(api, known_products):
    headers = {"TS-Apikey": api.key}
    for body in ({"data": {}}, {}, [], {"data": [], "x": 1}):
        r = api.client.put(PATH, json=body, headers=headers)
        assert error_fields(r, 400) == {}, body
    r = api.client.put(PATH, data="{nope", headers={**headers, "Content-Type": "application/json"})
    assert r.status_code == 400
    assert put(api, []).status_code == 200


def test_a_key_limited_to_warehouses_sets_only_theirs(client, keys, known_products):
    from identity import api_keys
    from conftest import Api
    app = client.application
    with app.app_context():
        key = api_keys.create_key(db.session, "admin_w1", "admin", [1])
        db.session.remove()
    limited = Api(client, key)
    assert put(limited, [level(1, "P1", 1, 2)]).status_code == 200
    assert error_fields(put(limited, [level(2, "P1", 1, 2)]), 403) == {}


def test_without_a_key_it_is_401(client):
    assert client.get(PATH).status_code == 401
    assert client.put(PATH, json={"data": []}).status_code == 401
