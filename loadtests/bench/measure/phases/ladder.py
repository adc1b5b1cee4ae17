"""The fixed-rate ladder (the open model), in two passes. First short probe steps: each of the
scenario's offered rates in turn (the same for every stack) until the first not held, then a
geometric bisection between the last held and the first not held until they are at most
BISECT_RATIO apart. Then full-length steps, seeded by the probes: the rate the probes last held,
the next one up, and so on up or down (a bisection again where they leave a gap) until a rate held
and one not held, both at full length, are at most BISECT_RATIO apart. Only full-length steps
decide the capacity; the probes only say where to look, in a fraction of the time. When a step is
held and what the steps decide is bench.judgement.ladder; the walk (`climb`) is pure, for the
tests."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

from bench.judgement.ladder import (
    BISECT_RATIO,
    bisect_rate,
    capacity,
    capacity_lower_bound,
    loadgen_bound,
    stop_reasons,
    stopping_step,
)
from bench.judgement.steady import repeated_step
from bench.measure.load.figures import LoadFigures
from bench.measure.phases.context import Context, vacuum_before_step
from bench.measure.phases.probes import StageMeter, Statements
from bench.profiles import OPEN_TIMING, step_seconds
from bench.records.steps import Ladder, LadderStep
from bench.scenarios import Scenario

# Runs one fixed-rate step: (rate, seconds, step tag) -> the load generator's figures.
RunStep = Callable[[float, int, str], LoadFigures]
# Readies one fixed-rate step before it is measured: (rate, seconds, step tag) -> what sends it.
# A write scenario's step makes the rows it deletes and draws its requests then, so that neither
# counts in the step's CPU (bench.measure.phases.vegeta_runs).
PrepareStep = Callable[[float, int, str], Callable[[], LoadFigures]]


def sent_at_once(run_step: RunStep) -> PrepareStep:
    """A step that needs no preparation: its run is all of it."""
    return lambda rate, seconds, tag: functools.partial(run_step, rate, seconds, tag)


# Runs one step of the ladder: (rate, a rate of a bisection, a probe) -> the step as recorded.
Measure = Callable[[float, bool, bool], LadderStep]
# A step during which the hypervisor took more of the machine's CPU time than this is run again,
# up to STEAL_RETRIES times, and the record keeps the steal of each try it replaced (method v4).
STEAL_LIMIT = 0.02
STEAL_RETRIES = 2


def _probe_bracket(steps: Sequence[LadderStep]) -> tuple[float | None, float | None]:
    """The highest probe rate held below every probe rate not held, and the lowest not held."""
    probes = [s for s in steps if s.probe]
    failed = min((s.offered_rps for s in probes if not s.held), default=None)
    below = math.inf if failed is None else failed
    held = max((s.offered_rps for s in probes if s.held and s.offered_rps < below), default=None)
    return held, failed


def climb(rates: Sequence[float], measure: Measure, *, alive: Callable[[], bool] = lambda: True) -> list[LadderStep]:
    """The probes (every rate until the first not held, then their bisection), then the full-length
    steps they seed until a full-length bracket is at most BISECT_RATIO wide; every step in the
    order run. A stack that stopped running ends it."""
    steps: list[LadderStep] = []
    for probe_rate in rates:
        steps.append(measure(probe_rate, False, True))
        if not steps[-1].held or not alive():
            break
    held, failed = _probe_bracket(steps)
    while alive() and held is not None and failed is not None and (between := bisect_rate(held, failed)) is not None:
        steps.append(measure(between, True, True))
        held, failed = _probe_bracket(steps)

    # Where the full-length steps may go when the probes misled them: any rate a probe ran, and the
    # scenario's own rates.
    grid = set(rates)
    candidates = sorted(grid | {s.offered_rps for s in steps})
    measured: set[float] = set()
    rate: float | None = held if held is not None else (rates[0] if rates else None)
    while alive() and rate is not None and rate not in measured:
        steps.append(measure(rate, rate not in grid, False))
        measured.add(rate)
        low, stop = capacity(steps), stopping_step(steps)
        high = stop.offered_rps if stop is not None else None
        if low is not None and high is not None:
            rate = bisect_rate(low, high)
        elif high is None:  # every full-length step held: one further up, if there is one
            rate = next((r for r in candidates if low is not None and r > low and r not in measured), None)
        else:  # none held at full length: one further down
            rate = next((r for r in reversed(candidates) if r < high and r not in measured), None)
    return steps


def make_step(
    figures: LoadFigures,
    meter: StageMeter,
    *,
    objective_ms: float,
    alive: bool = True,
    bisection: bool = False,
    probe: bool = False,
) -> LadderStep:
    """A ladder step (a probe or full-length, of the `bisection` or not) from the load generator's
    figures and what was measured around them."""
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
    step = LadderStep(
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
        probe=probe,
    )
    if stage.resources is not None:
        # Set only where sampled (records are written without unset fields): a --target run's steps have none.
        step.resources = stage.resources
    if stage.host is not None:
        step.host = stage.host
    return step


def stolen(step: LadderStep) -> bool:
    """The hypervisor took more than STEAL_LIMIT of the machine's CPU time during the step."""
    return step.host is not None and step.host.steal_share > STEAL_LIMIT


def without_steal(measure_once: Callable[[], LadderStep], *, alive: Callable[[], bool]) -> LadderStep:
    """A step, run again while the hypervisor stole over STEAL_LIMIT of the machine during it
    (at most STEAL_RETRIES times): the last try, with the steal of those it replaced."""
    replaced: list[float] = []
    step = measure_once()
    while stolen(step) and len(replaced) < STEAL_RETRIES and alive():
        assert step.host is not None
        replaced.append(step.host.steal_share)
        step = measure_once()
    if replaced:
        step.steal_reruns = replaced
    return step


def run_ladder(
    ctx: Context,
    scenario: Scenario,
    prepare_step: PrepareStep,
    *,
    label: str,
    statements: Statements | None,
    alive: Callable[[], bool] = lambda: True,
    repeat: bool = True,
) -> Ladder:
    """The probes, then the full-length steps they seed (`climb`); each step readied before its
    measurement begins (`prepare_step`); then, if `repeat`, one of the full-length steps again
    (`repeated_step`). A ceiling has no warm-up to classify and runs none."""
    timing = OPEN_TIMING[ctx.plan.profile]

    def measure_once(rate: float, bisecting: bool, probe: bool, tag: str = "") -> LadderStep:
        seconds = timing.probe_s if probe else step_seconds(timing, rate)
        doing = ("probe, " if probe else "") + ("bisecting" if bisecting else "ladder")
        vacuum_before_step(ctx, scenario)
        send = prepare_step(rate, seconds, tag or f"{'probe' if probe else 'rate'}{rate:g}")
        ctx.display.update(f"{label}: {rate:,g} req/s offered for {seconds} s ({doing})")
        with StageMeter(ctx.roles, statements) as meter:
            figures = send()
        return make_step(
            figures, meter, objective_ms=scenario.objective_ms, alive=alive(), bisection=bisecting, probe=probe
        )

    def measure(rate: float, bisecting: bool, probe: bool) -> LadderStep:
        return without_steal(lambda: measure_once(rate, bisecting, probe), alive=alive)

    steps = climb([float(r) for r in scenario.rates], measure, alive=alive)
    ladder = Ladder(
        objective_p99_ms=scenario.objective_ms,
        rates=list(scenario.rates),
        bisect_ratio=BISECT_RATIO,
        probe_s=timing.probe_s,
        steps=steps,
        capacity_rps=capacity(steps),
        capacity_lower_bound=capacity_lower_bound(steps),
    )
    first = repeated_step(steps)
    if repeat and first is not None and alive():
        # The same rate and length again on the same process: whether its requests still got
        # cheaper, or dearer, since (bench.judgement.steady.warmup_class).
        ctx.display.update(f"{label}: {first.offered_rps:,g} req/s again (the repeated step)")
        rate, bisecting = first.offered_rps, first.bisection
        ladder.repeat = without_steal(lambda: measure_once(rate, bisecting, False, f"repeat{rate:g}"), alive=alive)
    return ladder
