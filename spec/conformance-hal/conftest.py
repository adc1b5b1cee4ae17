"""Fixtures of the HAL profile (spec/hal.md): a HAL stack at BASE_URL on a freshly seeded database."""

from __future__ import annotations

import os

import httpx
import pytest

from helpers import INLINE, assert_hal, category_uri, post, unique

BASE_URL = os.environ.get("BASE_URL", "http://127.0.0.1:8080").rstrip("/")
STRICT = os.environ.get("CONFORMANCE_STRICT") == "1"

# Reads of exact seeded totals first, writes after them, the database outage last.
_ORDER = ("test_read", "test_params", "test_bodies", "test_categories", "test_items", "test_avatar_health",
          "test_concurrency", "test_resilience")


def pytest_collection_modifyitems(items):
    def rank(item):
        module = item.module.__name__.rsplit(".", 1)[-1]
        return _ORDER.index(module) if module in _ORDER else len(_ORDER) - 1
    items.sort(key=rank)


def pytest_configure(config):
    config.addinivalue_line("markers", "resilience: stops and restarts PostgreSQL")


def skip_or_fail(reason: str):
    """Outside the runner a case that needs the runner is skipped; under CONFORMANCE_STRICT it fails."""
    if STRICT:
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def base_url() -> str:
    try:
        httpx.get(BASE_URL + "/health", timeout=5)
    except httpx.HTTPError as error:
        pytest.exit(f"no stack answers at BASE_URL={BASE_URL}: {error}", returncode=2)
    return BASE_URL


@pytest.fixture
def client(base_url):
    with httpx.Client(base_url=base_url, timeout=30, follow_redirects=False) as c:
        yield c


@pytest.fixture
def category(client) -> dict:
    """A category of this test's own, with no items."""
    return assert_hal(post(client, "/categories", {"code": unique("C"), "name": "Test category"}), 201)


@pytest.fixture
def item(client, category) -> dict:
    """An item of this test's own, in its own category, with its category inlined."""
    body = {"sku": unique("S"), "name": "Test item", "price": 12.5, "stock": 3,
            "description": "made by the HAL profile", "category": category_uri(category["id"])}
    created = assert_hal(post(client, "/items", body), 201)
    return assert_hal(client.get(f"/items/{created['id']}?{INLINE}"))
