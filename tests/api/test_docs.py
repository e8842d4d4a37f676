"""Operations 13-14: view and filter warehouse documents (DESIGN §4, §7)."""
import re
from datetime import date

import pytest

from helpers import batch, created, error_fields, item, order, order_item
from stock import catalog

TS = "2024-05-01T10:00:00.000+0200"

pytestmark = pytest.mark.usefixtures("known_products")


def book(api, number, items, **settings):
    created(api.post("/v1/batches/", batch(number, items, **settings)))


def view(api, doc_number):
    r = api.get(f"/v1/docs/{doc_number}")
    assert r.status_code == 200, r.json
    return r.json["item"]


def filtered(api, data=None, query=""):
    return api.post("/v1/docs/filter" + query, data)


def numbers(response):
    assert response.status_code == 200, response.json
    return [d["doc_number"] for d in response.json["list"]]


# --- view -------------------------------------------------------------------------------------

def test_view_returns_the_document_of_a_batch(api):
    book(api, 1, [item("P1", 2, "box", timestamp_client=TS),
                  item("LOT", "1.25", lot="A", date_exp="2030-01-31")], date="2024-03-01")
    assert view(api, 1) == {
        "doc_number": 1, "id_warehouse": 1, "direction": "I", "date": "2024-03-01",
        "doc_created_date": date.today().isoformat(), "id_customer": 0, "batch_number": 1,
        "ufid": "I-2024-000001",
        "wh_doc_items": [
            {"doc_number": 1, "item_number": 1, "user_visible_item_number": 1, "product_code": "P1",
             "name": "Product P1", "lot": "", "date_exp": "", "amount_base_unit": 12,
             "doc_created_date": date.today().isoformat(), "timestamp_from_client": TS},
            {"doc_number": 1, "item_number": 2, "user_visible_item_number": 2, "product_code": "LOT",
             "name": "Product LOT", "lot": "A", "date_exp": "2030-01-31", "amount_base_unit": 1.25,
             "doc_created_date": date.today().isoformat(), "timestamp_from_client": ""},
        ],
    }


def test_goods_out_amounts_are_positive_on_the_document(api):
    book(api, 1, [item("P1", 5)])
    book(api, 2, [item("P1", 3)], direction="O")
    found = view(api, 2)
    assert (found["direction"], found["wh_doc_items"][0]["amount_base_unit"]) == ("O", 3)


def test_id_customer_comes_from_the_order_document(api, session):
    catalog.save_customers(session, [{"id_customer": 42, "name": "Acme"}])
    created(api.post("/v1/documents/", order("D1", [order_item(1, "P1", 5)], id_customer=42)))
    book(api, 1, [item("P1", 5)], document_number="D1")
    assert view(api, 1)["id_customer"] == 42


def test_unknown_document_is_404(api):
    assert api.get("/v1/docs/1").status_code == 404
    assert api.get("/v1/docs/x").status_code == 404
    assert api.get(f"/v1/docs/{2**63}").status_code == 404


def test_document_of_another_warehouse_is_404_for_a_limited_key(api, api_as):
    book(api, 1, [item("P1", 1)], id_warehouse="2")
    book(api, 2, [item("P1", 1)], id_warehouse="1")
    for name in ("read_w1", "scan_w1"):
        assert api_as(name).get("/v1/docs/1").status_code == 404
        assert api_as(name).get("/v1/docs/2").status_code == 200
    assert api_as("read").get("/v1/docs/1").status_code == 200


# --- numbers ----------------------------------------------------------------------------------

def test_doc_numbers_increase_and_ufids_run_per_direction_and_year(api):
    book(api, 10, [item("P1", 5)], date="2024-03-01")
    book(api, 11, [item("P1", 1)], direction="O", date="2024-03-02")
    book(api, 12, [item("P1", 1)], date="2023-12-31")
    book(api, 13, [item("P1", 1)], date="2024-06-01")
    book(api, 14, [item("P1", 1)], direction="O", date="2025-01-01")
    book(api, 15, [item("P1", 1)], direction="O", date="2024-12-31")
    docs = filtered(api).json["list"]
    assert [(d["doc_number"], d["ufid"], d["batch_number"]) for d in docs] == [
        (1, "I-2024-000001", 10), (2, "O-2024-000001", 11), (3, "I-2023-000001", 12),
        (4, "I-2024-000002", 13), (5, "O-2025-000001", 14), (6, "O-2024-000002", 15)]
    assert all(re.fullmatch(r"[IO]-\d{4}-\d{6}", d["ufid"]) for d in docs)


def test_refused_batches_consume_no_numbers(api):
    book(api, 1, [item("P1", 1)])
    assert api.post("/v1/batches/", batch(2, [item("P1", 2)], direction="O")).status_code == 409
    assert api.post("/v1/batches/", batch(3, [item("P1", 1, "kg")])).status_code == 422
    book(api, 4, [item("P1", 1)])
    book(api, 5, [item("P1", 1)], direction="O")
    docs = filtered(api).json["list"]
    year = date.today().year
    assert [(d["doc_number"], d["ufid"]) for d in docs] == [
        (1, f"I-{year}-000001"), (2, f"I-{year}-000002"), (3, f"O-{year}-000001")]


# --- filter -----------------------------------------------------------------------------------

@pytest.fixture
def several(api):
    """Documents 1-4 from batches in two warehouses, both directions, several business dates."""
    book(api, 1, [item("P1", 1), item("LOT", 2, lot="A")], date="2024-01-10")   # doc 1
    book(api, 2, [item("P2", 1)], id_warehouse="2", date="2024-01-20")          # doc 2
    book(api, 3, [item("P1", 1)], direction="O", date="2024-01-15")             # doc 3
    book(api, 4, [item("LOT", 1, lot="A")], date="2024-01-20")                  # doc 4


def test_filter_everything_sorted_by_doc_number_then_item_number(api, several):
    r = filtered(api)
    assert numbers(r) == [1, 2, 3, 4]
    assert filtered(api, {}).json == r.json
    assert api.post("/v1/docs/filter", body={}).json == r.json
    first = r.json["list"][0]
    assert [i["item_number"] for i in first["wh_doc_items"]] == [1, 2]
    assert first["wh_doc_items"][1] == {
        "doc_number": 1, "item_number": 2, "user_visible_item_number": 2, "direction": "I",
        "product_code": "LOT", "name": "Product LOT", "lot": "A", "lot_level": 1, "date_exp": "",
        "amount_base_unit": 2, "doc_created_date": date.today().isoformat(), "timestamp_from_client": ""}
    assert r.json["list"][2]["wh_doc_items"][0]["direction"] == "O"


@pytest.mark.parametrize("data, expected", [
    ({"id_warehouses": []}, [1, 2, 3, 4]),
    ({"id_warehouses": [2]}, [2]),
    ({"id_warehouses": [1, 2]}, [1, 2, 3, 4]),
    ({"id_warehouses": [9]}, []),
    ({"doc_direction": ""}, [1, 2, 3, 4]),
    ({"doc_direction": "O"}, [3]),
    ({"doc_direction": "I"}, [1, 2, 4]),
    ({"date_from": "2024-01-15"}, [2, 3, 4]),
    ({"date_to": "2024-01-15"}, [1, 3]),
    ({"date_from": "2024-01-15", "date_to": "2024-01-15"}, [3]),
    ({"date_from": "2024-01-10", "date_to": "2024-01-20"}, [1, 2, 3, 4]),
    ({"date_from": "", "date_to": ""}, [1, 2, 3, 4]),
    ({"date_to": "2024-01-09"}, []),
    ({"level": -1}, [1, 2, 3, 4]),
    ({"level": 0}, [1, 2, 3]),
    ({"level": 1}, [1, 4]),
    ({"id_warehouses": [1], "doc_direction": "I", "level": 0}, [1]),
])
def test_filter_fields(api, several, data, expected):
    assert numbers(filtered(api, data)) == expected


def test_level_keeps_only_items_of_that_lot_level(api, several):
    for level, code in ((0, "P1"), (1, "LOT")):
        first = filtered(api, {"level": level}).json["list"][0]
        assert [(i["product_code"], i["lot_level"]) for i in first["wh_doc_items"]] == [(code, level)]


def test_filter_is_narrowed_to_the_warehouses_of_the_key(api_as, several):
    reader = api_as("read_w1")
    assert numbers(filtered(reader)) == [1, 3, 4]
    assert numbers(filtered(reader, {"id_warehouses": [2]})) == []
    assert numbers(filtered(reader, {"id_warehouses": [1, 2]})) == [1, 3, 4]


@pytest.mark.parametrize("query", ["?headers=1", "?headers=true"])
def test_headers_only_gives_empty_item_arrays(api, several, query):
    r = filtered(api, {}, query)
    assert numbers(r) == [1, 2, 3, 4]
    assert all(d["wh_doc_items"] == [] for d in r.json["list"])
    assert r.json["list"][0]["ufid"] == "I-2024-000001"


@pytest.mark.parametrize("query", ["", "?headers=", "?headers=0", "?headers=false"])
def test_without_headers_gives_everything(api, several, query):
    assert all(d["wh_doc_items"] for d in filtered(api, {}, query).json["list"])


def test_headers_only_still_applies_the_level(api, several):
    assert numbers(filtered(api, {"level": 1}, "?headers=1")) == [1, 4]


@pytest.mark.parametrize("query", ["?headers=yes", "?headers=2", "?headers=on", "?headers=True",
                                   "?headers=%1D", "?headers=%201"])
def test_other_headers_values_are_422(api, query):
    assert filtered(api, {}, query).status_code == 422


@pytest.mark.parametrize("data, field", [
    ({"id_warehouse": [1]}, "id_warehouse"),
    ({"document_number": "D1"}, "document_number"),  # not a field of this filter
    ({"doc_direction": "in"}, "doc_direction"),
    ({"level": 3}, "level"),
    ({"date_from": "2024-02-30"}, "date_from"),
    ({"date_to": 20240101}, "date_to"),
    ({"id_warehouses": [True]}, "id_warehouses"),
    ({"id_warehouses": [10**20]}, "id_warehouses"),
])
def test_bad_filter_fields_are_422_naming_them(api, data, field):
    assert field in error_fields(filtered(api, data))["data"]


@pytest.mark.parametrize("body", [{"filter": {}}, {"data": "x"}, ["data"], {"data": {}, "headers": 1}])
def test_bad_filter_bodies_are_400(api, body):
    assert api.post("/v1/docs/filter", body=body).status_code == 400


def test_a_read_key_may_filter_and_view(api, api_as, several):
    assert numbers(filtered(api_as("read"))) == [1, 2, 3, 4]
    assert api_as("read").get("/v1/docs/3").status_code == 200
