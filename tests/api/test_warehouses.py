"""/v1/warehouses and the rule that bookings, orders and keys name only warehouses that exist
(DESIGN 17), with the decimal places of a product's base unit (DESIGN 18)."""
import pytest

from helpers import add_products, batch, created, error_fields, item, order, order_item, product
from identity import api_keys
from stock import audit
from stock.errors import Invalid


def warehouses(api):
    r = api.get("/v1/warehouses/")
    assert r.status_code == 200, r.json
    return r.json["list"]


def test_the_list_gives_every_warehouse_by_id(api):
    listed = warehouses(api)
    assert listed[0] == {"id_warehouse": 1, "name": "Main", "address": "", "active": 1}
    assert [w["id_warehouse"] for w in listed] == sorted(w["id_warehouse"] for w in listed)


def test_a_key_limited_to_warehouses_sees_those(api_as):
    assert [w["id_warehouse"] for w in warehouses(api_as("read_w1"))] == [1]


def test_add_then_list_and_the_audit_trail_has_it(api, session):
    created(api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store", "address": "Dock 3"}))
    assert {"id_warehouse": 12, "name": "Cold store", "address": "Dock 3", "active": 1} in warehouses(api)
    [entry] = audit.list_entries(session, kind="warehouse")
    assert (entry["kind"], entry["record"], entry["who"]) == ("warehouse.create", "12", "admin")
    assert entry["changes"]["name"] == [None, "Cold store"]


@pytest.mark.parametrize("body", [{"id_warehouse": 1, "name": "Another"}, {"id_warehouse": 13, "name": "Main"}])
def test_a_duplicate_id_or_name_is_409(api, body):
    before = warehouses(api)
    r = api.post("/v1/warehouses/", body)
    assert r.status_code == 409, r.json
    assert warehouses(api) == before


@pytest.mark.parametrize("body, field", [
    ({"name": "X"}, "id_warehouse"), ({"id_warehouse": 0, "name": "X"}, "id_warehouse"),
    ({"id_warehouse": "12", "name": "X"}, "id_warehouse"), ({"id_warehouse": 12}, "name"),
    ({"id_warehouse": 12, "name": ""}, "name"), ({"id_warehouse": 12, "name": "X", "active": 2}, "active"),
    ({"id_warehouse": 12, "name": "X", "colour": "red"}, "colour"),
])
def test_a_bad_field_is_422_naming_it(api, body, field):
    assert field in error_fields(api.post("/v1/warehouses/", body))["data"]


def test_only_an_admin_adds_or_changes_one(api_as):
    assert api_as("scan").post("/v1/warehouses/", {"id_warehouse": 12, "name": "X"}).status_code == 403
    assert api_as("scan").post("/v1/warehouses/1", {"name": "X"}).status_code == 403


def test_an_update_changes_the_fields_given_and_is_audited(api, session):
    assert api.post("/v1/warehouses/2", {"address": "Back yard"}).status_code == 200
    [two] = [w for w in warehouses(api) if w["id_warehouse"] == 2]
    assert two == {"id_warehouse": 2, "name": "Warehouse 2", "address": "Back yard", "active": 1}
    [entry] = audit.list_entries(session, kind="warehouse.update")
    assert entry["changes"] == {"address": ["", "Back yard"]}


def test_an_update_of_an_unknown_warehouse_is_404_and_a_taken_name_409(api):
    assert api.post("/v1/warehouses/77", {"name": "X"}).status_code == 404
    assert api.post("/v1/warehouses/2", {"name": "Main"}).status_code == 409
    assert api.post("/v1/warehouses/2", {"id_warehouse": 3}).status_code == 422


@pytest.mark.parametrize("number", [99, "99"])
def test_a_batch_for_an_unknown_warehouse_is_422_naming_it(api, number):
    add_products(api)
    fields = error_fields(api.post("/v1/batches/", batch(1, [item("P1", 1)], id_warehouse=number)))
    assert list(fields["data"]["batch_settings"]) == ["id_warehouse"]
    assert api.get("/v1/batches/1").status_code == 404


def test_a_batch_for_an_inactive_warehouse_is_422_and_a_retry_of_an_earlier_one_still_201(api):
    add_products(api)
    body = batch(1, [item("P1", 1)], id_warehouse="2")
    created(api.post("/v1/batches/", body))
    assert api.post("/v1/warehouses/2", {"active": 0}).status_code == 200
    fields = error_fields(api.post("/v1/batches/", batch(2, [item("P1", 1)], id_warehouse="2")))
    assert "not active" in fields["data"]["batch_settings"]["id_warehouse"][0]
    created(api.post("/v1/batches/", body))  # what was booked stays a retry, not an error


def test_an_order_for_an_unknown_warehouse_is_422_naming_it(api):
    add_products(api)
    fields = error_fields(api.post("/v1/documents/", {**order("D1"), "id_warehouse": 99}))
    assert list(fields["data"]) == ["id_warehouse"]
    assert api.get("/v1/documents/D1").status_code == 404


def test_a_key_for_an_unknown_warehouse_is_refused_naming_warehouses(session):
    with pytest.raises(Invalid) as refused:
        api_keys.create_key(session, "gate", "scan", [1, 99])
    assert list(refused.value.fields["data"]) == ["warehouses"]
    assert [k.name for k in api_keys.list_keys(session) if k.name == "gate"] == []


def test_filters_naming_an_unknown_warehouse_match_nothing(api):
    add_products(api)
    created(api.post("/v1/batches/", batch(1, [item("P1", 1)])))
    for path in ("/v1/batches/filter", "/v1/inventory/filter", "/v1/docs/filter"):
        r = api.post(path, {"id_warehouses": [99]})
        assert r.status_code == 200 and r.json == {"list": []}, (path, r.json)


# --- decimal places of the base unit ----------------------------------------------------------

def test_a_product_counted_in_whole_pieces_refuses_half_a_piece(api):
    created(api.post("/v1/products/", product("BOLT", decimal_places=0,
                                               packaging=[{"unit": "box", "amount_base_units": 6}])))
    assert api.get("/v1/products/BOLT").json["item"]["decimal_places"] == 0
    fields = error_fields(api.post("/v1/batches/", batch(1, [item("BOLT", "0.5")])))
    assert list(fields["data"]["batch_items"]["0"]) == ["amount"]
    created(api.post("/v1/batches/", batch(2, [item("BOLT", "0.5", unit="box")])))  # 3 pieces
    assert api.post("/v1/inventory/filter", {"product_code": "BOLT"}).json["list"][0]["amount"] == 3


def test_decimal_places_bound_the_amounts_of_an_order_too(api):
    created(api.post("/v1/products/", product("BOLT", decimal_places=1)))
    fields = error_fields(api.post("/v1/documents/", order("D1", items=[order_item(1, "BOLT", "0.25")])))
    assert list(fields["data"]["items"]["0"]) == ["amount_ordered"]
    created(api.post("/v1/documents/", order("D2", items=[order_item(1, "BOLT", "0.5")])))


@pytest.mark.parametrize("places", [-1, 4, "2", 1.5])
def test_decimal_places_are_0_to_3(api, places):
    assert "decimal_places" in error_fields(api.post("/v1/products/", product("P9", decimal_places=places)))["data"]


def test_decimal_places_change_in_an_update(api):
    created(api.post("/v1/products/", product("P9")))
    assert api.post("/v1/products/P9", {"decimal_places": 1}).status_code == 200
    assert api.get("/v1/products/P9").json["item"]["decimal_places"] == 1


# --- an admin limited to warehouses (DESIGN 26) -----------------------------------------------

def test_an_admin_limited_to_warehouses_adds_none(admin_w1, api, session):
    response = admin_w1.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store"})
    assert error_fields(response, 403) == {}
    assert 12 not in [w["id_warehouse"] for w in warehouses(api)]
    assert audit.list_entries(session, kind="warehouse") == []
    created(api.post("/v1/warehouses/", {"id_warehouse": 12, "name": "Cold store"}))


@pytest.mark.parametrize("id_warehouse", [2, 99])
def test_an_admin_limited_to_warehouses_changes_no_other(admin_w1, api, session, id_warehouse):
    # 403 whether the warehouse exists or not: the refusal tells nothing of the others.
    response = admin_w1.post(f"/v1/warehouses/{id_warehouse}", {"active": 0})
    assert error_fields(response, 403) == {}
    assert "only an admin for every warehouse" in response.json["error"]["message"]
    assert all(w["active"] == 1 for w in warehouses(api))
    assert audit.list_entries(session, kind="warehouse") == []


def test_an_admin_limited_to_warehouses_changes_its_own(admin_w1, api, session):
    assert admin_w1.post("/v1/warehouses/1", {"address": "Dock 1"}).status_code == 200
    assert warehouses(admin_w1) == [{"id_warehouse": 1, "name": "Main", "address": "Dock 1", "active": 1}]
    assert api.post("/v1/warehouses/2", {"active": 0}).status_code == 200
    [two, one] = audit.list_entries(session, kind="warehouse")
    assert (one["who"], one["record"], two["who"], two["record"]) == ("admin_w1", "1", "admin", "2")
