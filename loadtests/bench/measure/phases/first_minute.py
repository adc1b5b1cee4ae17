"""The first minute of a fresh process (docs/method.md, The first minute): in the scenarios with a
`first_minute_rate`, the process's first requests are windows at that rate, the same for every
stack, for the profile's `first_minute_s`, before the steady-state warm-up. Each window reads the
app's CPU from its cgroup (and a JVM's JIT) as the warm-up's do; oha logs every request, so that
the p99 of each FIRST_MINUTE_BIN_S of load is a real percentile, not one made of the windows'."""

from __future__ import annotations

import math
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.judgement.steady import STEADY_WINDOWS
from bench.measure.load.figures import nearest_rank
from bench.measure.load.oha import read_request_log
from bench.measure.phases.context import Context
from bench.measure.phases.oha_runs import LoggedWindow
from bench.measure.phases.steady import AppCpu
from bench.profiles import FIRST_MINUTE_BIN_S, OPEN_TIMING
from bench.records.steps import FirstMinute, FirstMinuteBin, FirstMinuteWindow
from bench.scenarios import Scenario


def run_first_minute(
    ctx: Context,
    scenario: Scenario,
    run_window: LoggedWindow,
    *,
    launched_at: float,
    label: str,
    alive: Callable[[], bool],
) -> FirstMinute:
    """Windows at the scenario's first-minute rate from the process's first request, until the
    profile's first minute of load is over or the process is gone; `launched_at` is the
    time.monotonic() at which the process was launched."""
    timing = OPEN_TIMING[ctx.plan.profile]
    rate = float(scenario.first_minute_rate)
    started = time.monotonic()
    windows, logs = _windows(
        ctx,
        run_window,
        rate,
        math.ceil(timing.first_minute_s / timing.window_s),
        tag="first",
        progress=lambda index: (
            f"{label}: first minute at {rate:,g} req/s, {index * timing.window_s} of {timing.first_minute_s} s"
        ),
        alive=alive,
    )
    return FirstMinute(
        rate_rps=rate,
        window_s=timing.window_s,
        started_after_s=round(started - launched_at, 3),
        seconds=round(time.monotonic() - started, 3),
        windows=windows,
        bin_s=FIRST_MINUTE_BIN_S,
        bins=latency_bins(logs, timing.window_s, FIRST_MINUTE_BIN_S, timing.first_minute_s),
    )


def run_steady_windows(
    ctx: Context, first: FirstMinute, run_window: LoggedWindow, *, label: str, alive: Callable[[], bool]
) -> None:
    """After the warm-up, STEADY_WINDOWS windows at the first minute's rate again: what the same
    requests cost the process once warm (`first.steady_windows`). The warm-up's own windows are
    at the warm rate, where a request costs less than at a lower one whatever the runtime."""
    first.steady_windows, _ = _windows(
        ctx,
        run_window,
        first.rate_rps,
        STEADY_WINDOWS,
        tag="first-steady",
        progress=lambda index: f"{label}: steady at {first.rate_rps:,g} req/s, window {index + 1}",
        alive=alive,
    )


def _windows(
    ctx: Context,
    run_window: LoggedWindow,
    rate: float,
    count: int,
    *,
    tag: str,
    progress: Callable[[int], str],
    alive: Callable[[], bool],
) -> tuple[list[FirstMinuteWindow], list[list[tuple[float, float]]]]:
    """`count` windows at `rate` (fewer if the process is gone), and each one's request log."""
    window_s = OPEN_TIMING[ctx.plan.profile].window_s
    windows: list[FirstMinuteWindow] = []
    logs: list[list[tuple[float, float]]] = []
    with tempfile.TemporaryDirectory(prefix="bench-first-minute-") as scratch:
        for index in range(count):
            if not alive():
                break
            ctx.display.update(progress(index))
            requests_db = Path(scratch) / f"window{index + 1}.db"
            cpu = AppCpu(ctx)
            try:
                figures = run_window(rate, window_s, f"{tag}{index + 1}", requests_db)
                window = cpu.window(figures.requests)
            finally:
                cpu.close()
            logs.append(read_request_log(requests_db) if requests_db.exists() else [])
            jit = (
                {"compilations": window.compilations, "compiler_cpu_share": window.compiler_share}
                if window.compilations is not None
                else {}
            )
            windows.append(
                FirstMinuteWindow(
                    requests=figures.requests,
                    error_count=figures.error_count,
                    p99_ms=figures.latency_ms.p99 if figures.latency_ms is not None else None,
                    app_cpu_s=window.cpu_s,
                    app_cpu_share=window.share,
                    **jit,
                )
            )
    return windows, logs


def latency_bins(
    logs: Sequence[Sequence[tuple[float, float]]], window_s: float, bin_s: float, seconds: float
) -> list[FirstMinuteBin]:
    """The requests of consecutive windows (each its (scheduled start from the window's start,
    latency) pairs, in seconds) put on one clock of load, window i starting at i × window_s, and
    counted in bins of `bin_s` over `seconds`: each bin's requests and p99 (nearest rank). The few
    milliseconds between two windows, when no request is scheduled, are not on that clock."""
    count = math.ceil(seconds / bin_s)
    latencies: list[list[float]] = [[] for _ in range(count)]
    for index, log in enumerate(logs):
        for start, latency in log:
            at = index * window_s + start
            if 0 <= at < count * bin_s:
                latencies[int(at // bin_s)].append(latency)
    return [FirstMinuteBin(requests=len(values), p99_ms=nearest_rank_ms(values, 0.99)) for values in latencies]


def nearest_rank_ms(seconds: list[float], quantile: float) -> float | None:
    """The `quantile` of latencies in seconds, in ms, by nearest rank (the smallest value with at
    least that share of the values at or under it); None for no values."""
    if not seconds:
        return None
    # To the microsecond: an end less a start in seconds carries float noise below it.
    return round(nearest_rank(sorted(seconds), quantile) * 1000, 3)
