"""Steady state before measuring: the stack runs at the scenario's warm rate in windows until they
have settled (bench.judgement.steady), or until the profile's cap; a stack that hit the cap is
marked, and one whose core stays full steps down the ladder's rates. Each window is a run of the
scenario's ladder tool of its own (oha, or vegeta for the writes; `cpu_window_runs`). A stack
measured elsewhere (--target) is settled by its windows' p50 latency."""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from bench.judgement.bounds import cpu_set
from bench.judgement.steady import (
    LATENCY_TOLERANCE,
    STEADY_SPREAD,
    STEADY_TREND,
    STEADY_WINDOWS,
    core_full,
    jit_quiet,
    settled,
)
from bench.measure.host.hsperf import JvmReading
from bench.measure.host.jit import JitMeter, JitReading
from bench.measure.host.machine import HostReading, host_figures
from bench.measure.load.figures import LoadFigures
from bench.measure.phases.context import Context
from bench.measure.phases.ladder import PrepareStep
from bench.profiles import OPEN_TIMING
from bench.records.steps import JvmWindow, SteadyState, WindowReadings
from bench.scenarios import Scenario

# Runs one window at a fixed rate: (rate, seconds, tag) -> the load generator's figures.
RunWindow = Callable[[float, int, str], LoadFigures]


class Window(NamedTuple):
    """One window, read as it ends; None: unknown, or not measured here."""

    figure: float | None
    """What is judged over the windows: the app's CPU ms per request (or a --target's p50)."""
    share: float | None
    """The app's share of its CPU set."""
    compilations: int | None = None
    """A JVM's compilations finished in the window; None for other runtimes."""
    compiler_share: float | None = None
    """A JVM's compiler threads' CPU as a share of the app's CPU set over the window."""
    cpu_s: float | None = None
    """The app's CPU seconds over the window."""
    readings: WindowReadings | None = None
    """The machine's steal and pressure and a JVM's counters over the window."""


ReadWindow = Callable[[], Window]
# Opens the windows at one rate: a context that reads them, one call each.
OpenWindows = Callable[[float], contextlib.AbstractContextManager[ReadWindow]]


@dataclass
class Warmup:
    windows: list[float | None] = field(default_factory=list)
    shares: list[float | None] = field(default_factory=list)
    compilations: list[int | None] = field(default_factory=list)
    compiler_shares: list[float | None] = field(default_factory=list)
    readings: list[WindowReadings | None] = field(default_factory=list)
    rates: list[float] = field(default_factory=list)
    seconds: float = 0.0
    reached: bool = False


def warm_rates(scenario: Scenario) -> list[float]:
    """The scenario's warm rate, then each lower rate of its ladder, highest first."""
    return [scenario.warm_rate, *sorted((r for r in scenario.rates if r < scenario.warm_rate), reverse=True)]


def _run_windows(
    ctx: Context,
    scenario: Scenario,
    open_windows: OpenWindows,
    *,
    label: str,
    spread: float,
    trend: float,
    alive: Callable[[], bool],
    give_up_after: int | None = None,
    judge_shares: bool = False,
) -> Warmup:
    """Windows at the scenario's warm rate until their values settle (in windows the app kept up
    with, if `judge_shares`), the cap, the stack's end or `give_up_after` windows. Judged by the
    app's CPU share, a stack whose core stays full steps down a rate (`warm_rates`), and only the
    windows at the rate it ends at are judged."""
    timing = OPEN_TIMING[ctx.plan.profile]
    rates = warm_rates(scenario) if judge_shares else [scenario.warm_rate]
    warmup = Warmup()
    started = time.monotonic()

    def over() -> bool:
        cap_s = timing.warmup_cap_s(jvm=any(c is not None for c in warmup.compilations))
        at_cap = time.monotonic() - started + timing.window_s > cap_s
        return at_cap or not alive() or (give_up_after is not None and len(warmup.windows) >= give_up_after)

    for index, rate in enumerate(rates):
        first = len(warmup.windows)
        with open_windows(rate) as read_window:
            while True:
                elapsed = time.monotonic() - started
                ctx.display.update(
                    f"{label}: steady state at {rate:,g} req/s, window {len(warmup.windows) + 1} ({elapsed:.0f} s)"
                )
                window = Window(*read_window())
                warmup.windows.append(window.figure)
                warmup.shares.append(window.share)
                warmup.compilations.append(window.compilations)
                warmup.compiler_shares.append(window.compiler_share)
                warmup.readings.append(window.readings)
                warmup.rates.append(rate)
                judged, judged_shares = warmup.windows[first:], warmup.shares[first:]
                if settled(judged, judged_shares if judge_shares else None, spread=spread, trend=trend) and jit_quiet(
                    warmup.compilations[first:], warmup.compiler_shares[first:]
                ):
                    warmup.reached = True
                    break
                if over():
                    break
                if judge_shares and index + 1 < len(rates) and core_full(judged, judged_shares):
                    break
        if warmup.reached or over():
            break
    warmup.seconds = round(time.monotonic() - started, 1)
    return warmup


def reach_steady_state(
    ctx: Context, scenario: Scenario, open_windows: OpenWindows, *, label: str, alive: Callable[[], bool] = lambda: True
) -> SteadyState:
    timing = OPEN_TIMING[ctx.plan.profile]
    warmup = _run_windows(
        ctx,
        scenario,
        open_windows,
        label=label,
        spread=STEADY_SPREAD,
        trend=STEADY_TREND,
        alive=alive,
        # Without cgroups nothing can settle: the minimum windows, then on.
        give_up_after=2 * STEADY_WINDOWS if ctx.roles.app is None else None,
        judge_shares=True,
    )
    jvm = any(c is not None for c in warmup.compilations)
    steady = SteadyState(
        rate_rps=warmup.rates[-1],
        window_s=timing.window_s,
        cap_s=timing.warmup_cap_s(jvm=jvm),
        settled_by="cpu-per-request-and-jit" if jvm else "cpu-per-request",
        windows_cpu_ms_per_request=warmup.windows,
        windows_app_cpu_share=warmup.shares,
        windows_rate_rps=warmup.rates,
        time_s=warmup.seconds,
        reached=warmup.reached,
    )
    if jvm:
        # Set only for a JVM (records are written without unset fields).
        steady.windows_compilations = warmup.compilations
        steady.windows_compiler_cpu_share = warmup.compiler_shares
    if all(r is not None for r in warmup.readings):
        steady.windows_readings = [r for r in warmup.readings if r is not None]
    return steady


class AppCpu:
    """The app's CPU per request and share of its CPU set between two readings, the share over
    the wall time between them (a window's nominal length undercounted a window the app fell
    behind in: shares up to 4.3 of one core in the publication at 72fa9f4)."""

    def __init__(self, ctx: Context) -> None:
        self.app = ctx.roles.app
        self.cpus = len(cpu_set(ctx.roles.split.app))
        self.jit = JitMeter(self.app.pids()) if self.app is not None else None
        self.seconds = self.app.cpu_seconds() if self.app is not None else None
        self.at = time.monotonic()
        self.compiled: JitReading | None = self.jit.read() if self.jit is not None else None
        self.host = _host_reading()

    def window(self, requests: int | None) -> Window:
        """Since the last reading, over `requests` requests."""
        if self.app is None or self.seconds is None:
            return Window(None, None)
        now, at = self.app.cpu_seconds(), time.monotonic()
        compiled = self.jit.read() if self.jit is not None else None
        host = _host_reading()
        cpu_s, wall_s = now - self.seconds, at - self.at
        before, self.seconds, self.at, self.compiled = self.compiled, now, at, compiled
        host_before, self.host = self.host, host
        compilations = compiler_share = None
        jvm = None
        if compiled is not None and before is not None:
            compilations = compiled.compiles - before.compiles
            compiler_s = compiled.compiler_cpu_s - before.compiler_cpu_s
            compiler_share = compiler_s / wall_s / self.cpus if wall_s > 0 else 0.0
            if compiled.counters is not None and before.counters is not None:
                jvm = jvm_window(before.counters, compiled.counters)
        readings = WindowReadings(
            host=host_figures(host_before, host) if host_before is not None and host is not None else None,
            **({"jvm": jvm} if jvm is not None else {}),
        )
        if not requests or wall_s <= 0:
            return Window(None, None, compilations, compiler_share, cpu_s, readings)
        share = cpu_s / wall_s / self.cpus
        return Window(cpu_s * 1000 / requests, share, compilations, compiler_share, cpu_s, readings)

    def close(self) -> None:
        if self.jit is not None:
            self.jit.close()


def _host_reading() -> HostReading | None:
    try:
        return HostReading.take()
    except (OSError, ValueError):
        return None


def jvm_window(before: JvmReading, after: JvmReading) -> JvmWindow:
    """A JVM's counters over a window, from its readings at the window's ends."""
    change = after.since(before)
    return JvmWindow(
        gc_pauses=change.gc_pauses,
        gc_pause_ms=change.gc_pause_s * 1000,
        heap_used_bytes=after.heap_used_bytes,
        safepoints=change.safepoints,
        safepoint_ms=change.safepoint_s * 1000,
        live_threads=after.live_threads,
    )


def cpu_window_runs(ctx: Context, prepare_window: PrepareStep) -> OpenWindows:
    """The windows of `reach_steady_state`, one load-generator run each (oha's and vegeta's
    start-up is a few milliseconds), each readied before the app's CPU is read
    (`prepare_window`: a write scenario's window makes the rows it deletes first)."""
    window_s = OPEN_TIMING[ctx.plan.profile].window_s

    @contextlib.contextmanager
    def at_rate(rate: float) -> Iterator[ReadWindow]:
        tags = itertools.count(1)

        def read() -> Window:
            send = prepare_window(rate, window_s, f"steady{next(tags)}")
            cpu = AppCpu(ctx)
            try:
                figures = send()
                return cpu.window(figures.requests_sent or figures.requests)
            finally:
                cpu.close()

        yield read

    return at_rate


def latency_window_runs(ctx: Context, run_window: RunWindow) -> OpenWindows:
    """The windows of `reach_steady_latency`: one run each, judged by its p50."""
    window_s = OPEN_TIMING[ctx.plan.profile].window_s

    @contextlib.contextmanager
    def at_rate(rate: float) -> Iterator[ReadWindow]:
        tags = itertools.count(1)

        def read() -> Window:
            figures = run_window(rate, window_s, f"steady{next(tags)}")
            return Window(figures.latency_ms.p50 if figures.latency_ms is not None else None, None)

        yield read

    return at_rate


def reach_steady_latency(ctx: Context, scenario: Scenario, run_window: RunWindow, *, label: str) -> SteadyState:
    """Steady state of a stack that runs elsewhere: its p50 latency settled over the windows."""
    timing = OPEN_TIMING[ctx.plan.profile]
    warmup = _run_windows(
        ctx,
        scenario,
        latency_window_runs(ctx, run_window),
        label=label,
        spread=LATENCY_TOLERANCE,
        trend=LATENCY_TOLERANCE,
        alive=lambda: True,
    )
    return SteadyState(
        rate_rps=scenario.warm_rate,
        window_s=timing.window_s,
        cap_s=timing.cap_s,
        settled_by="p50-latency",
        windows_cpu_ms_per_request=[None] * len(warmup.windows),
        windows_p50_ms=warmup.windows,
        time_s=warmup.seconds,
        reached=warmup.reached,
    )
