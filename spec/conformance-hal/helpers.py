"""Assertions shared by the HAL profile (spec/hal.md): HAL documents, Spring Data REST's error
bodies, and the seed compared field by field through the HAL envelope."""

from __future__ import annotations

import importlib.util
import json
import uuid
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit

import httpx

# The fuzzer-only senders and their rule are the API suite's, loaded from its file (both suites
# have a module named helpers, so it cannot be imported by name).
_API_HELPERS = Path(__file__).resolve().parent.parent / "conformance" / "helpers.py"
_spec = importlib.util.spec_from_file_location("conformance_helpers", _API_HELPERS)
assert _spec is not None and _spec.loader is not None, _API_HELPERS
_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_api)

FUZZER_ONLY_TIMEOUT_S: float = _api.FUZZER_ONLY_TIMEOUT_S
assert_never_5xx = _api.assert_never_5xx
fuzzer_only = _api.fuzzer_only
raw_request = _api.raw_request
padded_target = _api.padded_target
raw_get = _api.raw_get

JSON = {"Content-Type": "application/json"}
URI_LIST = {"Content-Type": "text/uri-list"}
# spec/hal.md, "Representations": the HAL types a success may have (the first when the request
# accepts anything).
HAL_TYPES = ("application/vnd.hal+json", "application/hal+json", "application/json")
PROBLEM_TYPE = "application/problem+json"
# spec/API.md, "Inputs only a fuzzer sends": how long such a request may go unanswered.
INLINE = "projection=inlineCategory"


def unique(prefix: str) -> str:
    """A code or sku no other test (nor a rerun) uses."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def instant(text: str) -> datetime:
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    assert parsed.tzinfo is not None, f"updatedAt {text!r} has no time zone"
    assert parsed.utcoffset().total_seconds() == 0, f"updatedAt {text!r} is not in UTC"
    return parsed


def number(value) -> Decimal:
    assert isinstance(value, (int, float, Decimal)) and not isinstance(value, bool), f"{value!r} is not a JSON number"
    return Decimal(str(value))


def _where(response: httpx.Response) -> str:
    return f"{response.request.method} {response.request.url.raw_path.decode()}"


def assert_status(response: httpx.Response, status: int) -> None:
    assert response.status_code == status, (
        f"{_where(response)}: expected {status}, got {response.status_code}: {response.text[:300]}")


def assert_hal(response: httpx.Response, status: int = 200) -> dict:
    """A HAL document with the given status."""
    assert_status(response, status)
    content_type = response.headers.get("content-type", "")
    assert content_type.startswith(HAL_TYPES), f"{_where(response)}: Content-Type is {content_type!r}"
    body = json.loads(response.text, parse_float=Decimal)
    assert isinstance(body, dict) and isinstance(body.get("_links"), dict), body
    return body


def self_href(document: dict) -> str:
    return document["_links"]["self"]["href"]


def path_of(href: str) -> str:
    """The path of a link, without its URI template ({?page,size,sort*})."""
    return urlsplit(href.split("{", 1)[0]).path


def assert_message(response: httpx.Response, status: int) -> dict:
    """Spring Data REST's error body, {"message": …}, with the given status."""
    assert_status(response, status)
    assert response.headers.get("content-type", "").startswith("application/json"), response.headers
    body = response.json()
    assert isinstance(body.get("message"), str) and body["message"], body
    return body


def assert_violations(response: httpx.Response, properties: set[str] | None = None) -> list[dict]:
    """Spring Data REST's 400 for broken field rules: one entry per broken rule, and (when given)
    exactly these properties among them."""
    assert_status(response, 400)
    errors = response.json().get("errors")
    assert isinstance(errors, list) and errors, response.text[:300]
    for entry in errors:
        assert isinstance(entry.get("property"), str) and entry["property"], entry
        assert isinstance(entry.get("message"), str) and entry["message"], entry
        assert "entity" in entry and "invalidValue" in entry, entry
    if properties is not None:
        assert {e["property"] for e in errors} == properties, f"broken rules {errors} != {sorted(properties)}"
    return errors


def assert_empty(response: httpx.Response, status: int) -> None:
    """Spring Data REST's 404 and 405: a status and no body."""
    assert_status(response, status)
    assert response.content == b"", response.text[:300]


def assert_problem_503(response: httpx.Response) -> None:
    """The 503 of an outage: API.md's problem JSON (the process contract)."""
    assert_status(response, 503)
    assert response.headers.get("content-type", "").startswith(PROBLEM_TYPE), response.headers
    body = response.json()
    assert body.get("type") == "about:blank" and body.get("status") == 503, body
    assert body.get("title") == "Service Unavailable" and isinstance(body.get("detail"), str), body


def embedded(page: dict, relation: str) -> list[dict]:
    """The array of a collection or search page (present even when empty)."""
    assert set(page) >= {"_embedded", "_links", "page"}, sorted(page)
    content = page["_embedded"].get(relation)
    assert isinstance(content, list), page["_embedded"]
    return content


def assert_page(page: dict, relation: str, *, size: int, number: int, total: int) -> list[dict]:
    content = embedded(page, relation)
    assert page["page"] == {"size": size, "number": number, "totalElements": total,
                            "totalPages": -(-total // size)}, page["page"]
    return content


def as_api_item(document: dict) -> dict:
    """An item with its category inlined, as API.md's item: the same properties and values,
    `categoryId` read from the inlined category."""
    category = document["category"]
    assert set(category) == {"_links", "id", "code", "name"}, sorted(category)
    assert path_of(self_href(category)) == f"/categories/{category['id']}", category
    assert path_of(self_href(document)) == f"/items/{document['id']}", document["_links"]
    assert path_of(document["_links"]["category"]["href"]) == f"/items/{document['id']}/category"
    return {**{k: v for k, v in document.items() if k != "_links"},
            "categoryId": category["id"],
            "category": {k: category[k] for k in ("id", "code", "name")}}


def assert_seeded_item(document: dict, expected: dict) -> None:
    """An item with its category inlined (a collection's excerpt, or ?projection=inlineCategory)
    holds exactly the seed's values."""
    assert set(document) == {"_links", "id", "sku", "name", "price", "stock", "description", "category",
                             "updatedAt"}, sorted(document)
    actual = as_api_item(document)
    assert type(actual["id"]) is int and type(actual["stock"]) is int and type(actual["categoryId"]) is int
    assert number(actual["price"]) == expected["price"], (actual["price"], expected["price"])
    assert instant(actual["updatedAt"]) == expected["updatedAt"]
    for key in ("id", "sku", "name", "stock", "description", "categoryId", "category"):
        assert actual[key] == expected[key], f"{key}: {actual[key]!r} != {expected[key]!r}"


def assert_seeded_plain_item(document: dict, expected: dict) -> None:
    """An item as a single resource without a projection: every property but the category, which
    is its link."""
    assert set(document) == {"_links", "id", "sku", "name", "price", "stock", "description", "updatedAt"}, \
        sorted(document)
    assert number(document["price"]) == expected["price"]
    assert instant(document["updatedAt"]) == expected["updatedAt"]
    for key in ("id", "sku", "name", "stock", "description"):
        assert document[key] == expected[key], f"{key}: {document[key]!r} != {expected[key]!r}"
    assert path_of(document["_links"]["category"]["href"]) == f"/items/{expected['id']}/category"


def assert_seeded_category(document: dict, expected: dict) -> None:
    assert set(document) == {"_links", "id", "code", "name", "updatedAt"}, sorted(document)
    assert path_of(self_href(document)) == f"/categories/{expected['id']}"
    assert instant(document["updatedAt"]) == expected["updatedAt"]
    for key in ("id", "code", "name"):
        assert document[key] == expected[key]


def category_uri(cid: int) -> str:
    return f"/categories/{cid}"


def post(client: httpx.Client, path: str, body, headers: dict | None = None) -> httpx.Response:
    return client.post(path, content=json.dumps(body), headers=headers or JSON)


def put(client: httpx.Client, path: str, body, headers: dict | None = None) -> httpx.Response:
    return client.put(path, content=json.dumps(body), headers=headers or JSON)


def get_item(client: httpx.Client, iid: int) -> dict:
    """An item with its category inlined."""
    return assert_hal(client.get(f"/items/{iid}?{INLINE}"))


def totals(client: httpx.Client) -> tuple[int, int]:
    """(categories, items) as the collections count them."""
    categories = assert_hal(client.get("/categories?size=1"))["page"]["totalElements"]
    items = assert_hal(client.get("/items?size=1"))["page"]["totalElements"]
    return categories, items


def assert_still_serving(client: httpx.Client) -> None:
    assert client.get("/health").status_code == 200, "the stack no longer answers /health"
