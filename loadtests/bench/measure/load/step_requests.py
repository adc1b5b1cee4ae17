"""A fixed-rate step's requests, drawn before the step (`RequestMix.requests`), bodies and all, so
that the load generator only sends them (vegeta: bench.measure.load.vegeta): k6 built each
request in JavaScript as it went, which cost 1.2-1.4 ms of CPU per request on the core
PostgreSQL needs (docs/method.md, The load generators). The mix is the scenario's
(`Scenario.mix`, each endpoint's share its weight exactly, shuffled), the parameters those of the
k6 scripts (loadtests/k6/mixed.js, heavy-body.js; tests/test_vegeta.py keeps the two equal):
reads of seeded rows, creates with keys no row has yet, replaces of seeded items (each keeps its
own sku), deletes of rows made for them before the step, category creates. Pure, for the tests.

Each request's URL carries its index in the step's list as a fragment (`#12`), which an HTTP
client never sends but vegeta reports with the result: a result is thereby its request, and an
acknowledged create is known by the key it wrote (bench.measure.phases.writes).
"""

from __future__ import annotations

import base64
import functools
import json
import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.measure.load.urls import SEEDED_CATEGORIES, SEEDED_ITEMS, read_paths, shares
from bench.records import Dialect
from bench.scenarios import Scenario

SEED = 53
JSON_TYPE = "application/json"
URI_LIST_TYPE = "text/uri-list"
# What each endpoint's answer must be, in the order figures list them (the scripts'); anything
# else is counted under its status (0: no answer).
EXPECTED_STATUS = {
    "item_by_id": 200,
    "items_page": 200,
    "items_by_category": 200,
    "category_items": 200,
    "categories_page": 200,
    "item_stock": 200,
    "item_create": 201,
    "item_replace": 200,
    "item_replace_category": 204,
    "item_delete": 204,
    "category_by_id": 200,
    "category_create": 201,
}
# The request of an operation beyond its first (HAL's move of a replaced item to its category,
# spec/hal.md): sent right after it, shown as an endpoint of its own, counted with it as one
# operation, as loadtests/k6/lib/common.js's replaceItem does.
EXTRA_ENDPOINTS = {"item_replace": "item_replace_category"}
WRITES = ("item_create", "item_replace", "item_delete", "category_create")
# A step's list holds this many more requests than rate × seconds, so that vegeta, which sends
# one or two past its duration, never starts the list again (a create sent twice is a 409).
SPARE_SHARE = 0.01
SPARE_REQUESTS = 10


@dataclass(frozen=True)
class Body:
    """What an item's body is made of, per scenario, as its k6 script builds it."""

    name: str
    description_bytes: int
    key_prefix: str


BODIES = {
    "mixed": Body("Load test item", 1024, "VM-"),
    "heavy-body": Body("Heavy item", 5 * 1024, "VH-"),
}
CATEGORY_PREFIX = "VC-"
CATEGORY_NAME = "Load test category"


def text(size: int) -> str:
    """A description of exactly `size` ASCII characters (loadtests/k6/lib/common.js's text)."""
    unit = "The quick brown fox jumps over the lazy dog. "
    return (unit * math.ceil(size / len(unit)))[:size]


@dataclass(frozen=True)
class Request:
    """One request of a step, ready to send."""

    endpoint: str
    method: str
    path: str
    body: bytes = b""
    content_type: str = ""
    key: str | None = None
    """The sku or code a create writes."""
    item_id: int | None = None
    """The row a delete removes."""

    def target(self, base_url: str, index: int) -> str:
        """vegeta's JSON target, its index as the URL's fragment."""
        target: dict[str, object] = {"method": self.method, "url": f"{base_url}{self.path}#{index}"}
        if self.body:
            target["body"] = base64.b64encode(self.body).decode()
            target["header"] = {"Content-Type": [self.content_type]}
        return json.dumps(target, separators=(",", ":"))


def item_body(
    dialect: Dialect, *, sku: str, name: str, price: float, stock: int, description: str, category: int
) -> bytes:
    """An item's write body in `dialect` (loadtests/k6/lib/dialects.js's itemBody): the category
    is `categoryId` in the API, the category's URI in HAL. The description, the same in every body
    of a scenario and most of its bytes, is JSON-encoded once."""
    named = f'"category":"/categories/{category}"' if dialect == "hal" else f'"categoryId":{category}'
    return (
        f'{{"sku":{json.dumps(sku)},"name":{json.dumps(name)},"price":{json.dumps(price)},"stock":{stock},'
        f'"description":{_json_string(description)},{named}}}'
    ).encode()


@functools.lru_cache(maxsize=4)
def _json_string(text: str) -> str:
    return json.dumps(text)


class RequestMix:
    """The requests of one stack × scenario run's steps, from one seeded random source: every
    stack gets the same parameters in the same order. Keys are unique across the run's steps (a
    counter) and across runs against one database (`stamp`, the run's start, as the k6 scripts'
    keys carry theirs)."""

    def __init__(self, scenario: Scenario, dialect: Dialect, *, seed: int = SEED, stamp: str | None = None) -> None:
        self.scenario, self.dialect = scenario, dialect
        self.reads = read_paths(dialect)
        unknown = [e for e in scenario.endpoints if e not in self.reads and e not in WRITES]
        if unknown:
            raise ValueError(
                f"{scenario.name}: no request of {', '.join(unknown)} is known to bench.measure.load.step_requests"
            )
        writes_items = any(e in ("item_create", "item_replace", "item_delete") for e in scenario.endpoints)
        if writes_items and scenario.name not in BODIES:
            raise ValueError(f"{scenario.name} writes items: give its body in bench.measure.load.step_requests.BODIES")
        # A mix of reads and category creates writes no item: it has no body.
        self.body = BODIES.get(scenario.name, Body("", 0, ""))
        self.description = text(self.body.description_bytes)
        self.rng = random.Random(seed)
        self.stamp = stamp if stamp is not None else _base36(int(time.time() * 1000))
        self.keys = 0

    def request_count(self, rate: float, seconds: float) -> int:
        """Operations a step of `rate` for `seconds` needs, with the spare (SPARE_SHARE)."""
        return math.ceil(rate * seconds * (1 + SPARE_SHARE)) + SPARE_REQUESTS

    def deletes(self, count: int) -> int:
        """How many rows a step of `count` operations deletes: made before it (`item_to_delete`)."""
        return shares(self.scenario.mix, count).get("item_delete", 0)

    def item_to_delete(self) -> Request:
        """A create of a row a step will delete, sent before the step."""
        return self._create_item()

    def requests(self, count: int, deletable: Sequence[int]) -> list[Request]:
        """`count` operations in the mix's weights, shuffled; a delete takes each of `deletable`
        (rows that exist) once. An operation of two requests (`EXTRA_ENDPOINTS`) is both, in order."""
        per_endpoint = shares(self.scenario.mix, count)
        if per_endpoint.get("item_delete", 0) > len(deletable):
            raise ValueError(f"{per_endpoint['item_delete']} deletes need as many rows, not {len(deletable)}")
        endpoints = [endpoint for endpoint, n in per_endpoint.items() for _ in range(n)]
        self.rng.shuffle(endpoints)
        rows = iter(deletable)
        return [request for endpoint in endpoints for request in self._operation(endpoint, rows)]

    def _operation(self, endpoint: str, rows: Iterator[int]) -> list[Request]:
        if endpoint in self.reads:
            return [Request(endpoint, "GET", self.reads[endpoint](self.rng))]
        if endpoint == "item_create":
            return [self._create_item()]
        if endpoint == "item_delete":
            item_id = next(rows)
            return [Request(endpoint, "DELETE", f"/items/{item_id}", item_id=item_id)]
        if endpoint == "category_create":
            code = self._key(CATEGORY_PREFIX)
            body = json.dumps({"code": code, "name": CATEGORY_NAME}, separators=(",", ":")).encode()
            return [Request(endpoint, "POST", "/categories", body, JSON_TYPE, key=code)]
        if endpoint == "item_replace":
            return self._replace()
        raise ValueError(f"no request of {endpoint} is known to bench.measure.load.step_requests")

    def _item(self, sku: str) -> tuple[bytes, int]:
        """An item's body and the category it names."""
        r = self.rng
        price, stock, category = r.randint(0, 9_999_999) / 100, r.randint(0, 500), r.randint(1, SEEDED_CATEGORIES)
        body = item_body(
            self.dialect,
            sku=sku,
            name=self.body.name,
            price=price,
            stock=stock,
            description=self.description,
            category=category,
        )
        return body, category

    def _create_item(self) -> Request:
        sku = self._key(self.body.key_prefix)
        body, _ = self._item(sku)
        return Request("item_create", "POST", "/items", body, JSON_TYPE, key=sku)

    def _replace(self) -> list[Request]:
        # A seeded item keeps its own sku, so the replacement never collides with another row.
        item_id = self.rng.randint(1, SEEDED_ITEMS)
        body, category = self._item(f"SKU-{item_id:06d}")
        replace = Request("item_replace", "PUT", f"/items/{item_id}", body, JSON_TYPE)
        if self.dialect != "hal":
            return [replace]
        # HAL's PUT ignores the category link: the move to the body's category is a request of its own.
        uri = f"/categories/{category}".encode()
        move = Request("item_replace_category", "PUT", f"/items/{item_id}/category", uri, URI_LIST_TYPE)
        return [replace, move]

    def _key(self, prefix: str) -> str:
        self.keys += 1
        return f"{prefix}{self.stamp}-{self.keys}"


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


def write_targets(path: Path, requests: Sequence[Request], base_url: str) -> Path:
    """The step's requests as vegeta's JSON targets, one a line, in order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as out:
        for index, request in enumerate(requests):
            out.write(request.target(base_url, index) + "\n")
    return path


def request_rate(rate: float, requests: Sequence[Request]) -> float:
    """vegeta's rate for `rate` operations/s: HAL's replace is two requests."""
    extra = sum(1 for r in requests if r.endpoint in EXTRA_ENDPOINTS.values())
    return rate * len(requests) / (len(requests) - extra)
