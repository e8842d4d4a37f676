"""Run by tests/operations/test_migrations.py with the code of the release before migrations.

`python old_release.py CODE_DIR DATABASE_URL SEARCH_PATH OUT.json`: the app of the
old code (CODE_DIR, a `git archive` of a fixed commit) makes its tables with
create_all, books a small depot's day through HTTP (products, customers, an order,
batches in and out, a stocktaking) and writes what every read answered to
OUT.json, for the new code to answer the same after the upgrade, with the
batches it posted, for the new code to know them when a scanner sends them
again. It imports nothing of the current code.
"""
import json
import sys

code_dir, url, search_path, out = sys.argv[1:5]
sys.path.insert(0, code_dir)

import auth  # noqa: E402  (the old code's)
from app import create_app  # noqa: E402
from db import db  # noqa: E402

config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url}
if search_path != "-":
    config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"options": f"-csearch_path={search_path}"}}
app = create_app(config)
with app.app_context():
    key = auth.create_key(db.session, "office", "admin")
    db.session.remove()
client = app.test_client()
headers = {"TS-Apikey": key}


def call(method, path, data=None):
    body = {"data": data} if data is not None else {}
    response = client.open(path, method=method, json=body, headers=headers)
    assert response.status_code < 300, (method, path, response.get_data(as_text=True))
    return response


def item(code, amount, unit="pc", **fields):
    return {"product_code": code, "amount": amount, "unit": unit, **fields}


def batch(number, direction, type_, day, items, **settings):
    return {"batch_settings": {"batch_number": str(number), "id_warehouse": "1", "direction": direction,
                               "type": type_, "date": day, **settings},
            "batch_items": items, "batch_extras": [{"key": "driver", "value": "J. Novak"}]}


call("POST", "/v1/products/", {"product_code": "MILK", "name": "Milk 1 l", "base_unit": "pc",
                               "base_unit_barcode": "4006381333924",
                               "packaging": [{"unit": "crate", "amount_base_units": 12,
                                              "barcode": "4006381333931"}]})
call("POST", "/v1/products/", {"product_code": "CHEESE", "name": "Cheese", "base_unit": "kg",
                               "lot_level": 1, "weight_netto": "1.25"})
with open(f"{out}.customers.csv", "w", encoding="utf-8") as file:
    file.write("id_customer,name,registration_number,tax_id,vat_number,street,city,zip,country\n"
               "7,Corner shop,123,456,SI456,Main 1,Ljubljana,1000,SI\n")
result = app.test_cli_runner().invoke(args=["customers", "import", f"{out}.customers.csv"])
assert result.exit_code == 0, result.output
call("POST", "/v1/documents/", {
    "document_number": "PO-1", "id_warehouse": 1,
    "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["I"]},
    "items": [{"item_number": 1, "product_code": "MILK", "amount_ordered": 240},
              {"item_number": 2, "product_code": "CHEESE", "amount_ordered": "20.5"}]})
call("GET", "/v1/documents/acquire/PO-1")
batches = [
    batch(1, "I", "R", "2026-10-01", [
        item("MILK", 20, "crate", date_exp="2026-12-15", timestamp_client="2026-10-01T08:15:02.120+0100"),
        item("CHEESE", "20.5", "kg", lot="L-1")], document_number="PO-1"),
    batch(2, "O", "R", "2026-10-02", [item("MILK", 30), item("CHEESE", "2.25", "kg", lot="L-1")]),
    batch(3, "I", "V", "2026-10-03", [item("MILK", 205)]),
]
for posted in batches:
    call("POST", "/v1/batches/", posted)

reads = [
    ("GET", "/v1/products/", None), ("GET", "/v1/products/MILK", None),
    ("GET", "/v1/customers/", None), ("GET", "/v1/documents/?state=0", None),
    ("GET", "/v1/documents/PO-1", None), ("GET", "/v1/batches/1", None),
    ("GET", "/v1/batches/2", None), ("GET", "/v1/batches/3", None),
    ("POST", "/v1/batches/filter?headers=0", {"id_warehouses": [1], "level": -1,
                                               "date_from": "2026-10-01", "date_to": "2026-10-31"}),
    ("GET", "/v1/docs/1", None), ("GET", "/v1/docs/2", None),
    ("POST", "/v1/docs/filter?headers=0", {"id_warehouses": [1], "level": -1, "doc_direction": "",
                                            "date_from": "2026-10-01", "date_to": "2026-10-31"}),
    ("GET", "/v1/stocktakings/list?headers=0", None),
    ("POST", "/v1/inventory/filter", {"id_warehouses": [1], "product_code": "", "level": -1}),
    ("POST", "/v1/inventory/movements/filter", {"doc_direction": "", "id_warehouses": [1], "level": -1,
                                                 "date_from": "2026-10-01", "date_to": "2026-10-31"}),
    ("GET", "/v1/overview/docs_and_stocktaking?id_warehouse=1", None),
    ("GET", "/v1/overview/monthly_movement?date_from=2026-01-01", None),
]
answers = [[method, path, data, call(method, path, data).get_data(as_text=True)] for method, path, data in reads]
with open(out, "w", encoding="utf-8") as file:
    json.dump({"key": key, "answers": answers, "batches": batches}, file)
with app.app_context():
    db.session.remove()
    db.engine.dispose()
