"""Operations 6-9 over HTTP: list, view, acquire and add order documents (DESIGN §6).

The HTTP layer: the shape of what is created, viewed and listed, the schema's 422s, the
answers of acquire (200, 409) and the keys. The states an order goes through as it is
acquired and filled, and its lock, are tested on a session in test_orders.py.
"""
from datetime import date, timedelta

import pytest

from helpers import batch, created, error_fields, item, order, order_item
from models import OrderDocument
from stock import catalog


pytestmark = pytest.mark.usefixtures("known_products")


@pytest.fixture
def customer(session):
    catalog.save_customers(session, [{"id_customer": 42, "name": "Acme"}])
    return 42


def add(api, body):
    return created(api.post("/v1/documents/", body))


def view(api, number="D1"):
    r = api.get(f"/v1/documents/{number}")
    assert r.status_code == 200, r.json
    return r.json["item"]


def state(api, number="D1"):
    return view(api, number)["state"]


def acquire(api, number="D1"):
    return api.get(f"/v1/documents/acquire/{number}")


def listed(api, query=""):
    r = api.get("/v1/documents/" + query)
    assert r.status_code == 200, r.json
    return r.json["list"]


def post_batch(api, number, items, **settings):
    return api.post("/v1/batches/", batch(number, items, **settings))


FULL = {
    "document_number": "D1", "description": "Delivery from Acme", "id_warehouse": 1,
    "id_customer": 42, "expiration_limit": 30,
    "batch_settings": {"allowed_types": ["R", "V"], "allowed_directions": ["I", "O"]},
    "items": [
        {"item_number": 2, "product_code": "P1", "lot": "", "amount_ordered": "2.5", "direction": "O",
         "wplace": ["A-01", "A-02"], "meta": {"note": "fragile"}},
        {"item_number": 1, "product_code": "LOT", "lot": "L7", "amount_ordered": 4, "direction": "I",
         "wplace": [""]},
    ],
}


# --- create and view ------------------------------------------------------------------------

def test_create_answers_201_and_view_returns_everything(api, customer):
    add(api, FULL)
    found = view(api)
    assert found == {
        "document_number": "D1", "description": "Delivery from Acme", "id_warehouse": 1,
        "id_customer": 42, "state": 1, "expiration_limit": 30,
        "expiration_limit_date": (date.today() + timedelta(days=30)).isoformat(),
        "batch_settings": {"allowed_types": ["R", "V"], "allowed_directions": ["I", "O"]},
        "items": [  # by item_number
            {"item_number": 1, "document_number": "D1", "product_code": "LOT", "lot": "L7",
             "amount_ordered": 4, "amount_delivered": 0, "direction": "I", "wplace": [""],
             "meta": {"note": ""}},
            {"item_number": 2, "document_number": "D1", "product_code": "P1", "lot": "",
             "amount_ordered": 2.5, "amount_delivered": 0, "direction": "O", "wplace": ["A-01", "A-02"],
             "meta": {"note": "fragile"}},
        ],
    }


def test_create_with_required_fields_only_applies_defaults(api):
    add(api, {"document_number": "D1", "id_warehouse": 3,
              "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
              "items": [{"item_number": 1, "product_code": "P1", "amount_ordered": 1}]})
    found = view(api)
    assert {k: found[k] for k in ("description", "id_customer", "expiration_limit",
                                  "expiration_limit_date", "state", "id_warehouse")} == {
        "description": "", "id_customer": 0, "expiration_limit": 0,
        "expiration_limit_date": date.today().isoformat(), "state": 1, "id_warehouse": 3}
    # the only allowed direction is the line's
    assert found["items"] == [{"item_number": 1, "document_number": "D1", "product_code": "P1",
                               "lot": "", "amount_ordered": 1, "amount_delivered": 0,
                               "direction": "O", "wplace": [], "meta": {"note": ""}}]


def test_list_and_acquire_carry_the_server_ids_of_the_lines(api, api_as, customer):
    add(api, order("D2", [order_item(1, "P1", 1)]))
    add(api, FULL)
    documents = listed(api)
    assert [d["document_number"] for d in documents] == ["D1", "D2"]
    d1 = documents[0]
    assert {k: d1[k] for k in ("id_warehouse", "id_customer", "state", "expiration_limit")} == {
        "id_warehouse": 1, "id_customer": 42, "state": 1, "expiration_limit": 30}
    assert d1["expiration_limit_date"] == (date.today() + timedelta(days=30)).isoformat()
    assert d1["batch_settings"] == FULL["batch_settings"]
    line = d1["items"][1]
    assert set(line) == {"document_item_id", "user_visible_document_item_id", "document_number",
                         "product_code", "lot", "amount_ordered", "amount_delivered", "direction",
                         "wplace", "meta"}
    assert line["user_visible_document_item_id"] == 2 and line["meta"] == {"note": "fragile"}
    ids = [line["document_item_id"] for d in documents for line in d["items"]]
    assert len(set(ids)) == 3  # unique across documents

    acquired = acquire(api_as("scan")).json["item"]
    assert acquired["state"] == 2
    assert set(acquired["items"][0]) == set(line) - {"user_visible_document_item_id"}
    assert [i["document_item_id"] for i in acquired["items"]] == [i["document_item_id"] for i in d1["items"]]
    assert acquired["expiration_limit_date"] == d1["expiration_limit_date"]


def test_unknown_document_is_404(api, api_as):
    assert api.get("/v1/documents/NOPE").status_code == 404
    assert acquire(api_as("scan"), "NOPE").status_code == 404


def test_document_numbers_may_hold_slashes_and_spaces(api):
    add(api, order("2024/07 A"))
    assert view(api, "2024%2F07%20A")["document_number"] == "2024/07 A"
    assert acquire(api, "2024/07 A").json["item"]["state"] == 2


def test_list_filters_by_state(api, api_as):
    for number in ("D1", "D2", "D3", "D4"):
        add(api, order(number, [order_item(1, "P1", 1)]))
    assert acquire(api_as("scan"), "D2").status_code == 200
    assert post_batch(api, 1, [item("P1", 1)], document_number="D3").status_code == 201
    add(api, order("D5", [order_item(1, "P1", 2)]))
    assert post_batch(api, 2, [item("P1", 1)], document_number="D5").status_code == 201
    by_state = {s: [d["document_number"] for d in listed(api, f"?state={s}")] for s in (0, 1, 2, 3)}
    assert by_state == {0: ["D3"], 1: ["D1", "D4"], 2: ["D2"], 3: ["D5"]}
    assert [d["document_number"] for d in listed(api)] == ["D1", "D2", "D3", "D4", "D5"]


def test_list_is_sorted_by_code_point(api):
    for number in ("b", "Ä", "a", "B", "a b", "10", "9"):
        add(api, order(number))
    assert [d["document_number"] for d in listed(api)] == ["10", "9", "B", "a", "a b", "b", "Ä"]


@pytest.mark.parametrize("query", ["?state=4", "?state=-1", "?state=x", "?status=1"])
def test_bad_list_query_is_422(api, query):
    assert api.get("/v1/documents/" + query).status_code == 422


def test_a_limited_key_sees_the_documents_of_its_warehouses_only(api, api_as):
    add(api, order("D1"))
    add(api, order("D2", id_warehouse=2))
    reader = api_as("read_w1")
    assert [d["document_number"] for d in listed(reader)] == ["D1"]
    assert reader.get("/v1/documents/D2").status_code == 404
    assert acquire(api_as("scan_w1"), "D2").status_code == 404
    assert reader.get("/v1/documents/D1").status_code == 200


def test_roles(api_as):
    assert api_as("scan").post("/v1/documents/", order("D1")).status_code == 403
    assert api_as("read").get("/v1/documents/acquire/D1").status_code == 403
    assert api_as("read").get("/v1/documents/").status_code == 200


# --- refused creates ------------------------------------------------------------------------

def test_duplicate_document_number_is_409_and_keeps_the_first(api):
    add(api, order("D1", description="first"))
    r = api.post("/v1/documents/", order("D1", description="second"))
    assert r.status_code == 409 and r.json["error"]["code"] == "conflict"
    assert view(api)["description"] == "first"


def test_duplicate_item_numbers_are_a_shape_error_before_the_duplicate_document(api):
    add(api, order("D1"))
    r = api.post("/v1/documents/", order("D1", [order_item(1, "P1", 1), order_item(1, "P2", 1)]))
    assert "item_number" in error_fields(r)["data"]["items"]["1"]


def bad_lines(*lines, directions=("I",)):
    return order("D1", list(lines), directions=directions)


@pytest.mark.parametrize("body, path", [
    (bad_lines(), ("items",)),
    ({**order("D1"), "items": None}, ("items",)),
    (bad_lines(order_item(1, "P1", 1), order_item(1, "P2", 1)), ("items", "1", "item_number")),
    (bad_lines(order_item(1, "NOPE", 1)), ("items", "0", "product_code")),
    (bad_lines(order_item(1, "P1", 0)), ("items", "0", "amount_ordered")),
    (bad_lines(order_item(1, "P1", -2)), ("items", "0", "amount_ordered")),
    (bad_lines(order_item(1, "P1", "0.0001")), ("items", "0", "amount_ordered")),
    (bad_lines(order_item(1, "P1", "ten")), ("items", "0", "amount_ordered")),
    (bad_lines(order_item(1, "P1", 1), directions=("I", "O")), ("items", "0", "direction")),
    (bad_lines(order_item(1, "P1", 1, direction="O")), ("items", "0", "direction")),
    (bad_lines(order_item(1, "P1", 1, direction="X")), ("items", "0", "direction")),
    (bad_lines(order_item(0, "P1", 1)), ("items", "0", "item_number")),
    (bad_lines(order_item("1", "P1", 1)), ("items", "0", "item_number")),
    (bad_lines(order_item(1, "P1", 1, wplace="A")), ("items", "0", "wplace")),
    (bad_lines(order_item(1, "P1", 1, colour="red")), ("items", "0", "colour")),
    (bad_lines(order_item(1, "P1", 1, meta={"note": "x", "colour": "red"})),
     ("items", "0", "meta", "colour")),
    ({"document_number": "D1", "id_warehouse": 1, "items": [order_item(1, "P1", 1)]},
     ("batch_settings",)),
    (order("D1", types=()), ("batch_settings", "allowed_types")),
    (order("D1", directions=()), ("batch_settings", "allowed_directions")),
    (order("D1", types=("X",)), ("batch_settings", "allowed_types")),
    (order("D1", directions=("IN",)), ("batch_settings", "allowed_directions")),
    ({**order("D1"), "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["I"], "x": 1}},
     ("batch_settings", "x")),
    ({**order("D1"), "document_number": ""}, ("document_number",)),
    ({k: v for k, v in order("D1").items() if k != "document_number"}, ("document_number",)),
    ({k: v for k, v in order("D1").items() if k != "id_warehouse"}, ("id_warehouse",)),
    (order("D1", id_warehouse="1"), ("id_warehouse",)),
    (order("D1", expiration_limit=-1), ("expiration_limit",)),
    (order("D1", id_customer=7), ("id_customer",)),
    (order("D1", id_customer=2**63), ("id_customer",)),
    (order("D1", id_warehouse=2**63), ("id_warehouse",)),
    (bad_lines(order_item(2**63, "P1", 1)), ("items", "0", "item_number")),
    (order("D1", colour="red"), ("colour",)),
])
def test_bad_order_is_422_naming_the_field(api, body, path):
    node = error_fields(api.post("/v1/documents/", body))["data"]
    for key in path:
        assert key in node, (path, node)
        node = node[key]
    assert api.get("/v1/documents/D1").status_code == 404


def test_existing_customer_is_accepted(api, customer):
    add(api, order("D1", id_customer=customer))
    assert view(api)["id_customer"] == 42


def test_missing_data_is_400(api):
    assert api.post("/v1/documents/", body=order("D1")).status_code == 400


# --- states ---------------------------------------------------------------------------------

def test_acquire_moves_1_to_2_and_the_holder_may_acquire_again(api, api_as, session):
    add(api, order("D1"))
    scanner = api_as("scan")
    r = acquire(scanner)
    assert r.status_code == 200 and r.json["item"]["state"] == 2
    session.rollback()
    first = session.get(OrderDocument, "D1").locked_at
    r = acquire(scanner)
    assert r.status_code == 200 and r.json["item"]["state"] == 2
    session.rollback()
    assert session.get(OrderDocument, "D1").locked_at >= first  # renewed
    assert state(api) == 2


def test_another_key_gets_409_while_the_lock_is_fresh(api, api_as):
    add(api, order("D1"))
    assert acquire(api_as("scan")).status_code == 200
    r = acquire(api)
    assert r.status_code == 409 and r.json["error"]["code"] == "conflict"
    assert acquire(api_as("scan_w1")).status_code == 409
    assert acquire(api_as("scan")).status_code == 200


def test_document_number_that_reads_as_acquire_is_422(api):
    r = api.post("/v1/documents/", order("acquire/D1"))
    assert "document_number" in error_fields(r)["data"]


def test_query_errors_name_the_parameter(api):
    assert "state" in error_fields(api.get("/v1/documents/?state=9"))


# --- close and release by hand (DESIGN §18) -------------------------------------------------

def close(api, number="D1", reason="The supplier cancelled the rest."):
    return api.post(f"/v1/documents/close/{number}", {"reason": reason})


def release(api, number="D1"):
    return api.post(f"/v1/documents/release/{number}")


def trail(api, session, kind):
    from stock import audit
    session.rollback()
    return audit.list_entries(session, kind=kind)


def test_close_answers_200_and_a_batch_for_the_order_then_gets_409(api, session):
    add(api, order("D1"))
    r = close(api)
    assert (r.status_code, r.json) == (200, {})
    assert state(api) == 0
    assert post_batch(api, 1, [item("P1", 1)], document_number="D1").status_code == 409
    assert api.get("/v1/batches/1").status_code == 404
    [entry] = trail(api, session, "order.close")
    assert (entry["who"], entry["record"]) == ("admin", "D1")
    assert entry["changes"]["reason"] == ["", "The supplier cancelled the rest."]


def test_close_of_a_closed_order_is_409_with_a_message(api):
    add(api, order("D1"))
    close(api)
    r = close(api, reason="again")
    assert r.status_code == 409
    assert "closed already" in r.json["error"]["message"]


@pytest.mark.parametrize("body, field", [({}, "reason"), ({"reason": ""}, "reason"),
                                         ({"reason": 5}, "reason"), ({"reason": "x", "why": 1}, "why")])
def test_close_needs_a_reason_and_nothing_else(api, body, field):
    add(api, order("D1"))
    r = api.post("/v1/documents/close/D1", body)
    assert field in error_fields(r)["data"]
    assert state(api) == 1


def test_close_and_release_of_an_unknown_order_are_404(api):
    assert close(api, "NOPE").status_code == 404
    assert release(api, "NOPE").status_code == 404


@pytest.mark.parametrize("name", ["read", "scan_w1"])
def test_close_needs_an_admin_key_and_release_an_admin_or_the_holder(api, api_as, name):
    add(api, order("D1"))
    acquire(api_as("scan"))
    assert close(api_as(name)).status_code == 403
    # A scanner puts back only the order it holds itself (DESIGN 24): another key's lock is 403.
    assert release(api_as(name)).status_code == 403
    assert state(api) == 2
    assert release(api_as("scan")).status_code == 200
    assert state(api) == 1


def test_release_ends_the_lock_at_once(api, api_as, session):
    add(api, order("D1"))
    assert acquire(api_as("scan")).status_code == 200
    assert acquire(api_as("scan_w1")).status_code == 409
    r = release(api)
    assert (r.status_code, r.json) == (200, {})
    assert state(api) == 1
    assert acquire(api_as("scan_w1")).status_code == 200
    [entry] = trail(api, session, "order.release")
    assert entry["changes"] == {"state": [2, 1], "locked_by": ["scan", ""]}


def test_release_after_a_delivery_goes_to_3(api, api_as):
    add(api, order("D1"))
    created(post_batch(api_as("scan"), 1, [item("P1", 4)], document_number="D1"))
    acquire(api_as("scan"))
    assert release(api).status_code == 200
    assert state(api) == 3


def test_release_of_an_order_nobody_holds_is_409_and_changes_nothing(api):
    add(api, order("D1"))
    r = release(api)
    assert r.status_code == 409
    assert "not held" in r.json["error"]["message"]
    assert state(api) == 1
    close(api)
    assert release(api).status_code == 409
    assert state(api) == 0
