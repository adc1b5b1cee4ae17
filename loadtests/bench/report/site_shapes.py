"""The shapes of the results page's data (data.js), as bench.report.site writes them and site.js
reads them: one TypedDict per object the page receives."""

from __future__ import annotations

from typing import TypedDict

from bench.report.figures import Figure
from bench.report.first_minute import ChartData
from bench.report.money import PriceData
from bench.report.site_answers import ClaimData, VariantData
from bench.report.site_load import LoadData


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
    held_no_rate: int
    """How many of its runs held no rate (each counted as 0 req/s in its capacity)."""
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
    measured: bool
    """False for a stack of the repository that no raw file holds: its row says "not measured yet"."""


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
    method: str
    """Which method measured the records, in words (bench.report.render.method_words)."""
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
    prices: PriceData
    """The price list "At your load" prices a stack's cores and memory with (bench.report.money)."""
