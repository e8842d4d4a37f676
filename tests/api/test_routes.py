"""routes/operation.py and routes/parsing.py: what every /v1 operation shares, its query parameters above all.

One rule for every operation (docs/api.md, "Query parameters"): a parameter the
operation does not name, or a value it does not take, is 422 naming it.
"""
import os
import subprocess
import sys

import pytest

from helpers import add_products, batch, created, error_fields, item, order

EVERY_OPERATION = [
    ("GET", "/v1/products/"), ("GET", "/v1/products/P1"), ("POST", "/v1/products/"),
    ("POST", "/v1/products/P1"), ("GET", "/v1/customers/"), ("GET", "/v1/documents/"),
    ("GET", "/v1/documents/D1"), ("GET", "/v1/documents/acquire/D1"), ("POST", "/v1/documents/"),
    ("GET", "/v1/batches/1"), ("POST", "/v1/batches/"), ("POST", "/v1/batches/filter"),
    ("GET", "/v1/docs/1"), ("POST", "/v1/docs/filter"), ("GET", "/v1/stocktakings/list"),
    ("DELETE", "/v1/stocktakings/?date=2026-11-21&id_warehouse=1"), ("POST", "/v1/inventory/filter"),
    ("POST", "/v1/inventory/movements/filter"), ("GET", "/v1/overview/docs_and_stocktaking"),
    ("GET", "/v1/overview/monthly_movement"), ("POST", "/v1/customers/"), ("POST", "/v1/customers/1"),
    ("GET", "/v1/barcodes/123"), ("POST", "/v1/documents/close/D1"), ("POST", "/v1/documents/release/D1"),
    # DESIGN 16: keys over HTTP and the audit trail.
    ("GET", "/v1/keys/"), ("POST", "/v1/keys/"), ("DELETE", "/v1/keys/scanner-1"), ("GET", "/v1/audit/"),
    ("GET", "/v1/warehouses/"), ("POST", "/v1/warehouses/"), ("POST", "/v1/warehouses/1"),
    ("POST", "/v1/import/products"), ("GET", "/v1/export/products"),
    # DESIGN 20: reorder levels, alerts, webhooks.
    ("GET", "/v1/reorder_levels/"), ("PUT", "/v1/reorder_levels/"), ("GET", "/v1/alerts/"),
    ("POST", "/v1/webhooks/"), ("GET", "/v1/webhooks/"), ("DELETE", "/v1/webhooks/1"),
    # DESIGN 24, 25: the browser scanner's frames, batch numbers and offline work.
    ("POST", "/v1/barcodes/read"), ("POST", "/v1/batch_numbers/"), ("GET", "/v1/open_orders/"),
    # DESIGN 27: locations and the stock on them.
    ("GET", "/v1/locations/?id_warehouse=1"), ("POST", "/v1/locations/"), ("POST", "/v1/locations/1/A-1"),
    ("GET", "/v1/locations/stock?id_warehouse=1"), ("POST", "/v1/moves/"), ("GET", "/v1/moves/"),
    ("GET", "/v1/documents/D1/pick"),
    # DESIGN 28: a lot's story, write-offs, returns.
    ("GET", "/v1/lots/trace?product_code=P1&lot=A"), ("POST", "/v1/write_offs/"), ("GET", "/v1/write_offs/"),
    ("POST", "/v1/returns/"),
]


def test_the_list_names_every_operation_of_the_app(app):
    assert len(EVERY_OPERATION) == len([rule for rule in app.url_map.iter_rules()
                                        if hasattr(app.view_functions[rule.endpoint], "operation")]) == 54


@pytest.mark.parametrize("method, path", EVERY_OPERATION)
def test_an_unknown_query_parameter_is_422_naming_it_on_every_operation(api, method, path):
    add_products(api)
    joined = f"{path}{'&' if '?' in path else '?'}_=1"
    r = api._call(method, joined)
    assert error_fields(r) == {"_": ["Unknown field."]}


@pytest.mark.parametrize("path", ["/v1/stocktakings/list?_=1", "/v1/products/P1?_=1", "/v1/products/?x="])
def test_the_loose_ends_the_issue_named_are_refused(api, path):
    add_products(api)
    assert api.get(path).status_code == 422


def test_the_query_is_checked_after_the_role(api_as):
    r = api_as("read").post("/v1/products/?_=1", {"product_code": "P9"})
    assert r.status_code == 403


@pytest.mark.parametrize("query", ["?state=", ""])
def test_an_empty_state_means_any_as_empty_filter_fields_do(api, query):
    add_products(api)
    created(api.post("/v1/documents/", order("D1")))
    created(api.post("/v1/documents/", order("D2")))
    api.get("/v1/documents/acquire/D2")
    r = api.get(f"/v1/documents/{query}")
    assert [(o["document_number"], o["state"]) for o in r.json["list"]] == [("D1", 1), ("D2", 2)]


@pytest.mark.parametrize("query", ["?state=%201", "?state=1%20", "?state=01", "?state=%D9%A1", "?state=4",
                                   "?state=-1", "?state=%FF", "?state=null"])
def test_a_state_is_one_of_0_to_3_written_plainly(api, query):
    assert "state" in error_fields(api.get(f"/v1/documents/{query}"))


def test_a_19_digit_warehouse_number_is_a_number(api):
    r = api.get(f"/v1/overview/docs_and_stocktaking?id_warehouse={2**63 - 1}")
    assert (r.status_code, r.json) == (200, {"list": []})
    r = api.delete(f"/v1/stocktakings/?date=2026-11-21&id_warehouse={2**63 - 1}")
    assert r.status_code == 404
    fields = error_fields(api.get(f"/v1/overview/docs_and_stocktaking?id_warehouse={2**63}"))
    assert fields["id_warehouse"] == [f"Must be between 0 and {2**63 - 1}."]


@pytest.mark.parametrize("path", ["/v1/batches/filter", "/v1/docs/filter", "/v1/inventory/movements/filter"])
@pytest.mark.parametrize("field", ["date_from", "date_to"])
def test_null_is_no_date_in_a_filter(api, path, field):
    fields = error_fields(api.post(path, {field: None}))
    assert field in fields["data"]
    assert api.post(path, {field: ""}).status_code == 200  # empty: no bound


def test_an_order_line_may_not_name_a_lot_for_a_product_without_lots(api):
    add_products(api)
    fields = error_fields(api.post("/v1/documents/", order("D1", [
        {"item_number": 1, "product_code": "P1", "lot": "L1", "amount_ordered": 1},
        {"item_number": 2, "product_code": "LOT", "lot": "L1", "amount_ordered": 1},
        {"item_number": 3, "product_code": "LOT", "amount_ordered": 1}])))
    assert fields == {"data": {"items": {"0": {"lot": [
        "The product is not kept by lot: the lot must be empty."]}}}}
    assert api.get("/v1/documents/D1").status_code == 404
    # A lot product's line without a lot takes items of any lot (DESIGN 6).
    created(api.post("/v1/documents/", order("D1", [
        {"item_number": 1, "product_code": "LOT", "amount_ordered": 1}])))
    created(api.post("/v1/batches/", batch(1, [item("LOT", 1, lot="L7")], document_number="D1")))
    assert api.get("/v1/documents/D1").json["item"]["state"] == 0


@pytest.mark.live
def test_schemas_know_no_rules():
    # quantities and errors live with the rules (stock/) and are shared: no rule module may load.
    probe = ("import sys, schemas; print(any(name.startswith('stock.') and name not in "
             "('stock.quantities', 'stock.errors') for name in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                          cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert done.stdout.strip() == "False", done.stderr
