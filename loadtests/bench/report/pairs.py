"""One row's figures against another's over their runs: the ratio with its spread, at a rate both
held. The variants section (a variant against its stack) and the claims section (any two rows a
claim names) both compute their ratios here.

The spread of a ratio is the ranges' rule of docs/method.md ("Noise and repeats", "Tiers"): over
every run of the one and every run of the other, from the lowest of the first over the highest of
the second to the highest over the lowest, the ratio of the medians between. It includes 1 exactly
when the two rows' ranges overlap, which is when the report shows no difference between them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from bench.records.steps import LadderStep
from bench.report.figures import MIB, Cell, Spread, fmt, median, spread
from bench.report.ladder import capacities, grid_rates_held, p99_of, postgres_ms_of, values_at
from bench.report.summary import per_run_peak


def ratio(numerator: list[float | None], denominator: list[float | None]) -> Spread | None:
    """The first row's values over the second's: the medians' ratio, and the lowest and highest
    any run of the one and any run of the other give (high is infinite where a run of the second
    measured 0); None where either has no value or the second's median is 0."""
    top, bottom = spread(numerator), spread(denominator)
    if top is None or bottom is None or not bottom.median:
        return None
    low = top.low / bottom.high if bottom.high else math.inf
    high = top.high / bottom.low if bottom.low else math.inf
    return Spread(top.median / bottom.median, low, high)


def fmt_ratio(found: Spread | None, digits: int = 2) -> str:
    """0.79 (0.70–0.88); one value where the runs gave one."""
    if found is None:
        return "–"

    def one(value: float) -> str:
        return "∞" if math.isinf(value) else fmt(value, digits)

    if found.low == found.high:
        return one(found.median)
    return f"{one(found.median)} ({one(found.low)}–{one(found.high)})"


def shared_rate(cells: list[Cell]) -> float | None:
    """The highest of the scenario's own rates that every run of every row held, by a probe or at
    full length: where their costs are compared. It is the scenario's common rate taken over these
    rows alone, with one difference: a run that held no rate leaves the rows none to share. A
    bisection's rates differ from run to run, and a full-length step runs only near a run's
    capacity, so a pair rarely shares one of those."""
    if not cells or any(not any(r.ladder is not None for r in c.records) for c in cells):
        return None
    records = [r for c in cells for r in c.records if r.ladder is not None]
    shared = set.intersection(*(grid_rates_held(r) for r in records))
    return max(shared, default=None)


def _resource(name: str) -> Callable[[LadderStep], float | None]:
    def value(step: LadderStep) -> float | None:
        found = getattr(step.resources, name, None) if step.resources is not None else None
        return float(found) if found is not None else None

    return value


def _jvm(name: str, scale: float = 1.0) -> Callable[[LadderStep], float | None]:
    def value(step: LadderStep) -> float | None:
        jvm = step.resources.jvm if step.resources is not None else None
        return getattr(jvm, name) / scale if jvm is not None else None

    return value


def _closed_rps(cell: Cell, _rate: float | None) -> list[float | None]:
    top = cell.top()
    return list(cell.stage_values(top, lambda s: s.rps)) if top is not None else []


@dataclass(frozen=True)
class Metric:
    """What a claim or a variant row compares: its values per run of a row (at the rate the rows
    share where `at_rate`), named and formatted as the tables show them."""

    label: str
    unit: str
    digits: int
    at_rate: bool
    values: Callable[[Cell, float | None], list[float | None]]


def _stepped(value: Callable[[LadderStep], float | None]) -> Callable[[Cell, float | None], list[float | None]]:
    return lambda cell, rate: values_at(cell, rate, value)


METRICS: dict[str, Metric] = {
    # A run that held no rate counts as 0 req/s, as in the tiers.
    "capacity": Metric(
        "capacity at objective",
        "req/s",
        0,
        False,
        lambda cell, _: list[float | None](capacities(cell)),
    ),
    "closed-rps": Metric("throughput at the highest closed-model stage", "req/s", 0, False, _closed_rps),
    "p99": Metric("p99", "ms", 1, True, _stepped(p99_of)),
    "app-cpu": Metric("app CPU per request", "ms", 3, True, _stepped(lambda s: s.cpu_ms_per_request)),
    "postgres-cpu": Metric("PostgreSQL CPU per request", "ms", 3, True, _stepped(postgres_ms_of)),
    "sql": Metric("SQL statements per request", "", 2, True, _stepped(lambda s: s.sql_per_request)),
    "bytes": Metric("bytes per response", "B", 0, True, _stepped(lambda s: s.mean_response_bytes)),
    "threads": Metric("peak threads", "", 0, True, _stepped(_resource("threads_peak"))),
    "connections-in-use": Metric(
        "database connections in use, peak", "", 0, True, _stepped(_resource("db_connections_in_use_peak"))
    ),
    "connections-held": Metric(
        "database connections held, peak", "", 0, True, _stepped(_resource("db_connections_held_peak"))
    ),
    "gc": Metric("GC pauses per second", "ms/s", 1, True, _stepped(_jvm("gc_pause_ms_per_s"))),
    "heap": Metric("heap used, peak", "MiB", 0, True, _stepped(_jvm("heap_used_peak_bytes", MIB))),
    # A fresh process's seconds to its first healthy /health (each run's that started one), and
    # its warm-up's to steady state (the cap where it did not settle), as the summary shows them.
    "startup": Metric(
        "start-up", "s", 1, False, lambda cell, _: [r.startup_s for r in cell.records if not r.served_before]
    ),
    "steady-state": Metric(
        "time to steady state",
        "s",
        0,
        False,
        lambda cell, _: [r.steady_state.time_s if r.steady_state is not None else None for r in cell.records],
    ),
    # Each run's highest over every step and stage, as the summary's peak memory.
    "peak-memory": Metric(
        "app peak memory", "MiB", 0, False, lambda cell, _: [p / MIB if p else None for p in per_run_peak(cell.records)]
    ),
}


def measured(cell: Cell, metric: Metric, rate: float | None) -> Spread | None:
    """The row's figure over its runs (median, min–max)."""
    return spread(metric.values(cell, rate))


def median_at(cell: Cell, rate: float | None, value: Callable[[LadderStep], float | None]) -> float | None:
    return median(values_at(cell, rate, value))
