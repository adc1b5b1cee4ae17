"""What a load generator reports for one stage or step, whichever generator sent it (k6, oha or
pgbench): the common shape its parser turns its output into."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from bench.records.steps import EndpointFigures, Latency


def nearest_rank(ordered: Sequence[float], share: float) -> float:
    """The `share` quantile of sorted values by nearest rank: the smallest value with at least
    that share of the values at or under it, so a latency some request actually had."""
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def latency_of(values_ms: Iterable[float]) -> Latency | None:
    """The percentiles a stage's figures have, by nearest rank, from every request's (or
    transaction's) latency: the rule for every latency the runner computes itself (pgbench's,
    vegeta's, the first minute's bins), where oha and k6 report their own."""
    ordered = sorted(values_ms)
    if not ordered:
        return None
    return Latency(
        avg=statistics.fmean(ordered),
        min=ordered[0],
        p50=nearest_rank(ordered, 0.50),
        p90=nearest_rank(ordered, 0.90),
        p95=nearest_rank(ordered, 0.95),
        p99=nearest_rank(ordered, 0.99),
        p999=nearest_rank(ordered, 0.999),
        max=ordered[-1],
    )


class LoadFigures(BaseModel):
    """What a load generator reports for one stage, before the app's cost is added (bench.records.steps.Stage)."""

    model_config = ConfigDict(extra="forbid")

    vus: int
    requests: int
    rps: float
    duration_s: float | None = None
    latency_ms: Latency | None
    errors: dict[str, int]
    error_count: int
    bytes_received: int | None
    endpoints: dict[str, EndpointFigures] | None = None
    db_clients: int | None = None
    active_s: float | None = None
    """oha: how long it was sending, shorter than its run for a blast under a second."""
    requests_sent: int | None = None
    """k6: every request of its run, the ramp's included (what CPU and SQL are counted over)."""
    offered_rps: float | None = None
    """The open model: the fixed arrival rate of the run."""
    dropped_iterations: int | None = None
    """k6's arrival-rate executor: arrivals it could not start for want of a free VU."""
    arrivals: int | None = None
    """pgbench -R: the arrivals it drew (processed + skipped). Its arrivals are a Poisson process,
    so a short step draws a few percent more or fewer than rate × seconds."""
