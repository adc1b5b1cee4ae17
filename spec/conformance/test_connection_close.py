"""A client that closes after its last request: a kept-alive GET read to its end, then a GET with
`Connection: close` on the same connection (spec/API.md: keep-alive works as HTTP/1.1 says). The
last request is answered in full, and then the server closes the connection."""

from __future__ import annotations

import http.client
import json
import socket
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import seed

# A fault in 1 try of 15 passes 200 tries with a probability of (14/15)**200, about 1e-6.
TRIES = 200
# Tries run on this many connections at once: enough to keep the suite fast, few enough not to
# queue at a stack's database pool.
IN_PARALLEL = 10
# How long a request may go unanswered, and the connection stay open after the last answer.
ANSWER_TIMEOUT_S = 5.0


def _exchange(sock: socket.socket, target: str, *, close: bool) -> tuple[int, dict | None]:
    """Sends a GET of `target` on `sock` and reads its answer to the end: its status, and its body
    when that is a JSON object."""
    connection = "Connection: close\r\n" if close else ""
    sock.sendall(f"GET {target} HTTP/1.1\r\nHost: conformance\r\nAccept: */*\r\n{connection}\r\n".encode())
    response = http.client.HTTPResponse(sock, method="GET")
    response.begin()
    body = response.read()
    try:
        document = json.loads(body) if "json" in response.getheader("Content-Type", "") else None
    except ValueError:
        document = None
    return response.status, document if isinstance(document, dict) else None


def closing_after_a_kept_alive_request(base_url: str, category_id: int, item_id: int) -> str | None:
    """One try on a connection of its own; what went wrong, or None."""
    parts = urlsplit(base_url)
    with socket.create_connection((parts.hostname, parts.port or 80), timeout=ANSWER_TIMEOUT_S) as sock:
        step = f"GET /categories/{category_id}"
        try:
            status, category = _exchange(sock, f"/categories/{category_id}", close=False)
            if status != 200 or category is None or category.get("id") != category_id:
                return f"{step} (kept alive): {status} {category}"
            step = f"GET /items/{item_id} with Connection: close after {step}"
            status, item = _exchange(sock, f"/items/{item_id}", close=True)
            if status != 200 or item is None or item.get("sku") != seed.item(item_id)["sku"]:
                return f"{step}: {status} {item}"
            step = f"the server's close after {step}"
            if sock.recv(1) != b"":
                return f"{step}: more bytes instead"
        except TimeoutError:
            return f"{step}: nothing within {ANSWER_TIMEOUT_S:.0f} s"
        except (http.client.HTTPException, OSError) as error:
            return f"{step}: {error!r}"
    return None


def test_a_closing_request_after_a_kept_alive_one_is_answered(base_url):
    assert TRIES <= seed.CATEGORIES <= seed.ITEMS, "each try reads a category and an item of its own"
    with ThreadPoolExecutor(IN_PARALLEL) as pool:
        outcomes = pool.map(lambda n: closing_after_a_kept_alive_request(base_url, n, n), range(1, TRIES + 1))
        faults = [fault for fault in outcomes if fault is not None]
    assert not faults, f"{len(faults)} of {TRIES} tries failed, the first ones: " + "; ".join(faults[:5])
