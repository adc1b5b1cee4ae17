"""openapi.yaml is a valid OpenAPI 3.1 document, and the stack's answers match it."""

import re

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from helpers import JSON, post, unique

# spec/API.md's dialect only: run when CONFORMANCE_DIALECT=api (the default).
pytestmark = pytest.mark.api

SPEC_URI = "urn:bench:openapi"


def test_openapi_document_is_valid(openapi):
    validate(openapi)


def response_schema(openapi: dict, method: str, template: str, status: int, media: str) -> dict:
    operation = openapi["paths"][template][method.lower()]
    response = operation["responses"][str(status)]
    if "$ref" in response:
        response = openapi["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
    return response["content"][media]["schema"]


def check(openapi: dict, method: str, template: str, response) -> None:
    media = response.headers.get("content-type", "").split(";")[0].strip()
    schema = response_schema(openapi, method, template, response.status_code, media)
    registry = Registry().with_resource(SPEC_URI, Resource.from_contents(openapi, default_specification=DRAFT202012))
    if "$ref" in schema:
        schema = {"$ref": SPEC_URI + schema["$ref"]}
    validator = Draft202012Validator(schema, registry=registry, format_checker=FormatChecker())
    errors = sorted(validator.iter_errors(response.json()), key=lambda e: list(e.path))
    assert not errors, f"{method} {template} {response.status_code}: " + "; ".join(
        f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:5])


@pytest.mark.parametrize("method,template,path", [
    ("GET", "/items", "/items?size=100&page=3"),
    ("GET", "/items", "/items?categoryId=17"),
    ("GET", "/items/{id}", "/items/4242"),
    ("GET", "/categories", "/categories?size=100"),
    ("GET", "/categories/{id}", "/categories/9"),
    ("GET", "/categories/{id}/items", "/categories/9/items?size=50"),
    ("GET", "/items/{id}", "/items/999999999"),
    ("GET", "/items/{id}", "/items/nope"),
    ("GET", "/items", "/items?size=500"),
    ("GET", "/categories/{id}/items", "/categories/4000/items"),
    ("GET", "/health", "/health"),
])
def test_reads_match_the_spec(client, openapi, method, template, path):
    check(openapi, method, template, client.request(method, path))


def test_writes_match_the_spec(client, openapi):
    created = post(client, "/categories", {"code": unique("OA"), "name": "spec"})
    check(openapi, "POST", "/categories", created)
    category_id = created.json()["id"]
    item = post(client, "/items", {"sku": unique("OA"), "name": "spec", "price": 3.3, "stock": 1,
                                   "categoryId": category_id})
    check(openapi, "POST", "/items", item)
    check(openapi, "PUT", "/items/{id}", client.put(f"/items/{item.json()['id']}", content=b'{"sku": 1}', headers=JSON))
    check(openapi, "POST", "/items", client.post("/items", content=b"{}", headers={"Content-Type": "text/plain"}))
    check(openapi, "POST", "/categories", post(client, "/categories", {"code": "CAT-0001", "name": "dup"}))
    check(openapi, "DELETE", "/categories/{id}", client.delete(f"/categories/{category_id}"))
    assert re.search(r"/items/\d+$", item.headers["location"])
