"""The fixed-rate ladder (the open model): each of the scenario's offered rates in turn, the same
for every stack, until the first step the stack cannot hold.

A step is held when delivered >= 97% of offered, dropped iterations <= 1% of the arrivals
offered, no unexpected status, and p99 <= the scenario's objective. Capacity at objective is
the highest offered rate held. The judgement is pure (stop_reasons, capacity), for the tests.
"""

from __future__ import annotations

from collections.abc import Callable

from bench.loadgen import LoadFigures
from bench.measure.context import Context
from bench.measure.probes import StageMeter, Statements
from bench.records import Ladder, LadderStep, StopReason
from bench.scenarios import OPEN_TIMING, Scenario

DELIVERED_MIN = 0.97
DROPPED_MAX = 0.01

# Runs one fixed-rate step: (rate, seconds, step tag) -> the load generator's figures.
RunStep = Callable[[float, int, str], LoadFigures]


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


def capacity(steps: list[LadderStep]) -> float | None:
    """Capacity at objective: the highest offered rate held before the first step not held."""
    held = None
    for step in steps:
        if not step.held:
            break
        held = step.offered_rps
    return held


def make_step(figures: LoadFigures, meter: StageMeter, *, objective_ms: float, alive: bool = True) -> LadderStep:
    """A ladder step from the load generator's figures and what was measured around them."""
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
        oom=stage.oom,
        held=not reasons,
        stop_reasons=reasons,
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
    """Every rate of the scenario until the first step not held (that step is recorded too)."""
    timing = OPEN_TIMING[ctx.plan.profile]
    seconds = timing.oha_step_s if scenario.tool == "oha" else timing.step_s
    steps: list[LadderStep] = []
    for rate in scenario.rates:
        ctx.display.update(f"{label}: {rate:,} req/s offered for {seconds} s")
        with StageMeter(ctx.roles, statements) as meter:
            figures = run_step(rate, seconds, f"rate{rate}")
        step = make_step(figures, meter, objective_ms=scenario.objective_ms, alive=alive())
        steps.append(step)
        if not step.held:
            break
    return Ladder(
        objective_p99_ms=scenario.objective_ms,
        rates=list(scenario.rates),
        steps=steps,
        capacity_rps=capacity(steps),
    )
