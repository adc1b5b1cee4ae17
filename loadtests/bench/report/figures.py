"""Figures over runs: median and range, the number formats of the tables, one stack × scenario."""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Iterable
from typing import NamedTuple, TypeVar

from bench.records import RawResult, StackInfo, Stage

MIB = 1 << 20
T = TypeVar("T")


class Spread(NamedTuple):
    median: float
    low: float
    high: float


def spread(values: Iterable[float | None]) -> Spread | None:
    known = [v for v in values if v is not None]
    if not known:
        return None
    return Spread(statistics.median(known), min(known), max(known))


def median(values: Iterable[float | None]) -> float | None:
    found = spread(values)
    return found.median if found else None


def fmt(value: float | None, digits: int = 0, scale: float = 1.0) -> str:
    if value is None:
        return "–"
    return f"{value / scale:,.{digits}f}"


def fmt_spread(s: Spread | None, digits: int = 0) -> str:
    if s is None:
        return "–"
    if s.low == s.high:
        return fmt(s.median, digits)
    return f"{fmt(s.median, digits)} ({fmt(s.low, digits)}–{fmt(s.high, digits)})"


class Cell:
    """One stack × scenario over its runs."""

    def __init__(self, records: list[RawResult]) -> None:
        self.records = [r for r in records if not r.failed]
        self.failures = [r.failed for r in records if r.failed]
        self.stack: StackInfo = records[0].stack

    def stages(self) -> list[int]:
        return [s.vus for s in self.records[0].stages] if self.records else []

    def stage_values(self, vus: int, value: Callable[[Stage], T]) -> list[T]:
        """`value` of the stage at `vus` in each run."""
        return [value(stage) for record in self.records for stage in record.stages if stage.vus == vus]

    def latency(self, vus: int, percentile: str) -> list[float | None]:
        return self.stage_values(vus, lambda s: getattr(s.latency_ms, percentile) if s.latency_ms else None)

    def top(self) -> int | None:
        stages = self.stages()
        return stages[-1] if stages else None

    def rps(self, vus: int | None = None) -> Spread | None:
        vus = vus or self.top()
        return spread(self.stage_values(vus, lambda s: s.rps)) if vus else None


def noise_marks(rows: list[tuple[str, Spread | None]]) -> dict[str, str]:
    """A row whose min–max overlaps the next row's is no different from it: marked ≈."""
    marks = {}
    for (name, a), (_, b) in itertools.pairwise(rows):
        if a and b and a.low <= b.high:
            marks[name] = "≈ next"
    return marks
