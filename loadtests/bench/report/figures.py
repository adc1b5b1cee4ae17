"""Figures over runs: median and range, the number formats of the tables, a figure as the results
page carries it (linked to its run's raw file), one stack × scenario."""

from __future__ import annotations

import itertools
import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple, TypedDict, TypeVar

from bench.records import RawResult, StackInfo
from bench.records.steps import Stage
from bench.scenarios import SCENARIOS

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


def of_runs(known: int, runs: int) -> str:
    """What a median over runs says when it rests on fewer than all of them (docs/method.md, "A run
    that held no rate"); nothing when it rests on all."""
    return f" ({known} of {runs} runs)" if known < runs else ""


def fmt(value: float | None, digits: int = 0, scale: float = 1.0) -> str:
    """A figure as results.md and the page print it: `digits` decimals, thousands separated, a
    half rounded away from zero on the float's shortest decimal form (1.005 to 1.01), as the
    page's toLocaleString rounds it; Python's own format rounds the binary value to even, and 50.5 s
    read 50 here and 51 on the page."""
    if value is None:
        return "–"
    scaled = value / scale
    if math.isinf(scaled) or math.isnan(scaled):
        return "∞" if scaled > 0 else "–"
    exact = Decimal(repr(scaled)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{exact:,.{digits}f}"


def fmt_spread(s: Spread | None, digits: int = 0) -> str:
    if s is None:
        return "–"
    if s.low == s.high:
        return fmt(s.median, digits)
    return f"{fmt(s.median, digits)} ({fmt(s.low, digits)}–{fmt(s.high, digits)})"


# How results.md and the page name a record's warm-up class (bench.records.steps.WarmupClass).
CLASS_WORDS = {
    "steady": "steady",
    "still-warming": "still warming",
    "slowing": "slowing",
    "not-settled": "not settled",
}


def record_class(record: RawResult) -> str | None:
    """A record's warm-up class; for one written before the classes, "not-settled" where its
    warm-up reached the cap, else None (it cannot say more)."""
    if record.warmup_class is not None:
        return record.warmup_class
    if record.steady_state is not None and not record.steady_state.reached:
        return "not-settled"
    return None


def class_counts(records: Iterable[RawResult]) -> str:
    """The records' warm-up classes counted, steady first ("4 steady, 2 still warming"); "–" where
    none has one."""
    found = [c for r in records if (c := record_class(r)) is not None]
    return ", ".join(f"{found.count(c)} {word}" for c, word in CLASS_WORDS.items() if c in found) or "–"


class Figure(TypedDict):
    """One figure over runs: the median, the range, and the raw file of the run it came from."""

    value: float | None
    low: float | None
    high: float | None
    count: int
    """How many values the median is of: one per run, or per start of the stack's process."""
    of: str
    """What each value is ("run", "start"), as the page says it: "median of 5 starts"."""
    href: str | None


def figure(pairs: Iterable[tuple[float | None, str]], of: str = "run") -> Figure:
    """The median of the values with their range, linked to the file of the run whose value is
    the median (or nearest it, for an even count)."""
    known = [(value, link) for value, link in pairs if value is not None]
    found = spread(value for value, _ in known)
    if found is None:
        return {"value": None, "low": None, "high": None, "count": 0, "of": of, "href": None}
    nearest = min(known, key=lambda pair: abs(pair[0] - found.median))
    return {
        "value": found.median,
        "low": found.low,
        "high": found.high,
        "count": len(known),
        "of": of,
        "href": nearest[1],
    }


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


def group_cells(records: list[RawResult]) -> dict[str, list[Cell]]:
    """One Cell per stack (ceilings included) per scenario: the scenarios in the study's order,
    any other after them by name."""
    by_scenario: dict[str, dict[str, list[RawResult]]] = defaultdict(lambda: defaultdict(list))
    for record in records:
        by_scenario[record.scenario][record.stack.label].append(record)
    order = [s for s in SCENARIOS if s in by_scenario] + sorted(set(by_scenario) - set(SCENARIOS))
    return {scenario: [Cell(rs) for rs in by_scenario[scenario].values()] for scenario in order}


def overlap(a: Spread, b: Spread) -> bool:
    """The two ranges over all runs share a value: no difference shown between them."""
    return a.low <= b.high and b.low <= a.high


def no_difference(rows: list[tuple[str, Spread | None]]) -> list[tuple[str, str]]:
    """Every pair of rows (not only neighbours) whose min–max ranges over all runs overlap."""
    return [
        (name_a, name_b)
        for (name_a, a), (name_b, b) in itertools.combinations(rows, 2)
        if a is not None and b is not None and overlap(a, b)
    ]


def noise_marks(rows: list[tuple[str, Spread | None]], *, pairwise: bool = True) -> dict[str, str]:
    """Each pair with no difference is marked once, on its upper row: "≈ next" for the row
    below, "≈ NAME" for any other; pairs are decided over all rows, not only adjacent ones.

    `pairwise=False` is the rule results measured before the open model were published with:
    adjacent rows only (kept so that their results.md renders unchanged until re-measured)."""
    if not pairwise:
        return {a: "≈ next" for (a, x), (_, y) in itertools.pairwise(rows) if x and y and x.low <= y.high}
    order = [name for name, _ in rows]
    found: dict[str, list[str]] = {}
    for a, b in no_difference(rows):
        upper, lower = (a, b) if order.index(a) < order.index(b) else (b, a)
        found.setdefault(upper, []).append("next" if order.index(lower) == order.index(upper) + 1 else lower)
    return {name: "≈ " + ", ".join(sorted(others, key=lambda o: o != "next")) for name, others in found.items()}


def method_words(records: list[RawResult]) -> str:
    """The method as results.md and the page name it ("method v4"); records that name none were
    written before v4."""
    named = sorted({r.method for r in records if r.method is not None})
    words = [f"method v{m}" for m in named]
    if any(r.method is None for r in records):
        words.append("a method before v4 (its records name none: results/changelog.md, The methods)")
    return " and ".join(words) or "no method"


def commit_ids(records: list[RawResult]) -> list[str]:
    """The commits `records` were measured at, each by its first 12 characters, sorted."""
    return sorted({(r.git_commit or "unknown")[:12] for r in records})
