"""POST /v1/import/{kind} and GET /v1/export/{kind}: files in and out over HTTP."""
import io
import json

import pytest
from openpyxl import load_workbook

import sheets
from stock.audit import Actor
from storage.db import db
from transfer import importing, mapping


def upload(client, key, kind, data, name="file.csv", query="", form=None):
    data = data.encode("utf-8") if isinstance(data, str) else data
    return client.post(f"/v1/import/{kind}{query}", headers={"TS-Apikey": key},
                       data={"file": (io.BytesIO(data), name), **(form or {})}, content_type="multipart/form-data")


PRODUCTS = "product_code,name,base_unit,packaging_1_unit,packaging_1_amount_base_units\nMILK,Milk,pc,crate,12\n"


def test_an_import_answers_its_report_and_keeps_the_records(client, keys, api):
    r = upload(client, keys["admin"], "products", PRODUCTS)
    assert r.status_code == 200, r.json
    assert r.json == {"item": {"created": 1, "updated": 0, "unchanged": 0, "errors": []}}
    assert api.get("/v1/products/MILK").json["item"]["packaging"][0]["unit"] == "crate"


def test_a_dry_run_answers_the_same_report_and_changes_nothing(client, keys, api):
    r = upload(client, keys["admin"], "products", PRODUCTS, query="?dry_run=1")
    assert r.status_code == 200
    assert r.json["item"]["created"] == 1
    assert api.get("/v1/products/MILK").status_code == 404


def test_errors_answer_422_with_the_report_and_nothing_changes(client, keys, api):
    r = upload(client, keys["admin"], "products", PRODUCTS + "TEA,,pc,,\n")
    assert r.status_code == 422
    assert r.json["error"]["code"] == "validation_error"
    assert r.json["item"] == {"created": 1, "updated": 0, "unchanged": 0, "errors": [
        {"row": 3, "column": "name", "message": "Length must be between 1 and 200."}]}
    assert api.get("/v1/products/MILK").status_code == 404


def test_a_bad_file_gets_a_report_not_a_500(client, keys):
    for data, message in [(b"", "The file is empty."),
                          (b"\x00\x01\x02binary", "Not a CSV, XLSX or ODS file (it holds binary data)."),
                          (b"id_customer,name\n", "The file has a header row but no rows below it.")]:
        r = upload(client, keys["admin"], "customers", data)
        assert r.status_code == 422, data
        assert [e["message"] for e in r.json["item"]["errors"]] == [message]


def test_the_file_must_come_as_the_multipart_field_file(client, keys):
    r = client.post("/v1/import/products", headers={"TS-Apikey": keys["admin"]},
                    data={"other": (io.BytesIO(b"x"), "x.csv")}, content_type="multipart/form-data")
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_request"
    r = client.post("/v1/import/products", headers={"TS-Apikey": keys["admin"]}, json={"data": {}})
    assert r.status_code == 400


def test_roles_kinds_and_queries(client, keys):
    assert upload(client, keys["scan"], "products", PRODUCTS).status_code == 403
    assert upload(client, "", "products", PRODUCTS).status_code == 401
    assert upload(client, keys["admin"], "warehouses", PRODUCTS).status_code == 404
    r = upload(client, keys["admin"], "products", PRODUCTS, query="?dry_run=maybe")
    assert r.status_code == 422 and "dry_run" in r.json["error"]["fields"]


def test_a_file_over_50_mb_is_413(client, keys):
    # The multipart body written out here: the test client would spool a form this large
    # to a temporary file that it never closes when the service refuses the body unread.
    big = (b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.csv\"\r\n\r\n"
           + b"A,B,C\n" * (50 * 1024 * 1024 // 6 + 10) + b"\r\n--b--\r\n")
    r = client.post("/v1/import/products", headers={"TS-Apikey": keys["admin"]}, data=big,
                    content_type="multipart/form-data; boundary=b")
    assert r.status_code == 413 and r.json["error"]["code"] == "payload_too_large"


def test_a_file_over_the_json_limit_but_under_50_mb_is_taken(make_app, keys):
    app = make_app(MAX_CONTENT_LENGTH=1000)
    from identity import api_keys
    from storage.db import db
    with app.app_context():
        key = api_keys.create_key(db.session, "importer", "admin")
    rows = "".join(f"P{n},Product {n},pc\n" for n in range(200))
    r = upload(app.test_client(), key, "products", "product_code,name,base_unit\n" + rows)
    assert r.status_code == 200 and r.json["item"]["created"] == 200


def test_export_in_the_import_columns_then_import_changes_nothing(client, keys):
    assert upload(client, keys["admin"], "products", PRODUCTS).status_code == 200
    for format in ("csv", "xlsx"):
        r = client.get(f"/v1/export/products?format={format}", headers={"TS-Apikey": keys["read"]})
        assert r.status_code == 200
        assert r.headers["Content-Disposition"] == f'attachment; filename="products.{format}"'
        again = upload(client, keys["admin"], "products", r.data, name=f"products.{format}")
        assert again.json["item"] == {"created": 0, "updated": 0, "unchanged": 1, "errors": []}
    r = client.get("/v1/export/products", headers={"TS-Apikey": keys["read"]})
    assert r.mimetype == "text/csv" and r.data.startswith(b"\xef\xbb\xbfproduct_code,")
    book = load_workbook(io.BytesIO(client.get("/v1/export/products?format=xlsx",
                                               headers={"TS-Apikey": keys["read"]}).data))
    assert book.active["A2"].value == "MILK"


def test_export_refuses_an_unknown_format(client, keys):
    r = client.get("/v1/export/products?format=pdf", headers={"TS-Apikey": keys["read"]})
    assert r.status_code == 422


# --- the office's own columns, the file's encoding, .ods, and long files with mistakes --------

def test_unknown_columns_are_refused_unless_the_form_maps_them(client, keys, api):
    data = sheets.csv_bytes(sheets.FOREIGN)
    refused = upload(client, keys["admin"], "products", data)
    assert refused.status_code == 422
    assert refused.json["item"]["errors"][0]["message"].startswith("Unknown column; products has the columns")
    # The answer keeps its documented shape: an error is its row, column and message.
    assert all(set(error) == {"row", "column", "message"} for error in refused.json["item"]["errors"])

    r = upload(client, keys["admin"], "products", data, form={"mapping": json.dumps(sheets.FOREIGN_MAPPING)})
    assert r.status_code == 200, r.json
    assert r.json == {"item": {"created": 2, "updated": 0, "unchanged": 0, "errors": []}}
    assert api.get("/v1/products/TEA-GREEN").json["item"]["base_unit_barcode"] == "3830000000017"


def test_a_mapping_remembered_on_the_page_does_not_change_what_the_api_imports(app, client, keys):
    with app.app_context():
        mapping.remember(db.session, Actor("anna", "127.0.0.1"), "products", sheets.FOREIGN_MAPPING)
        db.session.remove()
    assert upload(client, keys["admin"], "products", sheets.csv_bytes(sheets.FOREIGN)).status_code == 422


@pytest.mark.parametrize("form, field", [
    ({"mapping": "{not json"}, "mapping"), ({"mapping": "[1, 2]"}, "mapping"), ({"mapping": '{"Code": 5}'}, "mapping"),
    ({"mapping": '{" ": "name"}'}, "mapping"), ({"encoding": "latin-2"}, "encoding"), ({"colour": "red"}, "colour"),
])
def test_a_bad_form_field_is_422_naming_it(client, keys, api, form, field):
    r = upload(client, keys["admin"], "products", sheets.csv_bytes(sheets.FOREIGN), form=form)
    assert r.status_code == 422 and r.json["error"]["code"] == "validation_error"
    assert list(r.json["error"]["fields"]) == [field]
    assert api.get("/v1/products/TEA-GREEN").status_code == 404


def test_a_windows_1250_file_is_found_out_or_read_as_the_form_says(client, keys, api):
    data = sheets.csv_bytes(sheets.SLOVENIAN, "cp1250")
    assert upload(client, keys["admin"], "products", data).json["item"]["created"] == 5
    assert api.get("/v1/products/COK-100").json["item"]["name"] == "Čokolada mlečna 100 g"
    r = upload(client, keys["admin"], "products", data, form={"encoding": "windows-1252"})
    assert (r.json["item"]["updated"], r.json["item"]["unchanged"]) == (3, 2)  # told so, it reads as the form says
    assert api.get("/v1/products/COK-100").json["item"]["name"] == "Èokolada mleèna 100 g"
    r = upload(client, keys["admin"], "products", data, form={"encoding": "utf-8"})
    assert r.status_code == 422 and r.json["item"]["errors"][0]["message"].startswith("Not UTF-8 text")


def test_an_ods_file_is_imported(client, keys, api):
    data = sheets.ods({"Products": sheets.SLOVENIAN})
    r = upload(client, keys["admin"], "products", data, name="list.ods")
    assert r.status_code == 200 and r.json["item"]["created"] == 5
    assert api.get("/v1/products/ZIT-375").json["item"]["name"] == "Žitarice z medom"


def test_a_300_row_workbook_with_three_mistakes_answers_each(client, keys, api):
    rows, mistakes = sheets.products_with_errors(300)
    r = upload(client, keys["admin"], "products", sheets.xlsx(rows), name="products.xlsx")
    assert r.status_code == 422
    assert r.json["item"]["created"] == 297
    assert [(e["row"], e["column"], e["message"]) for e in r.json["item"]["errors"]] == \
        [(row, column, message) for row, _, column, _, message in mistakes]
    assert api.get("/v1/products/P0001").status_code == 404


@pytest.mark.parametrize("format", ["csv", "xlsx"])
def test_every_kind_exported_imports_back_unchanged(client, keys, api, format):
    sheets.fill_every_kind(api)
    for kind in importing.KINDS:
        r = client.get(f"/v1/export/{kind}?format={format}", headers={"TS-Apikey": keys["read"]})
        assert r.status_code == 200, kind
        again = upload(client, keys["admin"], kind, r.data, name=f"{kind}.{format}")
        assert again.status_code == 200, (kind, again.json)
        answer = again.json["item"]
        assert (answer["created"], answer["updated"]) == (0, 0) and answer["unchanged"] >= 1, (kind, answer)


# --- locations (DESIGN 27) ------------------------------------------------------------------------

LOCATIONS = "id_warehouse,code,name,sequence,hold,receiving\n1,A-2,Aisle A 2,,,1\n1,A-10,,,,\n2,Q,Quarantine,900,1,\n"


def test_locations_import_adds_then_changes_what_the_rows_give(client, keys, api):
    r = upload(client, keys["admin"], "locations", LOCATIONS)
    assert r.json == {"item": {"created": 3, "updated": 0, "unchanged": 0, "errors": []}}
    listed = api.get("/v1/locations/?id_warehouse=1").json["list"]
    assert [(row["code"], row["name"], row["receiving"]) for row in listed] == [("A-2", "Aisle A 2", 1), ("A-10", "", 0)]
    again = upload(client, keys["admin"], "locations", "id_warehouse,code,hold\n1,a-2,1\n1,A-10,0\n")
    assert again.json["item"] == {"created": 0, "updated": 1, "unchanged": 1, "errors": []}
    assert [(row["code"], row["name"], row["hold"]) for row in api.get("/v1/locations/?id_warehouse=1").json["list"]] \
        == [("A-2", "Aisle A 2", 1), ("A-10", "", 0)]


def test_locations_import_names_every_bad_row_and_changes_nothing(client, keys, api, admin_w1):
    api.post("/v1/products/", {"product_code": "P1", "name": "P", "base_unit": "pc"})
    api.post("/v1/locations/", {"id_warehouse": 1, "code": "FULL"})
    api.post("/v1/batches/", {"batch_settings": {"batch_number": 1, "id_warehouse": 1, "direction": "I", "type": "R"},
                              "batch_items": [{"product_code": "P1", "amount": 1, "unit": "pc", "wplace": "FULL"}]})
    r = upload(client, keys["admin"], "locations",
               "id_warehouse,code,active\n1,OK,1\n1,A B,1\n1,FULL,0\n999999,X,1\n")
    assert r.status_code == 422
    assert [(e["row"], e["column"]) for e in r.json["item"]["errors"]] == [(3, "code"), (4, "active"), (5, "id_warehouse")]
    assert [row["code"] for row in api.get("/v1/locations/?id_warehouse=1").json["list"]] == ["FULL"]
    limited = upload(client, admin_w1.key, "locations", "id_warehouse,code\n2,X\n")
    assert limited.status_code == 422 and limited.json["item"]["errors"][0]["column"] == "id_warehouse"


def test_locations_export_imports_back_unchanged(client, keys, api):
    upload(client, keys["admin"], "locations", LOCATIONS)
    exported = client.get("/v1/export/locations", headers={"TS-Apikey": keys["admin"]})
    assert exported.status_code == 200
    text = exported.data.decode("utf-8-sig")
    assert text.splitlines()[0] == "id_warehouse,warehouse_name,code,name,sequence,hold,active,receiving"
    back = upload(client, keys["admin"], "locations", exported.data)
    assert back.json["item"] == {"created": 0, "updated": 0, "unchanged": 3, "errors": []}
