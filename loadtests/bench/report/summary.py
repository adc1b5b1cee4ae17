"""results.md's first screen: a row per stack with the figures one chooses a stack by, the cost of
each at a rate every stack holds, and a line per scenario on what bounds it on this machine.

Every figure is a median over runs of what the raw files hold, computed by the same functions as
the per-scenario tables further down (bench.report.ladder), so the two always agree."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from bench import manifest
from bench.records import RawResult
from bench.report.at_rate import Reading, reading_at, said_at
from bench.report.figures import MIB, Cell, class_counts, fmt, median
from bench.report.ladder import (
    capacities,
    common_rate,
    has_ladder,
    held_no_rate_note,
    last_steps,
    lower_bound,
    median_capacity,
    runs_note,
)
from bench.report.money import money_table
from bench.report.prices import PriceList, load_prices
from bench.report.tables import measured_at
from bench.report.tiers import tier_line, tier_of, tiers
from bench.scenarios import SCENARIOS

BOUND_WORDS = {
    "app": "the app at its core",
    "postgres+loadgen": "PostgreSQL and the load generator filling CPU 1",
    "postgres": "PostgreSQL at its CPUs",
    "loadgen": "the load generator at its CPUs",
    "loadgen+upstream": "the load generator and the stock upstream at their CPUs",
    "postgres+loadgen+upstream": "PostgreSQL, the load generator and the stock upstream filling CPU 1",
    "none": "no CPU at 90% (latency or errors first)",
    "held": "every rate held",
}


def _short_name(scenario: str) -> str:
    return SCENARIOS[scenario].short_name if scenario in SCENARIOS else scenario


def tier_order(tiers_by_scenario: dict[str, dict[str, int]]) -> list[str]:
    """Stacks by their mean tier over the scenarios (then by name): an order that no single
    scenario decides, and that claims nothing finer than the tiers do."""
    labels = {label for found in tiers_by_scenario.values() for label in found}
    worst = {s: max(found.values(), default=1) for s, found in tiers_by_scenario.items()}

    def mean_tier(label: str) -> float:
        # A stack missing from a scenario counts as one below its last tier.
        numbers = [found.get(label, worst[s] + 1) for s, found in tiers_by_scenario.items()]
        return sum(numbers) / len(numbers) if numbers else 0.0

    return sorted(labels, key=lambda label: (mean_tier(label), label))


def per_run_peak(records: Iterable[RawResult]) -> list[float | None]:
    """Each run's highest app memory over every ladder step and stage of every scenario: a
    median of these is the peak a stack typically reaches, not the worst of all its runs."""
    peaks: dict[int, int] = {}
    for record in records:
        found = [s.app_peak_memory_bytes for s in record.stages]
        found += [s.app_peak_memory_bytes for s in (record.ladder.steps if record.ladder else [])]
        known = [p for p in found if p is not None]
        if known:
            peaks[record.run] = max(peaks.get(record.run, 0), *known)
    return [float(p) for p in peaks.values()]


def smallest_clean_cap(mem_ladder: list[RawResult]) -> dict[str, int]:
    """Per stack, the smallest memory cap under which every scenario of the memory ladder was
    served without an error or an OOM kill (a stack that fails a cap is not tried below it)."""
    served: dict[str, dict[int, bool]] = defaultdict(dict)
    for r in mem_ladder:
        if r.mem_ladder_mib is None:
            continue
        clean = not r.failed and not any(s.oom or s.error_count for s in r.stages)
        caps = served[r.stack.label]
        caps[r.mem_ladder_mib] = caps.get(r.mem_ladder_mib, True) and clean
    return {name: min(cap for cap, ok in caps.items() if ok) for name, caps in served.items() if any(caps.values())}


def _stack_rows(cells_by_scenario: dict[str, list[Cell]]) -> dict[str, list[RawResult]]:
    records: dict[str, list[RawResult]] = defaultdict(list)
    for cells in cells_by_scenario.values():
        for cell in cells:
            records[cell.stack.label] += cell.records
    return records


def _steady(records: list[RawResult]) -> str:
    states = [r.steady_state for r in records if r.steady_state is not None]
    if not states:
        return "–"
    capped = sum(1 for s in states if not s.reached)
    return fmt(median([s.time_s for s in states]), 0) + (f" ({capped}/{len(states)} at cap)" if capped else "")


def _capacity_text(cell: Cell, tier: int, runs: int) -> str:
    """A summary cell: the median capacity and its tier, and the runs that held no rate, which a
    median hides when the others held one (the page says it alike)."""
    if not any(capacities(cell)):
        return f"none held (T{tier}){runs_note(cell, runs)}"
    none = held_no_rate_note(cell)
    return (
        f"{'≥ ' if lower_bound(cell) else ''}{fmt(median_capacity(cell))}"
        f" (T{tier}{'; ' + none if none else ''}){runs_note(cell, runs)}"
    )


def bound_of(cell: Cell) -> str:
    """What bound the step each run could not hold, the most frequent over runs; a tie goes to the
    earliest run's, so that the report does not change from one rendering to the next."""
    kinds: list[str] = []
    for last in last_steps(cell):
        if last.held:
            kinds.append("held")
        elif last.cpu is not None:
            kinds.append(last.cpu.bound_by[0] if last.cpu.bound_by else "none")
    return max(kinds, key=kinds.count) if kinds else "none"


def bound_sentence(cells: list[Cell]) -> str:
    """What bound each stack's ladder in one scenario, most frequent first: "the app at its core for 5; …"."""
    counts: dict[str, int] = defaultdict(int)
    for cell in cells:
        counts[bound_of(cell)] += 1
    return "; ".join(
        f"{BOUND_WORDS.get(kind, kind)} for {count}" for kind, count in sorted(counts.items(), key=lambda i: -i[1])
    )


def summary_section(
    cells_by_scenario: dict[str, list[Cell]],
    mem_ladder: list[RawResult],
    runs: int,
    measured: str,
    prices: PriceList | None = None,
) -> list[str]:
    """`measured`: the commit(s) and dates of the runs, as the tables name them; `prices`: the
    price list the common rate's figures are priced on (docs/prices.toml unless given)."""
    scenarios = [s for s, cells in cells_by_scenario.items() if has_ladder(cells)]
    if not scenarios:
        return []
    laddered = {s: [c for c in cells_by_scenario[s] if has_ladder([c])] for s in scenarios}
    tier_numbers = {s: tier_of(tiers(laddered[s])) for s in scenarios}
    records = _stack_rows(laddered)
    caps = smallest_clean_cap(mem_ladder)
    names = tier_order(tier_numbers)
    cell_of = {(s, c.stack.label): c for s in scenarios for c in laddered[s]}
    commons = {s: common_rate(laddered[s]) for s in scenarios}
    of = f"median of {runs} runs" if runs > 1 else "one run: no spread measured"
    measured_names = {c.stack.name for cells in laddered.values() for c in cells}
    unmeasured = [s.name for s in manifest.discover() if s.name not in measured_names]
    lines = [
        "## Summary",
        "",
        f"Measured {measured}; quick profile, {of} per stack × scenario ([method](docs/method.md)). "
        "Capacity: the highest offered rate held at the p99 objective, with its tier (T1 the highest), "
        "a run that held no rate counting as 0 req/s; "
        "≥ where it is a lower bound (every rate held, or the load generator used half its CPUs or more at "
        "the step not held). "
        "Stacks whose capacity ranges over all runs overlap show no difference, and stacks linked by "
        "such overlaps share a tier: the order inside a tier means nothing. Rows are in order of "
        "their mean tier over the scenarios, then by name."
        + (f" Smallest cap: the memory ladder's, measured {measured_at(mem_ladder)}." if mem_ladder else "")
        + (f" Stacks of the repository with no raw file here yet: {', '.join(unmeasured)}." if unmeasured else ""),
        "",
        "Tiers per scenario, highest first (how many of the pairs of stacks the runs tell apart):",
        "",
        *(tier_line(s, laddered[s]) for s in scenarios),
        "",
        "| stack | "
        + " | ".join(f"{_short_name(s)} req/s" for s in scenarios)
        + " | idle MiB | peak MiB | smallest cap | start-up s | steady state s | warm-up classes |",
        "|" + " --- |" * (len(scenarios) + 7),
    ]
    for name in names:
        mine = records[name]
        cold = [r for r in mine if not r.served_before]
        capacity = [
            _capacity_text(cell_of[(s, name)], tier_numbers[s][name], runs) if (s, name) in cell_of else "–"
            for s in scenarios
        ]
        lines.append(
            f"| {name} | "
            + " | ".join(capacity)
            + f" | {fmt(median([r.idle_memory_bytes for r in cold]), 0, MIB)}"
            + f" | {fmt(median(per_run_peak(mine)), 0, MIB)}"
            + f" | {f'{caps[name]} MiB' if name in caps else '–'}"
            + f" | {fmt(median([r.startup_s for r in cold]), 1)} | {_steady(mine)} | {class_counts(mine)} |"
        )
    lines += [
        "",
        "At a rate every stack held (the *common rate*, under each scenario; a run that held no rate "
        "is left out of it, and its stack's cell says how many runs held the rate): app cores per 1,000 "
        "req/s · PostgreSQL CPU ms per request · p99 ms, the median over the runs of each run's step at "
        "that rate; † where one of those steps is a short probe rather than a full-length step (full-"
        "length steps run only from the highest rate a stack's probes held).",
        "",
        "| stack | "
        + " | ".join(f"{_short_name(s)} @ {fmt(commons[s])}/s" if commons[s] else s for s in scenarios)
        + " |",
        "|" + " --- |" * (len(scenarios) + 1),
    ]
    readings: dict[tuple[str, str], Reading] = {}
    for name in names:
        row = []
        for s in scenarios:
            cell, rate = cell_of.get((s, name)), commons[s]
            if cell is None or rate is None:
                row.append("–")
                continue
            readings[(name, s)] = reading_at(cell.records, rate)
            row.append(said_at(readings[(name, s)]))
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    lines += money_table(names, scenarios, readings, prices or load_prices())
    lines += ["", "What bounds each scenario here, at the first rate each stack could not hold:"]
    for s in scenarios:
        said = bound_sentence(laddered[s])
        held = [median_capacity(c) for c in laddered[s]]
        # A median of 0 req/s: most of the stack's runs held no rate.
        known = [h for h in held if h]
        span = (
            "no stack held a rate"
            if not known
            else f"{fmt(min(known))} req/s"
            if min(known) == max(known)
            else f"{fmt(min(known))}–{fmt(max(known))} req/s"
        )
        if known and len(known) < len(held):
            span += f"; {len(held) - len(known)} of {len(held)} stacks held no rate"
        lines.append(f"- **{s}** ({span}): {said}.")
    return [*lines, ""]
