"""The claims section: every published claim of docs/claims.toml (the study's ratios and its
companions'), what the raw files measured for it, and a verdict by one rule (docs/method.md,
"Claims"). A claim is data: the rows it compares, where, by which metric, and which way.

Per scenario, the two rows' ratio over their runs (bench.report.pairs.ratio, whose spread includes
1 exactly when their ranges overlap):

- higher (lower): holds when the whole spread is above (below) 1; does not hold when it is wholly
  on the other side; otherwise no difference within spread;
- same: holds when the spread includes 1 (no difference), or lies within `within` of 1; otherwise
  does not hold;
- ratio (a stated size: "about half" is 0.4-0.6, "several times" at least 3): holds when the whole
  spread lies inside the bounds, does not hold when it lies wholly outside them (and says how far),
  no difference within spread when the runs fall on both sides;
- within (one row): the same, of its own figure;
- cannot be judged, with why: a row held no rate in one of its runs (a capacity of none is no size
  to compare); a row has no raw file of the scenario, or none with the figure (not measured yet);
  or a figure per request needs a rate both held in every run, and a run of one of them held none
  that the other's runs all held (no rate both held).

Over its scenarios, a claim does not hold if it does not hold in one of them, holds if it holds in
every one judged, shows no difference within spread if it shows that in one and fails in none;
where none was judged it cannot be judged, with each scenario's reason.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bench import paths
from bench.errors import BenchError
from bench.report.figures import Cell, Spread, class_counts, fmt, record_class, spread
from bench.report.ladder import runs_without_rate
from bench.report.pairs import METRICS, Metric, fmt_ratio, ratio, shared_rate

CLAIMS_PATH = paths.ROOT / "docs" / "claims.toml"

Expected = Literal["higher", "lower", "same", "ratio", "within"]
Verdict = Literal["holds", "does not hold", "no difference within spread", "cannot be judged"]
# Why a scenario (or a claim) cannot be judged: said with the verdict.
Unjudged = Literal["held no rate", "no rate both held", "not measured yet"]
UNMEASURED: tuple[Verdict, ...] = ("cannot be judged",)


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    source: str
    statement: str
    rows: Annotated[list[str], Field(min_length=1, max_length=2)]
    scenarios: Annotated[list[str], Field(min_length=1)]
    metric: str
    expected: Expected
    within: Annotated[float, Field(ge=0)] = 0.0
    bounds: tuple[float, float] | None = None
    """expected = "ratio": the stated size of A ÷ B; "within": the one row's figure, in its unit.
    An open end is inf (TOML's `inf`)."""
    published: str
    note: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Claim:
        if self.metric not in METRICS:
            raise ValueError(f"metric {self.metric!r} is not one of {', '.join(METRICS)}")
        if self.expected == "within" and (len(self.rows) != 1 or self.bounds is None):
            raise ValueError("expected = 'within' needs one row and bounds = [low, high]")
        if self.expected == "ratio" and self.bounds is None:
            raise ValueError("expected = 'ratio' states a size: bounds = [low, high] of A ÷ B")
        if self.bounds is not None and not self.bounds[0] <= self.bounds[1]:
            raise ValueError("bounds = [low, high] with low <= high")
        if self.expected != "within" and len(self.rows) != 2:
            raise ValueError(f"expected = {self.expected!r} compares two rows: rows = [numerator, denominator]")
        return self


def load_claims(path: Path = CLAIMS_PATH) -> list[Claim]:
    """The claims of `path`; a claim that does not fit the model is an error naming it."""
    try:
        tables = tomllib.loads(path.read_text()).get("claim", [])
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise BenchError(f"{path}: {error}") from None
    claims = []
    for index, table in enumerate(tables, 1):
        try:
            claims.append(Claim.model_validate(table))
        except ValidationError as error:
            name = table.get("id", f"claim {index}") if isinstance(table, dict) else f"claim {index}"
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'claim'}: {e['msg']}" for e in error.errors())
            raise BenchError(f"{path}, {name}: {problems}") from None
    ids = [c.id for c in claims]
    if len(set(ids)) != len(ids):
        raise BenchError(
            f"{path}: claim ids must be unique ({', '.join(sorted({i for i in ids if ids.count(i) > 1}))})"
        )
    return claims


@dataclass(frozen=True)
class Measured:
    """One scenario of a claim: the ratio (or the one row's figure), the rate it was compared at,
    the verdict there and the raw files it comes from."""

    scenario: str
    value: Spread | None
    rate: float | None
    verdict: Verdict
    unjudged: Unjudged | None
    """Why it cannot be judged (None where it was)."""
    why_not: str | None
    """The same in a sentence: which row held no rate, has no raw file or no figure, or which held
    no rate in common."""
    absent: tuple[str, ...]
    """The rows with no raw file of this scenario."""
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Judged:
    claim: Claim
    measured: list[Measured]
    verdict: Verdict
    reason: str
    unjudged: Unjudged | None = None
    """Why the claim cannot be judged: its scenarios' one reason, or the first of theirs."""

    @property
    def said(self) -> str:
        """The verdict as results.md and the page say it: "cannot be judged" with its reason."""
        return f"{self.verdict} ({self.unjudged})" if self.unjudged is not None else self.verdict


def scenario_verdict(claim: Claim, value: Spread) -> Verdict:
    """The rule for one scenario (the module's docstring)."""
    if claim.expected in ("within", "ratio"):
        low, high = claim.bounds or (0.0, 0.0)
        if low <= value.low and value.high <= high:
            return "holds"
        if value.high < low or value.low > high:
            return "does not hold"
        return "no difference within spread"
    if claim.expected == "same":
        band = 1 - claim.within <= value.low and value.high <= 1 + claim.within
        return "holds" if value.low <= 1 <= value.high or band else "does not hold"
    above, below = value.low > 1, value.high < 1
    if (above and claim.expected == "higher") or (below and claim.expected == "lower"):
        return "holds"
    if above or below:
        return "does not hold"
    return "no difference within spread"


def judge(claim: Claim, cells_by_name: dict[str, dict[str, Cell]]) -> Judged:
    """The claim against the cells of each of its scenarios (scenario -> stack name -> Cell)."""
    metric = METRICS[claim.metric]
    found: list[Measured] = []
    for scenario in claim.scenarios:
        cells = cells_by_name.get(scenario, {})
        present = [cell for name in claim.rows if (cell := cells.get(name)) is not None and cell.records]
        absent = [name for name in claim.rows if name not in {c.stack.name for c in present}]
        value = rate = None
        why_not = f"no raw file holds {' or '.join(absent)} in {scenario} yet" if absent else None
        unjudged: Unjudged | None = "not measured yet" if absent else None
        if not absent:
            rate = shared_rate(present) if metric.at_rate else None
            values = [metric.values(cell, rate) for cell in present]
            value = spread(values[0]) if claim.expected == "within" else ratio(values[0], values[1])
            none_held = [(c, n) for c in present if (n := runs_without_rate(c))]
            if none_held and not metric.at_rate:
                # A capacity of none is no size: a ratio with it reads 0 or unbounded, which a
                # claim of "less" or "about half" would take for a measurement.
                unjudged, value = "held no rate", None
                why_not = "; ".join(
                    f"{c.stack.label} held no rate in {n} of {len(c.records)} runs of {scenario}" for c, n in none_held
                )
            elif metric.at_rate and rate is None:
                unjudged, value = "no rate both held", None
                why_not = f"{' and '.join(claim.rows)} held no rate in common in {scenario}"
            elif value is None:
                unjudged = "not measured yet"
                why_not = f"the raw files of {' and '.join(claim.rows)} in {scenario} have no {metric.label}"
        verdict: Verdict = scenario_verdict(claim, value) if value is not None else "cannot be judged"
        kept = why_not if value is None else None
        found.append(Measured(scenario, value, rate, verdict, unjudged, kept, tuple(absent), tuple(present)))
    verdict, reason, unjudged_overall = _overall(claim, found)
    return Judged(claim, found, verdict, reason, unjudged_overall)


def _overall(claim: Claim, found: list[Measured]) -> tuple[Verdict, str, Unjudged | None]:
    """The claim's verdict over its scenarios, the reason in one sentence, and why it cannot be
    judged where it cannot."""
    measured = [m for m in found if m.verdict not in UNMEASURED]
    unmeasured = [m for m in found if m.verdict in UNMEASURED]
    still = ""
    if measured and unmeasured:
        still = " (" + "; ".join(f"{m.scenario}: cannot be judged, {m.unjudged}" for m in unmeasured) + ")"
    sized = claim.expected in ("within", "ratio")
    what = "its figure" if claim.expected == "within" else "the ratio's spread over the runs"
    if not measured:
        reasons = list(dict.fromkeys(m.unjudged for m in found if m.unjudged is not None))
        if all(m.absent for m in found):
            names = list(dict.fromkeys(name for m in found for name in m.absent))
            where = _listed(claim.scenarios, "or")
            return "cannot be judged", f"no raw file holds {' or '.join(names)} in {where} yet.", "not measured yet"
        return (
            "cannot be judged",
            "; ".join(dict.fromkeys(m.why_not or "" for m in found)) + ".",
            reasons[0] if reasons else None,
        )
    failed = [m for m in measured if m.verdict == "does not hold"]
    if failed:
        side = _side(claim, failed[0].value)
        return "does not hold", f"on {failed[0].scenario} {what} lies {side}{still}.", None
    held = [m.scenario for m in measured if m.verdict == "holds"]
    if len(held) == len(measured):
        return "holds", f"on {_listed(held)} {_held(claim)}{still}.", None
    open_ = [m.scenario for m in measured if m.verdict == "no difference within spread"]
    also = f"; it holds on {_listed(held)}" if held else ""
    if sized:
        return (
            "no difference within spread",
            f"on {_listed(open_)} the runs fall on both sides of {_bounds(claim)}{also}{still}.",
            None,
        )
    undecided = f"on {_listed(open_)} {what} includes 1: the runs do not tell the two apart"
    return "no difference within spread", f"{undecided}{also}{still}.", None


def _bounds(claim: Claim) -> str:
    """The stated size: "0.4–0.6", "at least 3", in the metric's unit for one row's figure."""
    low, high = claim.bounds or (0.0, 0.0)
    digits = 1 if claim.expected == "within" else 2
    unit = f" {METRICS[claim.metric].unit}" if claim.expected == "within" and METRICS[claim.metric].unit else ""
    if math.isinf(high):
        return f"at least {fmt(low, digits)}{unit}"
    return f"{fmt(low, digits)}–{fmt(high, digits)}{unit}"


def _held(claim: Claim) -> str:
    if claim.expected == "within":
        return f"every run's figure lies within {_bounds(claim)}"
    if claim.expected == "ratio":
        return f"the ratio's spread over the runs lies within the stated {_bounds(claim)}"
    if claim.expected == "same":
        band = f" (or lies within {claim.within:.0%} of it)" if claim.within else ""
        return f"the ratio's spread over the runs includes 1{band}"
    return f"the ratio's spread over the runs lies {'above' if claim.expected == 'higher' else 'below'} 1"


def _side(claim: Claim, value: Spread | None) -> str:
    if value is None:
        return "nowhere"
    if claim.expected in ("within", "ratio"):
        low, high = claim.bounds or (0.0, 0.0)
        # How far: from the stated size to the measured end nearest it.
        nearest, end = (value.low, high) if value.low > high else (value.high, low)
        digits = 1 if claim.expected == "within" else 2
        stated = "stated " if claim.expected == "ratio" else ""
        beyond = f"its nearest run {fmt(nearest, digits)}, {nearest / end:.1f}× the bound" if end else ""
        return f"outside the {stated}{_bounds(claim)} ({beyond})" if beyond else f"outside {_bounds(claim)}"
    if claim.expected == "same":
        beyond = f" and beyond {claim.within:.0%} of it" if claim.within else ""
        return f"{'above' if value.low > 1 else 'below'} 1{beyond}"
    return f"{'above' if value.low > 1 else 'below'} 1, against the claim"


def _listed(names: list[str], conjunction: str = "and") -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def cells_by_name(cells_by_scenario: dict[str, list[Cell]]) -> dict[str, dict[str, Cell]]:
    return {s: {c.stack.name: c for c in cells} for s, cells in cells_by_scenario.items()}


def judge_all(cells_by_scenario: dict[str, list[Cell]], claims: list[Claim]) -> list[Judged]:
    by_name = cells_by_name(cells_by_scenario)
    return [judge(claim, by_name) for claim in claims]


def measured_text(claim: Claim, found: list[Measured]) -> str:
    """Per scenario measured: the ratio (or figure) with its spread, and the rate it was compared at."""
    metric = METRICS[claim.metric]
    parts = []
    for m in found:
        if m.value is None:
            continue
        shown = fmt_ratio(m.value) if claim.expected != "within" else fmt_ratio(m.value, metric.digits)
        at = f" at {fmt(m.rate)} req/s" if m.rate is not None else ""
        parts.append(f"{m.scenario}: {shown}{at} {rests_on(m, metric)}")
    return "; ".join(parts) or "–"


def rests_on(m: Measured, metric: Metric) -> str:
    """How many runs of each row a scenario's figure rests on, and how many of them never reached
    steady state (method v4: no verdict rests on such a run without saying so)."""
    counts, unsteady = [], []
    for cell in m.cells:
        known = sum(1 for v in metric.values(cell, m.rate) if v is not None)
        runs = len(cell.records) + len(cell.failures)
        counts.append(f"{known}" if known == runs else f"{known} of {runs}")
        not_steady = [r for r in cell.records if record_class(r) not in (None, "steady")]
        if not_steady:
            # "2 of a's not settled", or where the classes differ "3 of a's (2 not settled, 1 slowing)".
            classes = {record_class(r) for r in not_steady}
            counted = class_counts(not_steady)
            said_as = counted.split(" ", 1)[1] if len(classes) == 1 else f"({counted})"
            unsteady.append(f"{len(not_steady)} of {cell.stack.label}'s {said_as}")
    said = f"over {' and '.join(counts)} runs"
    return said + (f", not steady: {' and '.join(unsteady)}" if unsteady else "")


VERDICT_MARKS = {
    "holds": "holds",
    "does not hold": "**does not hold**",
    "no difference within spread": "no difference within spread",
    "cannot be judged": "_cannot be judged_",
}


def claims_section(cells_by_scenario: dict[str, list[Cell]], claims: list[Claim]) -> list[str]:
    """Every claim with what was measured for it and its verdict."""
    if not claims:
        return []
    judged = judge_all(cells_by_scenario, claims)
    counts = {v: sum(1 for j in judged if j.verdict == v) for v in VERDICT_MARKS}
    lines = [
        "## Claims",
        "",
        "Every published claim this benchmark answers: the original study's ratios and its companions' "
        "([docs/study.md](docs/study.md); the claims themselves are data, [docs/claims.toml](docs/claims.toml)). "
        "*Measured* is the first row's figure divided by the second's (A ÷ B): the ratio of their medians over "
        "the runs, with in brackets the lowest and highest ratio any run of the one and any run of the other "
        "give, which includes 1 exactly when their ranges overlap. Figures per request are compared at the "
        "highest ladder rate both rows held in every run. The verdict follows one rule "
        "([method](docs/method.md#claims)): a claim that one row is higher or lower holds when the whole spread "
        "is on its side of 1 and does not hold when it is wholly on the other; a spread that includes 1 is no "
        "difference within spread; a claim of no difference holds when the spread includes 1, or lies within its "
        'stated tolerance of it; a claim of a size ("about half", "several times") holds when the spread lies '
        "within the size docs/claims.toml gives it and does not hold when it lies wholly outside. A claim cannot "
        "be judged where a row held no rate in a run, where no rate was held by both, or where it was not "
        "measured yet. Verdicts: " + ", ".join(f"{v} {n}" for v, n in counts.items() if n) + ".",
        "",
        "| claim | source | rows (A ÷ B) | metric | published | measured here | verdict | why |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for found in judged:
        claim = found.claim
        metric = METRICS[claim.metric]
        unit = f", {metric.unit}" if metric.unit and claim.expected == "within" else ""
        statement = claim.statement + (f" _{claim.note}_" if claim.note else "")
        lines.append(
            f"| **{claim.id}**: {statement} | {claim.source} | {' ÷ '.join(claim.rows)} "
            f"| {metric.label}{unit} on {', '.join(claim.scenarios)} | {claim.published} "
            f"| {measured_text(claim, found.measured)} | {VERDICT_MARKS[found.verdict]}"
            + (f" ({found.unjudged})" if found.unjudged else "")
            + f" | {found.reason} |"
        )
    return [*lines, ""]


def finite(value: float) -> float | None:
    """JSON has no infinity: an unbounded end of a spread is null on the page."""
    return None if math.isinf(value) else value
