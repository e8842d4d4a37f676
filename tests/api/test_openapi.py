"""GET /v1/openapi.json and GET /docs: the API document, generated from the schemas, and its page."""
import json
import re

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from schemas import BATCH_ITEM_FIELDS, BatchItemCreateSchema

# The 20 of interface.md; DESIGN 16: keys and the audit trail; 17: warehouses; 18: customers, barcodes,
# orders; 19: import and export; 20: reorder levels, alerts, webhooks; 24, 25: the scanner; 27: locations,
# moves, pick plans; 28: lots, write-offs, returns.
OPERATIONS = 54
SHARED = {"401", "422", "500", "503", "507"}


@pytest.fixture
def document(client):
    r = client.get("/v1/openapi.json")  # no key
    assert r.status_code == 200
    assert r.mimetype == "application/json"
    return json.loads(r.data)


def operations(document):
    return [(path, method, operation) for path, methods in document["paths"].items()
            for method, operation in methods.items()]


def validator(document, schema):
    """A validator of one schema of the document, its $refs resolved within the document."""
    return Draft202012Validator({**schema, "components": document["components"]})


def test_the_document_is_valid_openapi_3_1(document):
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_it_has_every_operation_each_named_once(document):
    found = operations(document)
    assert len(found) == OPERATIONS
    assert len({operation["operationId"] for _, _, operation in found}) == OPERATIONS


def test_every_v1_route_is_in_the_document(app, document):
    documented = {(path, method.upper()) for path, method, _ in operations(document)}
    served = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/v1/") or rule.rule == "/v1/openapi.json":
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        served |= {(path, method) for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert served == documented


def test_the_key_is_a_security_scheme_every_operation_needs(document):
    assert document["components"]["securitySchemes"]["TS-Apikey"] == {
        "type": "apiKey", "in": "header", "name": "TS-Apikey"}
    assert document["security"] == [{"TS-Apikey": []}]


def test_every_operation_lists_the_shared_errors_with_the_error_body(document):
    error_body = {"$ref": "#/components/schemas/ErrorBody"}
    for path, method, operation in operations(document):
        responses = operation["responses"]
        assert SHARED <= set(responses), (path, method)
        for status, response in responses.items():
            if status.startswith(("4", "5")):
                assert response["content"]["application/json"]["schema"] == error_body
        assert "Retry-After" in responses["503"]["headers"]
        if "requestBody" in operation:
            assert {"400", "413"} <= set(responses), (path, method)


@pytest.mark.parametrize("path, method, statuses", [
    ("/v1/products/{product_code}", "get", {"404"}),
    ("/v1/products/", "post", {"403", "409"}),
    ("/v1/products/{product_code}", "post", {"403", "404", "409"}),
    ("/v1/documents/acquire/{document_number}", "get", {"403", "404", "409"}),
    ("/v1/batches/", "post", {"403", "409"}),
    ("/v1/warehouses/", "post", {"403", "409"}),
    ("/v1/warehouses/{id_warehouse}", "post", {"403", "404", "409"}),
    ("/v1/stocktakings/", "delete", {"403", "404", "409"}),
])
def test_operations_list_their_own_errors(document, path, method, statuses):
    assert statuses <= set(document["paths"][path][method]["responses"])


def test_the_error_body_schema_holds_an_error_the_service_gives(client, document):
    r = client.get("/v1/products/")
    assert r.status_code == 401
    validator(document, {"$ref": "#/components/schemas/ErrorBody"}).validate(json.loads(r.data))


def test_every_operation_has_an_example_that_fits_its_own_schemas(document):
    for path, method, operation in operations(document):
        [(status, success)] = [(s, r) for s, r in operation["responses"].items() if s.startswith("2")]
        # An export answers a file (its example is the CSV's text); the rest answer JSON.
        [answer] = [content for content in success["content"].values() if "example" in content]
        validator(document, answer["schema"]).validate(answer["example"])
        if "requestBody" in operation and "application/json" in operation["requestBody"]["content"]:
            body = operation["requestBody"]["content"]["application/json"]
            validator(document, body["schema"]).validate(body["example"])
        for parameter in operation["parameters"]:
            if parameter["in"] == "path":
                validator(document, parameter["schema"]).validate(parameter["example"])


def test_the_batch_item_table_is_the_schemas_fields(document):
    # One source: the fast checks of batch items are built from BatchItemCreateSchema.
    declared = BatchItemCreateSchema._declared_fields
    assert list(BATCH_ITEM_FIELDS) == list(declared)
    assert {name: spec[1] for name, spec in BATCH_ITEM_FIELDS.items()} == \
        {name: field.required for name, field in declared.items()}
    described = document["components"]["schemas"]["BatchItemCreate"]
    assert set(described["properties"]) == set(declared)
    assert set(described["required"]) == {"product_code", "amount", "unit"}
    assert document["components"]["schemas"]["BatchCreate"]["properties"]["batch_items"]["items"] == {
        "$ref": "#/components/schemas/BatchItemCreate"}


def test_the_import_takes_a_multipart_file_and_the_export_answers_files(document):
    upload = document["paths"]["/v1/import/{kind}"]["post"]
    form = upload["requestBody"]["content"]["multipart/form-data"]["schema"]
    described = document["components"]["schemas"][form["$ref"].rsplit("/", 1)[-1]]
    assert described["properties"]["file"]["format"] == "binary" and described["required"] == ["file"]
    [kind] = [p for p in upload["parameters"] if p["name"] == "kind"]
    assert kind["schema"]["enum"] == ["products", "packaging", "customers", "orders", "reorder_levels",
                                      "locations"]
    export = document["paths"]["/v1/export/{kind}"]["get"]["responses"]["200"]["content"]
    assert set(export) == {"text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


def test_the_query_parameters_are_described(document):
    state = document["paths"]["/v1/documents/"]["get"]["parameters"]
    assert state == [{"in": "query", "name": "state", "required": False,
                      "schema": {"type": "string", "enum": ["", "0", "1", "2", "3"]}}]
    delete = {p["name"]: p for p in document["paths"]["/v1/stocktakings/"]["delete"]["parameters"]}
    assert delete["date"]["required"] and delete["id_warehouse"]["required"]


# --- the docs page ----------------------------------------------------------------------------

def test_the_docs_page_is_served_whole_by_the_service(client):
    r = client.get("/docs", follow_redirects=True)
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert assets and all(asset.startswith("/docs/") for asset in assets), assets
    for asset in assets:
        with client.get(asset) as served:
            assert served.status_code == 200, asset
            assert len(served.data) > 100
    # Swagger UI would send the document to its online validator unless told not to.
    config = json.loads(re.search(r"var user_config = (\{.*?\});", page).group(1))
    assert config["validatorUrl"] is None
    assert config["url"] == "/v1/openapi.json"
    assert "http://" not in page and "https://" not in page
