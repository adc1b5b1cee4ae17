import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from httpx import AsyncClient, Response
from starlette.types import Message, Scope

from app.api.deps import body_budget
from app.main import app
from tests.utils import JSON, assert_problem, send_json

pytestmark = pytest.mark.anyio

MIB = 1024 * 1024


def category_body_of_size(size: int) -> bytes:
    """A category body of exactly `size` bytes whose name is far too long (a 422 once read)."""
    head, tail = b'{"code":"X","name":"', b'"}'
    return head + b"n" * (size - len(head) - len(tail)) + tail


async def test_unknown_route_and_trailing_slash_are_404(client: AsyncClient) -> None:
    assert_problem(await client.get("/nothing"), 404)
    assert_problem(await client.get("/items/"), 404)


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/items", {"GET", "POST"}),
        ("PATCH", "/items/abc", {"GET", "PUT", "DELETE"}),
        ("POST", "/categories/1", {"GET", "PUT", "DELETE"}),
        ("PUT", "/categories/1/items", {"GET"}),
        ("POST", "/health", {"GET"}),
    ],
)
async def test_wrong_method_is_405_with_allow(
    client: AsyncClient, method: str, path: str, allowed: set[str]
) -> None:
    response = await client.request(method, path)

    assert_problem(response, 405)
    assert allowed <= {m.strip() for m in response.headers["allow"].split(",")}


@pytest.mark.parametrize(
    "path",
    [
        "/items/abc",
        "/items/1.5",
        "/items/1e3",
        "/items/0x10",
        "/items/99999999999999999999",
        "/items/9223372036854775808",
        "/items/%205",  # " 5": int() would take it
        "/items/5%20",
        "/items/1_0",  # int() would take it as 10
        "/items/%EF%BC%95",  # fullwidth 5
        "/categories/%D9%A3",  # Arabic-Indic 3
        "/items/+",
        "/items/-",
        "/items/--5",
        "/items/+-5",
    ],
)
async def test_malformed_path_id_is_400(client: AsyncClient, path: str) -> None:
    assert_problem(await client.get(path), 400)


@pytest.mark.parametrize(("path", "item_id"), [("/items/+5", 5), ("/items/%2B5", 5), ("/items/007", 7)])
async def test_path_id_with_a_plus_sign_or_leading_zeros_is_the_integer(
    client: AsyncClient, path: str, item_id: int
) -> None:
    response = await client.get(path)

    assert response.status_code == 200
    assert response.json()["id"] == item_id


@pytest.mark.parametrize(
    "query",
    [
        "page=",
        "page=-1",
        "page=x",
        "size=0",
        "size=101",
        "size=",
        "categoryId=",
        "categoryId=1.5",
        "categoryId=9223372036854775808",
        "page=+5",  # form-decoded: " 5"
        "page=1_0",
        "page=1.0",
        "page=1e3",
        "size=%EF%BC%95",
        "categoryId=%D9%A1%D9%A2",
        "categoryId=-",
    ],
)
async def test_malformed_query_parameter_is_400(client: AsyncClient, query: str) -> None:
    assert_problem(await client.get(f"/items?{query}"), 400)


async def test_query_integers_take_a_plus_sign_and_leading_zeros(client: AsyncClient) -> None:
    body = (await client.get("/items?page=%2B5&size=002&categoryId=%2B7")).json()

    assert body["page"]["number"] == 5 and body["page"]["size"] == 2
    assert [item["id"] for item in body["content"]] == [20007, 22007]


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/xml"])
async def test_write_without_json_content_type_is_415(client: AsyncClient, content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}

    assert_problem(await client.post("/categories", content=b'{"code":"X","name":"y"}', headers=headers), 415)


async def test_body_over_1_mib_is_413_also_chunked(client: AsyncClient) -> None:
    assert_problem(
        await client.post("/categories", content=category_body_of_size(MIB + 1), headers=JSON), 413
    )

    payload = category_body_of_size(MIB + 4096)

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(payload), 65536):
            yield payload[start : start + 65536]

    response = await client.post("/categories", content=chunks(), headers=JSON)
    assert "content-length" not in response.request.headers
    assert_problem(response, 413)


async def test_body_of_exactly_1_mib_is_read(client: AsyncClient) -> None:
    assert_problem(
        await client.post("/categories", content=category_body_of_size(MIB), headers=JSON), 422, {"name"}
    )


async def test_body_over_what_is_left_of_the_budget_is_503_and_not_read(
    client: AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = category_body_of_size(1000)
    read = False

    async def chunks() -> AsyncIterator[bytes]:
        nonlocal read
        read = True
        yield payload

    # Other requests' bodies hold the rest of the budget: one byte short for this body.
    monkeypatch.setattr(body_budget, "available", len(payload) - 1)
    response = await client.post("/categories", content=payload, headers=JSON)
    assert assert_problem(response, 503)["detail"] == "the server is busy, try again shortly"
    assert response.headers["connection"] == "close"
    # A chunked body counts as the 1 MiB it may grow to.
    monkeypatch.setattr(body_budget, "available", MIB - 1)
    assert_problem(await client.post("/categories", content=chunks(), headers=JSON), 503)
    assert not read
    # Requests without a body are served as ever.
    assert (await client.get("/categories/1")).status_code == 200

    monkeypatch.setattr(body_budget, "available", MIB)
    assert_problem(await client.post("/categories", content=chunks(), headers=JSON), 422, {"name"})
    assert body_budget.available == MIB


async def test_a_client_that_closes_part_way_through_its_body_is_a_400_without_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # What granian hands the app when a client closes its connection part-way through a body:
    # the part that arrived, then http.disconnect. httpx's ASGITransport cannot send that, so the
    # app is called as granian calls it. Whatever the app raises, granian logs with a traceback.
    arriving: list[Message] = [
        {"type": "http.request", "body": category_body_of_size(1000)[:500], "more_body": True}
    ]
    sent: list[Message] = []

    async def receive() -> Message:
        return arriving.pop(0) if arriving else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/categories",
        "raw_path": b"/categories",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"test"), (b"content-type", b"application/json"), (b"content-length", b"1000")],
        "client": ("127.0.0.1", 50000),
        "server": ("test", 80),
    }
    available = body_budget.available

    with caplog.at_level(logging.DEBUG):
        await app(scope, receive, send)

    start, body = sent
    assert_problem(Response(start["status"], headers=start["headers"], content=body["body"]), 400)
    assert body_budget.available == available
    # Not a fault of the server's: one line below error level, without a traceback.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    [record] = [r for r in caplog.records if r.name == "app.api.deps"]
    assert record.levelno == logging.INFO
    assert "closed its connection" in record.getMessage()


@pytest.mark.parametrize("raw", [b"", b"{", b'{"code": "X",}', b"NaN", b'{"code": "X"} x', b"\xff\xfe"])
async def test_unparseable_json_is_400(client: AsyncClient, raw: bytes) -> None:
    assert_problem(await client.post("/categories", content=raw, headers=JSON), 400)


@pytest.mark.parametrize("body", [None, [], "x", 42])
async def test_body_that_is_not_an_object_is_422_on_the_body(client: AsyncClient, body: Any) -> None:
    assert_problem(await send_json(client, "POST", "/items", body), 422, {""})


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({}, {"sku", "name", "price", "stock", "categoryId"}),
        ({"sku": " \t\r\n", "name": "", "price": 1, "stock": 1, "categoryId": 1}, {"sku", "name"}),
        ({"sku": "x" * 65, "name": 128, "price": 1, "stock": 1, "categoryId": 1}, {"sku", "name"}),
        (
            {"sku": "a", "name": "b", "price": "9.99", "stock": True, "categoryId": None},
            {"price", "stock", "categoryId"},
        ),
        (
            {"sku": "a", "name": "b", "price": 1.234, "stock": 1.5, "categoryId": 1.5},
            {"price", "stock", "categoryId"},
        ),
        (
            {"sku": "a", "name": "b", "price": -0.01, "stock": -1, "categoryId": "1"},
            {"price", "stock", "categoryId"},
        ),
        (
            {"sku": "a", "name": "b", "price": 100000000, "stock": 2**31, "categoryId": 2**63},
            {"price", "stock", "categoryId"},
        ),
        (
            {
                "sku": "a\u0000",
                "name": "b",
                "price": 1,
                "stock": 1,
                "categoryId": 1,
                "description": "x" * 16385,
            },
            {"sku", "description"},
        ),
    ],
)
async def test_invalid_fields_are_422_one_entry_each(
    client: AsyncClient, body: dict[str, Any], fields: set[str]
) -> None:
    assert_problem(await send_json(client, "POST", "/items", body), 422, fields)


async def test_checks_come_in_the_contract_order(client: AsyncClient) -> None:
    # bad path id before Content-Type, Content-Type before size, size before JSON syntax.
    assert_problem(await client.put("/items/abc", content=b"{", headers={"Content-Type": "text/plain"}), 400)
    assert_problem(await client.put("/items/1", content=category_body_of_size(MIB + 1), headers={}), 415)
    assert_problem(await client.put("/items/1", content=b"{" * (MIB + 1), headers=JSON), 413)
    # invalid fields before an absent resource
    assert_problem(await send_json(client, "PUT", "/items/999999999", {"sku": ""}), 422)


async def test_avatar_redirects_with_302(client: AsyncClient) -> None:
    seen = set()
    for _ in range(50):
        response = await client.get("/avatar")
        assert response.status_code == 302
        assert response.content == b""
        location = response.headers["location"]
        assert location.startswith("https://avatar.example.com/Renard-") and location.endswith(".png")
        seen.add(int(location.removeprefix("https://avatar.example.com/Renard-").removesuffix(".png")))
    assert seen <= set(range(1, 22)) and len(seen) > 5


async def test_health_is_up(client: AsyncClient) -> None:
    response = await client.get("/health")

    assert response.status_code == 200
    assert response.json() == {"status": "UP"}
