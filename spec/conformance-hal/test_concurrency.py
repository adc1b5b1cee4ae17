"""Races and the pool: one winner for a taken key, and no connection left behind by bad requests."""

import json
from concurrent.futures import ThreadPoolExecutor

import httpx

from helpers import JSON, assert_message, category_uri, post, totals, unique

RACERS = 12


def race(base_url: str, path: str, body: dict) -> list[httpx.Response]:
    payload = json.dumps(body).encode()

    def attempt(_):
        with httpx.Client(base_url=base_url, timeout=30) as c:
            return c.post(path, content=payload, headers=JSON)

    with ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(attempt, range(RACERS)))


def test_racing_category_creates_have_one_winner(client, base_url):
    before = totals(client)
    responses = race(base_url, "/categories", {"code": unique("RACE"), "name": "racer"})
    assert sorted(r.status_code for r in responses) == [201] + [409] * (RACERS - 1)
    for r in responses:
        if r.status_code == 409:
            assert_message(r, 409)
    assert totals(client) == (before[0] + 1, before[1])


def test_racing_item_creates_have_one_winner(client, base_url, category):
    before = totals(client)
    responses = race(base_url, "/items", {"sku": unique("RACE"), "name": "racer", "price": 1, "stock": 1,
                                          "category": category_uri(category["id"])})
    assert sorted(r.status_code for r in responses) == [201] + [409] * (RACERS - 1)
    assert totals(client) == (before[0], before[1] + 1)


def test_bad_requests_leave_no_connection_checked_out(client, base_url, item):
    bad = [
        lambda: client.get("/items/999999999"),
        lambda: client.delete("/items/999999999"),
        lambda: client.delete("/categories/1"),
        lambda: post(client, "/items", {"sku": "SKU-000001", "name": "n", "price": 1, "stock": 1,
                                        "category": "/categories/1"}),
        lambda: post(client, "/items", {"sku": unique("P"), "name": "n", "price": 1, "stock": 1,
                                        "category": "/categories/999999"}),
        lambda: post(client, "/categories", {"code": "CAT-0001", "name": "n"}),
        lambda: client.put(f"/items/{item['id']}", content=b"{", headers=JSON),
        lambda: client.put("/items/999999999", content=b"{}", headers=JSON),
        lambda: client.post("/items", content=b"{}", headers={"Content-Type": "text/plain"}),
        lambda: client.put(f"/items/{item['id']}/category", content=b"/categories/999999",
                           headers={"Content-Type": "text/uri-list"}),
        lambda: client.get("/items/abc"),
        lambda: client.get("/items?page=2147483647&size=100"),
        lambda: post(client, "/items", []),
    ]
    for _ in range(25):
        for request in bad:
            assert request().status_code in (400, 404, 405, 409, 415)
    # Three times the default pool of 10, at once: each needs a connection within the 5 s bound.
    with ThreadPoolExecutor(30) as pool:
        statuses = list(pool.map(lambda i: httpx.get(f"{base_url}/items/{i + 1}", timeout=10).status_code, range(30)))
    assert statuses == [200] * 30
