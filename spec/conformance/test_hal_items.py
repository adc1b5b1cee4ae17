"""Creating, replacing and deleting items, read back after each (spec/hal.md, "Writing")."""

import json
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

import seed
from hal import (INLINE, URI_LIST, assert_empty, assert_hal, assert_message, assert_seeded_item,
                 assert_status, assert_violations, category_uri, get_item, path_of, totals)
from helpers import JSON, instant, number, post, put, unique

# The HAL dialect only (spec/hal.md): run when CONFORMANCE_DIALECT=hal.
pytestmark = pytest.mark.hal


def recent(text: str) -> bool:
    return abs(instant(text) - datetime.now(timezone.utc)) < timedelta(minutes=1)


def item_body(cid: int, **overrides) -> dict:
    body = {"sku": unique("SKU"), "name": "Item", "price": 12.5, "stock": 3, "description": "about it",
            "category": category_uri(cid)}
    body.update(overrides)
    return body


def without_links(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "_links"}


def test_create_item(client, category):
    before = totals(client)
    body = item_body(category["id"], id=5, updatedAt="2000-01-01T00:00:00Z")
    response = post(client, "/items", body)
    created = assert_hal(response, 201)
    assert path_of(response.headers["location"]) == f"/items/{created['id']}"
    assert created["id"] > seed.ITEMS and recent(created["updatedAt"])
    read = get_item(client, created["id"])
    assert {k: read[k] for k in ("sku", "name", "stock", "description")} == \
        {k: body[k] for k in ("sku", "name", "stock", "description")}
    assert number(read["price"]) == Decimal("12.5")
    assert {k: read["category"][k] for k in ("id", "code", "name")} == \
        {k: category[k] for k in ("id", "code", "name")}
    assert read["updatedAt"] == created["updatedAt"]
    assert totals(client) == (before[0], before[1] + 1)
    assert_seeded_item(get_item(client, 5), seed.item(5))


def test_the_category_link_may_be_absolute(client, base_url, category):
    created = assert_hal(post(client, "/items", item_body(category["id"]) | {
        "category": f"{base_url}/categories/{category['id']}"}), 201)
    assert get_item(client, created["id"])["category"]["id"] == category["id"]


def test_a_created_item_is_in_its_categorys_search(client, category):
    created = assert_hal(post(client, "/items", item_body(category["id"])), 201)
    page = assert_hal(client.get(f"/items/search/byCategory?categoryId={category['id']}"))
    assert [i["id"] for i in page["_embedded"]["items"]] == [created["id"]]
    assert page["page"]["totalElements"] == 1


def test_description_is_optional_and_nullable(client, category):
    for description, stored in ((None, None), ("", ""), ("   ", "   "), ("x" * 16384, "x" * 16384)):
        body = item_body(category["id"], description=description)
        created = assert_hal(post(client, "/items", body), 201)
        assert get_item(client, created["id"])["description"] == stored
    body = item_body(category["id"])
    del body["description"]
    created = assert_hal(post(client, "/items", body), 201)
    assert get_item(client, created["id"])["description"] is None


@pytest.mark.parametrize("written,value", [("1e2", "100"), ("1E+2", "100"), ("125E-2", "1.25"),
                                           ("1.10000000000000000000", "1.1"), ("1.230", "1.23"), ("0", "0"),
                                           ("0.0", "0"), ("99999999.99", "99999999.99"), ('"9.99"', "9.99")])
def test_valid_prices_are_stored_by_their_exact_value(client, category, written, value):
    raw = json.dumps(item_body(category["id"], price=0)).replace('"price": 0', f'"price": {written}')
    created = assert_hal(client.post("/items", content=raw, headers=JSON), 201)
    assert number(created["price"]) == Decimal(value)
    assert number(get_item(client, created["id"])["price"]) == Decimal(value)


@pytest.mark.parametrize("written", ["1.00000000000000001", "99999999.995", "1.234", "0.001", "-0.01",
                                     "100000000", "1e400", "1e-400", "1e999999999", "null", '"-1"'])
def test_invalid_prices_are_400_on_price(client, category, written):
    before = totals(client)
    raw = json.dumps(item_body(category["id"], price=0)).replace('"price": 0', f'"price": {written}')
    assert_violations(client.post("/items", content=raw, headers=JSON), {"price"})
    assert totals(client) == before


@pytest.mark.parametrize("written", ["true", "[1]", "{}"])
def test_a_price_that_is_no_number_is_400(client, category, written):
    raw = json.dumps(item_body(category["id"], price=0)).replace('"price": 0', f'"price": {written}')
    assert_message(client.post("/items", content=raw, headers=JSON), 400)


@pytest.mark.parametrize("written,answer", [("0", 201), ("2147483647", 201), ('"3"', 201), ("-1", "stock"),
                                            ("null", "stock"), ("2147483648", 400), ("1.5", 400), ("3.0", 400),
                                            ("true", 400)])
def test_stock(client, category, written, answer):
    raw = json.dumps(item_body(category["id"])).replace('"stock": 3', f'"stock": {written}')
    response = client.post("/items", content=raw, headers=JSON)
    if answer == 201:
        created = assert_hal(response, 201)
        assert get_item(client, created["id"])["stock"] == int(json.loads(written))
    elif answer == 400:
        assert_message(response, 400)
    else:
        assert_violations(response, {answer})


@pytest.mark.parametrize("overrides,properties", [
    ({"sku": None}, {"sku"}), ({"sku": ""}, {"sku"}), ({"sku": " \n"}, {"sku"}), ({"sku": "x" * 65}, {"sku"}),
    ({"name": "n" * 129}, {"name"}), ({"name": "a\u0000"}, {"name"}), ({"description": "d" * 16385}, {"description"}),
    ({"description": "\u0000"}, {"description"}), ({"stock": -5}, {"stock"}), ({"price": -1}, {"price"}),
    ({"category": None}, {"category"}), ({"category": "/categories/999999999"}, {"category"}),
    ({"category": "/categories/0"}, {"category"}),
    ({"sku": "", "name": "", "price": -1, "stock": -1, "category": None},
     {"sku", "name", "price", "stock", "category"}),
])
def test_invalid_item_is_400_and_writes_nothing(client, category, overrides, properties):
    before = totals(client)
    assert_violations(post(client, "/items", item_body(category["id"], **overrides)), properties)
    # A PUT ignores the category (spec/hal.md, "Writing"), so it breaks only the other rules.
    if properties - {"category"}:
        body = item_body(4, sku="SKU-000004") | overrides
        assert_violations(put(client, "/items/4", body), properties - {"category"})
    assert totals(client) == before
    assert_seeded_item(get_item(client, 4), seed.item(4))


@pytest.mark.parametrize("link", ["nonsense", "/categories/abc", "/categories/1.5"])
def test_a_category_link_without_an_id_is_400(client, category, link):
    before = totals(client)
    assert_message(post(client, "/items", item_body(category["id"], category=link)), 400)
    assert totals(client) == before


def test_duplicate_sku_is_409_and_changes_nothing(client, item):
    before = totals(client)
    assert_message(post(client, "/items", item_body(item["category"]["id"], sku="SKU-000001")), 409)
    assert_message(put(client, f"/items/{item['id']}", item_body(item["category"]["id"], sku="SKU-000002")), 409)
    assert totals(client) == before
    assert get_item(client, item["id"]) == item
    assert_seeded_item(get_item(client, 2), seed.item(2))


def test_an_unknown_category_is_a_field_rule_before_a_taken_sku(client):
    assert_violations(post(client, "/items", item_body(1, sku="SKU-000001", category="/categories/999999999")),
                      {"category"})


def test_skus_are_case_sensitive(client, category):
    assert_hal(post(client, "/items", item_body(category["id"], sku="sku-000001")), 201)


def test_replace_item_is_a_full_replacement_but_for_its_category(client, item):
    other = assert_hal(post(client, "/categories", {"code": unique("OTHER"), "name": "Other"}), 201)
    body = item_body(other["id"], sku=unique("NEW"), name="Replaced", price=99.99, stock=7)
    del body["description"]
    replaced = assert_hal(put(client, f"/items/{item['id']}", body), 200)
    assert replaced["id"] == item["id"] and recent(replaced["updatedAt"])
    assert instant(replaced["updatedAt"]) > instant(item["updatedAt"])
    read = get_item(client, item["id"])
    assert (read["sku"], read["name"], number(read["price"]), read["stock"], read["description"]) == \
        (body["sku"], "Replaced", Decimal("99.99"), 7, None)
    # spec/hal.md, "Writing": a PUT keeps the item in its category ...
    assert read["category"]["id"] == item["category"]["id"]
    # ... and the association resource moves it.
    moved_at = read["updatedAt"]
    assert_empty(client.put(f"/items/{item['id']}/category", content=category_uri(other["id"]).encode(),
                            headers=URI_LIST), 204)
    moved = get_item(client, item["id"])
    assert {k: moved["category"][k] for k in ("id", "code", "name")} == \
        {k: other[k] for k in ("id", "code", "name")}
    assert instant(moved["updatedAt"]) > instant(moved_at)
    assert without_links(moved) | {"category": None, "updatedAt": None} == \
        without_links(read) | {"category": None, "updatedAt": None}
    linked = assert_hal(client.get(f"/items/{item['id']}/category"))
    assert linked["id"] == other["id"] and linked["code"] == other["code"]


def test_replace_keeping_its_own_sku(client, item):
    replaced = assert_hal(put(client, f"/items/{item['id']}", item_body(item["category"]["id"], sku=item["sku"])))
    assert replaced["sku"] == item["sku"]


def test_replace_an_absent_item_is_405_and_creates_nothing(client):
    before = totals(client)
    assert_empty(put(client, "/items/999999999", item_body(1)), 405)
    assert_empty(put(client, "/items/999999999", {"sku": ""}), 405)
    assert totals(client) == before


def test_moving_an_item_to_an_unknown_category_is_409_and_moves_nothing(client, item):
    assert_message(client.put(f"/items/{item['id']}/category", content=b"/categories/999999999",
                              headers=URI_LIST), 409)
    assert get_item(client, item["id"]) == item


def test_moving_an_absent_item_is_404(client):
    assert_empty(client.put("/items/999999999/category", content=b"/categories/1", headers=URI_LIST), 404)


def test_the_category_link_of_an_item_cannot_be_removed(client, item):
    assert_status(client.delete(f"/items/{item['id']}/category"), 405)
    assert get_item(client, item["id"]) == item


def test_delete_item(client, item):
    before = totals(client)
    assert_empty(client.delete(f"/items/{item['id']}"), 204)
    assert_empty(client.get(f"/items/{item['id']}?{INLINE}"), 404)
    assert_empty(client.delete(f"/items/{item['id']}"), 404)
    assert totals(client) == (before[0], before[1] - 1)


def test_delete_absent_item_is_404(client):
    assert_empty(client.delete("/items/999999999"), 404)
    assert_empty(client.delete("/items/-5"), 404)


def test_patch_is_not_served(client, item):
    assert_status(client.patch(f"/items/{item['id']}", content=b'{"name": "x"}', headers=JSON), 405)
    assert get_item(client, item["id"]) == item
