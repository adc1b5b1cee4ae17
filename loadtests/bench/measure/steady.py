"""Steady state before measuring: the stack runs at the scenario's moderate fixed rate in windows
until its CPU ms per request has stopped getting cheaper (`settled`), or until the profile's cap.
The same rule for every stack: a JIT gets the time it needs, and a stack that hit the cap is
marked. `settled` is pure, for the tests.

Only windows in which the app kept up count: one that used BOUND_SHARE or more of the app's CPU
set measured the core, not the request (CPU per request = the core's milliseconds ÷ the rate,
whatever a request costs). A JVM still compiling at a rate it cannot yet serve shows exactly
that, a flat ~1000/rate ms per request, which three windows within 5% had taken for steady
(results/experiments/2026-11-24-spread).

A stack measured elsewhere (--target) shows no CPU to this machine: it is settled by its
windows' p50 latency instead, within LATENCY_TOLERANCE, with the same windows and cap. The p50
and not the p99, which a single slow request moves."""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable, Sequence

from bench.loadgen import LoadFigures
from bench.measure.bounds import BOUND_SHARE, cpu_set
from bench.measure.context import Context
from bench.records import SteadyState
from bench.scenarios import OPEN_TIMING, STEADY_SPREAD, STEADY_TREND, STEADY_WINDOWS, Scenario

LATENCY_TOLERANCE = 0.10

# Runs one window at a fixed rate: (rate, seconds, tag) -> the load generator's figures.
RunWindow = Callable[[float, int, str], LoadFigures]


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


# Runs one window and gives the figure judged over the windows and the app's CPU share over it
# (None: unknown, or not measured here).
WindowValue = Callable[[Callable[[], LoadFigures]], tuple[float | None, float | None]]


def _run_windows(
    ctx: Context,
    scenario: Scenario,
    run_window: RunWindow,
    *,
    label: str,
    value: WindowValue,
    spread: float,
    trend: float,
    alive: Callable[[], bool],
    give_up_after: int | None = None,
    judge_shares: bool = False,
) -> tuple[list[float | None], list[float | None], float, bool]:
    """Windows at the scenario's warm rate until their values settle (in windows the app kept up
    with, if `judge_shares`), the cap, the stack's end or `give_up_after` windows: (the values,
    the app's CPU shares, seconds taken, settled)."""
    timing = OPEN_TIMING[ctx.plan.profile]
    rate = scenario.warm_rate
    windows: list[float | None] = []
    shares: list[float | None] = []
    started = time.monotonic()
    while True:
        elapsed = time.monotonic() - started
        ctx.display.update(f"{label}: steady state at {rate:,} req/s, window {len(windows) + 1} ({elapsed:.0f} s)")
        window, share = value(functools.partial(run_window, rate, timing.window_s, f"steady{len(windows) + 1}"))
        windows.append(window)
        shares.append(share)
        if settled(windows, shares if judge_shares else None, spread=spread, trend=trend):
            return windows, shares, round(time.monotonic() - started, 1), True
        if give_up_after is not None and len(windows) >= give_up_after:
            break
        if time.monotonic() - started + timing.window_s > timing.cap_s or not alive():
            break
    return windows, shares, round(time.monotonic() - started, 1), False


def reach_steady_state(
    ctx: Context, scenario: Scenario, run_window: RunWindow, *, label: str, alive: Callable[[], bool] = lambda: True
) -> SteadyState:
    timing = OPEN_TIMING[ctx.plan.profile]
    app = ctx.roles.app

    app_cpus = len(cpu_set(ctx.roles.split.app))

    def cpu_ms_per_request(run: Callable[[], LoadFigures]) -> tuple[float | None, float | None]:
        before = app.cpu_seconds() if app is not None else None
        figures = run()
        sent = figures.requests_sent or figures.requests
        if app is None or before is None or not sent:
            return None, None
        cpu_s = app.cpu_seconds() - before
        # Over the window's sending time, as a ladder step's share is: the load generator's
        # start-up around it would dilute a saturated window below the mark.
        return cpu_s * 1000 / sent, cpu_s / timing.window_s / app_cpus

    windows, shares, seconds, reached = _run_windows(
        ctx,
        scenario,
        run_window,
        label=label,
        value=cpu_ms_per_request,
        spread=STEADY_SPREAD,
        trend=STEADY_TREND,
        alive=alive,
        # Without cgroups nothing can settle: the minimum windows, then on.
        give_up_after=2 * STEADY_WINDOWS if app is None else None,
        judge_shares=True,
    )
    return SteadyState(
        rate_rps=scenario.warm_rate,
        window_s=timing.window_s,
        cap_s=timing.cap_s,
        windows_cpu_ms_per_request=windows,
        windows_app_cpu_share=shares,
        time_s=seconds,
        reached=reached,
    )


def reach_steady_latency(ctx: Context, scenario: Scenario, run_window: RunWindow, *, label: str) -> SteadyState:
    """Steady state of a stack that runs elsewhere: its p50 latency settled over the windows."""
    timing = OPEN_TIMING[ctx.plan.profile]

    def p50_ms(run: Callable[[], LoadFigures]) -> tuple[float | None, float | None]:
        figures = run()
        return (figures.latency_ms.p50 if figures.latency_ms is not None else None), None

    windows, _, seconds, reached = _run_windows(
        ctx,
        scenario,
        run_window,
        label=label,
        value=p50_ms,
        spread=LATENCY_TOLERANCE,
        trend=LATENCY_TOLERANCE,
        alive=lambda: True,
    )
    return SteadyState(
        rate_rps=scenario.warm_rate,
        window_s=timing.window_s,
        cap_s=timing.cap_s,
        settled_by="p50-latency",
        windows_cpu_ms_per_request=[None] * len(windows),
        windows_p50_ms=windows,
        time_s=seconds,
        reached=reached,
    )
