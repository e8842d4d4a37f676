"""Operations 10-12 over HTTP: add, view and filter batches (DESIGN §3, §4, §6, §7).

The HTTP layer: what the route adds to the rules (parsing and the schema's 422s, the key's
role and warehouses, status codes, the error body, a retry answering 201). The booking
rules themselves (conversions, lots, stock, retries, orders, counts) are tested on a
session in test_posting.py; one refusal of each kind is kept here to show its answer.
"""
import re
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from helpers import REFUSED_ITEMS, batch, created, error_fields, item, order, order_item
from models import Balance

TS = "2024-05-01T10:00:00.000+0200"

pytestmark = pytest.mark.usefixtures("known_products")


def post(api, body):
    return api.post("/v1/batches/", body)


def view(api, number):
    r = api.get(f"/v1/batches/{number}")
    assert r.status_code == 200, r.json
    return r.json["item"]


def balance(session, code, lot="", warehouse=1):
    """Book stock in thousandths, read afresh (None: no balance row)."""
    session.rollback()
    return session.scalar(select(Balance.amount_milli).where(
        Balance.id_warehouse == warehouse, Balance.product_code == code, Balance.lot == lot))


def all_docs(api):
    r = api.post("/v1/docs/filter", {})
    assert r.status_code == 200, r.json
    return r.json["list"]


def order_view(api, number="D1"):
    r = api.get(f"/v1/documents/{number}")
    assert r.status_code == 200, r.json
    return r.json["item"]


def stock_in(api, number, items, **settings):
    created(post(api, batch(number, items, **settings)))


# --- add and view ---------------------------------------------------------------------------

def test_add_answers_201_and_view_returns_everything(api):
    created(post(api, batch(1, [
        item("P1", 2, barcode="8590001", date_exp="2030-01-31", name="milk", palette=3, status=1,
             timestamp_client=TS, wplace="A-01"),
        item("P1", 1, "box"),
    ], extras=[{"key": "gate", "value": "3"}, {"key": "driver", "value": "Ann"}],
        app_version="1.2.0", name="morning", truck=7)))
    found = view(api, 1)
    assert found["batch_settings"] == {
        "batch_number": 1, "app_version": "1.2.0", "date": date.today().isoformat(),
        "created_date": date.today().isoformat(), "direction": "I", "id_warehouse": 1, "name": "morning",
        "truck": 7, "type": "R", "document_number": "",
    }
    # The scanner's extras, then who posted the batch: the key's name and the client's address.
    assert found["batch_extras"] == [{"key": "gate", "value": "3"}, {"key": "driver", "value": "Ann"},
                                     {"key": "posted_by", "value": "admin"},
                                     {"key": "posted_from", "value": "127.0.0.1"}]
    items = found["batch_items"]
    assert all(isinstance(i.pop("id_batch_item"), int) for i in items)
    doc_number = all_docs(api)[0]["doc_number"]
    assert items == [
        {"user_visible_batch_item_id": 1, "batch_number": 1, "doc_number": doc_number,
         "doc_item_number": 1, "amount_base_unit": 2, "barcode": "8590001", "date_exp": "2030-01-31",
         "lot": "", "name": "milk", "palette": 3, "product_code": "P1", "status": 1,
         "timestamp_client": TS, "wplace": "A-01"},
        {"user_visible_batch_item_id": 2, "batch_number": 1, "doc_number": doc_number,
         "doc_item_number": 2, "amount_base_unit": 6, "barcode": "", "date_exp": "", "lot": "",
         "name": "", "palette": 0, "product_code": "P1", "status": 0, "timestamp_client": "",
         "wplace": ""},
    ]


def test_optional_settings_default(api):
    created(post(api, batch(1, [item("P1", 1)])))
    settings = view(api, 1)["batch_settings"]
    assert settings["app_version"] == settings["name"] == settings["document_number"] == ""
    assert settings["truck"] == 0
    assert view(api, 1)["batch_extras"] == [{"key": "posted_by", "value": "admin"},
                                            {"key": "posted_from", "value": "127.0.0.1"}]


def test_business_date_is_kept_and_created_date_is_the_server_day(api):
    created(post(api, batch(1, [item("P1", 1)], date="2020-02-03", created_date="2001-01-01")))
    settings = view(api, 1)["batch_settings"]
    assert settings["date"] == "2020-02-03"
    assert settings["created_date"] == date.today().isoformat()


def test_future_business_date_is_allowed_up_to_the_days_ahead_setting(api):
    later = (date.today() + timedelta(days=7)).isoformat()
    created(post(api, batch(1, [item("P1", 1)], date=later)))
    assert view(api, 1)["batch_settings"]["date"] == later


@pytest.mark.parametrize("days", [8, 365 * 73])
def test_a_business_date_further_ahead_is_422_naming_it(api, days):
    # A batch dated 2099 sat in every report (DESIGN 22).
    later = (date.today() + timedelta(days=days)).isoformat()
    fields = error_fields(post(api, batch(1, [item("P1", 1)], date=later)))
    assert list(fields["data"]["batch_settings"]) == ["date"]
    assert api.get("/v1/batches/1").status_code == 404


def test_the_days_ahead_come_from_the_setting(make_app, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_MAX_FUTURE_DAYS", "40")
    app = make_app()
    from identity import api_keys
    from storage.db import db
    with app.app_context():
        key = api_keys.create_key(db.session, "a", "admin")
        db.session.remove()
    client = app.test_client()
    headers = {"TS-Apikey": key}
    later = (date.today() + timedelta(days=30)).isoformat()
    r = client.post("/v1/batches/", json={"data": batch(1, [item("P1", 1)], date=later)}, headers=headers)
    assert r.status_code == 201, r.json


@pytest.mark.parametrize("number, warehouse", [(5, 1), ("5", "1"), (5, "1"), ("5", 1), ("5", "01")])
def test_batch_number_and_warehouse_may_be_numbers_or_numeric_strings(api, number, warehouse):
    created(post(api, batch(number, [item("P1", 1)], id_warehouse=warehouse)))
    settings = view(api, 5)["batch_settings"]
    assert (settings["batch_number"], settings["id_warehouse"]) == (5, 1)


@pytest.mark.parametrize("amount", ["1.5", 1.5, "1.500"])
def test_amounts_may_be_numbers_or_numeric_strings(api, session, amount):
    created(post(api, batch(1, [item("P1", amount)])))
    assert view(api, 1)["batch_items"][0]["amount_base_unit"] == 1.5
    assert balance(session, "P1") == 1500


# --- refused items ----------------------------------------------------------------------------

# Those the schema refuses (helpers.REFUSED_ITEMS); the rules' refusals are in
# test_posting.py, of which the unknown product stays here as the example of how a rule's
# refusal is answered.
BAD_ITEMS = [("unknown product", item("NOPE", 1), "product_code"), *REFUSED_ITEMS]


@pytest.mark.parametrize("case, bad, field", BAD_ITEMS, ids=[case for case, _, _ in BAD_ITEMS])
def test_bad_item_is_422_naming_it_and_books_nothing(api, session, case, bad, field):
    r = post(api, batch(1, [item("P1", 1), bad]))
    fields = error_fields(r)
    assert r.json["error"]["code"] == "validation_error"
    assert list(fields["data"]["batch_items"]) == ["1"]
    assert field in fields["data"]["batch_items"]["1"], fields
    assert api.get("/v1/batches/1").status_code == 404
    assert all_docs(api) == []
    assert balance(session, "P1") is None


@pytest.mark.parametrize("items", [[], None, {}, "P1"])
def test_batch_items_must_be_a_non_empty_list(api, items):
    body = batch(1, [])
    if items is None:
        del body["batch_items"]
    else:
        body["batch_items"] = items
    fields = error_fields(post(api, body))
    assert "batch_items" in fields["data"]


@pytest.mark.parametrize("field, value", [
    ("batch_number", None), ("id_warehouse", None), ("direction", None), ("type", None),
    ("batch_number", 0), ("batch_number", "-1"), ("batch_number", "1.5"), ("batch_number", "x"),
    ("batch_number", True), ("id_warehouse", "w1"), ("direction", "X"), ("direction", ""),
    ("type", "Q"), ("date", "2024-13-01"), ("date", ""), ("truck", "7"), ("name", 5),
    ("document_number", 12), ("colour", "red"),
    ("batch_number", 2**63), ("batch_number", str(2**63)), ("id_warehouse", 10**20), ("truck", 2**63),
    ("batch_number", " 5"), ("id_warehouse", "1 "), ("batch_number", "\u0665"),  # digits only, ASCII only
])
def test_bad_settings_are_422_naming_the_field(api, field, value):
    body = batch(1, [item("P1", 1)])
    if value is None:
        del body["batch_settings"][field]
    else:
        body["batch_settings"][field] = value
    fields = error_fields(post(api, body))
    assert field in fields["data"]["batch_settings"], fields


@pytest.mark.parametrize("extras, field", [
    ([{"key": "k"}], "value"), ([{"key": "k", "value": "v", "colour": "red"}], "colour"),
    ([{"key": 1, "value": "v"}], "key"),
])
def test_bad_extras_are_422_naming_the_field(api, extras, field):
    fields = error_fields(post(api, batch(1, [item("P1", 1)], extras=extras)))
    assert field in fields["data"]["batch_extras"]["0"], fields


def test_unknown_field_beside_the_parts_is_422_naming_it(api):
    body = {**batch(1, [item("P1", 1)]), "batch_colour": "red"}
    fields = error_fields(post(api, body))
    assert "batch_colour" in fields["data"]


def test_missing_data_is_400(api):
    assert api.post("/v1/batches/", body=batch(1, [item("P1", 1)])).status_code == 400


# --- keys and warehouses ---------------------------------------------------------------------

def test_a_read_key_may_not_add_batches(api_as):
    assert api_as("read").post("/v1/batches/", batch(1, [item("P1", 1)])).status_code == 403


def test_a_key_limited_to_warehouse_1_may_not_add_in_warehouse_2(api, api_as, session):
    scanner = api_as("scan_w1")
    r = scanner.post("/v1/batches/", batch(1, [item("P1", 1)], id_warehouse="2"))
    assert r.status_code == 403, r.json
    assert api.get("/v1/batches/1").status_code == 404
    assert balance(session, "P1", warehouse=2) is None
    created(scanner.post("/v1/batches/", batch(1, [item("P1", 1)], id_warehouse="1")))


def test_shape_of_the_fields_answers_before_the_warehouse_of_the_key(api_as):
    r = api_as("scan_w1").post("/v1/batches/", batch(1, [item("P1", 1, colour="red")], id_warehouse="2"))
    assert r.status_code == 422


def test_view_unknown_batch_is_404(api):
    assert api.get("/v1/batches/99").status_code == 404
    assert api.get("/v1/batches/abc").status_code == 404
    assert api.get(f"/v1/batches/{2**63}").status_code == 404
    assert api.get(f"/v1/batches/{10**30}").status_code == 404


def test_batch_of_another_warehouse_is_404_for_a_limited_key(api, api_as):
    stock_in(api, 1, [item("P1", 1)], id_warehouse="2")
    stock_in(api, 2, [item("P1", 1)], id_warehouse="1")
    assert api_as("read_w1").get("/v1/batches/1").status_code == 404
    assert api_as("scan_w1").get("/v1/batches/1").status_code == 404
    assert api_as("read_w1").get("/v1/batches/2").status_code == 200
    assert api_as("read").get("/v1/batches/1").status_code == 200


# --- safe retries -----------------------------------------------------------------------------

def test_identical_retry_answers_201_and_books_nothing_more(api, session):
    body = batch(1, [item("P1", 2), item("P1", 1, "box")], extras=[{"key": "k", "value": "v"}])
    created(post(api, body))
    created(post(api, body))
    created(post(api, body))
    assert balance(session, "P1") == 8000
    assert len(all_docs(api)) == 1
    assert len(view(api, 1)["batch_items"]) == 2


def test_batch_numbers_are_unique_across_warehouses(api, session):
    stock_in(api, 1, [item("P1", 1)], id_warehouse="1")
    r = post(api, batch(1, [item("P1", 1)], id_warehouse="2"))
    assert r.status_code == 409
    assert balance(session, "P1", warehouse=2) is None


# --- stock ------------------------------------------------------------------------------------

def test_goods_out_beyond_stock_is_409_listing_the_short_items(api, session):
    stock_in(api, 1, [item("P1", 5), item("P2", 5)])
    # each P1 line alone is within the stock; together they are not
    r = post(api, batch(2, [item("P1", 3), item("P2", 1), item("P1", 3)], direction="O"))
    fields = error_fields(r, 409)
    assert r.json["error"]["code"] == "conflict"
    assert sorted(fields["data"]["batch_items"]) == ["0", "2"]
    assert balance(session, "P1") == 5000 and balance(session, "P2") == 5000
    assert api.get("/v1/batches/2").status_code == 404
    assert len(all_docs(api)) == 1


# --- atomicity and document numbers --------------------------------------------------------

def test_ten_items_of_a_tenth_make_exactly_one(api, session):
    created(api.post("/v1/documents/", order("D1", [order_item(1, "P1", 1)])))
    created(post(api, batch(1, [item("P1", 0.1) for _ in range(10)], document_number="D1")))
    assert balance(session, "P1") == 1000
    text = api.get("/v1/documents/D1").get_data(as_text=True)
    assert re.search(r'"amount_delivered":\s*1[,}\s]', text), text
    assert "0.9999" not in text and "1.0000" not in text
    assert order_view(api)["state"] == 0
    created(post(api, batch(2, [item("P1", "0.1") for _ in range(10)], direction="O")))
    assert balance(session, "P1") == 0


# --- filter -----------------------------------------------------------------------------------

def add_order(api, body):
    created(api.post("/v1/documents/", body))


@pytest.fixture
def several(api):
    """Batches 1-4 posted out of order in two warehouses, both directions, several dates."""
    add_order(api, order("D1", [order_item(1, "P1", 10)]))
    stock_in(api, 2, [item("P1", 1), item("LOT", 2, lot="A")], date="2024-01-10")
    stock_in(api, 1, [item("P2", 1)], id_warehouse="2", date="2024-01-20")
    stock_in(api, 3, [item("P1", 1)], direction="O", date="2024-01-15")
    stock_in(api, 4, [item("P1", 10)], date="2024-01-20", document_number="D1")


def numbers(response):
    assert response.status_code == 200, response.json
    return [b["batch_settings"]["batch_number"] for b in response.json["list"]]


def filtered(api, data=None, query=""):
    return api.post("/v1/batches/filter" + query, data)


def test_filter_everything_sorted_by_batch_number(api, several):
    r = filtered(api)
    assert numbers(r) == [1, 2, 3, 4]
    assert filtered(api, {}).json == r.json
    assert api.post("/v1/batches/filter", body={}).json == r.json
    two = r.json["list"][1]
    assert [i["product_code"] for i in two["batch_items"]] == ["P1", "LOT"]
    assert [(i["doc_number"], i["doc_item_number"]) for i in two["batch_items"]] == [(1, 1), (1, 2)]
    assert two["batch_settings"]["created_date"] == date.today().isoformat()


@pytest.mark.parametrize("data, expected", [
    ({"id_warehouses": []}, [1, 2, 3, 4]),
    ({"id_warehouses": [2]}, [1]),
    ({"id_warehouses": [1, 2]}, [1, 2, 3, 4]),
    ({"id_warehouses": [3]}, []),
    ({"doc_direction": ""}, [1, 2, 3, 4]),
    ({"doc_direction": "O"}, [3]),
    ({"doc_direction": "I"}, [1, 2, 4]),
    ({"date_from": "2024-01-15"}, [1, 3, 4]),
    ({"date_to": "2024-01-15"}, [2, 3]),
    ({"date_from": "2024-01-15", "date_to": "2024-01-15"}, [3]),
    ({"date_from": "", "date_to": ""}, [1, 2, 3, 4]),
    ({"date_from": "2024-01-21"}, []),
    ({"document_number": "D1"}, [4]),
    ({"document_number": ""}, [1, 2, 3, 4]),
    ({"document_number": "D2"}, []),
    ({"level": -1}, [1, 2, 3, 4]),
    ({"level": 0}, [1, 2, 3, 4]),
    ({"level": 1}, [2]),
    ({"id_warehouses": [1], "doc_direction": "I", "date_from": "2024-01-10", "level": 0}, [2, 4]),
])
def test_filter_fields(api, several, data, expected):
    assert numbers(filtered(api, data)) == expected


def test_level_keeps_only_items_of_that_lot_level(api, several):
    by_level = {level: {b["batch_settings"]["batch_number"]: [i["product_code"] for i in b["batch_items"]]
                        for b in filtered(api, {"level": level}).json["list"]} for level in (0, 1)}
    assert by_level[1] == {2: ["LOT"]}
    assert by_level[0][2] == ["P1"]


def test_filter_is_narrowed_to_the_warehouses_of_the_key(api_as, several):
    reader = api_as("read_w1")
    assert numbers(filtered(reader)) == [2, 3, 4]
    assert numbers(filtered(reader, {"id_warehouses": [2]})) == []
    assert numbers(filtered(reader, {"id_warehouses": [1, 2]})) == [2, 3, 4]
    assert numbers(filtered(api_as("scan_w1"))) == [2, 3, 4]


@pytest.mark.parametrize("query", ["?headers=1", "?headers=true"])
def test_headers_only_gives_empty_item_arrays(api, several, query):
    r = filtered(api, {}, query)
    assert numbers(r) == [1, 2, 3, 4]
    assert all(b["batch_items"] == [] for b in r.json["list"])
    assert r.json["list"][3]["batch_settings"]["document_number"] == "D1"


@pytest.mark.parametrize("query", ["", "?headers=", "?headers=0", "?headers=false"])
def test_without_headers_gives_everything(api, several, query):
    assert all(b["batch_items"] for b in filtered(api, {}, query).json["list"])


def test_headers_only_keeps_the_extras(api):
    created(post(api, batch(1, [item("P1", 1)], extras=[{"key": "gate", "value": "2"}])))
    [found] = filtered(api, {}, "?headers=1").json["list"]
    assert found["batch_items"] == []
    assert found["batch_extras"] == [{"key": "gate", "value": "2"}]


def test_headers_only_still_applies_the_level(api, several):
    assert numbers(filtered(api, {"level": 1}, "?headers=1")) == [2]


@pytest.mark.parametrize("query", ["?headers=yes", "?headers=2", "?headers=-1", "?headers=TRUE",
                                   "?headers=%1D", "?headers=%201", "?headers=1%20"])
def test_other_headers_values_are_422(api, query):
    assert filtered(api, {}, query).status_code == 422


@pytest.mark.parametrize("data, field", [
    ({"warehouse": [1]}, "warehouse"),
    ({"doc_direction": "X"}, "doc_direction"),
    ({"level": 2}, "level"),
    ({"level": "1"}, "level"),
    ({"date_from": "2024-1-1"}, "date_from"),
    ({"date_to": "tomorrow"}, "date_to"),
    ({"id_warehouses": "1"}, "id_warehouses"),
    ({"id_warehouses": ["x"]}, "id_warehouses"),
    ({"id_warehouses": [2**63]}, "id_warehouses"),
])
def test_bad_filter_fields_are_422_naming_them(api, data, field):
    fields = error_fields(filtered(api, data))
    assert field in fields["data"], fields


@pytest.mark.parametrize("body", [{"filter": {}}, {"data": []}, [], {"data": {}, "x": 1}])
def test_bad_filter_bodies_are_400(api, body):
    assert api.post("/v1/batches/filter", body=body).status_code == 400


def test_type_v_batches_are_listed_with_doc_number_0(api):
    created(post(api, batch(1, [item("P1", 3)], type="V")))
    items = filtered(api).json["list"][0]["batch_items"]
    assert [(i["doc_number"], i["doc_item_number"], i["amount_base_unit"]) for i in items] == [(0, 0, 3)]


# --- limits of values ---------------------------------------------------------------------------

@pytest.mark.parametrize("field, value", [("product_code", "P\u00001"), ("lot", "A\u0000"),
                                          ("name", "x\u0000y"), ("barcode", "\u0000")])
def test_nul_in_any_text_is_422_naming_the_field(api, field, value):
    fields = error_fields(post(api, batch(1, [item("P1", 1, **{field: value})])))
    assert field in fields["data"]["batch_items"]["0"]
    assert api.get("/v1/batches/1").status_code == 404


def test_lot_longer_than_its_column_is_422(api):
    fields = error_fields(post(api, batch(1, [item("LOT", 1, lot="L" * 201)])))
    assert "lot" in fields["data"]["batch_items"]["0"]


@pytest.mark.parametrize("number", ["\u0661\u0662", "1_2"])
def test_batch_number_in_other_digits_is_422(api, number):
    assert post(api, batch(number, [item("P1", 1)])).status_code == 422
