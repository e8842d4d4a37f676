"""The API document (GET /v1/openapi.json) and the page that shows it (GET /docs).

The document is generated, never written: apispec's MarshmallowPlugin turns the
schemas each view declares with `routes.operation` into OpenAPI 3.1, so a
changed schema changes the document. What no schema holds (the error statuses
every operation shares, one example each) is here.
"""
import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.common import resolve_schema_instance
from flask import Blueprint, current_app
from flask_swagger_ui import get_swaggerui_blueprint
from marshmallow import Schema, fields

from page_policy import blueprint_policy
from routes.api_examples import EXAMPLES
from schemas import ErrorBodySchema, Quantity
from version import VERSION

OPENAPI_PATH = "/v1/openapi.json"
DOCS_PATH = "/docs"
KEY_SCHEME = "TS-Apikey"
# The Content-Security-Policy of /docs allows, beside the package's files, the one inline script
# of flask-swagger-ui's page (its configuration, the same at every request) and the one <style>
# Swagger UI puts into its logo, by their hashes. tests/pages/test_page_policy.py opens /docs in
# chromium and fails on any refusal, so an upgrade of the package that changes either shows there.
DOCS_SCRIPT = "'sha256-UWcNyOFAEMXfyDwZDo/rftf3rUmJnqdusSKIJoRSG2E='"
DOCS_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"

bp = Blueprint("api_description", __name__)

ERRORS = {
    400: "The body is not JSON, not an object, or lacks `data` where it is required (`bad_request`).",
    401: "The TS-Apikey header is missing, or the key is unknown or revoked (`unauthorized`).",
    403: "The key's role, or its warehouses, do not allow this (`forbidden`).",
    404: "No such record, or it lies in a warehouse the key may not see (`not_found`).",
    409: "A duplicate, a state that forbids it, or not enough stock (`conflict`).",
    413: "The body is larger than the service takes (`payload_too_large`).",
    422: "A field or query parameter is unknown, missing or invalid, or a rule refuses it "
         "(`validation_error`); `fields` names them.",
    500: "The service failed; the error is logged, nothing changed (`internal_error`).",
    503: "The database does not answer or is busy; nothing changed, try again after "
         "Retry-After seconds (`unavailable`).",
    507: "The database's disk is full; nothing changed (`storage_full`).",
}
# Any operation may meet these; 422 too, since every one checks its query parameters.
SHARED_ERRORS = (401, 422, 500, 503, 507)
BODY_ERRORS = (400, 413)


DOCUMENT = "warehouse_openapi"


@bp.get(OPENAPI_PATH)
def openapi_document():
    """The OpenAPI 3.1 document of every /v1 operation (no key needed)."""
    # Built at the first call (about 50 ms), not with every app; two threads building it at
    # once build the same document.
    document = current_app.extensions.get(DOCUMENT)
    if document is None:
        document = current_app.extensions[DOCUMENT] = build_document(current_app)
    return document


def register(app) -> None:
    app.register_blueprint(bp)
    # Every asset from the installed package; the online validator is off, so the
    # page fetches nothing from the internet wherever it is opened.
    docs = get_swaggerui_blueprint(
        DOCS_PATH, OPENAPI_PATH, config={"app_name": "Warehouse service API", "validatorUrl": None,
                                         "oauth2RedirectUrl": f"{DOCS_PATH}/oauth2-redirect.html"})
    blueprint_policy(docs, {"script-src": f"'self' {DOCS_SCRIPT}", "style-src": f"'self' {DOCS_STYLE}"})
    app.register_blueprint(docs)


def schema_name(schema) -> str:
    """Component names: the class name without "Schema"; a partial (update) schema gets "Update"."""
    instance = resolve_schema_instance(schema)
    name = type(instance).__name__.removesuffix("Schema")
    return name + "Update" if instance.partial else name


def field_json_schema(self, field, ret: dict) -> dict:
    """What a field class of schemas/ says of its JSON form, under what the field's metadata says."""
    described = dict(getattr(field, "json_schema", {}))
    if isinstance(field, Quantity) or described.get("type") == ["number", "string"]:
        # A range of thousandths, already dumped in units by apispec, bounds the JSON number.
        for bound in ("minimum", "maximum"):
            if f"x-{bound}" in ret:
                described[bound] = ret.pop(f"x-{bound}")
        described.setdefault("exclusiveMaximum", 10**12)
        if "minimum" not in described:
            described["exclusiveMinimum"] = -10**12
    described.update({key: value for key, value in field.metadata.items()
                      if key in ("type", "format", "pattern", "description", "example", "properties",
                                 "items", "required", "additionalProperties")})
    return described


def build_document(app) -> dict:
    marshmallow_plugin = MarshmallowPlugin(schema_name_resolver=schema_name)
    spec = APISpec(
        title="Warehouse service", version=VERSION, openapi_version="3.1.0",
        plugins=[marshmallow_plugin],
        info={"description": "Stock, order documents and scanner batches of a depot. Every /v1 "
                             "operation needs the TS-Apikey header; every error has the Error body."},
        security=[{KEY_SCHEME: []}],
    )
    marshmallow_plugin.converter.add_attribute_function(field_json_schema)
    spec.components.security_scheme(KEY_SCHEME, {"type": "apiKey", "in": "header", "name": "TS-Apikey"})
    spec.components.schema("ErrorBody", schema=ErrorBodySchema)
    spec.components.header("Retry-After", {"description": "Seconds to wait before trying again.",
                                           "schema": {"type": "integer"}})

    paths: dict[str, dict] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule):
        declared = getattr(app.view_functions[rule.endpoint], "operation", None)
        if declared is None:
            continue
        path, parameters = openapi_path(rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            name = rule.endpoint.rsplit(".", 1)[-1]
            paths.setdefault(path, {})[method.lower()] = describe(
                name, app.view_functions[rule.endpoint], declared, parameters)
    for path, operations in paths.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()


PLACEHOLDER = re.compile(r"<(?:([^:<>]+):)?([^<>]+)>")
# What each of our path converters (routes/converters.py) lets through; the rest is 404 from routing.
CONVERTED = {"number": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
             "code": {"type": "string", "minLength": 1}}


def openapi_path(rule) -> tuple[str, list[dict]]:
    """The rule's path with {name} placeholders, and its path parameters."""
    parameters = [{"name": name, "in": "path", "required": True,
                   "schema": CONVERTED.get(converter, {"type": "string", "minLength": 1})}
                  for converter, name in PLACEHOLDER.findall(rule.rule)]
    for parameter, (converter, _) in zip(parameters, PLACEHOLDER.findall(rule.rule)):
        if converter.startswith("any("):  # one of a few words: the import's kinds
            parameter["schema"] = {"type": "string",
                                   "enum": [word.strip() for word in converter[4:-1].split(",")]}
    return PLACEHOLDER.sub(r"{\2}", rule.rule), parameters


def describe(name: str, view, declared, path_parameters: list[dict]) -> dict:
    example = EXAMPLES[name]
    summary, _, more = (view.__doc__ or name).partition("\n")
    operation = {
        "operationId": name,
        "summary": summary.strip(),
        "description": f"Needs a key of role `{declared.role}` or above." + (more and "\n" + more),
        "tags": [view.__module__.rsplit(".", 1)[-1]],
        "parameters": [{**parameter, "example": example["path"][parameter["name"]]}
                       for parameter in path_parameters],
        "responses": {},
    }
    if declared.query.fields:
        operation["parameters"].append({"in": "query", "schema": declared.query})
    if declared.body is not None and declared.body_type != "application/json":
        # A file upload: the form's fields themselves, no "data" wrapper.
        operation["requestBody"] = {"required": True, "content": {declared.body_type: {"schema": declared.body}}}
    elif declared.body_type != "application/json":
        # A file as the body itself (a camera frame): described by its media type alone.
        operation["requestBody"] = {"required": True, "content": {
            declared.body_type: {"schema": {"type": "string", "format": "binary"}}}}
    elif declared.body is not None:
        required = any(field.required for field in declared.body.fields.values())
        wrapper = Schema.from_dict({"data": fields.Nested(declared.body, required=required)},
                                   name=name.title().replace("_", "") + "Request")
        operation["requestBody"] = {
            "required": required,
            "content": {"application/json": {"schema": wrapper, "example": {"data": example["body"]}}},
        }
    content = {"application/json": {"schema": declared.answer, "example": example["answer"]}}
    if declared.answer_types != ("application/json",):
        # A file: described by its media types; the example shows the text form.
        content = {media: {"schema": {"type": "string", "format": "binary"}} for media in declared.answer_types}
        content[declared.answer_types[0]]["example"] = example["answer"]
    operation["responses"][str(declared.status)] = {
        "description": "Done." if declared.status != 200 else "The answer.", "content": content}
    statuses = set(SHARED_ERRORS) | set(declared.errors)
    if declared.role != "read":
        statuses.add(403)
    if declared.body is not None:
        statuses.update(BODY_ERRORS)
    for status in sorted(statuses):
        response = {"description": ERRORS[status],
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
        if status == 503:
            response["headers"] = {"Retry-After": {"$ref": "#/components/headers/Retry-After"}}
        operation["responses"][str(status)] = response
    return operation
