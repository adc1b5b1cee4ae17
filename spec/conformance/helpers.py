"""Assertions shared by the conformance tests: dialect-neutral ones, and spec/API.md's own (the
HAL dialect's are in hal.py)."""

from __future__ import annotations

import json
import socket
import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

import httpx

PROBLEM_TYPE = "application/problem+json"
JSON = {"Content-Type": "application/json"}

# spec/API.md, "Errors": the title of a problem is its status's reason phrase in RFC 9110, word for word.
TITLES = {
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}
# spec/API.md, "Inputs only a fuzzer sends": how long such a request may go unanswered before it
# counts as a hang.
FUZZER_ONLY_TIMEOUT_S = 10.0

# httpx builds a TLS context for every client it makes, loading the CA bundle even for an http://
# URL: about 65 ms each, which was most of a conformance run (a client per case). One context,
# made as httpx makes it, serves every client of the suite.
TLS = httpx.create_ssl_context()


def new_client(base_url: str | httpx.URL, **kwargs: Any) -> httpx.Client:
    """An httpx client of the suite's own: no redirect followed, the shared TLS context."""
    return httpx.Client(base_url=base_url, follow_redirects=False, verify=TLS, **kwargs)


def unique(prefix: str) -> str:
    """A code or sku no other test (nor a rerun) uses."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def instant(text: str) -> datetime:
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    offset = parsed.utcoffset()
    assert offset is not None, f"updatedAt {text!r} has no time zone"
    assert offset.total_seconds() == 0, f"updatedAt {text!r} is not in UTC"
    return parsed


def number(value) -> Decimal:
    assert isinstance(value, (int, float, Decimal)) and not isinstance(value, bool), f"{value!r} is not a JSON number"
    return Decimal(str(value))


def assert_problem(response: httpx.Response, status: int, fields: set[str] | None = None) -> dict:
    """A problem+json body with the given status (and, for 422, exactly these invalid fields)."""
    assert response.status_code == status, (
        f"{response.request.method} {response.request.url.raw_path.decode()}: expected {status}, "
        f"got {response.status_code}: {response.text[:300]}")
    content_type = response.headers.get("content-type", "")
    assert content_type.startswith(PROBLEM_TYPE), f"Content-Type is {content_type!r}, not {PROBLEM_TYPE}"
    body = response.json()
    assert body.get("type") == "about:blank", body
    assert body.get("status") == status, body
    assert_title(body, status)
    assert isinstance(body.get("detail"), str) and body["detail"], body
    for leak in ("Exception", "Traceback", "SELECT ", "INSERT ", "panic", " at java.", "SQLSTATE"):
        assert leak not in body["detail"], f"detail leaks internals: {body['detail']!r}"
    if status == 422:
        errors = body.get("errors")
        assert isinstance(errors, list) and errors, f"a 422 needs errors[]: {body}"
        for entry in errors:
            assert isinstance(entry.get("field"), str), entry
            assert isinstance(entry.get("message"), str) and entry["message"], entry
        if fields is not None:
            assert {e["field"] for e in errors} == fields, f"invalid fields {errors} != {sorted(fields)}"
    return body


def assert_title(body: dict, status: int) -> None:
    """The problem's title is the reason phrase of its status, word for word."""
    assert body.get("title") == TITLES[status], (
        f"a {status} problem is titled {body.get('title')!r}, not {TITLES[status]!r}")


def exact_json(response: httpx.Response):
    """The body parsed with every JSON number with a fraction or exponent as a Decimal, so a
    price is compared by the exact value of its text, never through a binary double."""
    return json.loads(response.text, parse_float=Decimal)


def assert_never_5xx(answer: int | None, what: str) -> None:
    """An input only a fuzzer sends: any answer below 500 (the framework's own 4xx, problem
    JSON or not, or the request's ordinary answer when the framework ignores the oddity) or a
    closed connection (`answer` None) is fine; a 5xx is not. A hang fails in the caller."""
    assert answer is None or answer < 500, f"{what}: answered {answer}"


def fuzzer_only(client: httpx.Client, method: str, path: str, **kwargs) -> int | None:
    """Sends a request only a fuzzer sends; its status, or None when the server closed the
    connection instead of answering. A request unanswered for FUZZER_ONLY_TIMEOUT_S fails."""
    # On a connection of its own, dropped after the answer: a server may close the connection
    # after refusing a body it did not read, and the close can arrive after the client has sent
    # its next request on it (seen with rust-axum in a container), which then fails for no fault
    # of the stack. A connection of its own rather than `Connection: close` on the shared one, so
    # that this case tests the input alone (test_connection_close.py tests that header).
    try:
        with new_client(client.base_url) as own:
            return own.request(method, path, timeout=FUZZER_ONLY_TIMEOUT_S, **kwargs).status_code
    except httpx.TimeoutException:
        raise AssertionError(f"{method} {path}: no answer within {FUZZER_ONLY_TIMEOUT_S:.0f} s") from None
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError):
        return None


def raw_request(base_url: str, request: bytes) -> int | None:
    """Sends bytes as they are over a new connection (for requests no HTTP client library will
    send) and returns the status of the answer, or None when the server closed the connection
    without one. No answer within FUZZER_ONLY_TIMEOUT_S fails."""
    parts = urlsplit(base_url)
    with socket.create_connection((parts.hostname, parts.port or 80), timeout=FUZZER_ONLY_TIMEOUT_S) as sock:
        try:
            sock.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            return None
        reader = sock.makefile("rb")
        try:
            status_line = reader.readline(65537)
        except socket.timeout:
            raise AssertionError(f"no answer within {FUZZER_ONLY_TIMEOUT_S:.0f} s to {request[:60]!r}") from None
        except ConnectionResetError:
            return None
        if not status_line:
            return None
        version, _, rest = status_line.decode("latin-1").partition(" ")
        assert version.startswith("HTTP/"), f"not an HTTP answer to {request[:60]!r}: {status_line[:100]!r}"
        return int(rest[:3])


def padded_target(octets: int) -> str:
    """`/items?size=2` padded with an unknown parameter to a request target of `octets` octets."""
    start = "/items?size=2&pad="
    return start + "x" * (octets - len(start))


def raw_get(base_url: str, target: str) -> int | None:
    """A GET of `target` sent by raw_request: HTTP client libraries refuse URLs past 64 KiB."""
    request = f"GET {target} HTTP/1.1\r\nHost: conformance\r\nConnection: close\r\n\r\n"
    return raw_request(base_url, request.encode())


def assert_still_serving(client: httpx.Client) -> None:
    """The process survived what it was sent: it still answers /health."""
    assert client.get("/health").status_code == 200, "the stack no longer answers /health"


def assert_json(response: httpx.Response, status: int) -> Any:
    assert response.status_code == status, (
        f"{response.request.method} {response.request.url.raw_path.decode()}: expected {status}, "
        f"got {response.status_code}: {response.text[:300]}")
    content_type = response.headers.get("content-type", "")
    assert content_type.startswith("application/json"), f"Content-Type is {content_type!r}"
    return response.json()


def assert_seeded_item(actual: dict, expected: dict) -> None:
    assert set(actual) == {"id", "sku", "name", "price", "stock", "description", "categoryId",
                           "category", "updatedAt"}, sorted(actual)
    assert type(actual["id"]) is int and type(actual["stock"]) is int and type(actual["categoryId"]) is int
    assert number(actual["price"]) == expected["price"], (actual["price"], expected["price"])
    assert instant(actual["updatedAt"]) == expected["updatedAt"]
    for key in ("id", "sku", "name", "stock", "description", "categoryId", "category"):
        assert actual[key] == expected[key], f"{key}: {actual[key]!r} != {expected[key]!r}"


def assert_seeded_category(actual: dict, expected: dict) -> None:
    assert set(actual) == {"id", "code", "name", "updatedAt"}, sorted(actual)
    assert instant(actual["updatedAt"]) == expected["updatedAt"]
    for key in ("id", "code", "name"):
        assert actual[key] == expected[key]


def assert_page(body: dict, *, size: int, number: int, total: int) -> list:
    assert set(body) == {"content", "page"}, sorted(body)
    assert body["page"] == {"size": size, "number": number, "totalElements": total,
                            "totalPages": -(-total // size)}, body["page"]
    assert isinstance(body["content"], list)
    return body["content"]


def post(client: httpx.Client, path: str, body, headers: dict | None = None) -> httpx.Response:
    return client.post(path, content=json.dumps(body), headers=headers or JSON)


def put(client: httpx.Client, path: str, body, headers: dict | None = None) -> httpx.Response:
    return client.put(path, content=json.dumps(body), headers=headers or JSON)


def totals(client: httpx.Client) -> tuple[int, int]:
    """(categories, items) as the API counts them."""
    categories = assert_json(client.get("/categories?size=1"), 200)["page"]["totalElements"]
    items = assert_json(client.get("/items?size=1"), 200)["page"]["totalElements"]
    return categories, items
