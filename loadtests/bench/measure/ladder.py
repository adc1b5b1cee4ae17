"""The fixed-rate ladder (the open model): each of the scenario's offered rates in turn, the same
for every stack, until the first step the stack cannot hold; then a bisection between the last
rate held and the first not held, geometric, until they are at most BISECT_RATIO apart.

A step is held when delivered >= 97% of offered, dropped iterations <= 1% of the arrivals
offered, no unexpected status, and p99 <= the scenario's objective. Capacity at objective is
the highest offered rate held. A step in which the load generator alone used LOADGEN_SHARE or
more of its CPUs is marked, and a capacity that such a step stopped is only a lower bound. The
judgement (stop_reasons, capacity, climb) is pure, for the tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from bench.measure.context import Context
from bench.measure.loadgen import LoadFigures
from bench.measure.probes import StageMeter, Statements
from bench.records import Ladder, LadderStep, RoleCpu, StopReason
from bench.scenarios import BISECT_RATIO, OPEN_TIMING, Scenario, bisect_rate, step_seconds

DELIVERED_MIN = 0.97
DROPPED_MAX = 0.01
# The load generator's share of its CPUs at which a step measured it as much as the stack: on two
# cores it shares CPU 1 with PostgreSQL, and past half of it k6 took more of that core than
# PostgreSQL did in the published join-filter and heavy-body steps (issue 31).
LOADGEN_SHARE = 0.5

# Runs one fixed-rate step: (rate, seconds, step tag) -> the load generator's figures.
RunStep = Callable[[float, int, str], LoadFigures]
# Runs one step of the ladder at a rate, bisecting or not: the step as recorded.
Measure = Callable[[float, bool], LadderStep]


def stop_reasons(
    *,
    offered_rps: float,
    duration_s: float,
    delivered_rps: float,
    dropped: int,
    error_count: int,
    p99_ms: float | None,
    objective_ms: float,
) -> list[StopReason]:
    """Why a step was not held; empty when it was."""
    reasons: list[StopReason] = []
    if delivered_rps < DELIVERED_MIN * offered_rps:
        reasons.append("delivered")
    if dropped > DROPPED_MAX * offered_rps * duration_s:
        reasons.append("dropped")
    if error_count:
        reasons.append("errors")
    if p99_ms is None:
        reasons.append("no-latency")
    elif p99_ms > objective_ms:
        reasons.append("p99")
    return reasons


def loadgen_bound(cpu: RoleCpu | None) -> bool:
    """The load generator alone used LOADGEN_SHARE or more of its CPUs."""
    return cpu is not None and cpu.loadgen_cpu_share >= LOADGEN_SHARE


def capacity(steps: Sequence[LadderStep]) -> float | None:
    """Capacity at objective: the highest offered rate held below every rate not held (a step
    held by chance above one that was not does not count)."""
    ceiling = min((s.offered_rps for s in steps if not s.held), default=math.inf)
    return max((s.offered_rps for s in steps if s.held and s.offered_rps < ceiling), default=None)


def stopping_step(steps: Sequence[LadderStep]) -> LadderStep | None:
    """The step that bounds the capacity from above: the lowest rate not held (after a bisection
    not the last step run); None when every step was held."""
    return min((s for s in steps if not s.held), key=lambda s: s.offered_rps, default=None)


def capacity_lower_bound(steps: Sequence[LadderStep]) -> bool:
    """The stack may hold more than its capacity: it held every rate offered, or the lowest rate
    it did not hold was a step its load generator bounded."""
    stop = stopping_step(steps)
    if stop is None:
        return bool(steps)
    return capacity(steps) is not None and stop.loadgen_bound


def climb(rates: Sequence[float], measure: Measure, *, alive: Callable[[], bool] = lambda: True) -> list[LadderStep]:
    """Every rate until the first step not held, then the bisection above the last held; every
    step in the order run. A stack that stopped running ends it."""
    steps: list[LadderStep] = []
    for rate in rates:
        steps.append(measure(rate, False))
        if not steps[-1].held:
            break
    held = capacity(steps)
    failed = min((s.offered_rps for s in steps if not s.held), default=None)
    if held is None or failed is None:
        return steps
    while alive() and (between := bisect_rate(held, failed)) is not None:
        steps.append(measure(between, True))
        if steps[-1].held:
            held = between
        else:
            failed = between
    return steps


def make_step(
    figures: LoadFigures, meter: StageMeter, *, objective_ms: float, alive: bool = True, bisection: bool = False
) -> LadderStep:
    """A ladder step (of the `bisection`, or not) from the load generator's figures and what was
    measured around them."""
    stage = meter.stage(figures)
    offered = figures.offered_rps or 0.0
    duration = figures.duration_s or 0.0
    delivered = figures.requests / duration if duration else 0.0
    # pgbench draws Poisson arrivals: judged against those it drew, not against their mean.
    drawn = figures.arrivals / duration if figures.arrivals is not None and duration else offered
    reasons = stop_reasons(
        offered_rps=drawn,
        duration_s=duration,
        delivered_rps=delivered,
        dropped=figures.dropped_iterations or 0,
        error_count=figures.error_count,
        p99_ms=figures.latency_ms.p99 if figures.latency_ms else None,
        objective_ms=objective_ms,
    )
    if stage.oom or not alive:
        reasons.append("failed")
    return LadderStep(
        offered_rps=offered,
        duration_s=duration,
        vus=figures.vus,
        requests=figures.requests,
        delivered_rps=delivered,
        latency_ms=figures.latency_ms,
        errors=figures.errors,
        error_count=figures.error_count,
        dropped_iterations=figures.dropped_iterations or 0,
        arrivals=figures.arrivals,
        endpoints=figures.endpoints,
        sql_per_request=stage.sql_per_request,
        mean_response_bytes=stage.mean_response_bytes,
        cpu_ms_per_request=stage.cpu_ms_per_request,
        app_peak_memory_bytes=stage.app_peak_memory_bytes,
        cpu=stage.cpu,
        loadgen_bound=loadgen_bound(stage.cpu),
        oom=stage.oom,
        held=not reasons,
        stop_reasons=reasons,
        bisection=bisection,
    )


def run_ladder(
    ctx: Context,
    scenario: Scenario,
    run_step: RunStep,
    *,
    label: str,
    statements: Statements | None,
    alive: Callable[[], bool] = lambda: True,
) -> Ladder:
    """The scenario's rates until the first step not held, then the bisection (`climb`)."""
    timing = OPEN_TIMING[ctx.plan.profile]

    def measure(rate: float, bisecting: bool) -> LadderStep:
        seconds = step_seconds(timing, rate)
        doing = "bisecting" if bisecting else "ladder"
        ctx.display.update(f"{label}: {rate:,g} req/s offered for {seconds} s ({doing})")
        with StageMeter(ctx.roles, statements) as meter:
            figures = run_step(rate, seconds, f"rate{rate:g}")
        return make_step(figures, meter, objective_ms=scenario.objective_ms, alive=alive(), bisection=bisecting)

    steps = climb([float(r) for r in scenario.rates], measure, alive=alive)
    return Ladder(
        objective_p99_ms=scenario.objective_ms,
        rates=list(scenario.rates),
        bisect_ratio=BISECT_RATIO,
        steps=steps,
        capacity_rps=capacity(steps),
        capacity_lower_bound=capacity_lower_bound(steps),
    )
