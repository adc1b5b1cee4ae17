"""A stack at one rate of a scenario: whether it holds it, and what it costs there. results.md and
the results page both say it from here, so that the two cannot disagree.

A run holds a rate when its capacity is at or above it: capacity is decided by the full-length
steps alone (docs/method.md), so a probe held above it, or a step held above one not held, says
nothing. A stack holds a rate when every run holds it; otherwise the answer says how many did.

Its figures come from the runs that hold the rate, from the steps each of them held at a rate it
holds (the full-length step where one ran, else the probe): at each rate where every one of those
runs has such a step, the median over them; between two such rates, a straight line; never past
them. Where those rates do not reach the rate asked (one run bisected to 944 req/s, another to
1,061), the nearest steps that only some of the runs held give it, and the reading says from how
many runs. Each figure says whether a probe (a few seconds of requests) is among its steps.

The page asks about any rate a reader types. It does not decide anything: `pieces` cuts the rates
into the points and stretches over which the answer, the runs and the steps to interpolate between
stay the same, and the page only finds its piece and draws the straight line between its two
steps' medians."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bench.records import RawResult
from bench.records.steps import LadderStep
from bench.report.figures import MIB, fmt, median

# What a step gives per request (CPU ms, which the rate turns into cores) or as measured.
STEP_FIGURES = ("app_ms", "postgres_ms", "p99", "memory_mib")


def holds(record: RawResult, rate: float) -> bool:
    """The run held `rate`: its capacity is at or above it. A run that held no rate holds none."""
    capacity = record.ladder.capacity_rps if record.ladder is not None else None
    return capacity is not None and rate <= capacity


def held_points(record: RawResult) -> dict[float, LadderStep]:
    """The run's step at each rate it holds and held a step at, by rate: the full-length one where a
    probe ran the same rate, else the probe."""
    if record.ladder is None:
        return {}
    found: dict[float, LadderStep] = {}
    # Probes first, so that a full-length step at the same rate replaces its probe.
    for step in sorted(record.ladder.steps, key=lambda s: not s.probe):
        if step.held and holds(record, step.offered_rps):
            found[step.offered_rps] = step
    return dict(sorted(found.items()))


def held_step(record: RawResult, rate: float | None) -> LadderStep | None:
    """The run's step at `rate` if it holds the rate and held a step there."""
    return None if rate is None else held_points(record).get(rate)


def step_figures(step: LadderStep) -> dict[str, float | None]:
    return {
        "app_ms": step.cpu_ms_per_request,
        "postgres_ms": step.cpu.postgres_ms_per_request if step.cpu else None,
        "p99": step.latency_ms.p99 if step.latency_ms else None,
        "memory_mib": step.app_peak_memory_bytes / MIB if step.app_peak_memory_bytes is not None else None,
    }


@dataclass(frozen=True)
class Anchor:
    """One rate's steps over the runs that held one there: the median of each figure."""

    rate: float
    runs: tuple[int, ...]
    """The run numbers of the steps."""
    probe: bool
    """At least one of the steps is a probe."""
    values: Mapping[str, float | None]


@dataclass(frozen=True)
class Reading:
    rate: float
    runs: int
    """The runs with a ladder."""
    held: int
    """Of those, the runs that hold the rate."""
    held_no_rate: int
    """Runs that held no rate at all."""
    unmeasured: int
    """Runs that do not hold it, whose capacity is a lower bound, and that were never offered it:
    every rate they were offered is below it."""
    generator_bound: int
    """Runs that were offered it (or a lower rate) and did not hold it, with a step the load
    generator bound: their capacity is a lower bound, and they cannot say whether the stack holds it."""
    stopped_by_generator: int
    """Of the runs never offered it, those that stopped below their highest offered rate, where
    the load generator bound a step they did not hold (the others held every rate offered)."""
    low: Anchor | None
    high: Anchor | None
    """None with `low` set: measured at the rate itself; both None: no figures."""

    @property
    def holds(self) -> bool:
        return self.runs > 0 and self.held == self.runs

    @property
    def of_runs(self) -> int:
        """How many runs the figures rest on (at the end of the two with fewer)."""
        ends = [a for a in (self.low, self.high) if a is not None]
        return min((len(a.runs) for a in ends), default=0)

    @property
    def probe(self) -> bool:
        return any(a is not None and a.probe for a in (self.low, self.high))

    @property
    def interpolated(self) -> bool:
        return self.high is not None

    def answer(self) -> str:
        """Whether the stack holds the rate, in words."""
        if not self.runs:
            return "not measured"
        if self.holds:
            return "yes"
        if self.held_no_rate == self.runs:
            return "no: held no rate"
        if self.unmeasured == self.runs:
            # Every run stopped below this rate: a lower bound, not a no.
            if self.stopped_by_generator:
                return (
                    f"not offered: every run stopped below this rate, {self.stopped_by_generator} of {self.runs}"
                    " where the load generator bound it"
                )
            return "not offered: every run held all it was offered, below this rate"
        if self.generator_bound and self.unmeasured + self.generator_bound == self.runs:
            return "unknown: the load generator, not the stack, bound every run offered this rate"
        runs = f"{self.runs} run{'s' if self.runs > 1 else ''}"
        refused = self.runs - self.held - self.unmeasured - self.generator_bound - self.held_no_rate
        unsure = self.unmeasured + self.generator_bound
        said = f"{self.held} of {runs}" if self.held or unsure else f"no: 0 of {runs}"
        if self.held_no_rate:
            said += f", {self.held_no_rate} held no rate"
        if self.generator_bound:
            said += f", {self.generator_bound} bound by the load generator"
        if self.unmeasured:
            said += f", {self.unmeasured} not offered this rate"
        if unsure and not refused:
            said += " (no run refused it)"
        return said

    def per_request(self) -> dict[str, float | None]:
        """The steps' figures at the rate: CPU ms per request, p99 ms and app memory MiB."""
        return {key: self._at(key) for key in STEP_FIGURES}

    def figures(self) -> dict[str, float | None]:
        """App and PostgreSQL cores (CPU ms per request × the rate), p99 ms and app memory MiB."""
        per_request = self.per_request()
        app, postgres = per_request["app_ms"], per_request["postgres_ms"]
        return {
            "app_cores": None if app is None else app * self.rate / 1000,
            "postgres_cores": None if postgres is None else postgres * self.rate / 1000,
            "p99": per_request["p99"],
            "memory_mib": per_request["memory_mib"],
        }

    def _at(self, key: str) -> float | None:
        if self.low is None:
            return None
        low = self.low.values[key]
        if self.high is None or low is None:
            return low
        high = self.high.values[key]
        if high is None:
            return None
        share = (self.rate - self.low.rate) / (self.high.rate - self.low.rate)
        return low + share * (high - low)


def _anchor(points: list[tuple[RawResult, dict[float, LadderStep]]], rate: float) -> Anchor:
    steps = [(record.run, found[rate]) for record, found in points if rate in found]
    values = {key: median(step_figures(step)[key] for _, step in steps) for key in STEP_FIGURES}
    return Anchor(rate, tuple(sorted(run for run, _ in steps)), any(step.probe for _, step in steps), values)


def _bracket(holding: list[RawResult], rate: float) -> tuple[Anchor | None, Anchor | None]:
    """The step (or the two around the rate) its figures come from: first from rates every holding
    run held a step at, then from rates any of them did."""
    points = [(record, held_points(record)) for record in holding]
    if not points:
        return None, None
    every = set.intersection(*(set(found) for _, found in points))
    some = set.union(*(set(found) for _, found in points))
    for rates in (every, some):
        if rate in rates:
            return _anchor(points, rate), None
        below = max((r for r in rates if r < rate), default=None)
        above = min((r for r in rates if r > rate), default=None)
        if below is not None and above is not None:
            return _anchor(points, below), _anchor(points, above)
    return None, None


def reading_at(records: Sequence[RawResult], rate: float) -> Reading:
    """One stack's runs of one scenario at `rate` req/s."""
    laddered = [r for r in records if r.ladder is not None]
    holding = [r for r in laddered if holds(r, rate)]
    # Each run whose capacity is a lower bound below the rate, with the highest rate it was offered:
    # above that it was never offered the rate; at or below it the load generator bound a step.
    below = [
        (r.ladder.capacity_rps or 0.0, highest_offered(r))
        for r in laddered
        if r.ladder is not None and r.ladder.capacity_lower_bound and not holds(r, rate)
    ]
    low, high = _bracket(holding, rate)
    return Reading(
        rate=rate,
        runs=len(laddered),
        held=len(holding),
        held_no_rate=sum(1 for r in laddered if r.ladder is not None and r.ladder.capacity_rps is None),
        unmeasured=sum(1 for _, offered in below if offered < rate),
        generator_bound=sum(1 for _, offered in below if offered >= rate),
        stopped_by_generator=sum(1 for capacity, offered in below if capacity < offered < rate),
        low=low,
        high=high,
    )


def highest_offered(record: RawResult) -> float:
    """The highest rate any step of its ladder, probes included, was offered."""
    steps = record.ladder.steps if record.ladder is not None else []
    return max((step.offered_rps for step in steps), default=0.0)


@dataclass(frozen=True)
class Piece:
    """The rates over which a reading keeps its answer and its steps: the one rate `start` (a
    point), or those strictly between `start` and `end` (None: no end)."""

    start: float
    end: float | None
    point: bool
    reading: Reading


def pieces(records: Sequence[RawResult]) -> list[Piece]:
    """Every rate's reading, as a few pieces. The answer changes only at a run's capacity and at the
    highest rate a run whose capacity is a lower bound was offered, and the steps only at a rate
    some run held a step at, so between two such rates one reading (taken at any rate inside) holds
    throughout, its figures on the straight line between its two steps."""
    laddered = [r for r in records if r.ladder is not None]
    cuts = sorted(
        {rate for r in laddered for rate in held_points(r)}
        | {r.ladder.capacity_rps for r in laddered if r.ladder is not None and r.ladder.capacity_rps is not None}
        | {highest_offered(r) for r in laddered if r.ladder is not None and r.ladder.capacity_lower_bound}
    )
    found: list[Piece] = []
    start = 0.0
    for cut in cuts:
        found.append(Piece(start, cut, False, reading_at(laddered, math.sqrt(start * cut) if start else cut / 2)))
        found.append(Piece(cut, cut, True, reading_at(laddered, cut)))
        start = cut
    found.append(Piece(start, None, False, reading_at(laddered, start * 2 if start else 1.0)))
    return found


def said_at(reading: Reading) -> str:
    """A reading as results.md's summary prints it: app CPU ms per request (its cores per 1,000
    req/s) · PostgreSQL CPU ms per request · p99 ms; ≈ where interpolated, † where a probe is among
    its steps, and how many runs held the rate where not all did."""
    if reading.held == 0:
        return "held no rate" if reading.held_no_rate == reading.runs else reading.answer()
    figures = reading.per_request()
    text = f"{fmt(figures['app_ms'], 2)} · {fmt(figures['postgres_ms'], 2)} · {fmt(figures['p99'], 1)}"
    text = ("≈ " if reading.interpolated else "") + text + (" †" if reading.probe else "")
    if not reading.holds:
        return f"{text} ({reading.answer()})"
    if reading.of_runs < reading.runs:
        return f"{text} (from {reading.of_runs} of {reading.runs} runs)"
    return text
