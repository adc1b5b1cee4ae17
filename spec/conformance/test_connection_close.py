"""Clients that close after their last request (spec/API.md: keep-alive and pipelining work as
HTTP/1.1 says, RFC 9112 9.3.2 and 9.6).

- A kept-alive GET read to its end, then a GET with `Connection: close` on the same connection:
  the last request is answered in full, and then the server closes the connection.
- Pipelined GETs written at once, one of them with `Connection: close`: every request up to and
  including the closing one is answered, in order, and then the server closes the connection.
  The ones after the closing request are not processed (the RFC's MUST NOT), so no answer to them
  may arrive either."""

from __future__ import annotations

import http.client
import json
import socket
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable
from urllib.parse import urlsplit

import pytest

import seed

# A fault in 1 try of 15 passes 200 tries with a probability of (14/15)**200, about 1e-6.
TRIES = 200
# Tries run on this many connections at once: enough to keep the suite fast, few enough not to
# queue at a stack's database pool.
IN_PARALLEL = 10
# How long a request may go unanswered, and the connection stay open after the last answer.
ANSWER_TIMEOUT_S = 5.0


def _request(target: str, *, close: bool) -> bytes:
    connection = "Connection: close\r\n" if close else ""
    return f"GET {target} HTTP/1.1\r\nHost: conformance\r\nAccept: */*\r\n{connection}\r\n".encode()


class _Lent:
    """The connection's one buffered reader, lent to each answer in turn. http.client reads ahead
    into its buffer, so pipelined answers must share one reader, and it closes the reader it was
    given at the end of each answer; the connection's reader is closed with its socket instead."""

    def __init__(self, sock: socket.socket) -> None:
        self._reader = sock.makefile("rb")

    def makefile(self, *_args: object, **_kwargs: object) -> _Lent:
        return self

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reader, name)

    def close(self) -> None:
        pass


def _read_answer(reader: _Lent) -> tuple[int, dict | None]:
    """Reads one answer to a GET to its end: its status, and its body when that is a JSON object."""
    response = http.client.HTTPResponse(reader, method="GET")  # type: ignore[arg-type]
    response.begin()
    body = response.read()
    try:
        document = json.loads(body) if "json" in response.getheader("Content-Type", "") else None
    except ValueError:
        document = None
    return response.status, document if isinstance(document, dict) else None


def _connect(base_url: str) -> socket.socket:
    """A connection of its own for one try."""
    parts = urlsplit(base_url)
    return socket.create_connection((parts.hostname, parts.port or 80), timeout=ANSWER_TIMEOUT_S)


def _assert_every_try_passes(one_try: Callable[[int], str | None]) -> None:
    """Runs `one_try(n)` for n in 1..TRIES, IN_PARALLEL at a time; each returns its fault or None."""
    with ThreadPoolExecutor(IN_PARALLEL) as pool:
        faults = [fault for fault in pool.map(one_try, range(1, TRIES + 1)) if fault is not None]
    assert not faults, f"{len(faults)} of {TRIES} tries failed, the first ones: " + "; ".join(faults[:5])


def _exchange(sock: socket.socket, target: str, *, close: bool) -> tuple[int, dict | None]:
    """Sends a GET of `target` on `sock` and reads its answer to the end."""
    sock.sendall(_request(target, close=close))
    return _read_answer(_Lent(sock))


def closing_after_a_kept_alive_request(base_url: str, category_id: int, item_id: int) -> str | None:
    """One try on a connection of its own; what went wrong, or None."""
    with _connect(base_url) as sock:
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
    _assert_every_try_passes(lambda n: closing_after_a_kept_alive_request(base_url, n, n))


# Three reads of distinct resources, so that an answer out of order is seen.
def _pipelined_targets(n: int) -> list[tuple[str, str, object]]:
    """The targets of try `n`: (path, the answer's field that names it, its value)."""
    return [(f"/categories/{n}", "id", n), (f"/items/{n}", "sku", seed.item(n)["sku"]),
            (f"/categories/{n + 1}", "id", n + 1)]


def pipelined_with_a_close(base_url: str, n: int, close_at: int) -> str | None:
    """One try: the three GETs of `_pipelined_targets(n)` in one write on a connection of its own,
    the one at `close_at` with `Connection: close`; what went wrong, or None."""
    targets = _pipelined_targets(n)
    with _connect(base_url) as sock:
        sock.sendall(b"".join(_request(path, close=index == close_at) for index, (path, _, _) in enumerate(targets)))
        reader = _Lent(sock)
        step = "the first answer"
        try:
            for index, (path, field, value) in enumerate(targets[: close_at + 1]):
                step = f"answer {index + 1} of {len(targets)} (GET {path}), the close on {close_at + 1}"
                status, document = _read_answer(reader)
                if status != 200 or document is None or document.get(field) != value:
                    return f"{step}: {status} {document}"
            step = f"the server's close after answer {close_at + 1} of {len(targets)}"
            if reader.read(1) != b"":
                return f"{step}: more bytes instead"
        except TimeoutError:
            return f"{step}: nothing within {ANSWER_TIMEOUT_S:.0f} s"
        except (http.client.HTTPException, OSError) as error:
            return f"{step}: {error!r}"
    return None


@pytest.mark.parametrize("close_at", [2, 1], ids=["the-last", "the-middle"])
def test_pipelined_requests_are_answered_in_order_up_to_the_closing_one(base_url, close_at):
    assert TRIES + 1 <= seed.CATEGORIES <= seed.ITEMS, "each try reads two categories and an item"
    _assert_every_try_passes(lambda n: pipelined_with_a_close(base_url, n, close_at))
