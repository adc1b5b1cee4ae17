"""The URL list of a read scenario's fixed-rate steps: oha sends, at each arrival, a URL drawn
uniformly from a file (`--urls-from-file`), so a list that holds each endpoint in proportion to
its weight sends the scenario's mix. The list is seeded, so every stack and every run gets the
same URLs; the order oha draws them in is its own.

The weights are the Scenario's `read_mix`, and the parameters those of the k6 scripts
(loadtests/k6/read-heavy.js, join-filter.js, outbound.js: uniform ids, categories and pages over
the seeded rows); a test keeps the two equal (tests/test_urls.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from bench.measure.load.dialects import DIALECT_PATHS
from bench.records import Dialect
from bench.scenarios import Scenario

SEEDED_ITEMS = 100_000
SEEDED_CATEGORIES = 2_000
ITEM_PAGES = 50
CATEGORY_PAGES = 100
# Enough lines that every endpoint's share is exact to 0.01%, and that a step of a few thousand
# requests meets few repeats of one URL (each a row PostgreSQL has just read).
LIST_SIZE = 20_000
SEED = 31

# One read of an endpoint, in a dialect: its path, its parameters drawn from `random.Random`.
ReadPath = Callable[[random.Random], str]


def read_paths(dialect: Dialect) -> dict[str, ReadPath]:
    """The reads of the scenarios in `dialect`, as the k6 scripts draw them (the write scenarios'
    too: bench.measure.load.step_requests)."""
    paths = DIALECT_PATHS[dialect]
    return {
        "items_page": lambda r: f"/items?page={r.randint(0, ITEM_PAGES - 1)}",
        "items_by_category": lambda r: paths.items_by_category.format(category=r.randint(1, SEEDED_CATEGORIES)),
        "category_items": lambda r: paths.category_items.format(category=r.randint(1, SEEDED_CATEGORIES)),
        "categories_page": lambda r: f"/categories?page={r.randint(0, CATEGORY_PAGES - 1)}",
        "item_by_id": lambda r: paths.item_by_id.format(id=r.randint(1, SEEDED_ITEMS)),
        "category_by_id": lambda r: f"/categories/{r.randint(1, SEEDED_CATEGORIES)}",
        # The same path in every dialect (a controller of its own beside Spring Data REST's).
        "item_stock": lambda r: f"/items/{r.randint(1, SEEDED_ITEMS)}/stock",
    }


def shares(mix: tuple[tuple[str, int], ...], size: int) -> dict[str, int]:
    """Lines per endpoint: `size` split by weight, the rounding's remainder to the largest
    fractions, so the counts add up to `size` exactly."""
    total = sum(weight for _, weight in mix)
    exact = {endpoint: size * weight / total for endpoint, weight in mix}
    counts = {endpoint: int(share) for endpoint, share in exact.items()}
    by_fraction = sorted(exact, key=lambda e: exact[e] - counts[e], reverse=True)
    for endpoint in by_fraction[: size - sum(counts.values())]:
        counts[endpoint] += 1
    return counts


def url_list(
    scenario: Scenario, base_url: str, dialect: Dialect = "api", *, size: int = LIST_SIZE, seed: int = SEED
) -> list[tuple[str, str]]:
    """(endpoint, URL) pairs of the scenario's read mix, shuffled."""
    if not scenario.read_mix:
        raise ValueError(f"{scenario.name} has no read mix to send from a URL list")
    rng = random.Random(seed)
    draw = read_paths(dialect)
    pairs = [
        (endpoint, base_url + draw[endpoint](rng))
        for endpoint, count in shares(scenario.read_mix, size).items()
        for _ in range(count)
    ]
    rng.shuffle(pairs)
    return pairs


def write_url_list(path: Path, scenario: Scenario, base_url: str, dialect: Dialect = "api") -> Path:
    """The scenario's URL list for a stack at `base_url`, one URL a line, as oha reads it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(url + "\n" for _, url in url_list(scenario, base_url, dialect)))
    return path
