"""The first minute of a fresh process (docs/method.md, The first minute), from the raw files'
`first_minute` and `steady_state`: one run's figures (`run_figures`), a row's over its runs
(`first_minute_rows`), results.md's table (`first_minute_section`) and the page's chart data
(`first_minute_data`). Every figure of the first minute is computed here and nowhere else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from bench.judgement.steady import jit_quiet, settled
from bench.records import RawResult
from bench.records.steps import FirstMinute, FirstMinuteWindow
from bench.report.figures import Cell, Spread, fmt, fmt_spread, of_runs, spread
from bench.report.variants import is_variant, stack_of
from bench.scenarios import SCENARIOS

# The scenarios measured in the first minute, in the study's order.
FIRST_MINUTE_SCENARIOS = tuple(name for name, s in SCENARIOS.items() if s.first_minute_rate)


class ChartPoint(TypedDict):
    t: float
    """The window's end, in seconds of load."""
    p99: list[float] | None
    """[median, lowest, highest] over runs, ms."""
    cpu: list[float] | None
    """The app's CPU ms per request, likewise."""


class ChartLine(TypedDict):
    label: str
    variant: bool
    runs: int
    points: list[ChartPoint]


class ChartData(TypedDict):
    """One scenario's first minute on the page: a line per stack and variant."""

    scenario: str
    rate: float
    objective_ms: float
    window_s: float
    lines: list[ChartLine]


@dataclass(frozen=True)
class RunFigures:
    """One run's first minute. Seconds are of load, from the first request, unless said."""

    startup_s: float | None
    """From the launch of the process to its first healthy /health."""
    p99_under_s: float | None
    """The end of the last window whose p99 was over the objective (0: none was), so that every
    window after it kept the objective; None: the last window of the first minute did not."""
    steady_s: float | None
    """When method v4's rule held: over the first minute's windows, at its rate, or else the first
    minute's length plus the warm-up's time to steady state at the warm rate after it; None: the
    warm-up's cap came first."""
    steady_within: bool
    """The rule held within the first minute, at its rate."""
    requests: int
    app_cpu_s: float | None
    cpu_ms_per_request: float | None
    """Over the first minute: its app CPU over its requests."""
    steady_cpu_ms_per_request: float | None
    """At steady state: over the windows at the same rate after the warm-up (None: none ran)."""
    bins_p99_ms: tuple[float | None, ...]
    """The p99 of each bin of load (10 s), from every request's latency."""
    windows_p99_ms: tuple[float | None, ...]
    windows_cpu_ms_per_request: tuple[float | None, ...]

    @property
    def cpu_at_steady_s(self) -> float | None:
        """What the first minute's requests would have cost the app at steady state."""
        if self.steady_cpu_ms_per_request is None:
            return None
        return self.steady_cpu_ms_per_request * self.requests / 1000

    @property
    def cost_ratio(self) -> float | None:
        """The first minute's CPU per request over steady state's."""
        if self.cpu_ms_per_request is None or not self.steady_cpu_ms_per_request:
            return None
        return self.cpu_ms_per_request / self.steady_cpu_ms_per_request


def _window_cpu_ms(first: FirstMinute) -> list[float | None]:
    return [w.app_cpu_s * 1000 / w.requests if w.app_cpu_s is not None and w.requests else None for w in first.windows]


def _cpu_s(windows: list[FirstMinuteWindow]) -> float | None:
    """The app's CPU over the windows; None if a window has none (no cgroups)."""
    cpu = [w.app_cpu_s for w in windows]
    if not cpu or any(c is None for c in cpu):
        return None
    return sum(c for c in cpu if c is not None)


def _cpu_ms_per_request(windows: list[FirstMinuteWindow]) -> float | None:
    cpu_s, requests = _cpu_s(windows), sum(w.requests for w in windows)
    return cpu_s * 1000 / requests if cpu_s is not None and requests else None


def run_figures(record: RawResult) -> RunFigures | None:
    """None for a record without a first minute (or a run that failed)."""
    first = record.first_minute
    if first is None or record.failed:
        return None
    objective = SCENARIOS[record.scenario].objective_ms
    windows_cpu = _window_cpu_ms(first)
    last_over = max(
        (i + 1 for i, w in enumerate(first.windows) if w.p99_ms is None or w.p99_ms > objective or w.error_count),
        default=0,
    )
    p99_under = None if last_over == len(first.windows) else last_over * first.window_s
    shares = [w.app_cpu_share for w in first.windows]
    compilations = [w.compilations for w in first.windows]
    compiler = [w.compiler_cpu_share for w in first.windows]
    held = next(
        (
            i
            for i in range(1, len(first.windows) + 1)
            if settled(windows_cpu[:i], shares[:i]) and jit_quiet(compilations[:i], compiler[:i])
        ),
        None,
    )
    steady = record.steady_state
    if held is not None:
        steady_s: float | None = held * first.window_s
    elif steady is not None and steady.reached:
        steady_s = len(first.windows) * first.window_s + steady.time_s
    else:
        steady_s = None
    steady_cost = _cpu_ms_per_request(first.steady_windows)
    requests = sum(w.requests for w in first.windows)
    app_cpu_s = _cpu_s(first.windows)
    return RunFigures(
        startup_s=record.startup_s,
        p99_under_s=p99_under,
        steady_s=steady_s,
        steady_within=held is not None,
        requests=requests,
        app_cpu_s=app_cpu_s,
        cpu_ms_per_request=_cpu_ms_per_request(first.windows),
        steady_cpu_ms_per_request=steady_cost,
        bins_p99_ms=tuple(b.p99_ms for b in first.bins),
        windows_p99_ms=tuple(w.p99_ms for w in first.windows),
        windows_cpu_ms_per_request=tuple(windows_cpu),
    )


@dataclass(frozen=True)
class Row:
    """A stack or variant in one scenario: its runs' first minutes."""

    label: str
    variant: bool
    runs: list[RunFigures]
    of: int
    """Its runs, with a first minute or not (a failed run counts)."""
    rate_rps: float
    window_s: float
    bin_s: float
    length_s: float
    """The first minute's seconds of load (60 in the published profiles)."""

    def spread(self, value: str) -> Spread | None:
        return spread(getattr(run, value) for run in self.runs)

    def at(self, values: str, index: int) -> Spread | None:
        """The median and range over runs of the index-th value of a per-window (or bin) figure."""
        return spread(getattr(run, values)[index] for run in self.runs if index < len(getattr(run, values)))


def first_minute_rows(cells: list[Cell]) -> list[Row]:
    """Every row with a first minute in the scenario: the stacks by name, each variant under its
    stack; ceilings have none."""
    rows = []
    for cell in cells:
        found = [(record, figures) for record in cell.records if (figures := run_figures(record)) is not None]
        if not found:
            continue
        first = found[0][0].first_minute
        assert first is not None
        rows.append(
            Row(
                label=cell.stack.label,
                variant=is_variant(cell.stack.name),
                runs=[figures for _, figures in found],
                of=len(cell.records) + len(cell.failures),
                rate_rps=first.rate_rps,
                window_s=first.window_s,
                bin_s=first.bin_s,
                length_s=len(first.windows) * first.window_s,
            )
        )
    rows.sort(key=lambda row: (stack_of(row.label), row.variant, row.label))
    return rows


def _seconds(row: Row, value: str, missing: str) -> str:
    """A time in seconds with its spread, and in how many runs it is `missing` (None)."""
    found = row.spread(value)
    unknown = sum(1 for run in row.runs if getattr(run, value) is None)
    if found is None:
        return missing
    text = fmt_spread(found, 0)
    return f"{text}; {missing} in {unknown} of {len(row.runs)} runs" if unknown else text


def first_minute_section(cells_by_scenario: dict[str, list[Cell]]) -> list[str]:
    """results.md's "The first minute": per scenario measured in it, a row per stack and variant;
    until a raw file carries a first minute, what the section waits for."""
    lines = [
        "## The first minute",
        "",
        "What a new process of each stack costs until it is warm ([method](docs/method.md#the-first-minute)):"
        " its first minute of load at a rate every stack serves, before its warm-up. *Start-up*: to its first"
        " healthy `/health`. Then, in seconds of load from its first request: *p99 kept* is when its p99 "
        "stayed under the scenario's objective in every window after (> 60: not by the end of the first "
        "minute); *steady* is when method v4's rule held over the first minute's windows, or, marked †, the "
        "first minute plus the warm-up's time to steady state at the warm rate after it (*not reached*: the "
        "warm-up's cap came first). *App CPU* is the app's CPU seconds over the first minute, and in brackets"
        " what its requests cost at steady state, measured at the same rate after the warm-up; *CPU per "
        "request ÷ steady* is its CPU per request over steady state's. *p99 ms a–b s* is the p99 of each 10 s"
        " of load, from every request's latency. Medians over runs, min–max in brackets.",
        "",
    ]
    measured = False
    for scenario in FIRST_MINUTE_SCENARIOS:
        rows = first_minute_rows(cells_by_scenario.get(scenario, []))
        spec = SCENARIOS[scenario]
        if not rows:
            lines += [
                f"### {scenario}",
                "",
                f"Not measured yet: no raw file of {scenario} has a first minute at {spec.first_minute_rate:,} req/s.",
                "",
            ]
            continue
        measured = True
        row0 = rows[0]
        bins = max(len(run.bins_p99_ms) for row in rows for run in row.runs)
        heads = [f"{i * row0.bin_s:g}–{(i + 1) * row0.bin_s:g} s" for i in range(bins)]
        lines += [
            f"### {scenario}",
            "",
            f"At {row0.rate_rps:,g} req/s, objective p99 ≤ {spec.objective_ms:g} ms; windows of {row0.window_s:g} s.",
            "",
            "| stack | start-up s | p99 kept after s | steady after s | requests | app CPU s (at steady cost) "
            "| CPU per request ÷ steady | " + " | ".join(f"p99 ms {h}" for h in heads) + " |",
            "|" + " --- |" * (7 + bins),
        ]
        for row in rows:
            label = row.label + of_runs(len(row.runs), row.of)
            dagger = "†" if any(not run.steady_within and run.steady_s is not None for run in row.runs) else ""
            cpu = fmt_spread(row.spread("app_cpu_s"), 1)
            at_steady = row.spread("cpu_at_steady_s")
            cells = [
                label,
                fmt_spread(row.spread("startup_s"), 2),
                _seconds(row, "p99_under_s", f"> {row.length_s:g}"),
                _seconds(row, "steady_s", "not reached") + dagger,
                fmt_spread(row.spread("requests")),
                cpu + (f" ({fmt(at_steady.median, 1)})" if at_steady else ""),
                fmt_spread(row.spread("cost_ratio"), 2),
                *(fmt_spread(row.at("bins_p99_ms", i), 1) for i in range(bins)),
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    if not measured:
        lines.insert(
            4,
            "No figures yet: these raw files were measured before the runner measured a first minute; "
            "the next publication's runs carry it.",
        )
        lines.insert(5, "")
    return lines


def first_minute_data(cells_by_scenario: dict[str, list[Cell]]) -> list[ChartData]:
    """The page's chart of the first minute: per scenario measured in it, a line per row of p99 and
    of app CPU per request, window by window (the window's end, in seconds of load), as the median
    over runs with its range."""
    shown: list[ChartData] = []
    for scenario in FIRST_MINUTE_SCENARIOS:
        rows = first_minute_rows(cells_by_scenario.get(scenario, []))
        if not rows:
            continue
        lines: list[ChartLine] = []
        for row in rows:
            count = max(len(run.windows_p99_ms) for run in row.runs)
            points: list[ChartPoint] = [
                {
                    "t": (i + 1) * row.window_s,
                    "p99": _triple(row.at("windows_p99_ms", i)),
                    "cpu": _triple(row.at("windows_cpu_ms_per_request", i)),
                }
                for i in range(count)
            ]
            lines.append({"label": row.label, "variant": row.variant, "runs": len(row.runs), "points": points})
        shown.append(
            {
                "scenario": scenario,
                "rate": rows[0].rate_rps,
                "objective_ms": SCENARIOS[scenario].objective_ms,
                "window_s": rows[0].window_s,
                "lines": lines,
            }
        )
    return shown


def _triple(found: Spread | None) -> list[float] | None:
    return [found.median, found.low, found.high] if found else None
