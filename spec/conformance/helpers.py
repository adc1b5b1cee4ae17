"""Assertions shared by the conformance tests."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from decimal import Decimal

import httpx

PROBLEM_TYPE = "application/problem+json"
JSON = {"Content-Type": "application/json"}


def unique(prefix: str) -> str:
    """A code or sku no other test (nor a rerun) uses."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def instant(text: str) -> datetime:
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    assert parsed.tzinfo is not None, f"updatedAt {text!r} has no time zone"
    assert parsed.utcoffset().total_seconds() == 0, f"updatedAt {text!r} is not in UTC"
    return parsed


def number(value) -> Decimal:
    assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{value!r} is not a JSON number"
    return Decimal(str(value))


def assert_problem(response: httpx.Response, status: int, fields: set[str] | None = None) -> dict:
    """A problem+json body with the given status (and, for 422, exactly these invalid fields)."""
    assert response.status_code == status, (
        f"{response.request.method} {response.request.url.raw_path.decode()}: expected {status}, "
        f"got {response.status_code}: {response.text[:300]}")
    content_type = response.headers.get("content-type", "")
    assert content_type.startswith(PROBLEM_TYPE), f"Content-Type is {content_type!r}, not {PROBLEM_TYPE}"
    body = response.json()
    assert body.get("type") == "about:blank", body
    assert body.get("status") == status, body
    assert isinstance(body.get("title"), str) and body["title"], body
    assert isinstance(body.get("detail"), str) and body["detail"], body
    for leak in ("Exception", "Traceback", "SELECT ", "INSERT ", "panic", " at java.", "SQLSTATE"):
        assert leak not in body["detail"], f"detail leaks internals: {body['detail']!r}"
    if status == 422:
        errors = body.get("errors")
        assert isinstance(errors, list) and errors, f"a 422 needs errors[]: {body}"
        for entry in errors:
            assert isinstance(entry.get("field"), str), entry
            assert isinstance(entry.get("message"), str) and entry["message"], entry
        if fields is not None:
            assert {e["field"] for e in errors} == fields, f"invalid fields {errors} != {sorted(fields)}"
    return body


def assert_json(response: httpx.Response, status: int) -> dict | list:
    assert response.status_code == status, (
        f"{response.request.method} {response.request.url.raw_path.decode()}: expected {status}, "
        f"got {response.status_code}: {response.text[:300]}")
    content_type = response.headers.get("content-type", "")
    assert content_type.startswith("application/json"), f"Content-Type is {content_type!r}"
    return response.json()


def assert_seeded_item(actual: dict, expected: dict) -> None:
    assert set(actual) == {"id", "sku", "name", "price", "stock", "description", "categoryId",
                           "category", "updatedAt"}, sorted(actual)
    assert type(actual["id"]) is int and type(actual["stock"]) is int and type(actual["categoryId"]) is int
    assert number(actual["price"]) == expected["price"], (actual["price"], expected["price"])
    assert instant(actual["updatedAt"]) == expected["updatedAt"]
    for key in ("id", "sku", "name", "stock", "description", "categoryId", "category"):
        assert actual[key] == expected[key], f"{key}: {actual[key]!r} != {expected[key]!r}"


def assert_seeded_category(actual: dict, expected: dict) -> None:
    assert set(actual) == {"id", "code", "name", "updatedAt"}, sorted(actual)
    assert instant(actual["updatedAt"]) == expected["updatedAt"]
    for key in ("id", "code", "name"):
        assert actual[key] == expected[key]


def assert_page(body: dict, *, size: int, number: int, total: int) -> list:
    assert set(body) == {"content", "page"}, sorted(body)
    assert body["page"] == {"size": size, "number": number, "totalElements": total,
                            "totalPages": -(-total // size)}, body["page"]
    assert isinstance(body["content"], list)
    return body["content"]


def post(client: httpx.Client, path: str, body) -> httpx.Response:
    return client.post(path, content=json.dumps(body), headers=JSON)


def put(client: httpx.Client, path: str, body) -> httpx.Response:
    return client.put(path, content=json.dumps(body), headers=JSON)


def totals(client: httpx.Client) -> tuple[int, int]:
    """(categories, items) as the API counts them."""
    categories = assert_json(client.get("/categories?size=1"), 200)["page"]["totalElements"]
    items = assert_json(client.get("/items?size=1"), 200)["page"]["totalElements"]
    return categories, items
