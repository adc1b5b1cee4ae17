"""Category writes: create, replace, delete, conflicts and field validation."""

from datetime import datetime, timedelta, timezone

import pytest

from helpers import assert_json, assert_problem, instant, post, put, totals, unique

# spec/API.md's dialect only: run when CONFORMANCE_DIALECT=api (the default).
pytestmark = pytest.mark.api

NOW_TOLERANCE = timedelta(minutes=1)


def assert_recent(text: str) -> None:
    now = datetime.now(timezone.utc)
    assert abs(instant(text) - now) < NOW_TOLERANCE, f"updatedAt {text} is not the time of the write"


def test_create_category(client):
    code = unique("NEW")
    response = post(client, "/categories", {"code": code, "name": "Brand new", "id": 5, "updatedAt": "2000-01-01T00:00:00Z",
                                            "extra": {"ignored": True}})
    body = assert_json(response, 201)
    assert set(body) == {"id", "code", "name", "updatedAt"}
    assert body["code"] == code and body["name"] == "Brand new"
    assert body["id"] > 2000, "ids in a body are ignored; the sequence continues after the seed"
    assert_recent(body["updatedAt"])
    assert response.headers["location"].endswith(f"/categories/{body['id']}")
    assert assert_json(client.get(response.headers["location"]), 200) == body


def test_replace_category(client, category):
    code = unique("PUT")
    body = assert_json(put(client, f"/categories/{category['id']}", {"code": code, "name": "Renamed"}), 200)
    assert body["id"] == category["id"] and body["code"] == code and body["name"] == "Renamed"
    assert instant(body["updatedAt"]) >= instant(category["updatedAt"])
    assert_recent(body["updatedAt"])
    assert assert_json(client.get(f"/categories/{category['id']}"), 200) == body


def test_replace_keeping_its_own_code(client, category):
    body = assert_json(put(client, f"/categories/{category['id']}", {"code": category["code"], "name": "Same code"}), 200)
    assert body["code"] == category["code"] and body["name"] == "Same code"


def test_replace_absent_category_is_404(client):
    assert_problem(put(client, "/categories/999999999", {"code": unique("X"), "name": "x"}), 404)


def test_delete_category(client, category):
    response = client.delete(f"/categories/{category['id']}")
    assert response.status_code == 204
    assert response.content == b""
    assert_problem(client.get(f"/categories/{category['id']}"), 404)
    assert_problem(client.delete(f"/categories/{category['id']}"), 404)


def test_delete_absent_category_is_404(client):
    assert_problem(client.delete("/categories/999999999"), 404)


def test_delete_category_still_referenced_is_409_and_deletes_nothing(client):
    before = totals(client)
    assert_problem(client.delete("/categories/7"), 409)
    assert client.get("/categories/7").status_code == 200
    assert client.get("/items?categoryId=7").json()["page"]["totalElements"] == 50
    assert totals(client) == before


def test_duplicate_code_is_409(client, category):
    before = totals(client)
    assert_problem(post(client, "/categories", {"code": category["code"], "name": "dup"}), 409)
    assert_problem(post(client, "/categories", {"code": "CAT-0001", "name": "dup of seed"}), 409)
    assert totals(client) == before


def test_replace_with_a_taken_code_is_409_and_changes_nothing(client, category):
    assert_problem(put(client, f"/categories/{category['id']}", {"code": "CAT-0002", "name": "steal"}), 409)
    assert assert_json(client.get(f"/categories/{category['id']}"), 200) == category


def test_code_is_case_sensitive_and_not_trimmed(client):
    code = unique("case")
    assert_json(post(client, "/categories", {"code": code, "name": "lower"}), 201)
    assert_json(post(client, "/categories", {"code": code.upper(), "name": "upper"}), 201)
    spaced = assert_json(post(client, "/categories", {"code": f" {code} ", "name": "  padded  "}), 201)
    assert spaced["code"] == f" {code} " and spaced["name"] == "  padded  "


def test_unicode_and_quotes_round_trip(client):
    name = 'Ünïcødé 名前 🚀 "double" \'single\' \\ back\\slash\ttab\nnewline </script>'
    code = "🚀" * 20 + unique("u")[:12]
    body = assert_json(post(client, "/categories", {"code": code, "name": name}), 201)
    assert body["code"] == code and body["name"] == name
    assert assert_json(client.get(f"/categories/{body['id']}"), 200)["name"] == name


def test_lengths_count_code_points(client):
    assert_json(post(client, "/categories", {"code": "é" * 28 + unique("")[-4:], "name": "名" * 128}), 201)
    assert_json(post(client, "/categories", {"code": "😀" * 28 + unique("")[-4:], "name": "😀" * 128}), 201)
    assert_problem(post(client, "/categories", {"code": "😀" * 33, "name": "x"}), 422, {"code"})
    assert_problem(post(client, "/categories", {"code": unique("L"), "name": "😀" * 129}), 422, {"name"})


@pytest.mark.parametrize("body,fields", [
    ({}, {"code", "name"}),
    ({"code": "X"}, {"name"}),
    ({"name": "x"}, {"code"}),
    ({"code": None, "name": None}, {"code", "name"}),
    ({"code": "", "name": "x"}, {"code"}),
    ({"code": "   ", "name": "x"}, {"code"}),
    ({"code": "X", "name": " \t\r\n"}, {"name"}),
    ({"code": 123, "name": "x"}, {"code"}),
    ({"code": "X", "name": ["x"]}, {"name"}),
    ({"code": "X", "name": {"a": 1}}, {"name"}),
    ({"code": True, "name": False}, {"code", "name"}),
    ({"code": "X" * 33, "name": "x"}, {"code"}),
    ({"code": "X", "name": "x" * 129}, {"name"}),
    ({"code": "A\u0000B", "name": "x"}, {"code"}),
    ({"code": "X", "name": "nul \u0000 inside"}, {"name"}),
])
@pytest.mark.code_only
def test_invalid_category_is_422(client, body, fields):
    before = totals(client)
    assert_problem(post(client, "/categories", body), 422, fields)
    assert_problem(put(client, "/categories/1", body), 422, fields)
    assert totals(client) == before
    assert client.get("/categories/1").json()["code"] == "CAT-0001"


def test_maximum_lengths_are_accepted(client):
    code = unique("M")
    code = code + "m" * (32 - len(code))
    body = assert_json(post(client, "/categories", {"code": code, "name": "n" * 128}), 201)
    assert len(body["code"]) == 32 and len(body["name"]) == 128


@pytest.mark.code_only
def test_invalid_body_comes_before_absent_category(client):
    assert_problem(put(client, "/categories/999999999", {"code": ""}), 422, {"code", "name"})


def test_taken_code_on_absent_category_is_404(client):
    assert_problem(put(client, "/categories/999999999", {"code": "CAT-0001", "name": "x"}), 404)
