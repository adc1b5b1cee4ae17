"""The HAL dialect (spec/hal.md): HAL documents, Spring Data REST's error bodies, and the seed
compared field by field through the HAL envelope. The cases of this dialect alone (test_hal_*.py)
use these beside the dialect-neutral helpers."""

from __future__ import annotations

import json
from decimal import Decimal
from urllib.parse import urlsplit

import httpx

from helpers import instant, number

URI_LIST = {"Content-Type": "text/uri-list"}
# spec/hal.md, "Representations": the HAL types a success may have (the first when the request
# accepts anything).
HAL_TYPES = ("application/vnd.hal+json", "application/hal+json", "application/json")
INLINE = "projection=inlineCategory"


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


def get_item(client: httpx.Client, iid: int) -> dict:
    """An item with its category inlined."""
    return assert_hal(client.get(f"/items/{iid}?{INLINE}"))


def totals(client: httpx.Client) -> tuple[int, int]:
    """(categories, items) as the collections count them."""
    categories = assert_hal(client.get("/categories?size=1"))["page"]["totalElements"]
    items = assert_hal(client.get("/items?size=1"))["page"]["totalElements"]
    return categories, items
