"""Creating, replacing and deleting categories, read back after each (spec/hal.md, "Writing")."""

from datetime import datetime, timedelta, timezone

import pytest

import seed
from hal import (assert_empty, assert_hal, assert_message, assert_seeded_category, assert_status,
                 assert_violations, category_uri, path_of, self_href, totals)
from helpers import JSON, instant, post, put, unique

# The HAL dialect only (spec/hal.md): run when CONFORMANCE_DIALECT=hal.
pytestmark = pytest.mark.hal


def recent(text: str) -> bool:
    return abs(instant(text) - datetime.now(timezone.utc)) < timedelta(minutes=1)


def test_create_category(client):
    before = totals(client)
    code = unique("CAT")
    response = post(client, "/categories", {"code": code, "name": "Created", "id": 5,
                                            "updatedAt": "2000-01-01T00:00:00Z"})
    created = assert_hal(response, 201)
    assert set(created) == {"_links", "id", "code", "name", "updatedAt"}
    assert created["code"] == code and created["name"] == "Created"
    assert created["id"] > seed.CATEGORIES and recent(created["updatedAt"])
    assert path_of(response.headers["location"]) == f"/categories/{created['id']}"
    assert path_of(self_href(created)) == f"/categories/{created['id']}"
    assert assert_hal(client.get(f"/categories/{created['id']}")) == created
    assert totals(client) == (before[0] + 1, before[1])
    assert_seeded_category(assert_hal(client.get("/categories/5")), seed.category(5))


def test_strings_come_back_exactly_as_written(client):
    code = "  " + unique("é😀") + "\t"
    created = assert_hal(post(client, "/categories", {"code": code, "name": "😀" * 128}), 201)
    assert created["code"] == code and created["name"] == "😀" * 128
    assert assert_hal(client.get(f"/categories/{created['id']}"))["code"] == code


def test_replace_category(client, category):
    code = unique("REPL")
    response = put(client, f"/categories/{category['id']}", {"code": code, "name": "Replaced", "id": 1})
    replaced = assert_hal(response, 200)
    assert replaced["id"] == category["id"] and replaced["code"] == code and replaced["name"] == "Replaced"
    assert instant(replaced["updatedAt"]) >= instant(category["updatedAt"]) and recent(replaced["updatedAt"])
    assert assert_hal(client.get(f"/categories/{category['id']}")) == replaced
    assert_seeded_category(assert_hal(client.get("/categories/1")), seed.category(1))


def test_replace_keeping_its_own_code(client, category):
    replaced = assert_hal(put(client, f"/categories/{category['id']}", {"code": category["code"], "name": "Same"}))
    assert replaced["code"] == category["code"] and replaced["name"] == "Same"


def test_replace_without_a_change_still_sets_updated_at(client, category):
    replaced = assert_hal(put(client, f"/categories/{category['id']}",
                              {"code": category["code"], "name": category["name"]}))
    assert instant(replaced["updatedAt"]) > instant(category["updatedAt"])
    assert assert_hal(client.get(f"/categories/{category['id']}"))["updatedAt"] == replaced["updatedAt"]


def test_replace_an_absent_category_is_405_and_creates_nothing(client):
    before = totals(client)
    response = put(client, "/categories/999999999", {"code": unique("NOPE"), "name": "n"})
    assert_empty(response, 405)
    assert "PUT" not in {m.strip() for m in response.headers["allow"].split(",")}
    assert_empty(client.get("/categories/999999999"), 404)
    assert totals(client) == before


def test_duplicate_code_is_409_and_changes_nothing(client, category):
    before = totals(client)
    assert_message(post(client, "/categories", {"code": "CAT-0001", "name": "dup"}), 409)
    assert_message(put(client, f"/categories/{category['id']}", {"code": "CAT-0002", "name": "dup"}), 409)
    assert totals(client) == before
    assert assert_hal(client.get(f"/categories/{category['id']}")) == category
    assert_seeded_category(assert_hal(client.get("/categories/2")), seed.category(2))


def test_codes_are_case_sensitive(client):
    assert_hal(post(client, "/categories", {"code": "cat-0001", "name": "lower"}), 201)


@pytest.mark.parametrize("body,properties", [
    ({"name": "n"}, {"code"}),
    ({"code": None, "name": "n"}, {"code"}),
    ({"code": "", "name": "n"}, {"code"}),
    ({"code": " \t\r\n", "name": "n"}, {"code"}),
    ({"code": "x" * 33, "name": "n"}, {"code"}),
    ({"code": "😀" * 33, "name": "n"}, {"code"}),
    ({"code": "a\u0000b", "name": "n"}, {"code"}),
    ({"code": "ok", "name": "n" * 129}, {"name"}),
    ({"code": "ok"}, {"name"}),
    ({}, {"code", "name"}),
    ({"code": "", "name": ""}, {"code", "name"}),
])
def test_invalid_category_is_400_and_writes_nothing(client, body, properties):
    before = totals(client)
    assert_violations(post(client, "/categories", body), properties)
    assert_violations(put(client, "/categories/3", body), properties)
    assert totals(client) == before
    assert_seeded_category(assert_hal(client.get("/categories/3")), seed.category(3))


def test_lengths_count_code_points(client):
    created = assert_hal(post(client, "/categories", {"code": "😀" * 20 + unique("L")[:12], "name": "😀" * 128}),
                         201)
    assert len(created["code"]) == 32


def test_delete_category(client, category):
    before = totals(client)
    response = client.delete(f"/categories/{category['id']}")
    assert_empty(response, 204)
    assert_empty(client.get(f"/categories/{category['id']}"), 404)
    assert_empty(client.delete(f"/categories/{category['id']}"), 404)
    assert totals(client) == (before[0] - 1, before[1])


def test_delete_absent_category_is_404(client):
    assert_empty(client.delete("/categories/999999999"), 404)
    assert_empty(client.delete("/categories/0"), 404)


def test_delete_category_still_referenced_is_409_and_deletes_nothing(client):
    before = totals(client)
    assert_message(client.delete("/categories/3"), 409)
    assert totals(client) == before
    assert_seeded_category(assert_hal(client.get("/categories/3")), seed.category(3))
    assert [i["id"] for i in assert_hal(client.get("/items/search/byCategory?categoryId=3&size=50"))
            ["_embedded"]["items"]] == seed.items_of_category(3)


def test_delete_a_category_whose_items_are_gone(client, item):
    category_id = item["category"]["id"]
    assert_message(client.delete(f"/categories/{category_id}"), 409)
    assert_empty(client.delete(f"/items/{item['id']}"), 204)
    assert_empty(client.delete(f"/categories/{category_id}"), 204)
    assert_empty(client.get(category_uri(category_id)), 404)


def test_patch_is_not_served(client, category):
    assert_status(client.patch(f"/categories/{category['id']}", content=b'{"name": "x"}', headers=JSON), 405)
    assert assert_hal(client.get(f"/categories/{category['id']}")) == category
