"""The results page's variants and claims, as JSON: the same rows, ratios and verdicts as
results.md's sections (bench.report.variants, bench.report.claims), each figure linked to the
raw file of the run at its median and each ratio to the files it was computed from."""

from __future__ import annotations

from typing import TypedDict

from bench.report.claims import Claim, Judged, judge_all, load_claims
from bench.report.figures import Cell, Figure, Spread, figure
from bench.report.pairs import METRICS, Metric
from bench.report.variants import EXPLAINING, VariantRow, descriptions, stack_of, variant_rows


class Ratio(TypedDict):
    """A ratio over runs: of the medians, and the lowest and highest any two runs give (null: unbounded)."""

    value: float
    low: float | None
    high: float | None


class VariantData(TypedDict):
    stack: str
    variant: str
    description: str | None
    scenario: str
    rate: float | None
    """Where costs are compared: the highest ladder rate both held in every run (null: none)."""
    figures: dict[str, list[Figure]]
    """Per metric: [the stack's, the variant's]."""
    ratios: dict[str, Ratio | None]
    failures: list[str]
    files: list[str]


class MeasuredData(TypedDict):
    scenario: str
    ratio: Ratio | None
    rate: float | None
    verdict: str
    files: list[str]


class ClaimData(TypedDict):
    id: str
    source: str
    statement: str
    note: str | None
    rows: list[str]
    scenarios: list[str]
    metric: str
    unit: str
    expected: str
    published: str
    measured: list[MeasuredData]
    verdict: str
    said: str
    """The verdict as shown: "cannot be judged" with its reason ("held no rate")."""
    reason: str


def ratio_of(found: Spread | None) -> Ratio | None:
    if found is None:
        return None

    def bounded(value: float) -> float | None:
        return value if value != float("inf") else None

    return {"value": found.median, "low": bounded(found.low), "high": bounded(found.high)}


def _per_run(cell: Cell | None, metric: Metric, rate: float | None, href: dict[int, str]) -> Figure:
    """The row's figure over its runs, each value linked to its run's raw file."""
    if cell is None or (metric.at_rate and rate is None):
        return figure([])
    pairs: list[tuple[float | None, str]] = []
    for record in cell.records:
        values = metric.values(Cell([record]), rate)
        pairs += [(value, href[id(record)]) for value in values]
    return figure(pairs)


def _files(cells: tuple[Cell, ...] | list[Cell], href: dict[int, str]) -> list[str]:
    return [href[id(r)] for cell in cells for r in sorted(cell.records, key=lambda r: r.run)]


def variants_data(every_row: dict[str, list[Cell]], href: dict[int, str]) -> list[VariantData]:
    described = descriptions()
    found: list[VariantData] = []
    for row in variant_rows(every_row):
        name = row.variant.stack.name
        found.append(
            {
                "stack": stack_of(name),
                "variant": name,
                "description": described.get(name),
                "scenario": row.scenario,
                "rate": row.rate,
                "figures": {key: _pair(row, key, href) for key in ("capacity", *EXPLAINING)},
                "ratios": {key: ratio_of(value) for key, value in row.ratios.items()},
                "failures": row.variant.failures,
                "files": _files([c for c in (row.stack, row.variant) if c is not None], href),
            }
        )
    return found


def _pair(row: VariantRow, key: str, href: dict[int, str]) -> list[Figure]:
    metric = METRICS[key]
    return [_per_run(row.stack, metric, row.rate, href), _per_run(row.variant, metric, row.rate, href)]


def claims_data(
    every_row: dict[str, list[Cell]], href: dict[int, str], claims: list[Claim] | None = None
) -> list[ClaimData]:
    """`claims`: docs/claims.toml's unless given."""
    return [_claim(judged, href) for judged in judge_all(every_row, load_claims() if claims is None else claims)]


def _claim(judged: Judged, href: dict[int, str]) -> ClaimData:
    claim = judged.claim
    return {
        "id": claim.id,
        "source": claim.source,
        "statement": claim.statement,
        "note": claim.note,
        "rows": claim.rows,
        "scenarios": claim.scenarios,
        "metric": METRICS[claim.metric].label,
        "unit": METRICS[claim.metric].unit,
        "expected": claim.expected,
        "published": claim.published,
        "measured": [
            {
                "scenario": m.scenario,
                "ratio": ratio_of(m.value),
                "rate": m.rate,
                "verdict": m.verdict,
                "files": _files(m.cells, href),
            }
            for m in judged.measured
        ],
        "verdict": judged.verdict,
        "said": judged.said,
        "reason": judged.reason,
    }
