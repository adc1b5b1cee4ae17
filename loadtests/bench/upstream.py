"""The stock service the outbound scenario's stacks call (loadtests/upstream/, Go's standard
library only): built from its source into the runner's bin directory, started beside PostgreSQL,
and named to a stack by STOCK_URL (bench.stacks.start)."""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench import paths, ports, procs
from bench.errors import BenchError

SOURCE = paths.ROOT / "loadtests" / "upstream"
BINARY = "stock-upstream"
# The stock service's own default, and the delay of the write-up it stands for: 1-50 ms.
DEFAULT_DELAY_MS = "1-50"
READY_TIMEOUT_S = 10.0
# Its own default port, and the stacks' default STOCK_URL (spec/API.md).
DEFAULT_PORT = 8099
# How far past DEFAULT_PORT a free one is looked for.
PORTS_TRIED = 100
# How many free ports start() may find taken before its service binds one.
RACES_LOST = 5


@dataclass
class Upstream:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return url_of(self.port)


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for file in sorted(SOURCE.glob("*")):
        if file.is_file() and file.suffix in (".go", ".mod", ".sum"):
            digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def build() -> str:
    """The stock service's binary, built again whenever its source changed."""
    paths.ensure_dirs()
    binary = paths.BIN / BINARY
    stamp = paths.BIN / f"{BINARY}.sha256"
    wanted = _fingerprint()
    if binary.exists() and stamp.exists() and stamp.read_text() == wanted:
        return str(binary)
    if shutil.which("go") is None:
        raise BenchError("the stock service (loadtests/upstream) is built with Go: install Go 1.26 or newer")
    log = paths.LOGS / "build-upstream.log"
    code = procs.run(
        f"go build -trimpath -o {shlex.quote(str(binary))} .",
        cwd=SOURCE,
        env=dict(os.environ, GOFLAGS="-mod=readonly"),
        log=log,
    )
    if code != 0:
        raise BenchError(f"building the stock service failed (exit {code}); see {log}\n{procs.tail(log, 15)}")
    stamp.write_text(wanted)
    return str(binary)


def url_of(port: int) -> str:
    """The STOCK_URL of the stock service on 127.0.0.1:`port`."""
    return f"http://127.0.0.1:{port}"


DEFAULT_URL = url_of(DEFAULT_PORT)


def free_port(first: int = DEFAULT_PORT) -> int:
    """`first`, or the next port after it that a server could listen on: below the kernel's
    ephemeral range, where no outgoing connection takes it, though another server still may."""
    for port in range(first, first + PORTS_TRIED):
        if not ports.port_in_use(port):
            return port
    raise BenchError(f"no free port for the stock service in {first}-{first + PORTS_TRIED - 1}")


class PortTaken(BenchError):
    """Another server holds the port the stock service was to listen on."""


def start(
    port: int | None = None,
    *,
    delay_ms: str = DEFAULT_DELAY_MS,
    seed: int = 1,
    wrap: Callable[[str], str] | None = None,
    log_name: str = "upstream.log",
) -> Upstream:
    """Starts the stock service on 127.0.0.1:`port` and waits for its /health; `wrap` places its
    command (a cgroup, a CPU set) as the caller measures it. Without a port: DEFAULT_PORT or the
    next free one, where a port found free and taken before the service bound it (a second
    runner's upstream, a parallel test's) is passed over for the next."""
    binary = build()
    if port is not None:
        return _start_on(binary, port, delay_ms=delay_ms, seed=seed, wrap=wrap, log_name=log_name)
    first = DEFAULT_PORT
    for _ in range(RACES_LOST):
        port = free_port(first)
        try:
            return _start_on(binary, port, delay_ms=delay_ms, seed=seed, wrap=wrap, log_name=log_name)
        except PortTaken:
            first = port + 1
    raise BenchError(f"the stock service lost each of {RACES_LOST} free ports to another server before it bound it")


def _start_on(
    binary: str, port: int, *, delay_ms: str, seed: int, wrap: Callable[[str], str] | None, log_name: str
) -> Upstream:
    if ports.port_in_use(port):
        raise PortTaken(f"port {port} is in use: the stock service cannot listen there")
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), UPSTREAM_DELAY_MS=delay_ms, UPSTREAM_SEED=str(seed))
    log = paths.LOGS / log_name
    command = f"exec {shlex.quote(binary)}"
    proc = procs.spawn(wrap(command) if wrap else command, cwd=paths.HOME, env=env, log=log)
    url = url_of(port)
    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        if proc.poll() is not None:
            if ports.port_in_use(port):
                raise PortTaken(f"port {port} was taken before the stock service could listen there")
            raise BenchError(f"the stock service exited with code {proc.returncode}; see {log}\n{procs.tail(log, 10)}")
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return Upstream(proc, port, log)
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            procs.stop(proc)
            raise BenchError(f"the stock service did not answer /health within {READY_TIMEOUT_S:.0f} s; see {log}")
        time.sleep(0.05)


@contextmanager
def running(
    port: int | None = None,
    *,
    delay_ms: str = DEFAULT_DELAY_MS,
    seed: int = 1,
    wrap: Callable[[str], str] | None = None,
    log_name: str = "upstream.log",
) -> Iterator[Upstream]:
    """The stock service for the length of a block, stopped however the block ends."""
    upstream = start(port, delay_ms=delay_ms, seed=seed, wrap=wrap, log_name=log_name)
    try:
        yield upstream
    finally:
        procs.stop(upstream.proc)
