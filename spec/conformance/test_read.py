"""Reads of the seeded data: exact values, the page envelope, bounds and ordering."""

import pytest

import seed
from helpers import assert_json, assert_page, assert_problem, assert_seeded_category, assert_seeded_item

# spec/API.md's dialect only: run when CONFORMANCE_DIALECT=api (the default).
pytestmark = pytest.mark.api


@pytest.mark.parametrize("iid", [1, 2, 1999, 2000, 2001, 12345, 99999, 100000])
def test_item_by_id_has_the_seeded_values(client, iid):
    assert_seeded_item(assert_json(client.get(f"/items/{iid}"), 200), seed.item(iid))


def test_item_12345_as_api_md_shows_it(client):
    body = assert_json(client.get("/items/12345"), 200)
    assert body["price"] == 600.55 and body["stock"] == 345 and body["categoryId"] == 345
    assert body["category"] == {"id": 345, "code": "CAT-0345", "name": "Category 345"}
    assert body["updatedAt"].startswith("2026-01-01T03:25:45")
    assert 300 <= len(body["description"].encode()) <= 900


def test_zero_price_is_a_number(client):
    body = assert_json(client.get("/items/100000"), 200)
    assert body["price"] == 0


@pytest.mark.parametrize("cid", [1, 42, 2000])
def test_category_by_id_has_the_seeded_values(client, cid):
    assert_seeded_category(assert_json(client.get(f"/categories/{cid}"), 200), seed.category(cid))


@pytest.mark.parametrize("path,kind", [("/items/100001", "item"), ("/items/0", "item"),
                                       ("/items/-5", "item"), ("/categories/2001", "category"),
                                       ("/categories/0", "category"), ("/categories/-1", "category"),
                                       ("/items/9223372036854775807", "item")])
def test_absent_resources_are_404(client, path, kind):
    assert_problem(client.get(path), 404)


def test_items_default_page(client):
    content = assert_page(assert_json(client.get("/items"), 200), size=20, number=0, total=seed.ITEMS)
    assert [i["id"] for i in content] == list(range(1, 21))
    for actual in content:
        assert_seeded_item(actual, seed.item(actual["id"]))


def test_items_page_and_size(client):
    content = assert_page(assert_json(client.get("/items?page=7&size=13"), 200),
                          size=13, number=7, total=seed.ITEMS)
    assert [i["id"] for i in content] == list(range(92, 105))


def test_items_size_bounds(client):
    assert len(assert_json(client.get("/items?size=1"), 200)["content"]) == 1
    content = assert_page(assert_json(client.get("/items?size=100&page=999"), 200),
                          size=100, number=999, total=seed.ITEMS)
    assert [i["id"] for i in content] == list(range(99901, 100001))


def test_last_partial_page(client):
    content = assert_page(assert_json(client.get("/items?size=30&page=3333"), 200),
                          size=30, number=3333, total=seed.ITEMS)
    assert [i["id"] for i in content] == list(range(99991, 100001))


@pytest.mark.parametrize("query", ["page=5000", "page=100000", "page=9223372036854775807&size=100",
                                   "page=4611686018427387904&size=2"])
def test_page_past_the_end_is_empty(client, query):
    body = assert_json(client.get(f"/items?{query}"), 200)
    assert body["content"] == []
    assert body["page"]["totalElements"] == seed.ITEMS


def test_categories_pages(client):
    content = assert_page(assert_json(client.get("/categories"), 200), size=20, number=0, total=seed.CATEGORIES)
    assert [c["id"] for c in content] == list(range(1, 21))
    content = assert_page(assert_json(client.get("/categories?page=19&size=100"), 200),
                          size=100, number=19, total=seed.CATEGORIES)
    assert [c["id"] for c in content] == list(range(1901, 2001))
    for actual in content:
        assert_seeded_category(actual, seed.category(actual["id"]))
    assert assert_json(client.get("/categories?page=20&size=100"), 200)["content"] == []


@pytest.mark.parametrize("cid", [1, 345, 2000])
def test_items_filtered_by_category(client, cid):
    expected = seed.items_of_category(cid)
    first = assert_page(assert_json(client.get(f"/items?categoryId={cid}"), 200), size=20, number=0, total=50)
    assert [i["id"] for i in first] == expected[:20]
    last = assert_page(assert_json(client.get(f"/items?categoryId={cid}&page=2&size=20"), 200),
                       size=20, number=2, total=50)
    assert [i["id"] for i in last] == expected[40:]
    for actual in first + last:
        assert_seeded_item(actual, seed.item(actual["id"]))


@pytest.mark.parametrize("cid", [0, -3, 2001, 9223372036854775807])
def test_items_of_an_unknown_category_is_an_empty_page(client, cid):
    assert assert_page(assert_json(client.get(f"/items?categoryId={cid}"), 200),
                       size=20, number=0, total=0) == []


def test_category_items(client):
    expected = seed.items_of_category(42)
    content = assert_page(assert_json(client.get("/categories/42/items?size=50"), 200),
                          size=50, number=0, total=50)
    assert [i["id"] for i in content] == expected
    content = assert_page(assert_json(client.get("/categories/42/items?page=1&size=30"), 200),
                          size=30, number=1, total=50)
    assert [i["id"] for i in content] == expected[30:]
    for actual in content:
        assert_seeded_item(actual, seed.item(actual["id"]))


def test_category_items_of_an_absent_category_is_404(client):
    assert_problem(client.get("/categories/2001/items"), 404)
    assert_problem(client.get("/categories/0/items?page=0"), 404)
