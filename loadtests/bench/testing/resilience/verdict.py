"""What passes in the resilience case: the readings of each part and the judgements on them, pure
functions of what was read, for the runner's tests. The numbers and why are spec/README.md's."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.errors import BenchError
from bench.records import Dialect

MIB = 1 << 20

# 64 times the contract's 1 MiB, an eighth of the cap: a stack that reads a body whole before it
# judges its length holds that much for one request.
OVERSIZED_BYTES = 64 * MIB
# The status of a broken field rule in each dialect (spec/API.md; spec/hal.md: a 400 with errors[]).
FIELD_RULE_STATUS: dict[Dialect, int] = {"api": 422, "hal": 400}
# Past its bound a stack holds a request back or answers 503 (spec/API.md). Nothing else is
# allowed: a 413 to a body under the limit, a 500, a 408 are all broken promises.
OVERLOAD_STATUS = 503
# The burst client's word (bench.testing.resilience.burst) for a connection closed or reset while
# its body was still being sent, with no answer read. A 503 sent before the body was read closes
# the connection (the contract), and the reset that the unread rest of the body then causes may
# discard the 503 before the client reads it. A server that closes without any answer leaves the
# same trace, so this one alone is excused, and only up to the number of 503s the same burst
# received.
BODY_WRITE_ERROR = "closed while the body was sent"
# A connection the server's listen queue cannot hold is dropped, then answered with a SYN cookie,
# and reset when that cookie fails: a client sees a reset where it should have been held back or
# answered. Seen on rust-axum (tokio's backlog of 1,024, accepting slowly on one busy CPU): 41
# failed cookies, 41 resets, 41 write errors in one burst of 1,000. The counters, read before and
# after each burst, say so beside the errors; they are the whole machine's, so they only point to
# the cause.
KERNEL_COUNTERS = {
    "ListenOverflows": "listen-queue overflows",
    "SyncookiesFailed": "failed SYN cookies (each a reset)",
}
# After each burst: /health and a read both 200 within this.
SERVES_AGAIN_S = 5.0
SERVES_AGAIN_PATHS = ("/health", "/items/1")
# Headers have 10 s (spec/API.md). The margin covers what lies between the first byte the client
# sends and the server's own timer, and between the close and the client seeing it: the server
# starts counting when it accepts and first reads the connection, which on one CPU busy accepting
# 1,500 connections comes a moment after the client wrote; servers check their timers on a sweep
# (Tomcat's poller every 1 s, Node.js every connectionsCheckingInterval); the client's own event
# loop notices the close within a few milliseconds. 1.5 s takes a 1 s sweep and half a second of
# both; a server that keeps a connection 12 s is not closing it at 10.
HEADERS_LIMIT_S = 10.0
CLOSE_MARGIN_S = 1.5
ORDINARY_LIMIT_S = 2.0
# The first line of a stack trace in each of the stacks' languages: a JVM's or Node.js's frame
# ("\tat pkg.Class.method(File.java:12)", "    at handler (/app/src/x.js:3:9)"), a JVM's cause, a
# Python traceback, a Go panic's goroutine, a Rust backtrace. Nothing in the case is a fault of
# the server's (clients that leave, bodies refused, slow heads): a stack trace in its log says
# one was reported as one, and buries the faults that are (spec/README.md, "The resilience case of `./bench test`").
STACK_TRACE = re.compile(
    r"^(?:\s+at \S.*\)$|Caused by: |Traceback \(most recent call last\):|goroutine \d+ \[|stack backtrace:)",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Health:
    """The process after a part: alive, new OOM kills in its cgroup, its memory peak."""

    alive: bool
    oom_kills: int
    peak_bytes: int | None
    exit_code: int | None = None
    """How it ended, when it did (-9: killed, as the kernel's OOM killer does)."""


@dataclass(frozen=True)
class Oversized:
    status: int | None
    """The status line's status; None when none arrived."""
    error: str
    """Why no status arrived ("" when one did)."""
    sent_bytes: int
    seconds: float
    health: Health


@dataclass(frozen=True)
class Burst:
    size: int
    statuses: dict[int, int]
    errors: dict[str, int]
    seconds: float | None
    health: Health
    serves_again_s: float | None
    """How long /health and the read took to be 200 again; None when not within SERVES_AGAIN_S."""
    kernel: dict[str, int] = field(default_factory=dict)
    """What the kernel's listen queues did meanwhile, machine-wide (KERNEL_COUNTERS)."""


@dataclass(frozen=True)
class SlowConnection:
    connected: bool
    closed_after_s: float | None
    """From the first byte sent to the server's close; None when still open at the end of the hold."""
    answer: int | None = None
    """The status the server answered before it closed (a 408), if any."""


@dataclass(frozen=True)
class Ordinary:
    path: str
    status: int | None
    seconds: float
    error: str = ""


@dataclass(frozen=True)
class Slow:
    connections: list[SlowConnection]
    ordinary: list[Ordinary]
    held_s: float
    health: Health = field(default_factory=lambda: Health(alive=True, oom_kills=0, peak_bytes=None))


def judge_health(health: Health, *, cap_mib: int) -> list[str]:
    problems = []
    if health.oom_kills:
        problems.append(f"OOM-killed {health.oom_kills} time(s) at its {cap_mib} MiB cap")
    if not health.alive:
        problems.append("the process died" + (f" (exit {health.exit_code})" if health.exit_code is not None else ""))
    return problems


def judge_log(text: str) -> list[str]:
    """No stack trace in the server's log of the case; the problem quotes the first's line."""
    traces = [m for m in STACK_TRACE.finditer(text) if not _continues_a_trace(text, m.start())]
    if not traces:
        return []
    line = text[traces[0].start() :].splitlines()[0].strip()
    return [f"server log: {len(traces):,} stack trace(s) for what clients did (first: {line!r})"]


def _continues_a_trace(text: str, at: int) -> bool:
    """Whether the line before `at` is a frame too: a trace counts once, not once a frame."""
    before = text.rfind("\n", 0, max(at - 1, 0))
    previous = text[before + 1 : max(at - 1, 0)]
    return bool(STACK_TRACE.match(previous) or _OMITTED_FRAMES.match(previous))


# A JVM's "\t... 23 more" between a trace's frames and its next cause.
_OMITTED_FRAMES = re.compile(r"^\s+\.\.\. \d+ ")


def judge_oversized(oversized: Oversized, *, cap_mib: int) -> list[str]:
    where = f"{OVERSIZED_BYTES // MIB} MiB body"
    problems = [f"{where}: {p}" for p in judge_health(oversized.health, cap_mib=cap_mib)]
    if oversized.status is None:
        problems.append(f"{where}: {oversized.error}")
    elif oversized.status != 413:
        problems.append(f"{where}: answered {oversized.status}, not 413")
    return problems


def judge_burst(burst: Burst, *, dialect: Dialect, cap_mib: int) -> list[str]:
    """Every answer the field rule's status or a 503; of transport errors only the write errors a
    503 that closed the connection leaves, no more of them than 503s; every request accounted for;
    the process alive, never OOM-killed, and serving again."""
    allowed = {FIELD_RULE_STATUS[dialect], OVERLOAD_STATUS}
    where = f"burst of {burst.size:,}"
    # The process's fate first: it explains the rest.
    problems = [f"{where}: {p}" for p in judge_health(burst.health, cap_mib=cap_mib)]
    others = {status: n for status, n in sorted(burst.statuses.items()) if status not in allowed}
    if others:
        problems.append(f"{where}: answered {status_counts(others)} (only {_or(sorted(allowed))} are allowed)")
    write_errors = burst.errors.get(BODY_WRITE_ERROR, 0)
    overloaded = burst.statuses.get(OVERLOAD_STATUS, 0)
    if write_errors > overloaded:
        problems.append(
            f"{where}: {write_errors:,} connections closed while their body was sent, more than the "
            f"{overloaded:,} 503s that may have closed them"
        )
    failed = {error: n for error, n in sorted(burst.errors.items()) if error != BODY_WRITE_ERROR}
    if failed:
        problems.append(f"{where}: " + ", ".join(f"{error} × {n:,}" for error, n in failed.items()))
    if (failed or write_errors > overloaded) and any(burst.kernel.values()):
        problems.append(f"{where}: meanwhile the kernel, machine-wide: {kernel_summary(burst.kernel)}")
    accounted = sum(burst.statuses.values()) + sum(burst.errors.values())
    if accounted != burst.size:
        problems.append(f"{where}: the burst client accounted for {accounted:,} of {burst.size:,} requests")
    if burst.health.alive and burst.serves_again_s is None:
        problems.append(
            f"{where}: {' and '.join(SERVES_AGAIN_PATHS)} not both 200 within {SERVES_AGAIN_S:g} s after it"
        )
    return problems


def judge_slow(
    slow: Slow,
    *,
    cap_mib: int,
    close_limit_s: float = HEADERS_LIMIT_S + CLOSE_MARGIN_S,
    ordinary_limit_s: float = ORDINARY_LIMIT_S,
) -> list[str]:
    """Every slow connection accepted, closed within `close_limit_s` of its first byte, with a 408
    or no answer; every ordinary request answered 200 within `ordinary_limit_s`."""
    problems = []
    total = len(slow.connections)
    connected = [c for c in slow.connections if c.connected]
    if len(connected) < total:
        problems.append(f"{total - len(connected):,} of {total:,} slow connections not accepted")
    still_open = [c for c in connected if c.closed_after_s is None]
    if still_open:
        problems.append(
            f"{len(still_open):,} of {len(connected):,} slow connections still open after {slow.held_s:.0f} s"
        )
    late = [c.closed_after_s for c in connected if c.closed_after_s is not None and c.closed_after_s > close_limit_s]
    if late:
        problems.append(
            f"{len(late):,} slow connections closed later than {close_limit_s:g} s after their first byte "
            f"(the last after {max(late):.1f} s)"
        )
    answers = Counter(c.answer for c in connected if c.answer is not None and c.answer != 408)
    if answers:
        problems.append(f"slow connections answered {status_counts(dict(answers))} (a 408 or no answer is allowed)")
    bad = [o for o in slow.ordinary if o.status != 200 or o.seconds > ordinary_limit_s]
    if bad:
        worst = max(bad, key=lambda o: o.seconds)
        what = f"{worst.status}" if worst.status is not None else (worst.error or "no answer")
        problems.append(
            f"{len(bad)} of {len(slow.ordinary)} ordinary requests not 200 within {ordinary_limit_s:g} s "
            f"(GET {worst.path}: {what} after {worst.seconds:.1f} s)"
        )
    return [f"slow clients: {p}" for p in judge_health(slow.health, cap_mib=cap_mib)] + problems


def kernel_summary(counters: dict[str, int]) -> str:
    return ", ".join(f"{KERNEL_COUNTERS[name]} {n:,}" for name, n in counters.items() if n)


def kernel_counters(netstat: Path = Path("/proc/net/netstat")) -> dict[str, int]:
    """KERNEL_COUNTERS' values now ({} where /proc/net/netstat cannot be read)."""
    try:
        lines = netstat.read_text().splitlines()
    except OSError:
        return {}
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names.startswith("TcpExt:") and values.startswith("TcpExt:"):
            row = dict(zip(names.split()[1:], values.split()[1:], strict=False))
            return {name: int(row[name]) for name in KERNEL_COUNTERS if name in row}
    return {}


def oversized_figures(oversized: Oversized) -> str:
    answer = f"{oversized.status}" if oversized.status is not None else "no answer"
    return f"{answer} to {OVERSIZED_BYTES // MIB} MiB"


def bursts_figures(bursts: list[Burst]) -> str:
    if not bursts:
        return ""
    statuses: Counter[int] = Counter()
    for burst in bursts:
        statuses.update(burst.statuses)
    peaks = [b.health.peak_bytes for b in bursts if b.health.peak_bytes is not None]
    peak = f", peak {max(peaks) / MIB:.0f} MiB" if peaks else ""
    sizes = "/".join(f"{b.size:,}" for b in bursts)
    return f"bursts {sizes}: {status_counts(dict(statuses))}{peak}"


def slow_figures(slow: Slow) -> str:
    closed = [c.closed_after_s for c in slow.connections if c.closed_after_s is not None]
    slowest = max((o.seconds for o in slow.ordinary), default=0.0)
    last = f" by {max(closed):.1f} s" if closed else ""
    return f"{len(closed):,}/{len(slow.connections):,} slow closed{last}, reads ≤ {slowest:.2f} s"


def read_burst(path: Path) -> tuple[dict[int, int], dict[str, int], float | None]:
    """Statuses, transport errors and the burst's seconds from the burst client's output
    (bench.testing.resilience.burst)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise BenchError(f"the burst client's output {path} could not be read: {error}") from None
    statuses = {int(k): int(v) for k, v in (data.get("statuses") or {}).items()}
    errors = {str(k): int(v) for k, v in (data.get("errors") or {}).items()}
    seconds = data.get("seconds")
    return statuses, errors, float(seconds) if seconds is not None else None


def status_counts(counts: dict[int, int]) -> str:
    return ", ".join(f"{status} × {n:,}" for status, n in sorted(counts.items())) or "nothing"


def _or(statuses: list[int]) -> str:
    return " or ".join(str(s) for s in statuses)
