"""Request bodies as Spring Data REST reads them: Content-Type, JSON syntax, JSON that is not an
object, and that nothing bad is ever written (spec/hal.md, "Writing")."""

import http.client
import json
from urllib.parse import urlsplit

import pytest

from helpers import (JSON, assert_hal, assert_message, assert_never_5xx, assert_status, assert_still_serving,
                     assert_violations, category_uri, fuzzer_only, path_of, raw_request, totals, unique)

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
@pytest.mark.parametrize("raw", [b"", b"{", b'{"code": "X",}', b"{'code': 'X'}", b"nul", b"[1, 2", b"{} x"])
def test_unparseable_json_is_400(client, method, path, raw):
    assert_message(client.request(method, path, content=raw, headers=JSON), 400)


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


def test_a_body_of_a_mib_is_judged_by_the_field_rules(client):
    body = b'{"code":"X","name":"' + b"n" * MIB + b'"}'
    assert_violations(client.post("/categories", content=body, headers=JSON), {"name"})


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


def test_keep_alive_serves_several_requests_on_one_connection(base_url):
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", "/items/1")
        first = conn.getresponse()
        first.read()
        sock = conn.sock
        assert sock is not None and not first.will_close, "the server closed a keep-alive connection"
        for path in ("/categories/1", "/items?size=2", "/items/100001", "/avatar", "/items/search/byCategory"):
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            assert conn.sock is sock, f"the connection was not kept alive after {path}"
    finally:
        conn.close()


def test_a_chunked_body_is_read(client):
    def chunks():
        yield b'{"code": "'
        yield unique("CHUNK").encode()
        yield b'", "name": "chunked"}'

    assert assert_hal(client.post("/categories", content=chunks(), headers=JSON), 201)["name"] == "chunked"


# Inputs only a fuzzer sends: never a 5xx, a hang or a dead process. The bodies break the field
# rules (no name) so that whatever reads them writes nothing.

@pytest.mark.parametrize("method,path", WRITES)
@pytest.mark.parametrize("content_type", [
    "*/*", "application/*", "*/json",
    "application/json-patch+json", "application/merge-patch+json", "application/problem+json",
    "application/vnd.api+json; charset=utf-8",
    "multipart/form-data", "multipart/form-data; boundary=x", "multipart/mixed",
    ";;", "no/such; =", "application/json;;", "application/json; charset",
])
def test_fuzzer_only_content_types_on_writes_never_5xx(client, method, path, content_type):
    body = json.dumps({"code": "X", "sku": "X"}).encode()
    before = totals(client)
    answer = fuzzer_only(client, method, path, content=body, headers={"Content-Type": content_type})
    assert_never_5xx(answer, f"{method} {path} as {content_type}")
    assert answer is None or answer >= 400, f"{method} {path} as {content_type}: answered {answer}"
    assert totals(client) == before
    assert_still_serving(client)


@pytest.mark.parametrize("method,path", WRITES)
def test_a_real_multipart_body_never_5xx(client, method, path):
    body = (b"--b0undary\r\nContent-Disposition: form-data; name=\"code\"\r\n\r\nX\r\n"
            b"--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.json\"\r\n"
            b"Content-Type: application/json\r\n\r\n{\"code\": \"X\"}\r\n--b0undary--\r\n")
    answer = fuzzer_only(client, method, path, content=body,
                         headers={"Content-Type": "multipart/form-data; boundary=b0undary"})
    assert_never_5xx(answer, f"multipart {method} {path}")
    assert answer is None or answer >= 400, f"multipart {method} {path}: answered {answer}"
    assert_still_serving(client)


@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "PRI"])
@pytest.mark.parametrize("path", ["/items", "/items/1", "/items/1/category", "/health"])
def test_a_body_on_trace_connect_or_pri_never_5xx(client, base_url, method, path):
    body = b'{"code": "X"}'
    request = (f"{method} {path} HTTP/1.1\r\nHost: conformance\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
    answer = raw_request(base_url, request)
    # CONNECT asks a proxy for a tunnel: 501 is RFC 9110's answer for a method not implemented.
    if method == "CONNECT" and answer == 501:
        answer = None
    assert_never_5xx(answer, f"{method} {path} with a body")
    assert_still_serving(client)


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
