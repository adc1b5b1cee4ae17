"""The stock upstream of GET /items/{id}/stock (spec/API.md, "The stock of an item"), faked in the
suite's own process so that each case scripts what it answers.

The runner chooses a port, starts the stack with STOCK_URL=http://127.0.0.1:PORT and tells the
suite CONFORMANCE_UPSTREAM_PORT=PORT; the fake listens there for the whole session (on
CONFORMANCE_UPSTREAM_HOST, 127.0.0.1 unless a container must reach it). A case takes an item id no
other case uses (`new_id`), scripts the answer to `GET /stock/{id}` (`script`), asks the stack, and
reads what the stack asked (`asked`). An id no case scripted is answered 404, as the real upstream
answers an item it does not know.

The fake keeps every connection open until the stack closes it: it never closes an idle
keep-alive connection itself, so that no case sees the race of a connection closed under a request.
"""

from __future__ import annotations

import itertools
import json
import random
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT_VARIABLE = "CONFORMANCE_UPSTREAM_PORT"
HOST_VARIABLE = "CONFORMANCE_UPSTREAM_HOST"
# How long a hanging answer hangs at most: far past the stack's 1 s, and the session's end
# releases it sooner.
HANG_S = 30.0
# How long a request waits at most for the others of its gathering: well inside the stack's 1 s.
GATHER_S = 0.5


@dataclass(frozen=True)
class Answer:
    """What the fake does with one request: an HTTP answer (after `delay_s`), or nothing at all."""

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    delay_s: float = 0.0
    # Close the connection without a byte of answer.
    close: bool = False
    # Read the request and never answer it (until HANG_S or the end of the session).
    hang: bool = False
    # Hold each request for the item until this many are in flight at once, or GATHER_S has
    # passed, before the delay: how wide the stack's pool is shows in `peak`, however fast or
    # slowly the machine lets the stack send them.
    gather: int = 0


def json_answer(body: object, status: int = 200, **kwargs) -> Answer:
    return Answer(status=status, body=json.dumps(body).encode(), **kwargs)


def quantity(item_id: int, value: object, **kwargs) -> Answer:
    """The real upstream's 200, with a field the stack must ignore."""
    return json_answer({"itemId": item_id, "quantity": value, "warehouse": "conformance"}, **kwargs)


CLOSE = Answer(close=True)
HANG = Answer(hang=True)


@dataclass(frozen=True)
class Asked:
    """One request the stack sent to the fake."""

    method: str
    path: str
    accept: str


@dataclass
class _State:
    scripts: dict[str, Answer] = field(default_factory=dict)
    asked: list[Asked] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    released: threading.Event = field(default_factory=threading.Event)
    # Per path: the requests being answered now, and the most there were at once.
    in_flight: dict[str, int] = field(default_factory=dict)
    peak: dict[str, int] = field(default_factory=dict)
    gathered: threading.Condition = field(init=False)

    def __post_init__(self) -> None:
        self.gathered = threading.Condition(self.lock)


class _Handler(BaseHTTPRequestHandler):
    # Keep-alive, as the stacks' pooled clients expect of an upstream.
    protocol_version = "HTTP/1.1"
    server: _Server

    def do_GET(self) -> None:
        state = self.server.state
        with state.lock:
            state.asked.append(Asked("GET", self.path, self.headers.get("Accept", "")))
            answer = state.scripts.get(self.path.removeprefix("/stock/"))
            now = state.in_flight[self.path] = state.in_flight.get(self.path, 0) + 1
            state.peak[self.path] = max(state.peak.get(self.path, 0), now)
            gather = answer.gather if answer else 0
            if gather:
                state.gathered.notify_all()
                state.gathered.wait_for(lambda: state.peak[self.path] >= gather, GATHER_S)
        try:
            self._answer(answer)
        finally:
            with state.lock:
                state.in_flight[self.path] -= 1

    def _answer(self, answer: Answer | None) -> None:
        state = self.server.state
        if answer is None:
            answer = json_answer({"status": 404, "detail": "no such item"}, status=404)
        if answer.hang:
            state.released.wait(HANG_S)
        elif answer.delay_s:
            state.released.wait(answer.delay_s)
        if answer.close or answer.hang:
            self.close_connection = True
            return
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(answer.body)))
        for name, value in answer.headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(answer.body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    # Hundreds of connections may arrive at once (the burst case); the default backlog of 5
    # would drop their SYNs, and a retried SYN waits a second, past the stack's timeout.
    request_queue_size = 1024

    def __init__(self, address: tuple[str, int], state: _State) -> None:
        self.state = state
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, _Handler)

    def process_request(self, request, client_address) -> None:
        with self.connections_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:
        with self.connections_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def drop_connections(self) -> None:
        with self.connections_lock:
            open_now, self.connections = self.connections, set()
        for connection in open_now:
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)


class FakeUpstream:
    """The fake stock upstream on host:port, listening from `start` to `close`."""

    def __init__(self, host: str, port: int) -> None:
        self.address = (host, port)
        self._state = _State()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        # Ids far from the seed's and the real upstream's (1 to 100,000), one per case.
        self._ids = itertools.count(random.randrange(10**12, 10**15))

    def new_id(self) -> int:
        return next(self._ids)

    def script(self, item_id: int, answer: Answer) -> None:
        with self._state.lock:
            self._state.scripts[str(item_id)] = answer

    def asked(self, item_id: int | None = None) -> list[Asked]:
        """The requests the stack sent, every one or those for one item id."""
        with self._state.lock:
            asked = list(self._state.asked)
        if item_id is None:
            return asked
        return [a for a in asked if a.path == f"/stock/{item_id}"]

    def peak(self, item_id: int) -> int:
        """The most requests for the item the fake was answering at once."""
        with self._state.lock:
            return self._state.peak.get(f"/stock/{item_id}", 0)

    def start(self) -> None:
        self._server = _Server(self.address, self._state)
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-upstream", daemon=True)
        self._thread.start()

    def _stop_listening(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        self._server.drop_connections()
        self._server = None

    @contextmanager
    def refusing(self) -> Iterator[None]:
        """Nothing listens on the port for the length of the block, and the connections the
        stack holds are closed: its next request is refused. Listens again afterwards."""
        self._stop_listening()
        try:
            yield
        finally:
            self.start()

    def close(self) -> None:
        self._state.released.set()
        self._stop_listening()
