"""Every error is JSON of one shape (DESIGN §3), whatever went wrong."""
import json
import logging

import pytest

from helpers import product
from identity import api_keys
from storage.db import db


def assert_error(r, status, code):
    """The error body: {"error": {"status", "code", "message"[, "fields"]}} and nothing else."""
    assert r.status_code == status, r.get_data(as_text=True)
    assert r.mimetype == "application/json"
    body = json.loads(r.get_data(as_text=True))
    assert list(body) == ["error"]
    error = body["error"]
    assert error["status"] == status
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    assert set(error) <= {"status", "code", "message", "fields"}
    return error


def raw_post(client, key, path, data, content_type="application/json"):
    return client.post(path, data=data, content_type=content_type, headers={"TS-Apikey": key})


def admin_key(app):
    with app.app_context():
        key = api_keys.create_key(db.session, "admin", "admin")
        db.session.remove()
    return key


# --- 400 ------------------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    b"not json", b"{", b'{"data": {"product_code": "P1",}}', b"\xff\xfe\x00garbage", b"[" * 100000,
    b"[]", b'[{"data": {}}]', b'"text"', b"42", b"null",
    b"{}", b'{"product_code": "P1", "name": "x", "base_unit": "pc"}',
    b'{"data": {"product_code": "P1", "name": "x", "base_unit": "pc"}, "extra": 1}',
    b'{"data": []}', b'{"data": "x"}', b'{"data": null}', b'{"data": 5}',
])
def test_bad_body_of_a_create_is_400(client, keys, body):
    error = assert_error(raw_post(client, keys["admin"], "/v1/products/", body), 400, "bad_request")
    assert "fields" not in error


def test_empty_body_of_a_create_is_400(client, keys):
    assert_error(raw_post(client, keys["admin"], "/v1/products/", b""), 400, "bad_request")


@pytest.mark.parametrize("body", [b"\r", b" ", b"\n\t"])
def test_blanks_are_no_body_but_no_json_either(client, keys, body):
    # Found by schemathesis: a filter took a body of blanks for no body and answered 200.
    assert_error(raw_post(client, keys["admin"], "/v1/inventory/filter", body), 400, "bad_request")
    assert raw_post(client, keys["admin"], "/v1/inventory/filter", b"").status_code == 200


@pytest.mark.parametrize("body", [b"not json", b"[]", b"{}", b'{"data": []}', b'{"data": {}, "x": 1}'])
def test_bad_body_of_an_update_is_400(api, client, keys, body):
    assert api.post("/v1/products/", product("P1")).status_code == 201
    assert_error(raw_post(client, keys["admin"], "/v1/products/P1", body), 400, "bad_request")


def test_400_comes_before_404_of_the_record(client, keys):
    assert_error(raw_post(client, keys["admin"], "/v1/products/NOPE", b"[]"), 400, "bad_request")


def test_a_form_body_is_400_not_html(client, keys):
    r = raw_post(client, keys["admin"], "/v1/products/", b"product_code=P1", "application/x-www-form-urlencoded")
    assert_error(r, 400, "bad_request")


# --- 401, 403, 404, 405, 409 ----------------------------------------------------------------

def test_401_shape(client, keys):
    assert_error(client.get("/v1/products/"), 401, "unauthorized")
    assert_error(client.get("/v1/products/", headers={"TS-Apikey": "wrong"}), 401, "unauthorized")


def test_403_shape(api_as):
    assert_error(api_as("read").post("/v1/products/", product("P1")), 403, "forbidden")


# "/" is the stock page (pages/), not an unknown path.
@pytest.mark.parametrize("path", ["/v1/nothing", "/v1/", "/v1", "/nothing", "/v2/products/"])
def test_unknown_path_is_404(api, path):
    assert_error(api.get(path), 404, "not_found")


def test_unknown_record_is_404(api):
    error = assert_error(api.get("/v1/products/NOPE"), 404, "not_found")
    assert "NOPE" in error["message"]


@pytest.mark.parametrize("method, path", [
    ("DELETE", "/v1/products/"), ("PUT", "/v1/products/"), ("PATCH", "/v1/products/P1"),
    ("DELETE", "/v1/products/P1"), ("PUT", "/v1/customers/"), ("DELETE", "/v1/customers/"),
])
def test_wrong_method_is_405_with_allow(api, method, path):
    r = api._call(method, path)
    assert_error(r, 405, "method_not_allowed")
    assert "GET" in r.headers["Allow"]


def test_duplicate_is_409(api):
    assert api.post("/v1/products/", product("P1")).status_code == 201
    assert_error(api.post("/v1/products/", product("P1")), 409, "conflict")


# --- 413 ------------------------------------------------------------------------------------

def test_body_over_the_limit_is_413(make_app):
    app = make_app(MAX_CONTENT_LENGTH=200)
    key = admin_key(app)
    client = app.test_client()
    big = {"data": product("P1", name="x" * 300)}
    assert_error(raw_post(client, key, "/v1/products/", json.dumps(big)), 413, "payload_too_large")
    small = {"data": product("P1")}
    assert raw_post(client, key, "/v1/products/", json.dumps(small)).status_code == 201


def test_the_body_limit_comes_from_the_environment(monkeypatch, make_app):
    monkeypatch.setenv("WAREHOUSE_MAX_BODY", "1234")
    assert make_app().config["MAX_CONTENT_LENGTH"] == 1234


# --- 422 ------------------------------------------------------------------------------------

def test_422_names_the_fields_keyed_like_the_request(api):
    body = product("P1", active="1", packaging=[{"unit": "box", "amount_base_units": 1},
                                                {"unit": "crate", "amount_base_units": "1.2345"}])
    error = assert_error(api.post("/v1/products/", body), 422, "validation_error")
    assert set(error["fields"]) == {"data"}
    assert set(error["fields"]["data"]) == {"active", "packaging"}
    assert list(error["fields"]["data"]["packaging"]) == ["1"]
    assert list(error["fields"]["data"]["packaging"]["1"]) == ["amount_base_units"]
    assert all(isinstance(m, str) for m in error["fields"]["data"]["active"])


@pytest.mark.parametrize("unknown", [{"colour": "red"}, {"Product_code": "P1"}, {"packagings": []}])
def test_unknown_fields_are_422_naming_them(api, unknown):
    error = assert_error(api.post("/v1/products/", {**product("P1"), **unknown}), 422, "validation_error")
    assert list(error["fields"]["data"]) == list(unknown)


def test_unknown_field_in_an_update_is_422(api):
    assert api.post("/v1/products/", product("P1")).status_code == 201
    error = assert_error(api.post("/v1/products/P1", {"nmae": "typo"}), 422, "validation_error")
    assert list(error["fields"]["data"]) == ["nmae"]


# --- 500 ------------------------------------------------------------------------------------

def test_unexpected_failure_is_a_json_500_without_traceback(make_app, caplog):
    app = make_app()

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internal detail")

    with caplog.at_level(logging.INFO, logger="warehouse"):
        r = app.test_client().get("/boom")
    error = assert_error(r, 500, "internal_error")
    text = r.get_data(as_text=True)
    assert "secret internal detail" not in text
    assert "Traceback" not in text and "RuntimeError" not in text
    assert "fields" not in error
    assert "secret internal detail" in caplog.text  # the traceback goes to the log instead
    assert "GET /boom 500 " in caplog.text  # and the access line says what the caller got


def test_a_failing_database_is_a_json_500(make_app, keys):
    app = make_app()

    @app.get("/v1/db-boom")
    def db_boom():
        db.session.execute(db.text("SELECT * FROM no_such_table"))

    r = app.test_client().get("/v1/db-boom", headers={"TS-Apikey": keys["admin"]})
    assert_error(r, 500, "internal_error")
    assert "no_such_table" not in r.get_data(as_text=True)


def test_path_without_its_trailing_slash_is_served_not_redirected(client, keys):
    r = client.get("/v1/products", headers={"TS-Apikey": keys["admin"]})
    assert r.status_code == 200 and r.json == {"list": []}


def test_nul_in_the_path_is_404(client, keys):
    assert_error(client.get("/v1/documents/D%001", headers={"TS-Apikey": keys["admin"]}), 404, "not_found")


def test_nul_in_a_query_parameter_is_422(client, keys):
    r = client.get("/v1/documents/?state=1%00", headers={"TS-Apikey": keys["admin"]})
    assert_error(r, 422, "validation_error")


def test_nul_in_the_body_is_422_naming_the_field(client, keys):
    body = json.dumps({"data": product("P\u00001")})
    error = assert_error(raw_post(client, keys["admin"], "/v1/products/", body), 422, "validation_error")
    assert "product_code" in error["fields"]["data"]


# --- bodies nested deep (DESIGN §22) --------------------------------------------------------

POSTED_PATHS = ["/v1/products/", "/v1/documents/", "/v1/batches/", "/v1/batches/filter",
                "/v1/docs/filter", "/v1/inventory/filter", "/v1/inventory/movements/filter"]


def nested(depth: int, inner: str, where: str) -> bytes:
    """A body whose `where` field holds `depth` levels of arrays, or of objects, around `inner`."""
    arrays = "[" * depth + inner + "]" * depth
    objects = '{"a": ' * depth + inner + "}" * depth
    return f'{{"data": {{"{where}": {arrays}, "other": {objects}}}}}'.encode()


@pytest.mark.parametrize("path", POSTED_PATHS)
@pytest.mark.parametrize("depth", [500, 700, 950])
@pytest.mark.parametrize("inner", ["1", '"\\u0000"', '"text"'])
def test_a_body_nested_hundreds_deep_is_400_json(client, keys, path, depth, inner):
    # Found in review: at 500-950 levels with a NUL inside, the walks over the body ran out
    # of Python's recursion limit and the answer was a 500.
    body = nested(depth, inner, "batch_settings")
    error = assert_error(raw_post(client, keys["admin"], path, body), 400, "bad_request")
    # Deep enough, the JSON parser itself gives up (and that is 400 too).
    assert "nested deeper" in error["message"] or "not valid JSON" in error["message"]


@pytest.mark.parametrize("depth", [500, 950])
def test_a_body_of_rows_nested_hundreds_deep_is_400_json_too(client, keys, depth):
    # The operation that takes several rows (PUT /v1/reorder_levels/) reads its body its own way,
    # and walked a deep one with a NUL inside past Python's recursion limit.
    body = ('{"data": [' + "[" * depth + '"\\u0000"' + "]" * depth + "]}").encode()
    response = client.put("/v1/reorder_levels/", data=body, content_type="application/json",
                          headers={"TS-Apikey": keys["admin"]})
    error = assert_error(response, 400, "bad_request")
    assert "nested deeper" in error["message"] or "not valid JSON" in error["message"]


def test_a_body_nested_hundreds_deep_is_400_on_an_update(api, client, keys):
    created = api.post("/v1/products/", product("P1"))
    assert created.status_code == 201
    body = nested(900, '"\\u0000"', "name")
    assert_error(raw_post(client, keys["admin"], "/v1/products/P1", body), 400, "bad_request")
    assert api.get("/v1/products/P1").json["item"]["name"] == "Product P1"


@pytest.mark.parametrize("inner", ["1", '"text"', '{"b": 2}', "[]"])
def test_the_nesting_limit_is_32_levels_counted_from_the_body(client, keys, inner):
    # The body (1), "data" (2) and 30 levels more are 32: judged by its fields; one more is 400.
    # `inner` is a value or one more level; the limit counts it as the parser nests it.
    extra = 1 if inner.startswith(("{", "[")) else 0
    at_limit = nested(30 - extra, inner, "name")
    error = assert_error(raw_post(client, keys["admin"], "/v1/products/", at_limit), 422, "validation_error")
    assert "name" in error["fields"]["data"]
    beyond = nested(31 - extra, inner, "name")
    error = assert_error(raw_post(client, keys["admin"], "/v1/products/", beyond), 400, "bad_request")
    assert "nested deeper than 32 levels" in error["message"]


def test_a_body_within_the_nesting_limit_is_judged_by_its_fields(client, keys):
    body = nested(20, '"\\u0000"', "name")
    error = assert_error(raw_post(client, keys["admin"], "/v1/products/", body), 422, "validation_error")
    assert "name" in error["fields"]["data"]
