"""Request bodies: parseable JSON (400) and the HTTP/1.1 basics in every dialect; spec/API.md's
Content-Type (415), size (413) and body-level 422 (the HAL dialect's own are in test_hal_bodies.py)."""

import http.client
import json
from urllib.parse import urlsplit

import pytest

from helpers import (JSON, assert_json, assert_never_5xx, assert_problem, assert_still_serving, fuzzer_only,
                     raw_request, unique)

MIB = 1 << 20
WRITES = [("POST", "/categories"), ("PUT", "/categories/1"), ("POST", "/items"), ("PUT", "/items/1")]


def body_of_size(size: int) -> bytes:
    """A JSON category body of exactly `size` bytes (its name is far too long, so a 422 if read)."""
    head, tail = b'{"code":"X","name":"', b'"}'
    return head + b"n" * (size - len(head) - len(tail)) + tail


@pytest.mark.code_only
@pytest.mark.api
@pytest.mark.parametrize("method,path", WRITES)
@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "application/xml"])
def test_writes_without_json_content_type_are_415(client, method, path, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.request(method, path, content=json.dumps({"code": "X", "name": "y"}).encode(),
                              headers=headers)
    if content_type is None:
        assert "content-type" not in response.request.headers
    assert_problem(response, 415)


@pytest.mark.code_only
@pytest.mark.api
@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "application/json;charset=UTF-8",
                                          "Application/JSON"])
def test_json_content_type_with_parameters_is_accepted(client, content_type):
    body = {"code": unique("CT"), "name": "content type"}
    response = client.post("/categories", content=json.dumps(body).encode(), headers={"Content-Type": content_type})
    assert_json(response, 201)


@pytest.mark.api
@pytest.mark.parametrize("method,path", WRITES)
def test_body_over_1_mib_is_413(client, method, path):
    assert_problem(client.request(method, path, content=body_of_size(MIB + 1), headers=JSON), 413)


@pytest.mark.code_only
@pytest.mark.api
def test_content_type_comes_before_size(client):
    assert_problem(client.post("/categories", content=body_of_size(MIB + 1),
                               headers={"Content-Type": "text/plain"}), 415)


@pytest.mark.api
def test_body_of_exactly_1_mib_is_read(client):
    assert_problem(client.post("/categories", content=body_of_size(MIB), headers=JSON), 422, {"name"})


@pytest.mark.api
def test_chunked_body_over_1_mib_is_413(client):
    payload = body_of_size(MIB + 4096)
    chunks = (payload[i:i + 65536] for i in range(0, len(payload), 65536))
    response = client.post("/categories", content=chunks, headers=JSON)
    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert_problem(response, 413)


@pytest.mark.api
def test_chunked_body_is_read(client):
    payload = json.dumps({"code": unique("CH"), "name": "sent in chunks"}).encode()
    response = client.post("/categories", content=iter([payload[:7], payload[7:]]), headers=JSON)
    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert assert_json(response, 201)["name"] == "sent in chunks"


@pytest.mark.code_only
@pytest.mark.parametrize("method,path", WRITES)
@pytest.mark.parametrize("raw", [b"", b"{", b'{"code": "X",}', b"{'code': 'X'}", b"nul", b"[1, 2", b"{} x"])
def test_unparseable_json_is_400(client, dialect, method, path, raw):
    dialect.assert_error(client.request(method, path, content=raw, headers=JSON), 400)


@pytest.mark.code_only
@pytest.mark.api
@pytest.mark.parametrize("method,path", WRITES)
@pytest.mark.parametrize("raw", [b'{"code": "X"} trailing', b'\xff\xfe{"code"}', b'{"code": "X", "name": "y"'])
def test_trailing_data_a_bom_or_a_cut_body_is_400(client, method, path, raw):
    assert_problem(client.request(method, path, content=raw, headers=JSON), 400)


@pytest.mark.code_only
@pytest.mark.api
@pytest.mark.parametrize("method,path", WRITES)
@pytest.mark.parametrize("raw", [b"null", b"[]", b'[{"code": "X", "name": "y"}]', b'"x"', b"42", b"true"])
def test_json_that_is_not_an_object_is_422_on_the_body(client, method, path, raw):
    assert_problem(client.request(method, path, content=raw, headers=JSON), 422, {""})


@pytest.mark.api
def test_rejected_bodies_change_nothing(client, dialect):
    before = dialect.totals(client)
    for method, path in WRITES:
        client.request(method, path, content=b"{", headers=JSON)
        client.request(method, path, content=body_of_size(MIB + 1), headers=JSON)
        client.request(method, path, content=b"[]", headers=JSON)
        client.request(method, path, content=b"{}", headers={"Content-Type": "text/plain"})
    assert dialect.totals(client) == before
    assert client.get("/categories/1").json()["code"] == "CAT-0001"
    assert client.get("/items/1").json()["sku"] == "SKU-000001"


def test_keep_alive_serves_several_requests_on_one_connection(base_url, dialect):
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", "/items/1")
        first = conn.getresponse()
        first.read()
        sock = conn.sock
        assert sock is not None and not first.will_close, "the server closed a keep-alive connection"
        for path in ("/categories/1", "/items?size=2", "/items/100001", "/avatar", dialect.nested_path):
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            assert conn.sock is sock, f"the connection was not kept alive after {path}"
    finally:
        conn.close()


# Inputs only a fuzzer sends (spec/API.md): the framework's own answer is fine, whatever it is,
# as long as it is not a 5xx, a hang or a dead process. The bodies break the field rules if read
# as JSON (no name), so that no answer can change the data other cases read.

@pytest.mark.parametrize("method,path", WRITES)
@pytest.mark.parametrize("content_type", [
    "*/*", "application/*", "*/json",
    "application/json-patch+json", "application/merge-patch+json", "application/problem+json",
    "application/vnd.api+json; charset=utf-8",
    "multipart/form-data", "multipart/form-data; boundary=x", "multipart/mixed",
    ";;", "no/such; =", "application/json;;", "application/json; charset",
])
@pytest.mark.code_only
def test_fuzzer_only_content_types_on_writes_never_5xx(client, dialect, method, path, content_type):
    body = json.dumps({"code": "X", "sku": "X"}).encode()
    before = dialect.totals(client)
    answer = fuzzer_only(client, method, path, content=body, headers={"Content-Type": content_type})
    assert_never_5xx(answer, f"{method} {path} as {content_type}")
    assert answer is None or answer >= 400, f"{method} {path} as {content_type}: answered {answer}"
    assert dialect.totals(client) == before
    assert_still_serving(client)


@pytest.mark.code_only
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


@pytest.mark.code_only
@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "PRI"])
@pytest.mark.parametrize("path", ["/items", "/items/1", "nested", "/health"])
def test_a_body_on_trace_connect_or_pri_never_5xx(client, base_url, dialect, method, path):
    path = dialect.nested_path if path == "nested" else path
    body = b'{"code": "X"}'
    request = (f"{method} {path} HTTP/1.1\r\nHost: conformance\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
    answer = raw_request(base_url, request)
    # CONNECT asks a proxy for a tunnel: a server that implements no such thing may say so with
    # 501, the answer RFC 9110 (section 15.6.2) gives for a method it does not implement.
    if method == "CONNECT" and answer == 501:
        answer = None
    assert_never_5xx(answer, f"{method} {path} with a body")
    assert_still_serving(client)

