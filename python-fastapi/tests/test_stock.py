"""GET /items/{id}/stock against a fake stock upstream: the standard library's HTTP server in a
thread, one scripted answer per item id, any other id a 404 as the real upstream answers."""

import json
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from httpx import ASGITransport, AsyncClient

from app import stock
from app.api.deps import get_stock_client
from app.main import app, lifespan
from tests.utils import assert_problem

pytestmark = pytest.mark.anyio

Answer = Callable[[BaseHTTPRequestHandler], None]
# Hanging answers wait on this, set when the module's tests are done.
released = threading.Event()
# What the fake was asked: (path, Accept).
asked: list[tuple[str, str]] = []


def json_answer(status: int, body: object) -> Answer:
    def answer(handler: BaseHTTPRequestHandler) -> None:
        raw = (body if isinstance(body, str) else json.dumps(body)).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(raw)))
        handler.end_headers()
        handler.wfile.write(raw)

    return answer


def redirect(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(302)
    handler.send_header("Location", "/stock/5")
    handler.send_header("Content-Length", "0")
    handler.end_headers()


def close_at_once(handler: BaseHTTPRequestHandler) -> None:
    handler.close_connection = True


def close_mid_body(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Length", "40")
    handler.end_headers()
    handler.wfile.write(b'{"quantity":')
    handler.close_connection = True


def hang(handler: BaseHTTPRequestHandler) -> None:
    released.wait(10)
    handler.close_connection = True


def stall_mid_body(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Length", "40")
    handler.end_headers()
    handler.wfile.write(b'{"quantity":')
    handler.wfile.flush()
    hang(handler)


SCRIPT: dict[str, Answer] = {
    "5": json_answer(200, {"itemId": 5, "quantity": 12, "warehouse": "A"}),
    "-3": json_answer(200, {"itemId": -3, "quantity": 0}),
    "6": json_answer(200, {"itemId": 7, "quantity": 2**31 - 1}),
    "7": json_answer(500, {"status": 500}),
    "8": json_answer(503, {}),
    "9": redirect,
    "10": json_answer(200, "not json"),
    "11": json_answer(200, ""),
    "12": json_answer(200, [{"quantity": 5}]),
    "13": json_answer(200, {"quantity": "5"}),
    "14": json_answer(200, {"quantity": 1.5}),
    "15": json_answer(200, {"quantity": -1}),
    "16": json_answer(200, {"quantity": 2**31}),
    "17": json_answer(200, {"quantity": True}),
    "18": json_answer(200, {"itemId": 18}),
    "19": json_answer(200, 5),
    "20": close_at_once,
    "21": close_mid_body,
    "22": hang,
    "23": stall_mid_body,
}


class Upstream(BaseHTTPRequestHandler):
    # Keep-alive, as a pooled client expects.
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        asked.append((self.path, self.headers.get("Accept", "")))
        SCRIPT.get(self.path.removeprefix("/stock/"), json_answer(404, {"status": 404}))(self)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def upstream_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    released.set()
    server.shutdown()
    server.server_close()


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


async def client_for(upstream: str) -> AsyncIterator[AsyncClient]:
    async with stock.new_client(upstream) as stock_client:
        app.dependency_overrides[get_stock_client] = lambda: stock_client
        try:
            async with AsyncClient(transport=ASGITransport(app=app), base_url="http://test") as client:
                yield client
        finally:
            app.dependency_overrides.pop(get_stock_client)


@pytest.fixture
async def api(upstream_url: str) -> AsyncIterator[AsyncClient]:
    async for client in client_for(upstream_url):
        yield client


@pytest.mark.parametrize("written", ["5", "+5", "%2B5", "005"])
async def test_the_quantity_is_asked_for_the_canonical_id(
    api: AsyncClient, statements: list[str], written: str
) -> None:
    response = await api.get(f"/items/{written}/stock")

    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {"itemId": 5, "quantity": 12}
    assert asked[-1] == ("/stock/5", "application/json")
    assert statements == [], "the stock of an item is no database read"


@pytest.mark.parametrize(("item_id", "quantity"), [(-3, 0), (6, 2**31 - 1)])
async def test_the_id_asked_and_the_bounds_of_a_quantity(
    api: AsyncClient, item_id: int, quantity: int
) -> None:
    response = await api.get(f"/items/{item_id}/stock")

    assert response.json() == {"itemId": item_id, "quantity": quantity}


async def test_no_stock_record_is_404(api: AsyncClient) -> None:
    body = assert_problem(await api.get("/items/4/stock"), 404)

    assert body["detail"] == "no stock record for item 4"


@pytest.mark.parametrize("bad", ["abc", "1.5", "99999999999999999999", "%20", "0x10", "1_0", "+"])
async def test_a_malformed_id_is_400_and_the_upstream_is_not_asked(api: AsyncClient, bad: str) -> None:
    before = len(asked)

    assert_problem(await api.get(f"/items/{bad}/stock"), 400)
    assert len(asked) == before


async def test_other_methods_are_405_with_allow(api: AsyncClient) -> None:
    response = await api.post("/items/5/stock", json={})

    assert_problem(response, 405)
    assert "GET" in response.headers["allow"]


@pytest.mark.parametrize("item_id", [7, 8, 9])
async def test_any_other_status_is_502_asked_once_and_a_redirect_is_not_followed(
    api: AsyncClient, item_id: int
) -> None:
    before = len(asked)

    assert_problem(await api.get(f"/items/{item_id}/stock"), 502)
    assert [path for path, _ in asked[before:]] == [f"/stock/{item_id}"]


@pytest.mark.parametrize("item_id", range(10, 20))
async def test_a_200_without_a_valid_quantity_is_502(api: AsyncClient, item_id: int) -> None:
    assert_problem(await api.get(f"/items/{item_id}/stock"), 502)


@pytest.mark.parametrize("item_id", [20, 21])
async def test_a_connection_closed_before_a_whole_answer_is_502(api: AsyncClient, item_id: int) -> None:
    assert_problem(await api.get(f"/items/{item_id}/stock"), 502)


@pytest.mark.parametrize("item_id", [22, 23])
async def test_no_answer_within_1_s_is_504(
    api: AsyncClient, item_id: int, caplog: pytest.LogCaptureFixture
) -> None:
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        response = await api.get(f"/items/{item_id}/stock")
    elapsed = time.monotonic() - started

    assert_problem(response, 504)
    assert 0.9 <= elapsed < 2, f"answered after {elapsed:.2f} s"
    # The upstream's fault: one line, no traceback.
    [record] = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "ReadTimeout" in record.getMessage()


async def test_a_refused_connection_is_502(caplog: pytest.LogCaptureFixture) -> None:
    async for api in client_for(closed_port_url()):
        with caplog.at_level(logging.WARNING):
            assert_problem(await api.get("/items/5/stock"), 502)
    assert "ConnectError" in caplog.text


async def test_the_lifespan_opens_the_client_and_closes_it() -> None:
    async with lifespan(app) as state:
        client = state["stock_client"]
        assert isinstance(client, httpx.AsyncClient) and not client.is_closed
    assert client.is_closed
