"""The two representations a stack may serve: spec/API.md's ("api") and Spring Data REST's HAL
(spec/hal.md, "hal"). The cases both must pass read what differs between them from here: how an
item names its category, how an error is answered, how the totals are counted. A stack's
manifest says which it serves; the runner passes it as CONFORMANCE_DIALECT."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

import httpx

import hal
from helpers import assert_json, assert_problem, post, unique

NAMES = ("api", "hal")


@dataclass(frozen=True)
class Dialect:
    name: str
    # A path below an item or a category that exists in this dialect (for requests only a
    # fuzzer sends, which must never be a 5xx whatever path they reach).
    nested_path: str
    # The field of an item's body that names its category, and how it names it.
    category_field: str
    category_value: Callable[[int], object]
    # The error answer of the dialect for a status: problem JSON, or Spring Data REST's message.
    assert_error: Callable[[httpx.Response, int], None]
    # A created document with its status.
    assert_document: Callable[[httpx.Response, int], dict]
    totals: Callable[[httpx.Client], tuple[int, int]]
    # A read of one item with its category inlined.
    item_path: Callable[[int], str]

    def item_body(self, category_id: int, **fields: object) -> dict:
        body: dict = {"sku": unique("S"), "name": "Test item", "price": 12.5, "stock": 3,
                      "description": "made by the conformance suite"}
        body[self.category_field] = self.category_value(category_id)
        return {**body, **fields}

    def create_category(self, client: httpx.Client) -> dict:
        return self.assert_document(post(client, "/categories", {"code": unique("C"), "name": "Test category"}), 201)

    def create_item(self, client: httpx.Client, category: dict) -> dict:
        created = self.assert_document(post(client, "/items", self.item_body(category["id"])), 201)
        return self.assert_document(client.get(self.item_path(created["id"])), 200)


def _api_document(response: httpx.Response, status: int) -> dict:
    body = assert_json(response, status)
    assert isinstance(body, dict), body
    return body


def _api_totals(client: httpx.Client) -> tuple[int, int]:
    categories = assert_json(client.get("/categories?size=1"), 200)["page"]["totalElements"]
    items = assert_json(client.get("/items?size=1"), 200)["page"]["totalElements"]
    return categories, items


def _api_error(response: httpx.Response, status: int) -> None:
    assert_problem(response, status)


def _hal_error(response: httpx.Response, status: int) -> None:
    # Spring Data REST answers a 404 or 405 with no body, the others with {"message": …}.
    if status in (404, 405):
        hal.assert_empty(response, status)
    else:
        hal.assert_message(response, status)


DIALECTS = {
    "api": Dialect(
        name="api",
        nested_path="/categories/1/items",
        category_field="categoryId",
        category_value=lambda cid: cid,
        assert_error=_api_error,
        assert_document=_api_document,
        totals=_api_totals,
        item_path=lambda iid: f"/items/{iid}",
    ),
    "hal": Dialect(
        name="hal",
        nested_path="/items/1/category",
        category_field="category",
        category_value=hal.category_uri,
        assert_error=_hal_error,
        assert_document=hal.assert_hal,
        totals=hal.totals,
        item_path=lambda iid: f"/items/{iid}?{hal.INLINE}",
    ),
}


def current() -> Dialect:
    """The dialect under test: CONFORMANCE_DIALECT, spec/API.md's when unset."""
    name = os.environ.get("CONFORMANCE_DIALECT", "api")
    if name not in DIALECTS:
        raise SystemExit(f"CONFORMANCE_DIALECT={name!r}: choose one of {', '.join(NAMES)}")
    return DIALECTS[name]
