"""The results page: a static site (index.html, its script and style, vendored Chart.js) written
beside results.md from the same raw JSON files.

It opens from file:// with no server and requests nothing outside its own files: the figures go
into a generated data.js (a script that assigns them, not a file the page would fetch, which
file:// forbids), and each figure carries the relative link to the raw file it comes from. The
figures are the report's: Cell and the ladder's helpers; the few the report does not expose as
numbers (memory, start-up and steady state per stack, the median of each ladder step for the
charts) are here.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TypedDict

from bench import paths
from bench.errors import BenchError
from bench.records import RawResult
from bench.records.steps import LadderStep
from bench.report.at_rate import reading_at
from bench.report.figures import MIB, Cell, Figure, class_counts, figure, group_cells, median, record_class
from bench.report.first_minute import ChartData, first_minute_data
from bench.report.ladder import (
    common_rate,
    has_ladder,
    lower_bound,
    one_step_per_rate,
    p99_of,
    postgres_ms_of,
    step_at,
    stopped_by,
)
from bench.report.site_answers import ClaimData, VariantData, claims_data, variants_data
from bench.report.site_load import LoadData, load_data
from bench.report.summary import bound_sentence, per_run_peak, smallest_clean_cap
from bench.report.tiers import capacity_range, tier_of, tiers
from bench.report.variants import split_variants

ASSETS = Path(__file__).with_name("site_assets")
DOCS = {"method": "method.md", "study": "study.md", "claims": "claims.toml"}
CEILING_PREFIX = "ceiling-"


class Step(TypedDict):
    """One offered rate of a stack's ladder, as the median of the runs that reached it."""

    offered: float
    p50: float | None
    p99: float | None
    p999: float | None
    cores: float | None
    postgres: float | None
    delivered: float | None
    memory_mib: float | None
    """The app's peak memory over the step."""
    held: int
    """Runs that held it, of `runs`."""
    runs: int
    href: str


class ScenarioFigures(TypedDict):
    capacity: Figure
    capacity_lower_bound: bool
    """A run's capacity may lie above it (report.ladder.lower_bound): shown with "≥"."""
    tier: int | None
    """Its tier in the scenario (1 the highest; bench.report.tiers), None for a ceiling."""
    held_no_rate: bool
    p99: Figure
    cores: Figure
    postgres: Figure
    stopped: str
    """Why each run's ladder ended, and what bound the step it could not hold (as results.md says them)."""
    bound: str
    steps: list[Step]
    runs: int
    """Runs with a ladder."""
    common_held: int
    """Of those, the runs that held the common rate (the figures at it are theirs)."""
    common_probe: bool
    """A figure at the common rate comes from a probe in at least one run."""
    load: LoadData
    """Its answer and figures at any rate (bench.report.site_load)."""
    files: list[str]
    failures: list[str]


class StackFigures(TypedDict):
    label: str
    name: str
    display: str
    language: str
    framework: str
    data_access: str
    dialect: str | None
    """None for a ceiling: it serves no dialect."""
    ceiling: bool
    idle_mib: Figure
    peak_mib: Figure
    smallest_cap_mib: Figure
    startup_s: Figure
    steady_s: Figure
    warmup_classes: str
    """Its records' warm-up classes counted, as results.md's summary says them."""
    steady_capped: int
    """Of its warm-ups, those that reached their cap: results.md's "(N/M at cap)"."""
    scenarios: dict[str, ScenarioFigures]


class TierInfo(TypedDict):
    number: int
    stacks: list[str]
    low: float
    high: float
    ranges: dict[str, list[float]]
    """Each stack's lowest and highest capacity over its runs (0: a run that held no rate), so that
    the page can give the range of the stacks its filters leave."""


class ScenarioInfo(TypedDict):
    name: str
    tiers: list[TierInfo]
    bound: str
    """What stopped its ladders, in words: what separates the tiers (results.md says the same)."""
    ladder: bool
    objective_p99_ms: float | None
    rates: list[float]
    common_rate: float | None


class SiteData(TypedDict):
    raw_dir: str
    profile: str
    runs: int
    mem_ladder_scenarios: list[str]
    """The scenarios the memory ladder served at each cap (not every scenario)."""
    files: int
    commits: list[str]
    dates: list[str]
    machine: str
    scenarios: list[ScenarioInfo]
    stacks: list[StackFigures]
    variants: list[VariantData]
    """Each variant in each of its scenarios against its stack (bench.report.variants)."""
    claims: list[ClaimData]
    """Every claim of docs/claims.toml with its verdict (bench.report.claims)."""
    first_minute: list[ChartData]
    """The first minute of a fresh process per scenario measured in it (bench.report.first_minute)."""
    docs: dict[str, str]
    """The documents the page names (method, study, claims), linked like the raw files."""


def write_site(raw_dir: Path, site_dir: Path) -> Path:
    """Writes site_dir/ (index.html and its assets) from raw_dir/*.json, and the memory ladder's
    files beside it when there are any (raw/PROFILE-mem-ladder/, as results.md reads them);
    returns index.html."""
    found = _read(raw_dir)
    mem_ladder_dir = raw_dir.parent / f"{raw_dir.name}-mem-ladder"
    mem_ladder = _read(mem_ladder_dir) if any(mem_ladder_dir.glob("*.json")) else []
    data = site_data(found, site_dir, mem_ladder)
    # Generated as a whole: a file left from an earlier page (an older Chart.js) must not stay.
    if site_dir.exists():
        shutil.rmtree(site_dir)
    shutil.copytree(ASSETS, site_dir)
    payload = json.dumps(data, indent=1, allow_nan=False)
    (site_dir / "data.js").write_text(
        f"// Generated by `./bench report` from the raw JSON files; do not edit.\nwindow.BENCH_RESULTS = {payload};\n"
    )
    return site_dir / "index.html"


def _read(raw_dir: Path) -> list[tuple[Path, RawResult]]:
    files = sorted(raw_dir.glob("*.json"))
    if not files:
        raise BenchError(f"no raw results in {raw_dir}: run `./bench run` first")
    return [(f, RawResult.read(f)) for f in files]


def site_data(
    found: list[tuple[Path, RawResult]], site_dir: Path, mem_ladder: list[tuple[Path, RawResult]] | None = None
) -> SiteData:
    """What the page shows, as JSON: per scenario its ladder's rates and common rate; per stack
    its figures per scenario and its memory, start-up and steady state."""
    mem_ladder = mem_ladder or []
    href = {id(record): _link(path, site_dir) for path, record in [*found, *mem_ladder]}
    records = [record for _, record in found]
    scenarios: list[ScenarioInfo] = []
    per_stack: dict[str, dict[str, ScenarioFigures]] = defaultdict(dict)
    every_row = group_cells(records)
    for scenario, cells in every_row.items():
        # Variants are shown beside their stacks (the variants section), not ranked among them.
        cells = split_variants(cells)[0]
        # The common rate and the tiers are the stacks': a ceiling is a limit, not a contender.
        laddered = [c for c in cells if not _is_ceiling(c) and has_ladder([c])]
        common = common_rate(laddered) if laddered else None
        found_tiers = tiers(laddered)
        numbers = tier_of(found_tiers)
        shown = _scenario_info(scenario, cells, common)
        ranges = {c.stack.label: over_runs for c in laddered if (over_runs := capacity_range(c)) is not None}
        shown["tiers"] = [
            {
                "number": t.number,
                "stacks": list(t.labels),
                "low": t.low,
                "high": t.high,
                "ranges": {label: [ranges[label].low, ranges[label].high] for label in t.labels},
            }
            for t in found_tiers
        ]
        shown["bound"] = bound_sentence(laddered)
        scenarios.append(shown)
        for cell in cells:
            per_stack[cell.stack.label][scenario] = _scenario_figures(cell, common, href)
            per_stack[cell.stack.label][scenario]["tier"] = numbers.get(cell.stack.label)
    caps = _smallest_caps([record for _, record in mem_ladder], href)
    stacks: list[StackFigures] = []
    for label, figures in per_stack.items():
        mine = [r for r in records if r.stack.label == label]
        info = mine[0].stack
        is_ceiling = info.name.startswith(CEILING_PREFIX)
        process = _process_figures(mine, href)
        stacks.append(
            {
                "label": label,
                "name": info.name,
                "display": info.display,
                "language": info.language,
                "framework": f"{info.framework} {info.framework_version}",
                "data_access": info.data_access,
                "dialect": None if is_ceiling else info.dialect,
                "ceiling": is_ceiling,
                "idle_mib": process["idle_mib"],
                "peak_mib": process["peak_mib"],
                "smallest_cap_mib": caps.get(label, figure([])),
                "startup_s": process["startup_s"],
                "steady_s": process["steady_s"],
                "warmup_classes": "–" if is_ceiling else class_counts(r for r in mine if not r.failed),
                "steady_capped": sum(record_class(r) == "not-settled" for r in mine if not r.failed),
                "scenarios": figures,
            }
        )
    machine = records[0].machine
    return {
        "raw_dir": _link(found[0][0].parent, site_dir),
        "profile": records[0].profile,
        "runs": max(r.run for r in records),
        "mem_ladder_scenarios": sorted({record.scenario for _, record in mem_ladder}),
        "files": len(records),
        "commits": sorted({(r.git_commit or "unknown")[:12] for r in records}),
        "dates": sorted({r.started_at.date().isoformat() for r in records if r.started_at is not None}),
        "machine": f"{machine.cpu_model}, {machine.cores} cores; {machine.os}",
        "scenarios": scenarios,
        "stacks": stacks,
        "variants": variants_data(every_row, href),
        "claims": claims_data(every_row, href),
        "first_minute": first_minute_data(every_row),
        "docs": {name: _link(paths.ROOT / "docs" / file, site_dir) for name, file in DOCS.items()},
    }


def _link(path: Path, site_dir: Path) -> str:
    """From the page to `path`: relative, so that the site and the raw files move together."""
    return Path(os.path.relpath(path.resolve(), site_dir.resolve())).as_posix()


def _is_ceiling(cell: Cell) -> bool:
    return cell.stack.name.startswith(CEILING_PREFIX)


def _scenario_info(scenario: str, cells: list[Cell], common: float | None) -> ScenarioInfo:
    ladders = [r.ladder for c in cells for r in c.records if r.ladder is not None]
    return {
        "name": scenario,
        "tiers": [],
        "bound": "",
        "ladder": bool(ladders),
        "objective_p99_ms": ladders[0].objective_p99_ms if ladders else None,
        "rates": ladders[0].rates if ladders else [],
        "common_rate": common,
    }


def _at_common(
    cell: Cell, common: float | None, value: Callable[[LadderStep], float | None], href: dict[int, str]
) -> Figure:
    return figure(
        (value(step), href[id(record)]) for record in cell.records if (step := step_at(record, common)) is not None
    )


def _scenario_figures(cell: Cell, common: float | None, href: dict[int, str]) -> ScenarioFigures:
    laddered = [r for r in cell.records if r.ladder is not None]
    stopped, bound = stopped_by(cell)
    at_common = reading_at(cell.records, common) if common is not None else None
    return {
        # A run that held no rate counts as 0 req/s, as everywhere (bench.report.ladder.capacities).
        "capacity": figure((r.ladder.capacity_rps or 0.0, href[id(r)]) for r in laddered if r.ladder is not None),
        "tier": None,
        "capacity_lower_bound": lower_bound(cell),
        "held_no_rate": any(r.ladder is not None and r.ladder.capacity_rps is None for r in laddered),
        "p99": _at_common(cell, common, p99_of, href),
        "cores": _at_common(cell, common, lambda s: s.cpu_ms_per_request, href),
        "postgres": _at_common(cell, common, postgres_ms_of, href),
        "stopped": stopped,
        "bound": bound,
        "steps": ladder_steps(cell, href),
        "runs": len(laddered),
        "common_held": at_common.held if at_common is not None else 0,
        "common_probe": at_common is not None and at_common.probe,
        "load": load_data(cell.records, href),
        "files": [href[id(r)] for r in sorted(cell.records, key=lambda r: r.run)],
        "failures": cell.failures,
    }


def ladder_steps(cell: Cell, href: dict[int, str]) -> list[Step]:
    """Per offered rate, the median over the runs that reached it, held or not: the chart draws
    the step not held too, where latency leaves the objective."""
    reached: dict[float, list[tuple[RawResult, LadderStep]]] = defaultdict(list)
    for record in sorted(cell.records, key=lambda r: r.run):
        for step in one_step_per_rate(record):
            reached[step.offered_rps].append((record, step))

    def median_of(
        pairs: list[tuple[RawResult, LadderStep]], value: Callable[[LadderStep], float | None]
    ) -> float | None:
        return median(value(step) for _, step in pairs)

    return [
        {
            "offered": offered,
            "p50": median_of(pairs, lambda s: s.latency_ms.p50 if s.latency_ms else None),
            "p99": median_of(pairs, p99_of),
            "p999": median_of(pairs, lambda s: s.latency_ms.p999 if s.latency_ms else None),
            "cores": median_of(pairs, lambda s: s.cpu_ms_per_request),
            "postgres": median_of(pairs, postgres_ms_of),
            "delivered": median_of(pairs, lambda s: s.delivered_rps),
            "memory_mib": median_of(
                pairs, lambda s: s.app_peak_memory_bytes / MIB if s.app_peak_memory_bytes is not None else None
            ),
            "held": sum(1 for _, step in pairs if step.held),
            "runs": len(pairs),
            "href": href[id(pairs[0][0])],
        }
        for offered, pairs in sorted(reached.items())
    ]


class _ProcessFigures(TypedDict):
    idle_mib: Figure
    peak_mib: Figure
    startup_s: Figure
    steady_s: Figure


def _process_figures(records: list[RawResult], href: dict[int, str]) -> _ProcessFigures:
    """A stack's memory, start-up and time to steady state over its scenarios, as results.md's
    summary has them: medians over runs. A process kept up across scenarios started once
    (served_before): its idle memory and start-up are its first scenario's. The peak is each
    run's highest (summary.per_run_peak), then the median over runs, so that one run's
    first-start page cache does not become the figure."""
    served = [r for r in records if not r.failed]
    cold = [r for r in served if not r.served_before]
    highest: dict[int, tuple[float, RawResult]] = {}
    for record in served:
        for peak in per_run_peak([record]):
            if peak is not None and (record.run not in highest or peak > highest[record.run][0]):
                highest[record.run] = (peak, record)
    # Records written before one process per repeat started the stack for every scenario: their
    # idle memory and start-up are one per start, several per run.
    return {
        "idle_mib": figure(
            ((r.idle_memory_bytes / MIB if r.idle_memory_bytes is not None else None, href[id(r)]) for r in cold),
            of="start",
        ),
        "peak_mib": figure((peak / MIB, href[id(r)]) for peak, r in highest.values()),
        "startup_s": figure(((r.startup_s, href[id(r)]) for r in cold), of="start"),
        "steady_s": figure(
            ((r.steady_state.time_s if r.steady_state is not None else None, href[id(r)]) for r in served),
            of="warm-up",
        ),
    }


def _smallest_caps(mem_ladder: list[RawResult], href: dict[int, str]) -> dict[str, Figure]:
    """Per stack, the smallest memory cap it served every scenario under (summary.smallest_clean_cap),
    linked to a file of the memory ladder at that cap."""
    found: dict[str, Figure] = {}
    for label, cap in smallest_clean_cap(mem_ladder).items():
        at_cap = sorted(
            (r for r in mem_ladder if r.stack.label == label and r.mem_ladder_mib == cap), key=lambda r: r.scenario
        )
        found[label] = figure([(float(cap), href[id(at_cap[0])])])
    return found
