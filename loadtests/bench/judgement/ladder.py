"""The fixed-rate ladder's judgement (docs/method.md, The fixed-rate ladder). A step is held when
delivered >= 97% of offered, dropped iterations <= 1% of the arrivals offered, no unexpected
status, and p99 <= the scenario's objective. Capacity at objective is the highest offered rate
held at full length below every full-length rate not held; the probes only say where to look. A
step in which the load generator alone used LOADGEN_SHARE or more of its CPUs is marked, and a
capacity that such a step stopped is only a lower bound. After the first step not held, the
ladder bisects until the highest rate held and the lowest not held are at most BISECT_RATIO
apart (bench.measure.phases.ladder climbs it)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from bench.judgement.bounds import harness_share
from bench.records.steps import LadderStep, RoleCpu, StopReason

DELIVERED_MIN = 0.97
DROPPED_MAX = 0.01
# The load generator's share of its CPUs at which a step measured it as much as the stack: on two
# cores it shares CPU 1 with PostgreSQL, and past half of it k6 took more of that core than
# PostgreSQL did in the published join-filter and heavy-body steps (issue 31).
LOADGEN_SHARE = 0.5
# The bisection after the ladder's first step not held ends once the highest rate held and the
# lowest not held are at most this ratio apart: capacity to within 10%, where the ladder's ×1.5
# to ×2.5 steps left it 50-150% low.
BISECT_RATIO = 1.10


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
    """The load generator used LOADGEN_SHARE or more of its CPUs, with the stock upstream where it
    ran (the harness both, on the same CPUs)."""
    return cpu is not None and harness_share(cpu) >= LOADGEN_SHARE


def decisive(steps: Sequence[LadderStep]) -> list[LadderStep]:
    """The full-length steps: the probes only guide the ladder (records before method v3's probes
    have none, so all of theirs count)."""
    return [s for s in steps if not s.probe]


def capacity(steps: Sequence[LadderStep]) -> float | None:
    """Capacity at objective: the highest offered rate held at full length below every full-length
    rate not held (a step held by chance above one that was not does not count)."""
    full = decisive(steps)
    ceiling = min((s.offered_rps for s in full if not s.held), default=math.inf)
    return max((s.offered_rps for s in full if s.held and s.offered_rps < ceiling), default=None)


def stopping_step(steps: Sequence[LadderStep]) -> LadderStep | None:
    """The step that bounds the capacity from above: the lowest full-length rate not held (after a
    bisection not the last step run); None when every full-length step was held."""
    return min((s for s in decisive(steps) if not s.held), key=lambda s: s.offered_rps, default=None)


def capacity_lower_bound(steps: Sequence[LadderStep]) -> bool:
    """The stack may hold more than its capacity: it held every full-length rate offered, or the
    lowest it did not hold was a step its load generator bounded."""
    stop = stopping_step(steps)
    if stop is None:
        return bool(decisive(steps))
    return capacity(steps) is not None and stop.loadgen_bound


def bisect_rate(held: float, failed: float) -> float | None:
    """The next rate between the last held and the lowest not held: their geometric mean, to a
    whole request per second; None once they are at most BISECT_RATIO apart."""
    if failed <= held * BISECT_RATIO:
        return None
    rate = float(round(math.sqrt(held * failed)))
    return rate if held < rate < failed else None


def bisection_rates(held: float, failed: float) -> list[float]:
    """The rates a bisection from `held` and `failed` runs if each is held; as many as any other
    outcome gives (each step halves the ratio's logarithm), for the time estimate."""
    rates: list[float] = []
    while (rate := bisect_rate(held, failed)) is not None:
        rates.append(rate)
        held = rate
    return rates
