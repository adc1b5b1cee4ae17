"""Figures quoted in the hand-written analysis, filled in from the raw files.

results/analysis.md writes each figure as a placeholder, `{{capacity java-spring join-filter}}`,
and `./bench report` replaces it with the value the tables show, so a sentence can never quote a
figure its raw files do not hold. `bare_figures` finds figures typed in by hand instead (the
report's test fails on any in the committed analysis)."""

from __future__ import annotations

import re
from collections.abc import Callable

from bench.errors import BenchError
from bench.records import RawResult
from bench.report.figures import MIB, Cell, class_counts, fmt, median
from bench.report.ladder import common_rate, efficiency, median_capacity, p99_of, postgres_ms_of, values_at
from bench.report.study import STUDY_THROUGHPUT, WEBFLUX_OVER_MVC, closed_rps
from bench.report.summary import BOUND_WORDS, bound_of, per_run_peak, smallest_clean_cap
from bench.report.tiers import capacity_range, separated_pairs, tier_of, tiers

PLACEHOLDER = re.compile(r"\{\{\s*([^{}]+?)\s*\}\}")
# A figure as the tables print one: a decimal, a thousands-separated count, or a percentage.
FIGURE = re.compile(r"(?<![\w.-])(?:\d+\.\d+|\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s?%)(?![\w-])")

USAGE = """the placeholders are, with STACK a stack's directory name (or a ceiling's) and SCENARIO a scenario's:
  {{capacity STACK SCENARIO}}  capacity at objective, req/s (the median of the runs)
  {{range STACK SCENARIO}}     capacity's lowest–highest over the runs, req/s
  {{bounded STACK SCENARIO}}   in how many runs that capacity is a lower bound, "N of M runs"
  {{efficiency STACK SCENARIO}}  capacity as a share of its block's ceiling, as the tables print it
  {{classes STACK SCENARIO}}   the runs' warm-up classes counted, "2 steady, 1 still warming"
  {{tier STACK SCENARIO}}      the stack's tier in the scenario (T1 the highest)
  {{tiers SCENARIO}}           how many tiers the scenario's stacks fall into
  {{separated SCENARIO}}       pairs of stacks the runs tell apart, "N of M"
  {{closed STACK SCENARIO}}    req/s at the highest closed-model stage
  {{common SCENARIO}}          the common rate, req/s
  {{cores STACK SCENARIO}}     app cores per 1,000 req/s at the common rate
  {{pg STACK SCENARIO}}        PostgreSQL CPU ms per request at the common rate
  {{p99 STACK SCENARIO}}       p99 ms at the common rate
  {{sql STACK SCENARIO}}       SQL statements per request at the common rate
  {{bytes STACK SCENARIO}}     bytes per response at the common rate
  {{bound STACK SCENARIO}}     what bound the first rate it could not hold, in words
  {{ratio-closed STACK STACK SCENARIO}}    the first's closed-model req/s ÷ the second's
  {{ratio-capacity STACK STACK SCENARIO}}  the same for capacity at objective
  {{study STACK STACK SCENARIO}}           the original study's ratio (docs/study.md)
  STACK may be a variant (java-spring@n-plus-one) wherever a scenario is named, except in
  {{tier}}, {{tiers}} and {{separated}}, which rank the stacks alone.
  {{cap STACK}}        the smallest memory cap, MiB, served without an error (the memory ladder)
  {{serving-again STACK}}  seconds after PostgreSQL's restart until it served again (the fault run)
  {{idle STACK}}  {{peak STACK}}  {{startup STACK}}  {{runs}}"""


class Quotes:
    def __init__(
        self,
        cells_by_scenario: dict[str, list[Cell]],
        runs: int,
        ceilings: dict[str, Cell | None] | None = None,
        mem_ladder: list[RawResult] | None = None,
        fault: list[RawResult] | None = None,
        variants: dict[str, list[Cell]] | None = None,
    ) -> None:
        """`ceilings`: each scenario's ceiling, and `variants` its variants' cells, quoted like a
        stack (`{{capacity ceiling-db join-filter}}`) but not ranked or counted in its common rate;
        `mem_ladder` and `fault`: the records of those runs, for `{{cap}}` and `{{serving-again}}`."""
        self.stacks = {s: [c for c in cells if c.records] for s, cells in cells_by_scenario.items()}
        self.ceilings = {s: c for s, c in (ceilings or {}).items() if c is not None and c.records}
        self.commons = {s: common_rate(cells) for s, cells in self.stacks.items()}
        self.tiers = {s: tier_of(tiers(cells)) for s, cells in self.stacks.items()}
        self.cells = {s: {c.stack.name: c for c in cells} for s, cells in self.stacks.items()}
        for scenario, ceiling in (ceilings or {}).items():
            if ceiling is not None and ceiling.records:
                self.cells.setdefault(scenario, {})[ceiling.stack.name] = ceiling
        for scenario, cells in (variants or {}).items():
            self.cells.setdefault(scenario, {}).update({c.stack.name: c for c in cells if c.records})
        self.runs = runs
        names = {r.stack.label: r.stack.name for r in mem_ladder or []}
        self.laddered = set(names.values())
        self.caps = {names[label]: cap for label, cap in smallest_clean_cap(mem_ladder or []).items()}
        self.fault = {r.stack.name: r for r in fault or []}

    def _cell(self, stack: str, scenario: str) -> Cell:
        try:
            return self.cells[scenario][stack]
        except KeyError:
            raise BenchError(f"no runs of {stack} in {scenario}") from None

    def _records(self, stack: str) -> list[RawResult]:
        found = [r for cells in self.cells.values() if stack in cells for r in cells[stack].records]
        if not found:
            raise BenchError(f"no runs of {stack}")
        return found

    def _at_common(self, stack: str, scenario: str, value: Callable[..., float | None], digits: int) -> str:
        return fmt(median(values_at(self._cell(stack, scenario), self.commons.get(scenario), value)), digits)

    def _closed(self, stack: str, scenario: str) -> float | None:
        return closed_rps(self._cell(stack, scenario))

    def _capacity(self, stack: str, scenario: str) -> float | None:
        return median_capacity(self._cell(stack, scenario))

    def _ranked(self, scenario: str) -> list[Cell]:
        if scenario not in self.stacks:
            raise BenchError(f"no runs in {scenario}")
        return self.stacks[scenario]

    def value(self, expression: str) -> str:
        kind, *args = expression.split()
        match kind, args:
            case "runs", []:
                return str(self.runs)
            case "capacity", [stack, scenario]:
                return fmt(self._capacity(stack, scenario))
            case "range", [stack, scenario]:
                over_runs = capacity_range(self._cell(stack, scenario))
                if over_runs is None or over_runs.low == over_runs.high:
                    return fmt(over_runs.low if over_runs else None)
                return f"{fmt(over_runs.low)}–{fmt(over_runs.high)}"
            case "bounded", [stack, scenario]:
                laddered = [r for r in self._cell(stack, scenario).records if r.ladder is not None]
                bounded = sum(1 for r in laddered if r.ladder is not None and r.ladder.capacity_lower_bound)
                return f"{bounded} of {len(laddered)} runs"
            case "efficiency", [stack, scenario]:
                return efficiency(self._cell(stack, scenario), self.ceilings.get(scenario))
            case "classes", [stack, scenario]:
                return class_counts(self._cell(stack, scenario).records)
            case "tier", [stack, scenario]:
                label = self._cell(stack, scenario).stack.label
                number = self.tiers.get(scenario, {}).get(label)
                if number is None:
                    raise BenchError(f"{stack} has no tier in {scenario}: only stacks with a ladder are ranked")
                return f"T{number}"
            case "tiers", [scenario]:
                self._ranked(scenario)
                return str(max(self.tiers[scenario].values(), default=0))
            case "separated", [scenario]:
                separated, pairs = separated_pairs(self._ranked(scenario))
                return f"{separated} of {pairs}"
            case "closed", [stack, scenario]:
                return fmt(self._closed(stack, scenario))
            case "common", [scenario]:
                return fmt(self.commons.get(scenario))
            case "cores", [stack, scenario]:
                return self._at_common(stack, scenario, lambda s: s.cpu_ms_per_request, 2)
            case "pg", [stack, scenario]:
                return self._at_common(stack, scenario, postgres_ms_of, 2)
            case "p99", [stack, scenario]:
                return self._at_common(stack, scenario, p99_of, 1)
            case "sql", [stack, scenario]:
                return self._at_common(stack, scenario, lambda s: s.sql_per_request, 2)
            case "bytes", [stack, scenario]:
                return self._at_common(stack, scenario, lambda s: s.mean_response_bytes, 0)
            case ("ratio-closed" | "ratio-capacity") as ratio, [first, second, scenario]:
                measure = self._closed if ratio == "ratio-closed" else self._capacity
                a, b = measure(first, scenario), measure(second, scenario)
                return fmt(a / b, 2) if a is not None and b else "–"
            case "study", [first, second, scenario]:
                if scenario in ("read-heavy", "join-filter") and (first, second) == (
                    "java-spring-webflux",
                    "java-spring",
                ):
                    return fmt(WEBFLUX_OVER_MVC, 2)
                study = STUDY_THROUGHPUT.get(scenario, {})
                if first not in study or second not in study:
                    raise BenchError(f"the study has no ratio of {first} to {second} in {scenario}")
                return fmt(study[first] / study[second], 2)
            case "bound", [stack, scenario]:
                return BOUND_WORDS[bound_of(self._cell(stack, scenario))]
            case "idle", [stack]:
                cold = [r.idle_memory_bytes for r in self._records(stack) if not r.served_before]
                return fmt(median(cold), 0, MIB)
            case "peak", [stack]:
                return fmt(median(per_run_peak(self._records(stack))), 0, MIB)
            case "startup", [stack]:
                return fmt(median([r.startup_s for r in self._records(stack) if not r.served_before]), 1)
            case "cap", [stack]:
                if stack not in self.laddered:
                    raise BenchError(f"no memory-ladder runs of {stack}")
                found = self.caps.get(stack)
                return str(found) if found is not None else "none of the caps"
            case "serving-again", [stack]:
                run = self.fault.get(stack)
                if run is None or run.fault is None:
                    raise BenchError(f"no fault run of {stack}")
                again = run.fault.recovered_within_s
                # As the fault table prints it: the runner records it to the hundredth.
                return str(again) if again is not None else "not within 60"
        raise BenchError(f"unknown placeholder {{{{{expression}}}}}")


def fill(text: str, quotes: Quotes, source: str) -> str:
    """`text` with every placeholder replaced; a clear error naming the first that cannot be."""

    def replace(match: re.Match[str]) -> str:
        try:
            return quotes.value(match.group(1))
        except BenchError as error:
            raise BenchError(f"{source}: {match.group(0)}: {error}\n{USAGE}") from None

    return PLACEHOLDER.sub(replace, text)


def bare_figures(text: str) -> list[str]:
    """Figures typed in by hand: those outside placeholders, code spans and link targets."""
    prose = PLACEHOLDER.sub("", text)
    prose = re.sub(r"`[^`]*`", "", prose)
    prose = re.sub(r"\]\([^)]*\)", "]", prose)
    return FIGURE.findall(prose)
