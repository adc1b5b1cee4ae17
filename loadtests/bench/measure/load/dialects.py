"""The paths and bodies of each dialect as the runner sends them (spec/hal.md): the URLs of oha's
URL lists (bench.measure.load.urls), and the probes that send a few requests of each endpoint one
at a time, to count the SQL statements that one request of that endpoint costs
(bench.measure.phases.probes). The load's own table is loadtests/k6/lib/dialects.js; this one
mirrors it."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from bench.records import Dialect

Probe = Callable[[httpx.Client], httpx.Response]
JSON = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class DialectPaths:
    """The paths and bodies of one dialect for the probes; mirrors loadtests/k6/lib/dialects.js
    (the scripts' table, the source of truth for the load)."""

    item_by_id: str
    """With {id}."""
    items_by_category: str
    """With {category}."""
    category_items: str
    """With {category}."""
    category_is_link: bool
    """The item's category is the URI /categories/{id} (HAL), not the id in categoryId; a PUT
    then ignores it, and a replace moves the item with a second request (spec/hal.md, Writing)."""


DIALECT_PATHS = {
    "api": DialectPaths(
        item_by_id="/items/{id}",
        items_by_category="/items?categoryId={category}",
        category_items="/categories/{category}/items",
        category_is_link=False,
    ),
    "hal": DialectPaths(
        item_by_id="/items/{id}?projection=inlineCategory",
        items_by_category="/items/search/byCategory?categoryId={category}",
        category_items="/items/search/byCategory?categoryId={category}",
        category_is_link=True,
    ),
}


def _item_body(sku: str, category: int, dialect: DialectPaths) -> str:
    named = {"category": f"/categories/{category}"} if dialect.category_is_link else {"categoryId": category}
    return json.dumps({"sku": sku, "name": "probe", "price": 12.34, "stock": 1, "description": "x" * 1024, **named})


def _create_item(client: httpx.Client, dialect: DialectPaths) -> httpx.Response:
    body = _item_body(f"PROBE-{uuid.uuid4().hex[:16]}", random.randint(1, 2000), dialect)
    return client.post("/items", content=body, headers=JSON)


def created_id(response: httpx.Response, dialect: Dialect) -> int:
    """The id of the row a create (answered 201) made, in `dialect`."""
    return _created_id(response, DIALECT_PATHS[dialect])


def _created_id(response: httpx.Response, dialect: DialectPaths) -> int:
    """Spring Data REST names the new row in Location; the API's create answers it."""
    if dialect.category_is_link:
        return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[-1])
    return int(response.json()["id"])


def _replace_item(client: httpx.Client, dialect: DialectPaths) -> httpx.Response:
    """One replace operation: in HAL the PUT, then the move to the body's category."""
    item_id, category = random.randint(1, 100_000), random.randint(1, 2000)
    response = client.put(
        f"/items/{item_id}", content=_item_body(f"SKU-{item_id:06d}", category, dialect), headers=JSON
    )
    if not dialect.category_is_link:
        return response
    return client.put(
        f"/items/{item_id}/category", content=f"/categories/{category}", headers={"Content-Type": "text/uri-list"}
    )


def _probes(dialect: DialectPaths) -> dict[str, Probe]:
    return {
        "items_page": lambda c: c.get(f"/items?page={random.randint(0, 49)}"),
        "items_by_category": lambda c: c.get(dialect.items_by_category.format(category=random.randint(1, 2000))),
        "category_items": lambda c: c.get(dialect.category_items.format(category=random.randint(1, 2000))),
        "categories_page": lambda c: c.get(f"/categories?page={random.randint(0, 99)}"),
        "item_by_id": lambda c: c.get(dialect.item_by_id.format(id=random.randint(1, 100_000))),
        "category_by_id": lambda c: c.get(f"/categories/{random.randint(1, 2000)}"),
        "item_create": lambda c: _create_item(c, dialect),
        "item_replace": lambda c: _replace_item(c, dialect),
        "category_create": lambda c: c.post(
            "/categories", content=json.dumps({"code": f"P-{uuid.uuid4().hex[:20]}", "name": "probe"}), headers=JSON
        ),
        "avatar": lambda c: c.get("/avatar"),
        "item_stock": lambda c: c.get(f"/items/{random.randint(1, 100_000)}/stock"),
    }


PROBES = {name: _probes(paths) for name, paths in DIALECT_PATHS.items()}


def prepare_probe(endpoint: str, client: httpx.Client, dialect: Dialect = "api") -> Callable[[], httpx.Response]:
    """One operation of `endpoint` in `dialect`, ready to send: what it needs (a row to delete) is
    made now, outside the window in which its SQL statements are counted."""
    if endpoint == "item_delete":
        item_id = _created_id(_create_item(client, DIALECT_PATHS[dialect]), DIALECT_PATHS[dialect])
        return lambda: client.delete(f"/items/{item_id}")
    return lambda: PROBES[dialect][endpoint](client)
