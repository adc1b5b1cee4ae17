"""A stand-in for a stack: answers every endpoint the runner's probes send, with the statuses
the real stacks answer; GET /items/{id}/stock asks the stock upstream at STOCK_URL, as a stack
does. With DATABASE_URL, its creates and deletes of items and categories are made in the database
(the lost-write check looks them up); FAKE_APP_LOSES=item_create or item_delete answers that
write 201 or 204 without making it, as a stack that loses writes would. Nothing else touches the
database."""

import itertools
import json
import os
import signal
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cgroup

LOSES = os.environ.get("FAKE_APP_LOSES", "")
UNMADE = itertools.count(900_001)


class Database:
    """One connection, opened by the first write (a stand-in that only reads holds none), one
    request at a time."""

    def __init__(self, url):
        self.url, self.conn, self.lock = url, None, threading.Lock()

    def one(self, sql, params):
        import psycopg

        with self.lock:
            if self.conn is None:
                self.conn = psycopg.connect(self.url, autocommit=True)
            row = self.conn.execute(sql, params).fetchone()
        return row[0] if row else None


DATABASE = Database(os.environ["DATABASE_URL"]) if os.environ.get("DATABASE_URL") else None


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
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

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
        body = self._read_body()
        if json.loads(body or b"{}").get("sku") == "":
            # The training walk's invalid item (bench.training): the contract's 422.
            self._answer(422, {"status": 422})
        elif DATABASE is None:
            self._answer(201, {"id": 100_001})
        elif LOSES == "item_create":
            # A 201 with an id of its own, as a real answer has, and no row behind it.
            self._answer(201, {"id": next(UNMADE)})
        elif self.path == "/items":
            item = json.loads(body)
            new = DATABASE.one(
                "INSERT INTO item (sku, name, price, stock, description, category_id) VALUES (%s, %s, %s, %s, %s, %s)"
                " RETURNING id",
                (item["sku"], item["name"], item["price"], item["stock"], item["description"], item["categoryId"]),
            )
            self._answer(201, {"id": new, "sku": item["sku"]})
        else:
            category = json.loads(body)
            new = DATABASE.one(
                "INSERT INTO category (code, name) VALUES (%s, %s) RETURNING id", (category["code"], category["name"])
            )
            self._answer(201, {"id": new, "code": category["code"]})

    def do_PUT(self):
        self._read_body()
        self._answer(200, {"id": 1})

    def do_DELETE(self):
        if DATABASE is not None and LOSES != "item_delete":
            DATABASE.one("DELETE FROM item WHERE id = %s RETURNING id", (int(self.path.rsplit("/", 1)[1]),))
        self._answer(204)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    # As API.md asks of a stack: SIGTERM ends it cleanly, exit 0. The handler only sets a flag.
    # Raising from it (sys.exit) can land inside Thread.start() while the server starts a
    # request's thread, turn into "release unlocked lock", be swallowed by socketserver and leave
    # the process serving until it is killed. Nor may it take a lock (threading.Event.set does):
    # a wrapper's second SIGTERM runs the handler again inside the first, on the lock it holds,
    # and the one thread waits on itself for good.
    stopping: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    if cgroup.enabled():
        cgroup.start_app()
    server = ThreadingHTTPServer((os.environ["HOST"], int(os.environ["PORT"])), Handler)
    server.timeout = 0.1
    while not stopping:
        server.handle_request()
    server.server_close()
    sys.exit(0)
