"""What a stack's runs say at one rate, computed from the raw JSON alone, apart from the report's
code (bench.report.at_rate), so that the report, the page and the published files can be held to
it. The rule, as docs/method.md and issue 54 state it:

- a run holds a rate when its capacity (decided by its full-length steps) is at or above it, and a
  stack holds it when every run does;
- the figures come from the runs that hold it, each from the steps it held at rates it holds (the
  full-length one where a probe ran the same rate): at a rate where every one of those runs has
  such a step, the median over them; between the two such rates around it, the straight line;
  where those do not reach it, the same from the rates any of those runs has a step at, over the
  runs that have one there;
- cores are CPU ms per request × the rate ÷ 1,000."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Expected:
    runs: int
    held: int
    held_no_rate: int
    not_offered: int
    """Runs below the rate whose capacity is a lower bound and that were never offered it."""
    generator_bound: int
    """Runs below the rate whose capacity is a lower bound but whose steps reached it: the load
    generator bound a step they did not hold."""
    figures: dict[str, float | None] | None
    """app_cores, postgres_cores, p99, memory_mib; None: none."""
    of_runs: int
    probe: bool
    interpolated: bool

    @property
    def holds(self) -> bool:
        return self.runs > 0 and self.held == self.runs


def cells(files: list[Path]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Per (stack label, scenario), its runs' ladders: the stacks only (no ceiling, no variant), as the
    page's rate picker lists them."""
    found: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for file in files:
        raw = json.loads(file.read_text())
        if raw.get("ladder") is None or raw.get("failed") or raw.get("kind") == "ceiling":
            continue
        name = raw["stack"]["name"]
        if "@" in name or name.startswith("ceiling-"):
            continue
        label = name + (" (HAL)" if raw["stack"].get("dialect") == "hal" else "")
        found.setdefault((label, raw["scenario"]), []).append(raw["ladder"])
    return found


def _median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _held_steps(ladder: dict[str, Any]) -> dict[float, dict[str, Any]]:
    """Rate → the step the run held there, at a rate up to its capacity; full-length over probe."""
    table: dict[float, dict[str, Any]] = {}
    for step in ladder["steps"]:
        rate = step["offered_rps"]
        if not step["held"] or rate > ladder["capacity_rps"]:
            continue
        if rate not in table or (table[rate].get("probe") and not step.get("probe")):
            table[rate] = step
    return table


def _per_request(step: dict[str, Any]) -> dict[str, float | None]:
    memory = step.get("app_peak_memory_bytes")
    return {
        "app": step.get("cpu_ms_per_request"),
        "postgres": (step.get("cpu") or {}).get("postgres_ms_per_request"),
        "p99": (step.get("latency_ms") or {}).get("p99"),
        "memory": None if memory is None else memory / (1 << 20),
    }


def expected_at(ladders: list[dict[str, Any]], rate: float) -> Expected:
    capacities = [ladder["capacity_rps"] for ladder in ladders]
    holding = [ladder for ladder in ladders if ladder["capacity_rps"] is not None and rate <= ladder["capacity_rps"]]
    tables = [_held_steps(ladder) for ladder in holding]

    def at(offered: float) -> tuple[dict[str, float | None], int, bool]:
        steps = [table[offered] for table in tables if offered in table]
        values = {key: _median([_per_request(s)[key] for s in steps]) for key in ("app", "postgres", "p99", "memory")}
        return values, len(steps), any(s.get("probe", False) for s in steps)

    chosen: list[float] = []
    if tables:
        every = set(tables[0]).intersection(*tables[1:])
        anywhere = set().union(*tables)
        for rates in (every, anywhere):
            if rate in rates:
                chosen = [rate]
                break
            lower = sorted(r for r in rates if r < rate)
            upper = sorted(r for r in rates if r > rate)
            if lower and upper:
                chosen = [lower[-1], upper[0]]
                break
    below_a_lower_bound = [
        max(step["offered_rps"] for step in ladder["steps"])
        for ladder in ladders
        if ladder["capacity_rps"] is not None and rate > ladder["capacity_rps"] and ladder.get("capacity_lower_bound")
    ]
    base = {
        "runs": len(ladders),
        "held": len(holding),
        "held_no_rate": capacities.count(None),
        "not_offered": sum(1 for offered in below_a_lower_bound if offered < rate),
        "generator_bound": sum(1 for offered in below_a_lower_bound if offered >= rate),
    }
    if not chosen:
        return Expected(**base, figures=None, of_runs=0, probe=False, interpolated=False)
    ends = [at(r) for r in chosen]
    if len(chosen) == 1:
        per_request = ends[0][0]
    else:
        (low, _, _), (high, _, _) = ends
        share = (rate - chosen[0]) / (chosen[1] - chosen[0])
        per_request = {
            key: None if low[key] is None or high[key] is None else low[key] + share * (high[key] - low[key])  # type: ignore[operator]
            for key in low
        }

    def cores(value: float | None) -> float | None:
        return None if value is None else value * rate / 1000

    return Expected(
        **base,
        figures={
            "app_cores": cores(per_request["app"]),
            "postgres_cores": cores(per_request["postgres"]),
            "p99": per_request["p99"],
            "memory_mib": per_request["memory"],
        },
        of_runs=min(count for _, count, _ in ends),
        probe=any(probe for _, _, probe in ends),
        interpolated=len(chosen) == 2,
    )


def rates_to_check(ladders_by_stack: list[list[dict[str, Any]]]) -> list[float]:
    """Three rates of a scenario: the highest of its own rates every stack held in every run that
    held one (the common rate), a rate between it and the next of its own rates, and the median
    of every run's capacity, where some stacks hold it in only some runs."""
    runs = [ladder for ladders in ladders_by_stack for ladder in ladders]
    rates = runs[0]["rates"]
    held_sets = []
    for ladder in runs:
        table = _held_steps(ladder) if ladder["capacity_rps"] is not None else {}
        if table:
            held_sets.append({r for r in table if r in rates})
    common = max(set.intersection(*held_sets), default=rates[0]) if held_sets else rates[0]
    following = [r for r in rates if r > common]
    between = round((common * following[0]) ** 0.5) if following else round(common * 1.05)
    capacities = [ladder["capacity_rps"] for ladder in runs if ladder["capacity_rps"] is not None]
    middle = round(statistics.median(capacities)) if capacities else rates[-1]
    if middle in (common, between) and len(capacities) > 1:
        middle = round(statistics.quantiles(capacities, n=4)[2])
    return [common, float(between), float(middle)]
