"""The PNG charts under the tables of results.md.

matplotlib's Figure is used directly, not pyplot: no display, no global figure state to close.
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from bench.records import RawResult
from bench.report.figures import MIB, Cell, Spread, spread
from bench.report.ladder import capacities, one_step_per_rate

CHARTS = (
    ("throughput", "requests/s at the highest stage (median, min–max)", "rps"),
    ("p99", "p99 latency at the highest stage, ms (median)", "p99"),
    ("cpu", "app CPU ms per request at the highest stage (median)", "cpu_ms"),
    ("memory", "app peak memory, MiB (median)", "peak_mib"),
)


def _metric(cell: Cell, metric: str) -> Spread | None:
    top = cell.top()
    if top is None:
        return None
    if metric == "rps":
        return cell.rps()
    if metric == "p99":
        return spread(cell.latency(top, "p99"))
    if metric == "cpu_ms":
        return spread(cell.stage_values(top, lambda s: s.cpu_ms_per_request))
    return spread(cell.stage_values(top, lambda s: s.app_peak_memory_bytes / MIB if s.app_peak_memory_bytes else None))


def draw_charts(cells_by_scenario: dict[str, list[Cell]], charts_dir: Path) -> list[tuple[Path, str]]:
    charts_dir.mkdir(parents=True, exist_ok=True)
    scenarios = [s for s, cells in cells_by_scenario.items() if any(c.records for c in cells)]
    if not scenarios:
        return []
    out = []
    for name, title, metric in CHARTS:
        fig = Figure(figsize=(3.2 * len(scenarios) + 1, 3.6))
        axes = fig.subplots(1, len(scenarios), squeeze=False)
        for ax, scenario in zip(axes[0], scenarios, strict=True):
            labels, values, lows, highs = [], [], [], []
            for cell in [c for c in cells_by_scenario[scenario] if c.records]:
                s = _metric(cell, metric)
                if s is None:
                    continue
                labels.append(cell.stack.label)
                values.append(s.median)
                lows.append(s.median - s.low)
                highs.append(s.high - s.median)
            ax.barh(labels, values, xerr=[lows, highs] if metric == "rps" else None, color="#4c72b0")
            ax.invert_yaxis()
            ax.set_title(scenario, fontsize=10)
            ax.tick_params(labelsize=8)
        fig.suptitle(title, fontsize=11)
        fig.tight_layout()
        path = charts_dir / f"{name}.png"
        fig.savefig(path, dpi=110)
        out.append((path, title))
    return out


def draw_capacity_chart(cells_by_scenario: dict[str, list[Cell]], charts_dir: Path) -> list[tuple[Path, str]]:
    """Capacity at objective per scenario (median, min–max over runs), for the scenarios that ran
    the fixed-rate ladder; none for raw files written before it. A run that held no rate counts as
    0 req/s, as in every table (ladder.capacities)."""
    per_scenario = {
        scenario: [(cell.stack.label, spread(capacities(cell))) for cell in cells]
        for scenario, cells in cells_by_scenario.items()
    }
    scenarios = [s for s, rows in per_scenario.items() if any(value is not None for _, value in rows)]
    if not scenarios:
        return []
    title = "capacity at objective, requests/s (highest fixed rate held; median, min–max)"
    fig = Figure(figsize=(3.2 * len(scenarios) + 1, 3.6))
    axes = fig.subplots(1, len(scenarios), squeeze=False)
    for ax, scenario in zip(axes[0], scenarios, strict=True):
        rows = sorted(((n, v) for n, v in per_scenario[scenario] if v is not None), key=lambda row: -row[1].median)
        medians = [v.median for _, v in rows]
        errors = [[v.median - v.low for _, v in rows], [v.high - v.median for _, v in rows]]
        ax.barh([n for n, _ in rows], medians, xerr=errors, color="#55a868")
        ax.invert_yaxis()
        ax.set_title(scenario, fontsize=10)
        ax.tick_params(labelsize=8)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    charts_dir.mkdir(parents=True, exist_ok=True)
    path = charts_dir / "capacity.png"
    fig.savefig(path, dpi=110)
    return [(path, title)]


def draw_soak_chart(records: list[RawResult], charts_dir: Path) -> list[tuple[Path, str]]:
    """The app's memory over the soak, one line per stack."""
    title = "Soak: app memory over 10 minutes of the mixed scenario (MiB)"
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    drawn = False
    for r in sorted(records, key=lambda r: r.stack.name):
        samples = [point for stage in r.stages for point in stage.memory_samples]
        if not samples:
            continue
        ax.plot([t / 60 for t, _ in samples], [b / MIB for _, b in samples], label=r.stack.label, linewidth=1.2)
        drawn = True
    if not drawn:
        return []
    ax.set_xlabel("minutes into the stage", fontsize=9)
    ax.set_ylabel("MiB", fontsize=9)
    ax.set_yscale("log")
    ax.tick_params(labelsize=8)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    charts_dir.mkdir(parents=True, exist_ok=True)
    path = charts_dir / "soak-memory.png"
    fig.savefig(path, dpi=110)
    return [(path, title)]


def draw_latency_charts(cells_by_scenario: dict[str, list[Cell]], charts_dir: Path) -> list[tuple[Path, str]]:
    """One chart per scenario of p99 against offered load over the fixed-rate ladder, every stack
    a line (the median p99 over runs at each offered rate some run reached), both axes on a log
    scale: the rates are geometric steps and the latencies span milliseconds to seconds."""
    out = []
    for scenario, cells in cells_by_scenario.items():
        laddered = [c for c in cells if any(r.ladder is not None for r in c.records)]
        if not laddered:
            continue
        objective = next(r.ladder.objective_p99_ms for c in laddered for r in c.records if r.ladder is not None)
        fig = Figure(figsize=(7.5, 4))
        ax = fig.subplots()
        for cell in laddered:
            by_rate: dict[float, list[float | None]] = {}
            for record in cell.records:
                for step in one_step_per_rate(record):
                    by_rate.setdefault(step.offered_rps, []).append(step.latency_ms.p99 if step.latency_ms else None)
            points = [(rate, found.median) for rate, values in sorted(by_rate.items()) if (found := spread(values))]
            if points:
                ax.plot(*zip(*points, strict=True), marker="o", markersize=3, linewidth=1.2, label=cell.stack.label)
        ax.axhline(objective, color="#888888", linestyle="--", linewidth=0.8, label=f"objective {objective:g} ms")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("offered requests/s", fontsize=9)
        ax.set_ylabel("p99 ms", fontsize=9)
        ax.tick_params(labelsize=8)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
        title = f"{scenario}: p99 against offered load (fixed-rate ladder, median over runs)"
        ax.set_title(title, fontsize=10)
        fig.tight_layout()
        charts_dir.mkdir(parents=True, exist_ok=True)
        path = charts_dir / f"latency-{scenario}.png"
        fig.savefig(path, dpi=110)
        out.append((path, title))
    return out
