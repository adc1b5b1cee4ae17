"""The rows a write step deletes are made through the stack before the step
(bench.measure.phases.vegeta_runs.make_rows): a stack still busy with the step before may answer
503 for a while, which is waited out; any other answer, or a 503 past the wait, fails the step."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench.errors import BenchError
from bench.measure.load.step_requests import Request
from bench.measure.phases import vegeta_runs


class _Busy(BaseHTTPRequestHandler):
    """Answers 503 to its first `busy` creates, then `status` with a new id."""

    busy = 0
    status = 201
    lock = threading.Lock()
    answers: list[int]

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with self.lock:
            if type(self).busy > 0:
                type(self).busy -= 1
                status = 503
            else:
                status = self.status
            self.answers.append(status)
            new_id = 100_000 + len(self.answers)
        answer = {"id": new_id} if status == 201 else {"status": status, "detail": f"answered {status} here"}
        body = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        """Quiet: the test reads the answers it gave instead."""


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Busy]]]:
    handler: type[_Busy] = type("Handler", (_Busy,), {"answers": []})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    httpd.shutdown()
    httpd.server_close()


def _creates(count: int) -> list[Request]:
    body = json.dumps({"sku": "X", "name": "x", "price": 1, "stock": 1, "categoryId": 1}).encode()
    return [Request("item_create", "POST", "/items", body, "application/json") for _ in range(count)]


def test_a_busy_stacks_503s_are_waited_out_and_every_row_is_made(server, monkeypatch):
    base_url, handler = server
    handler.busy = 12
    monkeypatch.setattr(vegeta_runs, "BUSY_PAUSE_S", 0.01)
    ids = vegeta_runs.make_rows(base_url, _creates(20), "api")
    assert len(ids) == 20 and len(set(ids)) == 20
    assert handler.answers.count(503) == 12 and handler.answers.count(201) == 20


def test_a_stack_busy_past_the_wait_or_answering_otherwise_fails_the_step(server, monkeypatch):
    base_url, handler = server
    handler.busy = 10_000
    monkeypatch.setattr(vegeta_runs, "BUSY_PAUSE_S", 0.01)
    monkeypatch.setattr(vegeta_runs, "BUSY_RETRY_S", 0.2)
    with pytest.raises(BenchError, match=r"answered 503 for 0.2 s to a create .*: answered 503 here\)"):
        vegeta_runs.make_rows(base_url, _creates(3), "api")
    handler.busy, handler.status = 0, 500
    handler.answers.clear()
    with pytest.raises(BenchError, match=r"answered 500 to a create"):
        vegeta_runs.make_rows(base_url, _creates(3), "api")
    assert 503 not in handler.answers, "a 500 is not sent again"
