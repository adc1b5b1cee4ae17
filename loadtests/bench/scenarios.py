"""The scenarios of the method (docs/method.md): which load tool runs each, its stages, and its endpoints.

The request mixes themselves live in loadtests/k6/*.js and loadtests/oha/*.sh (usable by hand);
the probes here send a few requests of each endpoint one at a time, to count the SQL statements
that one request of that endpoint costs.
"""

from __future__ import annotations

import itertools
import json
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import httpx

PROFILES = ("smoke", "quick", "full", "soak")

# Seconds; mirrors PROFILES in loadtests/k6/lib/common.js (the scripts are the source of truth
# for k6; these are for the time estimate and the oha runs).
TIMING = {
    "smoke": {"warmup": 3, "ramp": 1, "stage": 4},
    "quick": {"warmup": 10, "ramp": 2, "stage": 12},
    "full": {"warmup": 60, "ramp": 60, "stage": 600},
    "soak": {"warmup": 30, "ramp": 1, "stage": 600},
}
# The soak profile: the mixed scenario at its first stage's concurrency, one long stage.
SOAK_SCENARIO = "mixed"

# oha: requests per run, as in the original article (100,000 at 10 connections), and the
# warm-up runs before it (a JIT needs two or three such runs to settle).
OHA_REQUESTS = {"smoke": 2_000, "quick": 100_000, "full": 100_000, "soak": 100_000}
OHA_WARMUPS = {"smoke": (500,), "quick": (30_000,), "full": (100_000, 100_000, 100_000), "soak": (30_000,)}

Probe = Callable[[httpx.Client], httpx.Response]


def _item_body(sku: str) -> str:
    return json.dumps(
        {
            "sku": sku,
            "name": "probe",
            "price": 12.34,
            "stock": 1,
            "description": "x" * 1024,
            "categoryId": random.randint(1, 2000),
        }
    )


def _create_then(client: httpx.Client) -> int:
    response = client.post(
        "/items", content=_item_body(f"PROBE-{uuid.uuid4().hex[:16]}"), headers={"Content-Type": "application/json"}
    )
    return int(response.json()["id"])


PROBES: dict[str, Probe] = {
    "items_page": lambda c: c.get(f"/items?page={random.randint(0, 49)}"),
    "items_by_category": lambda c: c.get(f"/items?categoryId={random.randint(1, 2000)}"),
    "category_items": lambda c: c.get(f"/categories/{random.randint(1, 2000)}/items"),
    "categories_page": lambda c: c.get(f"/categories?page={random.randint(0, 99)}"),
    "item_by_id": lambda c: c.get(f"/items/{random.randint(1, 100_000)}"),
    "category_by_id": lambda c: c.get(f"/categories/{random.randint(1, 2000)}"),
    "item_create": lambda c: c.post(
        "/items", content=_item_body(f"PROBE-{uuid.uuid4().hex[:16]}"), headers={"Content-Type": "application/json"}
    ),
    "item_replace": lambda c: (
        lambda i: c.put(f"/items/{i}", content=_item_body(f"SKU-{i:06d}"), headers={"Content-Type": "application/json"})
    )(random.randint(1, 100_000)),
    "category_create": lambda c: c.post(
        "/categories",
        content=json.dumps({"code": f"P-{uuid.uuid4().hex[:20]}", "name": "probe"}),
        headers={"Content-Type": "application/json"},
    ),
    "avatar": lambda c: c.get("/avatar"),
}


@dataclass(frozen=True)
class Scenario:
    name: str
    tool: str  # "k6" or "oha"
    stages: tuple[int, ...]
    endpoints: tuple[str, ...]
    writes: bool = False


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario(
            "read-heavy", "k6", (50, 100, 200), ("items_page", "items_by_category", "category_items", "categories_page")
        ),
        Scenario("join-filter", "k6", (60, 120), ("items_by_category", "item_by_id")),
        Scenario(
            "mixed",
            "k6",
            (50, 100),
            (
                "item_by_id",
                "items_page",
                "item_create",
                "item_replace",
                "item_delete",
                "category_by_id",
                "category_create",
            ),
            writes=True,
        ),
        Scenario("heavy-body", "k6", (30, 60), ("item_create", "item_replace"), writes=True),
        Scenario("avatar", "oha", (10,), ("avatar",)),
    )
}


def prepare_probe(endpoint: str, client: httpx.Client) -> Callable[[], httpx.Response]:
    """One request of `endpoint`, ready to send: what it needs (a row to delete) is made now,
    outside the window in which its SQL statements are counted."""
    if endpoint == "item_delete":
        item_id = _create_then(client)
        return lambda: client.delete(f"/items/{item_id}")
    return lambda: PROBES[endpoint](client)


def estimate_seconds(scenario: Scenario, profile: str) -> float:
    """A rough duration of one stack × scenario, start-up and probes included."""
    timing = TIMING[profile]
    overhead = 15.0
    if scenario.tool == "oha":
        # ~10k requests/s is a pessimistic rate for a stack on one core.
        return overhead + (OHA_REQUESTS[profile] + sum(OHA_WARMUPS[profile])) / 10_000
    # The soak runs the first stage only (bench.measure.stack_run).
    stages = scenario.stages[:1] if profile == "soak" else scenario.stages
    ramps = sum(1 for a, b in itertools.pairwise(stages) if a != b) + 1
    return overhead + timing["warmup"] + ramps * timing["ramp"] + len(stages) * (timing["stage"] + 5)
