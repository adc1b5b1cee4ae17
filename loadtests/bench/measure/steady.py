"""Steady state before measuring: the stack runs at the scenario's moderate fixed rate in windows
until its CPU ms per request over the last STEADY_WINDOWS windows lie within STEADY_TOLERANCE of
each other, or until the profile's cap. The same rule for every stack: a JIT gets the time it
needs, and a stack that hit the cap is marked. `settled` is pure, for the tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from bench.loadgen import LoadFigures
from bench.measure.context import Context
from bench.records import SteadyState
from bench.scenarios import OPEN_TIMING, STEADY_TOLERANCE, STEADY_WINDOWS, Scenario

# Runs one window at a fixed rate: (rate, seconds, tag) -> the load generator's figures.
RunWindow = Callable[[float, int, str], LoadFigures]


def settled(windows: Sequence[float | None], count: int = STEADY_WINDOWS, tolerance: float = STEADY_TOLERANCE) -> bool:
    """The last `count` windows are known, positive, and within `tolerance` of their smallest."""
    if len(windows) < count:
        return False
    last = windows[-count:]
    known = [w for w in last if w is not None and w > 0]
    if len(known) < count:
        return False
    return max(known) <= min(known) * (1 + tolerance)


def reach_steady_state(
    ctx: Context, scenario: Scenario, run_window: RunWindow, *, label: str, alive: Callable[[], bool] = lambda: True
) -> SteadyState:
    timing = OPEN_TIMING[ctx.plan.profile]
    rate = scenario.warm_rate
    app = ctx.roles.app
    windows: list[float | None] = []
    started = time.monotonic()
    reached = False
    while True:
        elapsed = time.monotonic() - started
        ctx.display.update(f"{label}: steady state at {rate:,} req/s, window {len(windows) + 1} ({elapsed:.0f} s)")
        before = app.cpu_seconds() if app is not None else None
        figures = run_window(rate, timing.window_s, f"steady{len(windows) + 1}")
        sent = figures.requests_sent or figures.requests
        if app is not None and before is not None and sent:
            windows.append((app.cpu_seconds() - before) * 1000 / sent)
        else:
            windows.append(None)
        if settled(windows):
            reached = True
            break
        # Without cgroups nothing can settle: the minimum windows, then on.
        if app is None and len(windows) >= STEADY_WINDOWS:
            break
        if time.monotonic() - started + timing.window_s > timing.cap_s or not alive():
            break
    return SteadyState(
        rate_rps=rate,
        window_s=timing.window_s,
        cap_s=timing.cap_s,
        windows_cpu_ms_per_request=windows,
        time_s=round(time.monotonic() - started, 1),
        reached=reached,
    )
