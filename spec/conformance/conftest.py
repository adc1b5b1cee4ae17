"""Fixtures of the conformance suite: a stack at BASE_URL on a freshly seeded database, serving
the dialect CONFORMANCE_DIALECT names (dialect.py). A case of one dialect only is marked `api` or
`hal` and is deselected, not skipped, for the other."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
import yaml

import dialect as dialects
from helpers import new_client
from stock_upstream import HOST_VARIABLE, PORT_VARIABLE, FakeUpstream

BASE_URL = os.environ.get("BASE_URL", "http://127.0.0.1:8080").rstrip("/")
OPENAPI = Path(__file__).resolve().parent.parent / "openapi.yaml"
STRICT = os.environ.get("CONFORMANCE_STRICT") == "1"
DIALECT = dialects.current()

# Reads of exact seeded totals first, writes after them, the database outage last.
_ORDER = ("test_read", "test_hal_read", "test_params", "test_hal_params", "test_bodies", "test_hal_bodies",
          "test_categories", "test_hal_categories", "test_items", "test_hal_items", "test_openapi",
          "test_avatar_health", "test_connection_close", "test_concurrency", "test_stock", "test_logs",
          "test_resilience")


def pytest_configure(config):
    config.addinivalue_line("markers", "resilience: stops and restarts PostgreSQL")
    config.addinivalue_line(
        "markers",
        "code_only: judges a request, or the stock upstream's answer, in the stack's code alone, before "
        "PostgreSQL or the network has a say: the same wherever the code runs (the Docker path leaves "
        "these out, as the stack has just passed them natively)")
    for name in dialects.NAMES:
        config.addinivalue_line("markers", f"{name}: a case of the {name} dialect only (CONFORMANCE_DIALECT)")


def pytest_collection_modifyitems(config, items):
    others = [name for name in dialects.NAMES if name != DIALECT.name]
    deselected = [item for item in items if any(item.get_closest_marker(name) for name in others)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item not in deselected]

    def rank(item):
        module = item.module.__name__.rsplit(".", 1)[-1]
        return _ORDER.index(module) if module in _ORDER else len(_ORDER) - 1
    items.sort(key=rank)


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


@pytest.fixture(scope="session")
def dialect() -> dialects.Dialect:
    return DIALECT


@pytest.fixture
def client(base_url):
    with new_client(base_url, timeout=30) as c:
        yield c


@pytest.fixture(scope="session")
def upstream():
    """The fake stock upstream (stock_upstream.py) on the port of the stack's STOCK_URL."""
    port = os.environ.get(PORT_VARIABLE, "")
    if not port:
        skip_or_fail(f"needs {PORT_VARIABLE}, the port of the STOCK_URL the stack was started with "
                     "(./bench test sets both)")
    fake = FakeUpstream(os.environ.get(HOST_VARIABLE, "127.0.0.1"), int(port))
    fake.start()
    yield fake
    fake.close()


@pytest.fixture(scope="session")
def openapi() -> dict:
    return yaml.safe_load(OPENAPI.read_text())


@pytest.fixture
def category(client, dialect) -> dict:
    """A category of this test's own, with no items."""
    return dialect.create_category(client)


@pytest.fixture
def item(client, dialect, category) -> dict:
    """An item of this test's own, in its own category (with its category inlined, in HAL)."""
    return dialect.create_item(client, category)
