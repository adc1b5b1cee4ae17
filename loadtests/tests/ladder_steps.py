"""A ladder step for the open model's tests: what a test says of it, the rest of a step that kept
up with its rate."""

from __future__ import annotations

from bench.judgement.ladder import loadgen_bound
from bench.records.steps import LadderStep, RoleCpu


def ladder_step(
    rate: float, held: bool, *, cpu: RoleCpu | None = None, bisection: bool = False, probe: bool = False
) -> LadderStep:
    """Ten seconds at `rate` (a probe's or full-length), held or not (by its p99); what bound it
    from `cpu`, when measured."""
    return LadderStep(
        offered_rps=rate,
        duration_s=10,
        vus=20,
        requests=int(rate * 10),
        delivered_rps=rate,
        latency_ms=None,
        errors={},
        error_count=0,
        dropped_iterations=0,
        sql_per_request=None,
        mean_response_bytes=None,
        cpu_ms_per_request=None,
        app_peak_memory_bytes=None,
        cpu=cpu,
        loadgen_bound=loadgen_bound(cpu),
        oom=False,
        held=held,
        stop_reasons=[] if held else ["p99"],
        bisection=bisection,
        probe=probe,
    )
