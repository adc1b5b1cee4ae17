"""Request bodies as Spring Data REST reads them: Content-Type, JSON syntax, JSON that is not an
object, and that nothing bad is ever written (spec/hal.md, "Writing")."""

import json

import pytest

from hal import assert_hal, assert_message, assert_status, assert_violations, category_uri, path_of, totals
from helpers import JSON, assert_still_serving, fuzzer_only, unique

# The HAL dialect only (spec/hal.md): run when CONFORMANCE_DIALECT=hal.
pytestmark = pytest.mark.hal

MIB = 1 << 20
WRITES = [("POST", "/categories"), ("PUT", "/categories/1"), ("POST", "/items"), ("PUT", "/items/1")]


def test_json_content_types_are_read(client):
    for content_type in ("application/json; charset=utf-8", "application/json;charset=UTF-8", "APPLICATION/JSON",
                         "application/hal+json", "application/json; charset"):
        created = assert_hal(client.post("/categories", content=json.dumps({"code": unique("CT"), "name": "n"}),
                                         headers={"Content-Type": content_type}), 201)
        assert created["name"] == "n", content_type


def test_a_body_without_content_type_is_read_as_json(client):
    code = unique("NOCT")
    created = assert_hal(client.post("/categories", content=json.dumps({"code": code, "name": "n"}).encode()), 201)
    assert assert_hal(client.get(path_of(created["_links"]["self"]["href"])))["code"] == code


@pytest.mark.parametrize("method,path", WRITES)
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml",
                                          "multipart/form-data; boundary=x"])
def test_a_body_of_another_concrete_type_is_400(client, method, path, content_type):
    before = totals(client)
    assert_message(client.request(method, path, content=b'{"code": "X", "name": "n"}',
                                  headers={"Content-Type": content_type}), 400)
    assert totals(client) == before


@pytest.mark.parametrize("method,path", WRITES)
@pytest.mark.parametrize("content_type", ["*/*", "application/*", ";;", "no/such; =",
                                          "application/json; charset=nope"])
def test_a_body_whose_type_is_not_one_concrete_media_type_is_415(client, method, path, content_type):
    before = totals(client)
    assert_message(client.request(method, path, content=b'{"code": "X", "name": "n"}',
                                  headers={"Content-Type": content_type}), 415)
    assert totals(client) == before


@pytest.mark.parametrize("method,path", WRITES)
@pytest.mark.parametrize("raw", [b"null", b"[]", b'[{"code": "X", "name": "y"}]', b'"x"', b"42", b"true"])
def test_json_that_is_not_an_object_is_400(client, method, path, raw):
    assert_message(client.request(method, path, content=raw, headers=JSON), 400)


@pytest.mark.parametrize("method,path", WRITES)
def test_an_empty_object_breaks_every_required_rule(client, method, path):
    expected = {"code", "name"} if "categories" in path else {"sku", "name", "price", "stock", "category"}
    if method == "PUT":
        expected.discard("category")  # a PUT keeps the item's category (spec/hal.md, "Writing")
    assert_violations(client.request(method, path, content=b"{}", headers=JSON), expected)


def body_of_size(size: int) -> bytes:
    """A JSON category body of exactly `size` bytes (its name is far too long, so a 400 if read)."""
    head, tail = b'{"code":"X","name":"', b'"}'
    return head + b"n" * (size - len(head) - len(tail)) + tail


def test_a_body_of_exactly_1_mib_is_judged_by_the_field_rules_and_its_value_echoed_cut(client):
    errors = assert_violations(client.post("/categories", content=body_of_size(MIB), headers=JSON), {"name"})
    # spec/hal.md: invalidValue repeats at most 256 characters of a string, then "…".
    assert errors[0]["invalidValue"] == "n" * 256 + "…", str(errors[0]["invalidValue"])[:300]


@pytest.mark.parametrize("method,path", WRITES)
def test_a_body_over_1_mib_is_413(client, method, path):
    assert_message(client.request(method, path, content=body_of_size(MIB + 1), headers=JSON), 413)


def test_a_chunked_body_over_1_mib_is_413(client):
    payload = body_of_size(MIB + 4096)
    chunks = (payload[i:i + 65536] for i in range(0, len(payload), 65536))
    response = client.post("/categories", content=chunks, headers=JSON)
    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert_message(response, 413)


def test_a_content_type_that_is_not_one_type_comes_before_size(client):
    assert_message(client.post("/categories", content=body_of_size(MIB + 1), headers={"Content-Type": "*/*"}), 415)


def test_rejected_bodies_change_nothing(client):
    before = totals(client)
    for method, path in WRITES:
        client.request(method, path, content=b"{", headers=JSON)
        client.request(method, path, content=b"[]", headers=JSON)
        client.request(method, path, content=b"{}", headers=JSON)
        client.request(method, path, content=b'{"code": "X", "name": "n"}', headers={"Content-Type": "text/plain"})
        client.request(method, path, content=b'{"code": "X", "name": "n"}', headers={"Content-Type": "*/*"})
    assert totals(client) == before
    category = assert_hal(client.get("/categories/1"))
    assert category["code"] == "CAT-0001" and category["updatedAt"].startswith("2026-01-01T00:00:01")
    item = assert_hal(client.get("/items/1"))
    assert item["sku"] == "SKU-000001" and item["updatedAt"].startswith("2026-01-01T00:00:01")


def test_a_chunked_body_is_read(client):
    def chunks():
        yield b'{"code": "'
        yield unique("CHUNK").encode()
        yield b'", "name": "chunked"}'

    assert assert_hal(client.post("/categories", content=chunks(), headers=JSON), 201)["name"] == "chunked"


@pytest.mark.parametrize("body", [
    {"sku": "X", "name": "n", "price": 1, "stock": 1, "category": {"id": 1}},
    {"sku": "X", "name": "n", "price": 1, "stock": 1, "category": ["/categories/1"]},
    {"sku": "X", "name": "n", "price": 1, "stock": 1, "category": 1},
    {"sku": "X", "name": "n", "price": {"value": 1}, "stock": 1, "category": "/categories/1"},
    {"sku": "X", "name": "n", "price": 1, "stock": [1], "category": "/categories/1"},
    {"sku": ["X"], "name": "n", "price": 1, "stock": 1, "category": "/categories/1"},
    {"sku": "X", "name": "n", "price": 1, "stock": 1, "category": "/categories/%zz"},
    {"sku": "X", "name": "n", "price": 1, "stock": 1, "category": "::"},
    {"sku": "X", "name": "n", "price": "1e999999999", "stock": 1, "category": "/categories/1"},
])
def test_odd_item_bodies_are_400_and_write_nothing(client, body):
    before = totals(client)
    assert_status(client.post("/items", content=json.dumps(body), headers=JSON), 400)
    assert_status(client.put("/items/1", content=json.dumps(body), headers=JSON), 400)
    assert totals(client) == before
    assert assert_hal(client.get("/items/1"))["updatedAt"].startswith("2026-01-01T00:00:01")
    assert_still_serving(client)


@pytest.mark.parametrize("raw", [b"", b"\n", b"\r\n\r\n", b"# a comment", b"/categories/1\n/categories/2",
                                 b"/categories/1\r\n\r\n/categories/2", b"garbage", b"/categories/abc",
                                 b"/categories/%zz", b"::", b"/categories/99999999999999999999", b"\x00",
                                 b"{", b"a{b", b"/categories/{id}", b"/categories/1{",
                                 b"\xf2\x93\x81\x9e{\xf2\xa9\xac\x82", b"/categories/", b"/", b"http://host"])
def test_odd_category_links_are_4xx_and_move_nothing(client, raw):
    answer = fuzzer_only(client, "PUT", "/items/2/category", content=raw, headers={"Content-Type": "text/uri-list"})
    assert answer is not None and 400 <= answer < 500, f"PUT /items/2/category {raw!r}: {answer}"
    assert assert_hal(client.get("/items/2?projection=inlineCategory"))["category"]["id"] == 2
    assert_still_serving(client)


def test_a_category_link_of_another_type_is_read_as_its_id(client, item):
    """spec/hal.md, "Writing": only the last segment of a category link is read."""
    other = assert_hal(client.post("/categories", content=json.dumps({"code": unique("L"), "name": "n"}),
                                   headers=JSON), 201)
    response = client.put(f"/items/{item['id']}/category", content=f"/whatever/{other['id']}".encode(),
                          headers={"Content-Type": "text/uri-list"})
    assert_status(response, 204)
    moved = assert_hal(client.get(f"/items/{item['id']}?projection=inlineCategory"))
    assert moved["category"]["id"] == other["id"]
    assert category_uri(other["id"]) == path_of(moved["category"]["_links"]["self"]["href"])
