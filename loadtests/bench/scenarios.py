"""The scenarios of the method (docs/method.md): which load tool runs each, its stages, and its endpoints.

The request mixes themselves live in loadtests/k6/*.js and loadtests/oha/*.sh (usable by hand);
a read scenario's `read_mix` repeats its k6 script's weights for oha's URL list (a test keeps the
two equal). The probes here send a few requests of each endpoint one at a time, to count the SQL
statements that one request of that endpoint costs.
"""

from __future__ import annotations

import json
import math
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from bench.records import Dialect

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


@dataclass(frozen=True)
class OpenTiming:
    """The open model's seconds: each full-length ladder step's least seconds and least requests
    (a step lasts until both are reached, `step_seconds`), a probe step's seconds, the
    steady-state warm-up's windows and cap, and the closed-model stages run after the ladder (the
    replication, without ramps: the stack is warm, and the ladder already measured what matters,
    so they are short outside the full profile)."""

    step_s: int
    step_requests: int
    probe_s: int
    window_s: int
    cap_s: int
    replication_stage_s: int


# A p99 from 2,000 requests is their 20th slowest: the published quick run's 5 s steps of 600 to
# 1,250 requests put it on the 6th to 13th, and three runs of a stack spanned one or two steps
# (issue 31). Only full-length steps decide a capacity; the probes that find where to put them are
# short, as a probe's error costs one more full-length step, not a wrong capacity (the quick
# profile's 3 s probes cut its ladders from about 11 full steps a scenario to about 8 probes and 2
# full steps). Smoke only checks that the runner works.
OPEN_TIMING = {
    "smoke": OpenTiming(step_s=3, step_requests=0, probe_s=2, window_s=1, cap_s=20, replication_stage_s=3),
    "quick": OpenTiming(step_s=10, step_requests=2_000, probe_s=3, window_s=3, cap_s=60, replication_stage_s=3),
    "full": OpenTiming(step_s=60, step_requests=2_000, probe_s=10, window_s=5, cap_s=600, replication_stage_s=600),
}
# The bisection after the ladder's first step not held ends once the highest rate held and the
# lowest not held are at most this ratio apart: capacity to within 10%, where the ladder's ×1.5
# to ×2.5 steps left it 50-150% low.
BISECT_RATIO = 1.10


def step_seconds(timing: OpenTiming, rate: float) -> int:
    """A ladder step at `rate`: its least seconds, longer if it needs them for its least requests."""
    return max(timing.step_s, math.ceil(timing.step_requests / rate))


def bisect_rate(held: float, failed: float) -> float | None:
    """The next rate between the last held and the lowest not held: their geometric mean, to a
    whole request per second; None once they are at most BISECT_RATIO apart."""
    if failed <= held * BISECT_RATIO:
        return None
    rate = float(round(math.sqrt(held * failed)))
    return rate if held < rate < failed else None


def bisection_rates(held: float, failed: float) -> list[float]:
    """The rates a bisection from `held` and `failed` runs if each is held; as many as any other
    outcome gives (each step halves the ratio's logarithm), for the time estimate."""
    rates: list[float] = []
    while (rate := bisect_rate(held, failed)) is not None:
        rates.append(rate)
        held = rate
    return rates


# Steady state (bench.measure.steady.settled): the last STEADY_WINDOWS windows' app CPU ms per
# request lie within STEADY_SPREAD of their smallest, and their median is no more than
# STEADY_TREND under the median of as many windows before them. The spread is this machine's noise,
# not a JIT's: go-gin, which compiles nothing at run time, scattered by a median 13% and up to
# 35% (90th percentile) over three consecutive 3 s windows once past its first six
# (results/experiments/2026-11-25-strict-rule), so a 5% spread was met by no stack within 60 s.
STEADY_WINDOWS = 3
STEADY_SPREAD = 0.25
STEADY_TREND = 0.05


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


@dataclass(frozen=True)
class Scenario:
    name: str
    tool: str  # "k6" or "oha"
    stages: tuple[int, ...]
    """The original study's closed-model stages (VUs, or oha connections): the replication."""
    endpoints: tuple[str, ...]
    writes: bool = False
    rates: tuple[int, ...] = ()
    """The fixed-rate ladder's offered rates, requests/s, the same for every stack."""
    objective_ms: float = 100.0
    """The latency objective: a ladder step is held only with p99 at or under it."""
    warm_rate: int = 0
    """The fixed rate of the steady-state warm-up, requests/s (0: the ladder's first). Higher than
    the ladder's first: a JIT compiles a method once it has run so many times, so a JVM warms in
    fewer seconds the more requests it gets (every JVM stack's mixed warm-up at 100 req/s ran to
    the cap, its avatar at 2,000 settled within 32 s; results/experiments/2026-11-25-suite). A
    stack whose own core stays full at it steps down the ladder's rates (bench.measure.steady)."""
    read_mix: tuple[tuple[str, int], ...] = ()
    """A read-only scenario's endpoints and weights, as its k6 script has them: its steady state
    and ladder are sent by oha from a URL list of this mix (bench.measure.urls), which costs the
    CPU it shares with PostgreSQL a fraction of what k6 does."""
    upstream: bool = False
    """Its stacks call the stock upstream (bench.upstream): the runner starts it for this
    scenario's jobs, on the load generator's CPUs, and measures its CPU like a role's."""

    @property
    def ladder_tool(self) -> str:
        """What sends the steady state and the ladder: oha for the avatar and a read mix, else k6."""
        return "oha" if self.tool == "oha" or self.read_mix else "k6"

    def __post_init__(self) -> None:
        if not self.warm_rate and self.rates:
            object.__setattr__(self, "warm_rate", self.rates[0])


# Each ladder starts at about half the lowest capacity any stack showed in the published quick run
# (results/raw/quick: read-heavy 120, join-filter 250, mixed 160, heavy-body 200, avatar 800
# req/s): a step below that tells nothing the first one does not, and the common rate, the highest
# of these rates every stack holds, lies above it. Each tops out above the highest capacity seen
# (join-filter's pgbench ceiling held 4,000), so that a stack stops before its ladder does.
SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario(
            "read-heavy",
            "k6",
            (50, 100, 200),
            ("items_page", "items_by_category", "category_items", "categories_page"),
            rates=(80, 120, 180, 270, 400, 600),
            objective_ms=500.0,
            warm_rate=120,
            read_mix=(("items_page", 50), ("items_by_category", 20), ("category_items", 20), ("categories_page", 10)),
        ),
        Scenario(
            "join-filter",
            "k6",
            (60, 120),
            ("items_by_category", "item_by_id"),
            # go-gin held 6,300 with oha, its core at 77% and CPU 1 at 89% (PostgreSQL 70%, oha 19%):
            # 10,000 is past what CPU 1 can give any stack, so the bisection finds the limit below it.
            rates=(160, 250, 400, 630, 1000, 1600, 2500, 4000, 6300, 10_000),
            objective_ms=100.0,
            warm_rate=400,
            read_mix=(("items_by_category", 70), ("item_by_id", 30)),
        ),
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
            rates=(100, 160, 250, 400, 630, 1000),
            objective_ms=250.0,
            warm_rate=160,
        ),
        Scenario(
            "heavy-body",
            "k6",
            (30, 60),
            ("item_create", "item_replace"),
            writes=True,
            rates=(125, 200, 320, 500, 800, 1250, 2000, 3200),
            objective_ms=100.0,
            warm_rate=320,
        ),
        Scenario(
            "avatar",
            "oha",
            (10,),
            ("avatar",),
            rates=(800, 2_000, 5_000, 12_000, 30_000, 75_000),
            objective_ms=10.0,
            warm_rate=2_000,
        ),
        # HTTP in, HTTP out, no PostgreSQL: each request waits 1-50 ms on the stock upstream, so
        # at rate r about r × 26 ms requests are in flight (520 at 20,000 req/s), and what a
        # stack's concurrency model costs per request waiting shows. The p99 objective leaves room
        # for the upstream's own 50 ms. The top: go-gin and rust-axum held 8,000 with 56% and 32%
        # of their core, and oha with the upstream then used about half of CPU 1
        # (results/experiments/2026-11-26-outbound-top). The closed stage: the REST-client
        # write-up's 200 users, without its think time (oha has none), so 200 requests always in
        # flight.
        Scenario(
            "outbound",
            "oha",
            (200,),
            ("item_stock",),
            rates=(125, 200, 320, 500, 800, 1250, 2000, 3200, 5000, 8000, 12_500, 20_000),
            objective_ms=100.0,
            warm_rate=800,
            read_mix=(("item_stock", 100),),
            upstream=True,
        ),
    )
}


def prepare_probe(endpoint: str, client: httpx.Client, dialect: Dialect = "api") -> Callable[[], httpx.Response]:
    """One operation of `endpoint` in `dialect`, ready to send: what it needs (a row to delete) is
    made now, outside the window in which its SQL statements are counted."""
    if endpoint == "item_delete":
        item_id = _created_id(_create_item(client, DIALECT_PATHS[dialect]), DIALECT_PATHS[dialect])
        return lambda: client.delete(f"/items/{item_id}")
    return lambda: PROBES[dialect][endpoint](client)


def replication_stages(scenario: Scenario, profile: str) -> tuple[int, ...]:
    """The closed-model stages run after a ladder (the replication of the original study): all of
    them in the full profile; in the shorter ones only the highest, as the ladder's capacity at
    objective already says what the lower ones would."""
    return scenario.stages if profile == "full" else scenario.stages[-1:]


def closed_timing(profile: str, open_model: bool) -> tuple[int, int]:
    """The warm-up and stage seconds of the closed-model stages (and of the ceilings): after the
    open model, shorter (bench.scenarios.OPEN_TIMING) and without ramps."""
    timing = TIMING[profile]
    if open_model and profile in OPEN_TIMING:
        stage = OPEN_TIMING[profile].replication_stage_s
        return min(timing["warmup"], stage), stage
    return timing["warmup"], timing["stage"]
