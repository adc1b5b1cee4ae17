"""The results page's "At your load", as JSON: each stack's readings at every rate a reader can type
(bench.report.at_rate.pieces), so that the page decides nothing and results.md and the page give
the same answer and the same figures at any rate."""

from __future__ import annotations

from typing import TypedDict

from bench.records import RawResult
from bench.report.at_rate import Anchor, Reading, pieces


class LoadAnchor(TypedDict):
    """One rate's steps: the median over `runs` runs of each figure per request."""

    rate: float
    runs: int
    probe: bool
    app_ms: float | None
    postgres_ms: float | None
    p99: float | None
    memory_mib: float | None
    href: str
    """The raw file of the first of its runs."""


class LoadPiece(TypedDict):
    """The rate `start` (a point), or the rates strictly between `start` and `end` (null: no end)."""

    start: float
    end: float | None
    point: bool
    holds: bool
    held: int
    answer: str
    of_runs: int
    """How many runs its figures rest on."""
    probe: bool
    low: int | None
    """Its figures' step (an index into anchors); with `high`, the two its figures lie between."""
    high: int | None


class LoadData(TypedDict):
    runs: int
    objective_p99_ms: float | None
    anchors: list[LoadAnchor]
    pieces: list[LoadPiece]


def load_data(records: list[RawResult], href: dict[int, str]) -> LoadData:
    """`href`: each record's raw file, by id(record)."""
    by_run = {r.run: r for r in records}
    anchors: list[LoadAnchor] = []
    index: dict[tuple[float, tuple[int, ...]], int] = {}

    def anchor(found: Anchor | None) -> int | None:
        if found is None:
            return None
        key = (found.rate, found.runs)
        if key not in index:
            index[key] = len(anchors)
            anchors.append(
                {
                    "rate": found.rate,
                    "runs": len(found.runs),
                    "probe": found.probe,
                    "app_ms": found.values["app_ms"],
                    "postgres_ms": found.values["postgres_ms"],
                    "p99": found.values["p99"],
                    "memory_mib": found.values["memory_mib"],
                    "href": href[id(by_run[found.runs[0]])],
                }
            )
        return index[key]

    def piece(start: float, end: float | None, point: bool, reading: Reading) -> LoadPiece:
        return {
            "start": start,
            "end": end,
            "point": point,
            "holds": reading.holds,
            "held": reading.held,
            "answer": reading.answer(),
            "of_runs": reading.of_runs,
            "probe": reading.probe,
            "low": anchor(reading.low),
            "high": anchor(reading.high),
        }

    found = pieces(records)
    laddered = [r for r in records if r.ladder is not None]
    return {
        "runs": len(laddered),
        "objective_p99_ms": laddered[0].ladder.objective_p99_ms if laddered and laddered[0].ladder else None,
        "pieces": [piece(p.start, p.end, p.point, p.reading) for p in found],
        "anchors": anchors,
    }
