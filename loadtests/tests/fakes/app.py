"""A stand-in for a stack: answers every endpoint the runner's probes send, with the statuses
the real stacks answer, and touches no database; GET /items/{id}/stock asks the stock upstream
at STOCK_URL, as a stack does."""

import json
import os
import signal
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cgroup


class Handler(BaseHTTPRequestHandler):
    def _answer(self, status, body=None, headers=()):
        payload = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _read_body(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_GET(self):
        if self.path == "/avatar":
            self._answer(302, headers=[("Location", "https://avatar.example.com/x.png")])
        elif self.path == "/health":
            self._answer(200, {"status": "UP"})
        elif self.path == "/items/0":
            self._answer(404, {"status": 404})
        elif self.path.endswith("/stock"):
            item = self.path.split("/")[2]
            with urllib.request.urlopen(f"{os.environ['STOCK_URL']}/stock/{item}", timeout=2) as answer:
                self._answer(200, {"itemId": int(item), "quantity": json.load(answer)["quantity"]})
        else:
            self._answer(200, {"id": 1})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if json.loads(body or b"{}").get("sku") == "":
            self._answer(422, {"status": 422})
        else:
            self._answer(201, {"id": 100_001})

    def do_PUT(self):
        self._read_body()
        self._answer(200, {"id": 1})

    def do_DELETE(self):
        self._answer(204)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    # As API.md asks of a stack: SIGTERM ends it cleanly, exit 0.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if cgroup.enabled():
        cgroup.start_app()
    ThreadingHTTPServer((os.environ["HOST"], int(os.environ["PORT"])), Handler).serve_forever()
