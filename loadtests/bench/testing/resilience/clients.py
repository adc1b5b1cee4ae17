"""The resilience case's own clients (burst.py sends the bursts): one oversized body, read while it is
sent; ordinary requests on new connections; slow clients that never end their headers. Test
clients, not load generators: each does one thing and says what it saw."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bench.records import Dialect
from bench.testing.resilience.verdict import MIB, ORDINARY_LIMIT_S, Ordinary, Slow, SlowConnection

OVERSIZED_CHUNK = MIB
# `name` allows 1 to 128 characters. 1,040,000 leaves the whole body (about 1,040,100 bytes) under
# the 1,048,576-byte limit, so the stack has to read each body to the end before it can answer.
NEAR_LIMIT_NAME_CHARS = 1_040_000
# Past the default pools of thread-per-connection servers (200 threads for Tomcat and Jetty).
SLOW_CONNECTIONS = 1500
# The spec's example of a between-reads timeout that must still close within the 10 s.
SLOW_LINE_EVERY_S = 5.0
# Three times the limit: a connection still open then was never going to be closed. The hold ends
# as soon as every slow connection is closed.
SLOW_HOLD_S = 30.0
# A server that accepts nothing for this long is not holding 1,500 clients, it is refusing them.
SLOW_CONNECT_S = 10.0
ORDINARY_EVERY_S = 0.25
ORDINARY_PATHS = ("/items/1", "/health")


def item_body(dialect: Dialect) -> tuple[bytes, bytes]:
    """A valid item in `dialect` but for its `name`, as the two halves around the name's
    characters: a body of any length is the prefix, that many characters less theirs, the suffix."""
    category = '"category":"/categories/1"' if dialect == "hal" else '"categoryId":1'
    prefix = b'{"sku":"RESILIENCE-1","price":1.5,"stock":1,' + category.encode() + b',"name":"'
    return prefix, b'"}'


def near_limit_body(dialect: Dialect) -> bytes:
    prefix, suffix = item_body(dialect)
    return prefix + b"x" * NEAR_LIMIT_NAME_CHARS + suffix


def request_head(host: str, port: int, path: str, length: int) -> bytes:
    """The head of a `POST` of a JSON body of `length` bytes."""
    return (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def status_line_status(line: bytes) -> int | None:
    """The status of an HTTP status line; None when it is not one."""
    parts = line.split(None, 2)
    if len(parts) >= 2 and parts[0].startswith(b"HTTP/") and parts[1].isdigit():
        return int(parts[1])
    return None


async def _status_line(reader: asyncio.StreamReader) -> int | None:
    """The final status the server answers, None when it closes first; interim 1xx answers skipped."""
    while True:
        try:
            line = await reader.readline()
        except (ConnectionError, asyncio.LimitOverrunError, ValueError):
            return None
        status = status_line_status(line)
        if status is None or not 100 <= status < 200:
            return status
        while (await reader.readline()).strip():
            pass


async def send_oversized(
    host: str, port: int, path: str, *, dialect: Dialect, total_bytes: int, limit_s: float
) -> tuple[int | None, str, int]:
    """POSTs a JSON body of `total_bytes` with its Content-Length, reading the answer while it
    sends: a server that answers 413 and closes early is heard even when the rest of the body can
    no longer be written. (status or None, why not, bytes sent)."""
    prefix, suffix = item_body(dialect)
    filler = total_bytes - len(prefix) - len(suffix)
    head = request_head(host, port, path, total_bytes)
    sent = 0
    try:
        async with asyncio.timeout(limit_s):
            reader, writer = await asyncio.open_connection(host, port)
            try:
                answer = asyncio.ensure_future(_status_line(reader))
                writer.write(head + prefix)
                sent = len(prefix)
                chunk = b"x" * OVERSIZED_CHUNK
                while filler > 0 and not answer.done():
                    piece = chunk[: min(filler, len(chunk))]
                    if len(piece) == filler:
                        piece += suffix
                        filler += len(suffix)
                    writer.write(piece)
                    draining = asyncio.ensure_future(writer.drain())
                    await asyncio.wait({draining, answer}, return_when=asyncio.FIRST_COMPLETED)
                    if not draining.done():
                        draining.cancel()
                        break
                    if draining.exception() is not None:
                        break  # the server closed: what it answered before is still read
                    sent += len(piece)
                    filler -= len(piece)
                status = await answer
            finally:
                writer.transport.abort()
    except TimeoutError:
        return None, f"no answer within {limit_s:g} s", sent
    except OSError as error:
        return None, f"connection failed: {error}", sent
    return status, "" if status is not None else "connection closed without an answer", sent


async def _read_response(reader: asyncio.StreamReader) -> int | None:
    """One answer read to its end; its status."""
    status = await _status_line(reader)
    if status is None:
        return None
    length: int | None = None
    chunked = False
    while line := (await reader.readline()).strip():
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        elif name.strip().lower() == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        while (size := int((await reader.readline()).split(b";")[0].strip() or b"0", 16)) > 0:
            await reader.readexactly(size + 2)
        while (await reader.readline()).strip():
            pass
    elif length is not None:
        await reader.readexactly(length)
    else:
        await reader.read()
    return status


async def ordinary_request(host: str, port: int, path: str, limit_s: float) -> Ordinary:
    """GET `path` on a new connection: its status and time, or why there is none within `limit_s`."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    writer: asyncio.StreamWriter | None = None
    try:
        async with asyncio.timeout(limit_s):
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
            status = await _read_response(reader)
    except TimeoutError:
        return Ordinary(path, None, loop.time() - started, f"no answer within {limit_s:g} s")
    except (OSError, ValueError, asyncio.IncompleteReadError) as error:
        return Ordinary(path, None, loop.time() - started, f"{type(error).__name__}: {error}")
    finally:
        if writer is not None:
            writer.transport.abort()
    return Ordinary(path, status, loop.time() - started, "" if status is not None else "closed without an answer")


async def _until_closed(reader: asyncio.StreamReader) -> tuple[float, int | None]:
    """When the server closed the connection (end of stream or reset), and the status it answered first."""
    head = b""
    try:
        while data := await reader.read(65536):
            head = (head + data)[:64]
    except ConnectionError:
        pass
    return asyncio.get_running_loop().time(), status_line_status(head.split(b"\r\n", 1)[0]) if head else None


async def slow_connection(
    host: str,
    port: int,
    *,
    line_every_s: float,
    hold_until: float,
    connect_s: float,
    opened: Callable[[], None] = lambda: None,
) -> SlowConnection:
    """A request line and a header, then one more header line every `line_every_s`, never the end
    of the headers, until the server closes the connection or the loop's clock reaches `hold_until`.
    `opened` is called once the connection is made or has failed."""
    loop = asyncio.get_running_loop()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), connect_s)
    except (OSError, TimeoutError):
        return SlowConnection(connected=False, closed_after_s=None)
    finally:
        opened()
    first_byte = loop.time()
    closed = asyncio.ensure_future(_until_closed(reader))
    try:
        writer.write(f"GET /items/1 HTTP/1.1\r\nHost: {host}:{port}\r\n".encode())
        lines = 0
        while True:
            next_line = first_byte + (lines + 1) * line_every_s
            await asyncio.wait({closed}, timeout=max(0.0, min(next_line, hold_until) - loop.time()))
            if closed.done():
                closed_at, answer = closed.result()
                return SlowConnection(connected=True, closed_after_s=closed_at - first_byte, answer=answer)
            if loop.time() >= hold_until:
                return SlowConnection(connected=True, closed_after_s=None)
            lines += 1
            if not writer.transport.is_closing():
                writer.write(f"X-Slow-{lines}: {lines}\r\n".encode())
    finally:
        closed.cancel()
        writer.transport.abort()


async def slow_clients(
    host: str,
    port: int,
    *,
    connections: int = SLOW_CONNECTIONS,
    line_every_s: float = SLOW_LINE_EVERY_S,
    hold_s: float = SLOW_HOLD_S,
    connect_s: float = SLOW_CONNECT_S,
    ordinary_every_s: float = ORDINARY_EVERY_S,
    ordinary_limit_s: float = ORDINARY_LIMIT_S,
    ordinary_paths: tuple[str, ...] = ORDINARY_PATHS,
) -> Slow:
    """`connections` slow connections at once, held until each is closed or `hold_s` has passed,
    and, once they are all open, a GET of each of `ordinary_paths` every `ordinary_every_s`, each on
    a new connection, until the last slow one is closed. Not while they are being opened: opening
    1,500 at once keeps this client's own event loop busy for the better part of a second on a
    loaded machine, and the ordinary requests would time this client, not the server."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    pending = connections
    all_open = asyncio.Event()

    def opened() -> None:
        nonlocal pending
        pending -= 1
        if pending <= 0:
            all_open.set()

    if connections <= 0:
        all_open.set()
    slow = [
        asyncio.ensure_future(
            slow_connection(
                host, port, line_every_s=line_every_s, hold_until=started + hold_s, connect_s=connect_s, opened=opened
            )
        )
        for _ in range(connections)
    ]
    ordinary: list[asyncio.Future[Ordinary]] = []

    async def every_interval() -> None:
        await all_open.wait()
        while True:
            ordinary.extend(
                asyncio.ensure_future(ordinary_request(host, port, path, ordinary_limit_s)) for path in ordinary_paths
            )
            await asyncio.sleep(ordinary_every_s)

    ticking = asyncio.ensure_future(every_interval())
    try:
        done = await asyncio.gather(*slow)
        held = loop.time() - started
    finally:
        ticking.cancel()
        for task in slow:
            task.cancel()
    answered = await asyncio.gather(*ordinary)
    return Slow(list(done), list(answered), held)
