"""Reads of the seeded data through the HAL envelope: exact values, pages, bounds and order."""

from decimal import Decimal

import pytest

import seed
from hal import (INLINE, assert_empty, assert_hal, assert_page, assert_seeded_category, assert_seeded_item,
                 assert_seeded_plain_item, embedded, path_of, self_href)

# The HAL dialect only (spec/hal.md): run when CONFORMANCE_DIALECT=hal.
pytestmark = pytest.mark.hal


@pytest.mark.parametrize("iid", [1, 2, 1999, 2000, 2001, 12345, 99999, 100000])
def test_item_with_its_category_has_the_seeded_values(client, iid):
    assert_seeded_item(assert_hal(client.get(f"/items/{iid}?{INLINE}")), seed.item(iid))


@pytest.mark.parametrize("iid", [1, 12345, 100000])
def test_plain_item_has_the_seeded_values_and_links_its_category(client, iid):
    document = assert_hal(client.get(f"/items/{iid}"))
    assert_seeded_plain_item(document, seed.item(iid))
    assert path_of(self_href(document)) == f"/items/{iid}"
    linked = assert_hal(client.get(path_of(document["_links"]["category"]["href"])))
    assert_seeded_category(linked, seed.category(seed.item(iid)["categoryId"]))


def test_item_12345_as_hal_md_shows_it(client):
    body = assert_hal(client.get(f"/items/12345?{INLINE}"))
    assert body["price"] == Decimal("600.55") and body["stock"] == 345
    assert {k: body["category"][k] for k in ("id", "code", "name")} == {"id": 345, "code": "CAT-0345",
                                                                         "name": "Category 345"}
    assert body["updatedAt"].startswith("2026-01-01T03:25:45")
    assert 300 <= len(body["description"].encode()) <= 900


def test_zero_price_is_a_number(client):
    assert assert_hal(client.get("/items/100000"))["price"] == 0


def test_an_unknown_projection_is_the_plain_item(client):
    assert_seeded_plain_item(assert_hal(client.get("/items/7?projection=nope")), seed.item(7))


@pytest.mark.parametrize("cid", [1, 42, 2000])
def test_category_by_id_has_the_seeded_values(client, cid):
    assert_seeded_category(assert_hal(client.get(f"/categories/{cid}")), seed.category(cid))


@pytest.mark.parametrize("path", ["/items/100001", "/items/0", "/items/-5", "/items/9223372036854775807",
                                  "/items/-9223372036854775808", "/categories/2001", "/categories/0",
                                  "/categories/-1", "/items/100001/category"])
def test_absent_resources_are_404_without_a_body(client, path):
    assert_empty(client.get(path), 404)


def test_items_default_page(client):
    page = assert_hal(client.get("/items"))
    content = assert_page(page, "items", size=20, number=0, total=seed.ITEMS)
    assert [i["id"] for i in content] == list(range(1, 21))
    for actual in content:
        assert_seeded_item(actual, seed.item(actual["id"]))
    links = page["_links"]
    assert {"first", "self", "next", "last", "profile", "search"} <= set(links), sorted(links)
    assert "prev" not in links


def test_items_page_and_size(client):
    content = assert_page(assert_hal(client.get("/items?page=7&size=13")), "items", size=13, number=7,
                          total=seed.ITEMS)
    assert [i["id"] for i in content] == list(range(92, 105))


def test_items_size_bounds(client):
    assert len(embedded(assert_hal(client.get("/items?size=1")), "items")) == 1
    content = assert_page(assert_hal(client.get("/items?size=100&page=999")), "items", size=100, number=999,
                          total=seed.ITEMS)
    assert [i["id"] for i in content] == list(range(99901, 100001))
    for actual in content:
        assert_seeded_item(actual, seed.item(actual["id"]))


def test_last_partial_page(client):
    page = assert_hal(client.get("/items?size=30&page=3333"))
    content = assert_page(page, "items", size=30, number=3333, total=seed.ITEMS)
    assert [i["id"] for i in content] == list(range(99991, 100001))
    assert "next" not in page["_links"]


@pytest.mark.parametrize("query,number,size", [("page=5000", 5000, 20), ("page=100000", 100000, 20),
                                               ("page=21474836&size=100", 21474836, 100)])
def test_page_past_the_end_is_empty_with_the_true_totals(client, query, number, size):
    assert assert_page(assert_hal(client.get(f"/items?{query}")), "items", size=size, number=number,
                       total=seed.ITEMS) == []


def test_categories_pages(client):
    content = assert_page(assert_hal(client.get("/categories")), "categories", size=20, number=0,
                          total=seed.CATEGORIES)
    assert [c["id"] for c in content] == list(range(1, 21))
    content = assert_page(assert_hal(client.get("/categories?page=19&size=100")), "categories", size=100,
                          number=19, total=seed.CATEGORIES)
    assert [c["id"] for c in content] == list(range(1901, 2001))
    for actual in content:
        assert_seeded_category(actual, seed.category(actual["id"]))
    assert embedded(assert_hal(client.get("/categories?page=20&size=100")), "categories") == []


@pytest.mark.parametrize("cid", [1, 345, 2000])
def test_items_of_a_category_through_the_search(client, cid):
    expected = seed.items_of_category(cid)
    first = assert_page(assert_hal(client.get(f"/items/search/byCategory?categoryId={cid}")), "items",
                        size=20, number=0, total=50)
    assert [i["id"] for i in first] == expected[:20]
    last = assert_page(assert_hal(client.get(f"/items/search/byCategory?categoryId={cid}&page=2&size=20")),
                       "items", size=20, number=2, total=50)
    assert [i["id"] for i in last] == expected[40:]
    whole = assert_page(assert_hal(client.get(f"/items/search/byCategory?categoryId={cid}&size=50")), "items",
                        size=50, number=0, total=50)
    assert [i["id"] for i in whole] == expected
    for actual in first + last:
        assert_seeded_item(actual, seed.item(actual["id"]))


@pytest.mark.parametrize("query", ["categoryId=0", "categoryId=-3", "categoryId=2001",
                                   "categoryId=9223372036854775807", "categoryId=", ""])
def test_items_of_an_unknown_or_no_category_is_an_empty_page(client, query):
    assert assert_page(assert_hal(client.get(f"/items/search/byCategory?{query}")), "items", size=20, number=0,
                       total=0) == []


def test_the_search_resource_links_the_search(client):
    links = assert_hal(client.get("/items/search"))["_links"]
    assert path_of(links["byCategory"]["href"]) == "/items/search/byCategory", links
    assert links["byCategory"].get("templated") is True


def test_the_root_links_both_collections(client):
    links = assert_hal(client.get("/"))["_links"]
    assert path_of(links["categories"]["href"]) == "/categories"
    assert path_of(links["items"]["href"]) == "/items"


def test_collections_are_sorted_by_id_unless_asked(client):
    ids = [i["id"] for i in embedded(assert_hal(client.get("/items?size=5&sort=id,desc")), "items")]
    assert ids == [100000, 99999, 99998, 99997, 99996]
    by_price = embedded(assert_hal(client.get("/items?size=50&sort=price,desc")), "items")
    prices = [i["price"] for i in by_price]
    # every residue of id × 7919 mod 100000 occurs once among the 100,000 items: one costs 999.99
    assert prices == sorted(prices, reverse=True) and prices[0] == Decimal("999.99"), prices[:3]
    assert [c["id"] for c in embedded(assert_hal(client.get("/categories?size=3&sort=nope")), "categories")] \
        == [1, 2, 3]
