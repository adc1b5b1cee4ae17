"""When the steady-state warm-up has settled (docs/method.md, Steady state): the stack's CPU ms per
request has stopped getting cheaper over its last windows (`settled`), the same rule for every
stack, so that a JIT gets the time it needs; and when its core stays full at a rate it cannot yet
serve, so that the warm-up steps down a rate (`core_full`). bench.measure.phases.steady runs
the windows.

Only windows in which the app kept up count: one that used BOUND_SHARE or more of the app's CPU
set measured the core, not the request (CPU per request = the core's milliseconds ÷ the rate,
whatever a request costs). A JVM still compiling at a rate it cannot yet serve shows exactly
that, a flat ~1000/rate ms per request, which three windows within 5% had taken for steady
(results/experiments/2026-11-24-spread).

A stack measured elsewhere (--target) shows no CPU to this machine: it is settled by its
windows' p50 latency instead, within LATENCY_TOLERANCE, with the same windows and cap. The p50
and not the p99, which a single slow request moves."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from bench.judgement.bounds import BOUND_SHARE
from bench.records.steps import Ladder, LadderStep, SteadyState, WarmupClass

# The last STEADY_WINDOWS windows' app CPU ms per request lie within STEADY_SPREAD of their
# smallest, and their median is no more than STEADY_TREND under the median of as many windows
# before them. The spread is this machine's noise, not a JIT's: go-gin, which compiles nothing at
# run time, scattered by a median 13% and up to 35% (90th percentile) over three consecutive 3 s
# windows once past its first six (results/experiments/2026-11-25-strict-rule), so a 5% spread
# was met by no stack within 60 s.
STEADY_WINDOWS = 3
STEADY_SPREAD = 0.25
STEADY_TREND = 0.05
LATENCY_TOLERANCE = 0.10
# Windows in a row at BOUND_SHARE or more of the app's CPU set, and no longer getting cheaper,
# before the warm-up steps down to the ladder's next lower rate: a stack that cannot serve the
# warm rate would otherwise spend the whole cap measuring its core. A cold JVM fills its core at
# any rate while it compiles, its CPU per request falling by half in as many windows (java-spring's
# join-filter at 400 req/s: 37.5, 17.5, 17.0, 12.5 ms, 2026-11-25): it is not stepped down while
# its requests get cheaper.
FULL_CORE_WINDOWS = 4
# A JVM's JIT has also fallen quiet: over its last JIT_QUIET_WINDOWS windows its compiler threads
# used under JIT_QUIET_SHARE of the app's core. A cold java-spring at 600 req/s of join-filter
# spent 0.41-0.53 of its core in its compiler threads for ~60 s, then under 0.07 and soon ~0.01
# (issue 52); meanwhile its CPU per request could look flat for three windows at a core full of
# compiling. Its compilations are not asked to stop: at the write scenarios' rates a rare path
# reaches HotSpot's thresholds minutes later, one method now and then, and waiting for the last
# of them settled 11 of 21 records within 240 s, where this rule settled 20
# (results/experiments/2026-11-29-time-to-steady). They stay in every window's figures.
JIT_QUIET_WINDOWS = 2
JIT_QUIET_SHARE = 0.05


def settled(
    windows: Sequence[float | None],
    shares: Sequence[float | None] | None = None,
    count: int = STEADY_WINDOWS,
    spread: float = STEADY_SPREAD,
    trend: float = STEADY_TREND,
) -> bool:
    """The last `count` windows are known, positive, kept up with (their app CPU share in
    `shares`, when given, under BOUND_SHARE) and within `spread` of their smallest, and their
    median is no more than `trend` under the median of the `count` windows before them.

    The trend test is what tells a warm-up from noise: a JIT only ever makes requests cheaper, so
    a stack whose windows stopped falling has nothing left to wait for, while one still falling
    is waited for even through a flat stretch (java-spring's join-filter held three windows at
    3.3 ms per request right after three near 3.9, and its ladder then measured 2.7, 2.0 and
    1.5 ms; results/experiments/2026-11-24-java). A rise is not waited for: waiting makes no
    request dearer. Medians, so that one stray window neither starts nor stops the wait."""
    if len(windows) < 2 * count:
        return False
    last, before = windows[-count:], windows[-2 * count : -count]
    if shares is not None and any(share is None or share >= BOUND_SHARE for share in shares[-count:]):
        return False
    known = [w for w in last if w is not None and w > 0]
    known_before = [w for w in before if w is not None and w > 0]
    if len(known) < count or len(known_before) < count:
        return False
    if max(known) > min(known) * (1 + spread):
        return False
    return statistics.median(known) >= statistics.median(known_before) * (1 - trend)


def jit_quiet(
    compilations: Sequence[int | None], compiler_shares: Sequence[float | None], count: int = JIT_QUIET_WINDOWS
) -> bool:
    """The compiler threads' CPU was under JIT_QUIET_SHARE of the app's core in each of the last
    `count` windows; true for a runtime that gives no such signal (every window's compilations
    None: not a HotSpot JVM)."""
    if all(c is None for c in compilations):
        return True
    shares = compiler_shares[-count:]
    return len(shares) == count and all(s is not None and s < JIT_QUIET_SHARE for s in shares)


def core_full(windows: Sequence[float | None], shares: Sequence[float | None], count: int = FULL_CORE_WINDOWS) -> bool:
    """The last `count` windows all used BOUND_SHARE or more of the app's CPU set, and the median
    CPU per request of the later half is no more than STEADY_TREND under the earlier half's."""
    last = shares[-count:]
    if len(last) < count or any(share is None or share < BOUND_SHARE for share in last):
        return False
    known = [w for w in windows[-count:] if w is not None]
    if len(known) < count:
        return False
    half = count // 2
    return statistics.median(known[half:]) >= statistics.median(known[:half]) * (1 - STEADY_TREND)


# The repeated step's CPU per request against the first one's: within REPEAT_TOLERANCE, the record
# is steady; cheaper by more, still warming; dearer by more, slowing (Barrett et al.'s classes,
# "Virtual Machine Warmup Blows Hot and Cold", OOPSLA 2017, on two measurements instead of a run's
# every iteration). docs/rationale.md (Steady state) gives what the repeat measured.
REPEAT_TOLERANCE = 0.10


def repeated_step(steps: Sequence[LadderStep]) -> LadderStep | None:
    """The full-length step the ladder runs again: the first one held, else the first one; the
    first, so that the two measurements lie as far apart as the ladder allows, and held, since a
    step the app could not serve measured its core, not its requests."""
    full = [s for s in steps if not s.probe and s.cpu_ms_per_request is not None]
    return next((s for s in full if s.held), full[0] if full else None)


def warmup_class(steady: SteadyState | None, ladder: Ladder | None) -> WarmupClass | None:
    """The record's class (WarmupClass); None where it has no warm-up or no repeated step to
    compare (a --target run, a stack that stopped, a run without cgroups)."""
    if steady is None:
        return None
    if not steady.reached:
        return "not-settled"
    if ladder is None or ladder.repeat is None:
        return None
    first = repeated_step(ladder.steps)
    before = first.cpu_ms_per_request if first is not None else None
    after = ladder.repeat.cpu_ms_per_request
    if before is None or after is None or before <= 0:
        return None
    if after < before * (1 - REPEAT_TOLERANCE):
        return "still-warming"
    if after > before * (1 + REPEAT_TOLERANCE):
        return "slowing"
    return "steady"
