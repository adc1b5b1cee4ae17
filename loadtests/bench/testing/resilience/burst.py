"""The resilience case's bursts: N clients that each connect and send one `POST` with a near-limit
body, all at once, and say what they were answered. Run as a process of its own in the load
generator's cgroup (`python -m bench.testing.resilience.burst`), so that it has CPU 1 alone.

Why not oha, which sent them until 2026-12-05: oha sends each connection's request whole as its
one CPU gets to it, so the last heads of a burst leave seconds after their connections were made.
In a capture of the loopback traffic of a burst of 2,000 against java-spring, oha's first byte on
a connection came 1.5 s after its handshake (the median of those answered; 3.6 s at the most, and
up to 9.6 s on those that were not). Tomcat, whose wait for a new connection's first bytes is
java-spring's 3 s (spec/API.md allows any wait that closes a header line every 5 s), closed 172 to
924 of 2,000 connections unanswered in each of 8 runs on a quiet machine (CI's at de2cf31 one of
them), and still in 5 of 7 with oha's worker threads or processes changed; rust-axum, which then
read far more of the bodies one after another than it refused, was OOM-killed in 3 of 6. A client
that sent each request whole as soon as it was connected did no better (3 of 4 failed). That is
not the case described: 2,000 clients on machines of their own send their heads at once, and
their bodies then share the link. So here each client sends its request in pieces of SEND_PIECE
and lets every other client have a turn between pieces: every head is out in the first round, a
fraction of a second, and the bodies follow together as the server reads them. With it,
java-spring answered 422 or 503 to all 6,000 in 4 runs of 4, and rust-axum peaked at 77 to 84 MiB
in 3 of 3.

Each client reads while it sends, as a server may answer (a 503, a 413) before it has read the body
and then close the connection: what it answered is read even when sending the rest failed. Why a
client has no answer is one of this module's names (verdict.BODY_WRITE_ERROR the one excused)."""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.testing.resilience.clients import request_head, status_line_status
from bench.testing.resilience.verdict import BODY_WRITE_ERROR

CLOSED_UNANSWERED = "closed without an answer"
RESET_UNANSWERED = "reset without an answer"
CONNECT_REFUSED = "connection refused"
CONNECT_FAILED = "connection failed"
NO_ANSWER_IN_TIME = "no answer in time"
# A client's turn: small enough that a round of 4,000 of them is a fraction of a second of copying.
SEND_PIECE = 64 * 1024
# The most of a response read to find its status line: a status line is far shorter.
STATUS_LINE_LIMIT = 8192


def status_of(received: bytes) -> int | None:
    """The final status in what a server sent (interim 1xx answers skipped); None while no final
    status line is complete."""
    while b"\r\n" in received:
        status = status_line_status(received.partition(b"\r\n")[0])
        if status is None or not 100 <= status < 200:
            return status
        _, blank, received = received.partition(b"\r\n\r\n")  # past the interim answer
        if not blank:
            return None
    return None


async def _status(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> int | None:
    """The status the server answers; None when it closes first. A reset raises."""
    received = b""
    while len(received) < STATUS_LINE_LIMIT:
        chunk = await loop.sock_recv(sock, 4096)
        if not chunk:
            return None
        received += chunk
        if (status := status_of(received)) is not None:
            return status
    return None


async def _send(loop: asyncio.AbstractEventLoop, sock: socket.socket, request: memoryview) -> None:
    """The request in pieces, each after every other client's turn: the heads of all of them go
    out in the first round, as 2,000 clients on their own machines would send them, and the bodies
    follow together as the server reads them."""
    for start in range(0, len(request), SEND_PIECE):
        await loop.sock_sendall(sock, request[start : start + SEND_PIECE])
        await asyncio.sleep(0)


async def one_request(host: str, port: int, request: memoryview, limit_s: float) -> int | str:
    """One client: its status, or why it has none (one of this module's error names). It has
    `limit_s` to connect, as a client held in the listen queue waits, and then as long again for
    its answer."""
    loop = asyncio.get_running_loop()
    pending: list[asyncio.Future[Any]] = []
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setblocking(False)
        try:
            try:
                async with asyncio.timeout(limit_s):
                    await loop.sock_connect(sock, (host, port))
            except ConnectionRefusedError:
                return CONNECT_REFUSED
            except OSError:  # TimeoutError included: no handshake within the limit
                return CONNECT_FAILED
            async with asyncio.timeout(limit_s):
                answer = asyncio.ensure_future(_status(loop, sock))
                sending = asyncio.ensure_future(_send(loop, sock, request))
                pending += [answer, sending]
                await asyncio.wait({answer, sending}, return_when=asyncio.FIRST_COMPLETED)
                body_sent = sending.done() and sending.exception() is None
                if not sending.done():
                    sending.cancel()
                try:
                    status = await answer
                except OSError:
                    status = None
                    unanswered = RESET_UNANSWERED
                else:
                    unanswered = CLOSED_UNANSWERED
                if status is not None:
                    return status
                # Unanswered with the body not all sent: the server closed the connection while
                # it was being written, as one does after a 503 whose bytes the reset discarded.
                return unanswered if body_sent else BODY_WRITE_ERROR
        except TimeoutError:
            return NO_ANSWER_IN_TIME
        finally:
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)  # off the socket before it closes


async def burst(host: str, port: int, path: str, body: bytes, size: int, limit_s: float) -> Counter[int | str]:
    request = memoryview(request_head(host, port, path, len(body)) + body)
    outcomes = await asyncio.gather(*(one_request(host, port, request, limit_s) for _ in range(size)))
    return Counter(outcomes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", default="/items")
    parser.add_argument("--body", type=Path, required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--limit-s", type=float, required=True)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args(argv)
    started = time.monotonic()
    outcomes = asyncio.run(burst(args.host, args.port, args.path, args.body.read_bytes(), args.size, args.limit_s))
    result = {
        "statuses": {str(k): n for k, n in sorted(outcomes.items(), key=str) if isinstance(k, int)},
        "errors": {k: n for k, n in sorted(outcomes.items(), key=str) if isinstance(k, str)},
        "seconds": round(time.monotonic() - started, 3),
    }
    args.output.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
