"""The fixed-rate ladder's table of a scenario: capacity at objective, and at the common rate (the
highest rate every stack held in every run that held one) the latency, the cores per 1,000
requests/s and what the stack costs PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bench.judgement.bounds import generator_below_postgres, limited_by_loadgen, shared_cpu_full
from bench.judgement.ladder import decisive, stopping_step
from bench.records import RawResult
from bench.records.steps import LadderStep
from bench.report.at_rate import held_points, held_step, reading_at
from bench.report.figures import Cell, class_counts, fmt, fmt_spread, median, noise_marks, of_runs, spread
from bench.scenarios import SCENARIOS

T = TypeVar("T")

STOP_WORDS = {
    "delivered": "delivered < 97%",
    "dropped": "dropped > 1%",
    "errors": "errors",
    "p99": "p99 over objective",
    "no-latency": "no latency",
    "failed": "crashed",
}


def has_ladder(cells: list[Cell]) -> bool:
    return any(r.ladder is not None for c in cells for r in c.records)


def capacities(cell: Cell) -> list[float]:
    """Each run's capacity, a run that held no rate counting as 0 req/s: it is below every rate
    offered, and leaving it out would make a stack that failed a run look steadier. The one rule
    for such a run in every figure of the report, the page and the claims (docs/method.md, "A run
    that held no rate")."""
    return [r.ladder.capacity_rps or 0.0 for r in cell.records if r.ladder is not None]


def runs_without_rate(cell: Cell) -> int:
    """The runs whose ladder held no rate at all."""
    return sum(1 for r in cell.records if r.ladder is not None and r.ladder.capacity_rps is None)


def held_no_rate_note(cell: Cell) -> str:
    """What a capacity says of its runs that held no rate, in results.md's summary and ladder
    table and on the page alike; nothing when every run held one."""
    none = runs_without_rate(cell)
    return f"held no rate in {none} of {len(capacities(cell))} runs" if none else ""


def runs_note(cell: Cell, runs: int) -> str:
    """ " (2 of 3 runs)" when a run of the cell failed and its capacity rests on the others."""
    return of_runs(len(capacities(cell)), runs)


def median_capacity(cell: Cell) -> float | None:
    """The median of `capacities`; None without a ladder."""
    return median(capacities(cell))


def last_steps(cell: Cell) -> list[LadderStep]:
    """Each run's step that ended its ladder: the lowest rate it did not hold (after a bisection
    not the last step run), or its top rate if it held all."""
    found = []
    for record in cell.records:
        if record.ladder is None or not record.ladder.steps:
            continue
        stop = stopping_step(record.ladder.steps)
        full = decisive(record.ladder.steps) or record.ladder.steps
        found.append(stop if stop is not None else max(full, key=lambda s: s.offered_rps))
    return found


def bisected_to(cells: list[Cell]) -> float | None:
    """The ratio the ladders were bisected to, None for records from before the bisection."""
    return next((r.ladder.bisect_ratio for c in cells for r in c.records if r.ladder and r.ladder.bisect_ratio), None)


def lower_bound(cell: Cell) -> bool:
    """The cell's median capacity may lie above the rate it shows, printed with "≥": a run at or
    below the median is a lower bound (its ladder held every rate, or the load generator bounded
    the step it did not hold). A lower bound above the median moves no median, however high it is."""
    middle = median_capacity(cell)
    return middle is not None and any(
        r.ladder is not None and r.ladder.capacity_lower_bound and (r.ladder.capacity_rps or 0.0) <= middle
        for r in cell.records
    )


def p99_of(step: LadderStep) -> float | None:
    return step.latency_ms.p99 if step.latency_ms else None


def postgres_ms_of(step: LadderStep) -> float | None:
    return step.cpu.postgres_ms_per_request if step.cpu else None


def upstream_ms_of(step: LadderStep) -> float | None:
    """The stock upstream's CPU ms per request (the outbound scenario only)."""
    return step.cpu.upstream_ms_per_request if step.cpu else None


def has_upstream(cells: list[Cell]) -> bool:
    """Whether the scenario's stacks called the stock upstream, whose CPU was measured."""
    return any(
        upstream_ms_of(step) is not None
        for cell in cells
        for record in cell.records
        for step in (record.ladder.steps if record.ladder is not None else [])
    )


def common_rate(cells: list[Cell]) -> float | None:
    """The highest of the scenario's own rates (the ladder's, never a bisection's, which differ from
    stack to stack) that every stack held in every run that held one, by a probe or at full length.
    A run that held no rate has no cost at any rate, so it is left out (its stack shows "held no
    rate") rather than leaving the others with no rate to compare at; None if no run held a rate."""
    held_by_run = [grid_rates_held(r) for cell in cells for r in cell.records if r.ladder is not None]
    held_by_run = [held for held in held_by_run if held]
    if not held_by_run:
        return None
    return max(set.intersection(*held_by_run), default=None)


def grid_rates_held(record: RawResult) -> set[float]:
    """The ladder's own rates a run held, up to its capacity: one held by chance above a rate not
    held does not count, as for the capacity (bench.report.at_rate, the rule every rate quoted
    follows)."""
    if record.ladder is None:
        return set()
    return set(held_points(record)) & set(record.ladder.rates)


def one_step_per_rate(record: RawResult) -> list[LadderStep]:
    """A run's steps, one per offered rate: the full-length one where a probe ran the same rate."""
    steps = record.ladder.steps if record.ladder is not None else []
    by_rate: dict[float, LadderStep] = {}
    for step in sorted(steps, key=lambda s: not s.probe):
        by_rate[step.offered_rps] = step
    return [by_rate[rate] for rate in sorted(by_rate)]


def step_at(record: RawResult, rate: float | None) -> LadderStep | None:
    """The run's held step at `rate` if it holds the rate: the full-length one where both ran, else
    the probe (bench.report.at_rate)."""
    return held_step(record, rate)


def values_at(cell: Cell, rate: float | None, value: Callable[[LadderStep], T | None]) -> list[T | None]:
    return [value(step) for r in cell.records if (step := step_at(r, rate)) is not None]


def stopped_by(cell: Cell) -> tuple[str, str]:
    """Why each run's ladder ended, and what bound the step it could not hold."""
    reasons: list[str] = []
    bounds: list[str] = []
    measured = False  # a --target run's steps have no CPU to say what bound them
    for last in last_steps(cell):
        if last.held:
            reasons.append("held every rate")
            continue
        reasons += [STOP_WORDS[reason] for reason in last.stop_reasons]
        if last.cpu is not None:
            measured = True
            bounds += last.cpu.bound_by
    said = ", ".join(dict.fromkeys(reasons)) or "–"
    bound = ", ".join(dict.fromkeys(bounds)) or (
        "none at 90%" if measured and said not in ("–", "held every rate") else "–"
    )
    return said, bound


def _steady(cell: Cell) -> str:
    states = [r.steady_state for r in cell.records if r.steady_state is not None]
    if not states:
        return "–"
    text = fmt(median([s.time_s for s in states]), 0)
    capped = sum(1 for s in states if not s.reached)
    classes = class_counts(cell.records)
    text += f" (cap hit in {capped} of {len(states)})" if capped else ""
    return text + (f"; {classes}" if classes != "–" else "")


def _stopped_by_loadgen(cell: Cell) -> bool:
    """A run whose step not held measured the load generator rather than the server."""
    return any(not s.held and s.cpu is not None and limited_by_loadgen(s.cpu) for s in last_steps(cell))


def efficiency(cell: Cell, ceiling: Cell | None) -> str:
    """A stack's capacity as a share of its ceiling's, run by run against the ceiling of the same
    block, the median over runs with their range; only where both ladders measured their servers:
    not where a load generator bound the step not held (on two cores k6 shares CPU 1 with
    PostgreSQL and can fill it before the stack or the database is at its limit), and as an upper
    bound ("≤") where the ceiling held every rate offered (its capacity lies above the last rate)."""
    if ceiling is None or not has_ladder([ceiling]):
        return "–"
    if cell is ceiling:
        return "the ceiling"
    if _stopped_by_loadgen(ceiling):
        return "none: the ceiling was bound by its load generator"
    if _stopped_by_loadgen(cell):
        return "none: its ladder stopped where its load generator did most of the work on a full CPU"
    # Each run against the ceiling of its own block (the same run number): a block is measured on
    # one machine, and the ratio travels across machines where requests/s do not.
    limits = {r.run: r.ladder.capacity_rps or 0.0 for r in ceiling.records if r.ladder is not None}
    if not any(limits.values()):
        return "none: the ceiling held no rate"
    shares = spread(
        (r.ladder.capacity_rps or 0.0) / limits[r.run] * 100
        for r in cell.records
        if r.ladder is not None and limits.get(r.run)
    )
    if shares is None:
        return "–"
    bound_only = any(s.held for s in last_steps(ceiling))
    text = (
        f"{shares.median:.0f}%"
        if shares.low == shares.high
        else f"{shares.median:.0f}% ({shares.low:.0f}–{shares.high:.0f}%)"
    )
    return ("≤ " if bound_only else "") + text


def top_held_step(record: RawResult) -> LadderStep | None:
    """A run's highest full-length step held, where its capacity was measured."""
    if record.ladder is None:
        return None
    held = [s for s in record.ladder.steps if s.held and not s.probe]
    return max(held, key=lambda s: s.offered_rps, default=None)


def generator_sentence(scenario: str, cells: list[Cell]) -> str | None:
    """For a scenario whose ladder vegeta sends: in how many runs, at the top held step, vegeta
    spent less CPU than PostgreSQL (the write generator's target, docs/method.md), and in how many
    CPU 1 was full there, so bound by that CPU rather than by the stack. None for another scenario."""
    known = SCENARIOS.get(scenario)
    if known is None or known.ladder_tool != "vegeta":
        return None
    # Only the runs vegeta drove: records name the tools their run used (earlier writes went by k6).
    sent = [r for c in cells for r in c.records if r.versions.vegeta is not None]
    cpus = [step.cpu for r in sent if (step := top_held_step(r)) is not None and step.cpu]
    judged = [(cpu, under) for cpu in cpus if (under := generator_below_postgres(cpu)) is not None]
    if not judged:
        return None
    below = sum(1 for _, under in judged if under)
    full = sum(1 for cpu, _ in judged if shared_cpu_full(cpu))
    shares = [cpu.loadgen_cpu_share for cpu, _ in judged]
    return (
        f"vegeta, at each run's highest full-length step held: below PostgreSQL's CPU in {below} of {len(judged)} "
        f"runs (its target: all of them), at {fmt(min(shares) * 100)}–{fmt(max(shares) * 100)}% of its CPUs; "
        + (
            f"CPU 1 (PostgreSQL and the load generator together) at 90% or more in {full} of them, whose capacity "
            "that CPU bounded, not the stack."
            if full
            else "CPU 1 under 90% in every one."
        )
    )


def ladder_table(scenario: str, cells: list[Cell], ceiling: Cell | None = None) -> list[str]:
    """Sorted by capacity at objective, the ceiling's row first; "≈" marks pairs whose capacity
    ranges over all runs overlap."""
    laddered = [c for c in cells if has_ladder([c])]
    ceiling_row = ceiling if ceiling is not None and has_ladder([ceiling]) else None
    objective = next(r.ladder.objective_p99_ms for c in laddered for r in c.records if r.ladder is not None)
    rates = next(r.ladder.rates for c in laddered for r in c.records if r.ladder is not None)
    laddered.sort(key=lambda c: -(median_capacity(c) or 0.0))
    common = common_rate(laddered)
    at = f"{fmt(common)} req/s" if common is not None else "the common rate"
    upstream = has_upstream([*laddered, *([ceiling_row] if ceiling_row is not None else [])])
    lines = [
        f"### {scenario}: fixed-rate ladder (p99 objective {fmt(objective)} ms)",
        "",
        f"Offered rates, the same for every stack: {', '.join(fmt(r) for r in rates)} requests/s. "
        "A step is held when the stack delivers at least 97% of the offered rate with at most 1% of "
        "arrivals dropped, no unexpected status and p99 within the objective; the ladder stops at the "
        "first step not held. Capacity is the highest rate held (median and min–max over runs). "
        f"The figures after it are at {at}, the highest rate every stack held in every run that held one"
        + ("" if common is not None else " (there is none: no stack held a rate)")
        + ", the median of each run's step at that rate (the full-length one where one ran, else the probe: "
        "† where one of them is a probe); the notes say how many runs held it where not all did"
        ". App cores per 1,000 requests/s equal its CPU ms per request. A stack is bound by the app "
        "when it used ≥ 90% of its core, by postgres+loadgen when PostgreSQL and the load generator "
        "together used ≥ 90% of the CPU they share. Two stacks whose capacity ranges over all runs "
        "overlap show no difference (≈; every pair is compared, not only neighbours). A capacity marked ≥ "
        "is a lower bound: the ladder held every rate, or its load generator used half its CPUs or more at "
        "the step not held."
        + (
            f" After the first step not held the ladder bisected until held and not held were at most {ratio:g}"
            " apart; every step is recorded."
            if (ratio := bisected_to(laddered)) is not None
            else ""
        )
        + (
            f" The first row is the {ceiling_row.stack.display}, run through the same ladder; efficiency is a "
            "stack's capacity divided by the ceiling's in the same block (the same run), the median over "
            "runs with their range."
            if ceiling_row is not None
            else ""
        )
        + (
            " The stock upstream the stacks call runs on the load generator's CPUs: its CPU ms per request is "
            "what each call costs the harness, and its CPU counts with the load generator's in what bound a "
            "step (loadgen+upstream, postgres+loadgen+upstream) and in the ≥ of a lower bound."
            if upstream
            else ""
        ),
        "",
        f"| stack | capacity req/s | efficiency | stopped by | bound at the step not held | p99 ms at {at} | p99.9 ms "
        "| app cores per 1k req/s | PostgreSQL CPU ms/req | SQL/req | bytes/resp | load generator CPU share "
        + ("| upstream CPU ms/req " if upstream else "")
        + "| time to steady state s | notes |",
        "|" + " --- |" * (15 if upstream else 14),
    ]
    capacity_spreads = [(c.stack.label, spread(capacities(c))) for c in laddered]
    marks = noise_marks(capacity_spreads)
    rows = list(zip(laddered, capacity_spreads, strict=True))
    if ceiling_row is not None:
        rows.insert(0, (ceiling_row, (ceiling_row.stack.label, spread(capacities(ceiling_row)))))
    for cell, (_, capacity) in rows:
        notes = [marks[cell.stack.label]] if cell.stack.label in marks else []
        reading = reading_at(cell.records, common) if common is not None else None
        if reading is not None and 0 < reading.held_no_rate == reading.runs:
            notes.append("held no rate")
        else:
            if reading is not None and not reading.holds:
                notes.append(f"at {fmt(common)} req/s: {reading.answer()}")
            if runs_without_rate(cell):
                notes.append(held_no_rate_note(cell))
        if cell.failures:
            notes.append(f"{len(cell.failures)} run(s) failed")
        all_runs = len(cell.records) + len(cell.failures)
        columns = [
            cell.stack.label,
            ("≥ " if lower_bound(cell) else "") + fmt_spread(capacity),
            efficiency(cell, ceiling),
            *stopped_by(cell),
            fmt(median(values_at(cell, common, p99_of)), 1)
            + (" †" if reading is not None and reading.probe else "")
            # The figures at the common rate rest on the runs with a step there; said once, here.
            + (of_runs(len(values_at(cell, common, lambda s: s)), all_runs) if common is not None else ""),
            fmt(median(values_at(cell, common, lambda s: s.latency_ms.p999 if s.latency_ms else None)), 1),
            fmt(median(values_at(cell, common, lambda s: s.cpu_ms_per_request)), 3),
            fmt(median(values_at(cell, common, postgres_ms_of)), 3),
            fmt(median(values_at(cell, common, lambda s: s.sql_per_request)), 2),
            fmt(median(values_at(cell, common, lambda s: s.mean_response_bytes)), 0),
            fmt(median(values_at(cell, common, lambda s: s.cpu.loadgen_cpu_share * 100 if s.cpu else None)), 0)
            + ("%" if any(v is not None for v in values_at(cell, common, lambda s: s.cpu)) else ""),
            *([fmt(median(values_at(cell, common, upstream_ms_of)), 3)] if upstream else []),
            _steady(cell),
            ", ".join(notes),
        ]
        lines.append("| " + " | ".join(columns) + " |")
    said = generator_sentence(scenario, laddered)
    return [*lines, *(["", said] if said is not None else []), ""]
