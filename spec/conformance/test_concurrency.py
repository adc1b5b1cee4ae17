"""Races and the pool: one winner for a taken key, and no connection left behind by bad requests."""

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx

from helpers import JSON, assert_json, new_client, post, unique

RACERS = 12
# What a bad request may be answered with: spec/API.md's 422 for field rules, Spring Data REST's
# 400 for them and its 405 for a method a resource does not have.
BAD_REQUEST_ANSWERS = {"api": (400, 404, 409, 415, 422), "hal": (400, 404, 405, 409, 415)}


def race(base_url: str, path: str, body: dict) -> list[httpx.Response]:
    payload = json.dumps(body).encode()

    def attempt(_):
        with new_client(base_url, timeout=30) as c:
            return c.post(path, content=payload, headers=JSON)

    with ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(attempt, range(RACERS)))


def test_racing_category_creates_have_one_winner(client, base_url, dialect):
    before = dialect.totals(client)
    responses = race(base_url, "/categories", {"code": unique("RACE"), "name": "racer"})
    assert sorted(r.status_code for r in responses) == [201] + [409] * (RACERS - 1)
    for r in responses:
        if r.status_code == 409:
            dialect.assert_error(r, 409)
    assert dialect.totals(client) == (before[0] + 1, before[1])


def test_racing_item_creates_have_one_winner(client, base_url, dialect, category):
    before = dialect.totals(client)
    responses = race(base_url, "/items", dialect.item_body(category["id"], sku=unique("RACE"), name="racer"))
    assert sorted(r.status_code for r in responses) == [201] + [409] * (RACERS - 1)
    assert dialect.totals(client) == (before[0], before[1] + 1)


def bad_requests(client: httpx.Client, dialect, item: dict) -> list[Callable[[], httpx.Response]]:
    """Requests each answered with a 4xx, in both dialects and then in the dialect's own terms."""
    taken_sku = dialect.item_body(1, sku="SKU-000001", name="n", price=1, stock=1)
    no_category = dialect.item_body(999999, sku=unique("P"), name="n", price=1, stock=1)
    common = [
        lambda: client.get("/items/999999999"),
        lambda: client.delete("/items/999999999"),
        lambda: client.delete("/categories/1"),
        lambda: post(client, "/items", taken_sku),
        lambda: post(client, "/items", no_category),
        lambda: post(client, "/categories", {"code": "CAT-0001", "name": "n"}),
        lambda: client.put(f"/items/{item['id']}", content=b"{", headers=JSON),
        lambda: client.post("/items", content=b"{}", headers={"Content-Type": "text/plain"}),
        lambda: client.get("/items/abc"),
        lambda: post(client, "/items", []),
    ]
    if dialect.name == "hal":
        return common + [
            lambda: client.put("/items/999999999", content=b"{}", headers=JSON),
            lambda: client.put(f"/items/{item['id']}/category", content=b"/categories/999999",
                               headers={"Content-Type": "text/uri-list"}),
            lambda: client.get("/items?page=2147483647&size=100"),
        ]
    return common + [
        lambda: client.get("/categories/999999999/items"),
        lambda: client.get("/items?size=0"),
    ]


def test_bad_requests_leave_no_connection_checked_out(client, base_url, dialect, item):
    bad = bad_requests(client, dialect, item)
    for _ in range(25):
        for request in bad:
            assert request().status_code in BAD_REQUEST_ANSWERS[dialect.name]
    # Three times the default pool of 10, at once: each needs a connection within the 5 s bound.
    def read(i):
        with new_client(base_url, timeout=15) as c:
            return c.get(dialect.item_path(i % 100_000 + 1)).status_code

    with ThreadPoolExecutor(30) as pool:
        assert list(pool.map(read, range(90))) == [200] * 90
    assert_json(client.get("/health"), 200)
