"""The variants section: each variant (STACK@VARIANT, one knob of its stack changed) in each of
its scenarios, under its stack, with its ratio to the stack for capacity and for cost at a rate
both held, the spread of each ratio over the runs (bench.report.pairs), and the figures that
explain it: app and PostgreSQL CPU per request, statements per request, bytes per response,
threads, database connections, and for a JVM its GC pauses and heap.

Variants are not stacks: they stay out of the summary, the tiers and the scenario tables, whose
common rate they would otherwise move."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from bench import manifest, paths
from bench.errors import BenchError
from bench.manifest import VARIANT_SEPARATOR
from bench.report.figures import Cell, Spread, fmt
from bench.report.pairs import METRICS, fmt_ratio, measured, ratio, shared_rate

# The figures that explain a ratio, in the order the table shows them.
EXPLAINING = (
    "app-cpu",
    "postgres-cpu",
    "sql",
    "bytes",
    "threads",
    "connections-in-use",
    "connections-held",
    "gc",
    "heap",
)


def is_variant(name: str) -> bool:
    return VARIANT_SEPARATOR in name


def stack_of(name: str) -> str:
    return name.partition(VARIANT_SEPARATOR)[0]


def split_variants(cells: list[Cell]) -> tuple[list[Cell], list[Cell]]:
    """A scenario's cells: the stacks' (and ceilings'), and the variants'."""
    return [c for c in cells if not is_variant(c.stack.name)], [c for c in cells if is_variant(c.stack.name)]


@dataclass(frozen=True)
class VariantRow:
    """A variant in one scenario, against its stack."""

    stack: Cell | None
    """None when the stack itself has no raw file of the scenario: nothing to compare with."""
    variant: Cell
    scenario: str
    rate: float | None
    """The highest ladder rate both held in every run, by a probe or at full length: where costs
    are compared."""
    figures: dict[str, tuple[Spread | None, Spread | None]]
    """Per metric (capacity and EXPLAINING): the stack's figure and the variant's, over their runs."""
    ratios: dict[str, Spread | None]
    """Per metric: the variant's ÷ the stack's, with its spread."""


def variant_rows(cells_by_scenario: dict[str, list[Cell]]) -> list[VariantRow]:
    """Every variant × scenario of the raw files, by stack, then variant, then scenario."""
    rows = []
    for scenario, cells in cells_by_scenario.items():
        by_name = {c.stack.name: c for c in cells}
        for cell in split_variants(cells)[1]:
            stack = by_name.get(stack_of(cell.stack.name))
            pair = [stack, cell] if stack is not None and stack.records else []
            rate = shared_rate(pair) if pair else None
            figures: dict[str, tuple[Spread | None, Spread | None]] = {}
            ratios: dict[str, Spread | None] = {}
            for key in ("capacity", *EXPLAINING):
                metric = METRICS[key]
                at = rate if metric.at_rate else None
                if stack is None or not pair or (metric.at_rate and at is None):
                    figures[key], ratios[key] = (None, None), None
                    continue
                figures[key] = (measured(stack, metric, at), measured(cell, metric, at))
                ratios[key] = ratio(metric.values(cell, at), metric.values(stack, at))
            rows.append(VariantRow(stack, cell, scenario, rate, figures, ratios))
    order = list(cells_by_scenario)
    return sorted(rows, key=lambda r: (stack_of(r.variant.stack.name), r.variant.stack.name, order.index(r.scenario)))


def descriptions() -> dict[str, str]:
    """Each variant's one line from its stack's impl.toml, where the stack is still in the tree."""
    found = {}
    for directory in manifest.stack_dirs(paths.ROOT):
        try:
            stack = manifest.load(directory)
        except BenchError:
            continue
        for name, variant in stack.variants.items():
            found[f"{stack.name}{VARIANT_SEPARATOR}{name}"] = variant.description
    return found


def _pair(found: tuple[Spread | None, Spread | None], digits: int) -> str:
    theirs, mine = found
    if theirs is None and mine is None:
        return "–"
    return f"{fmt(theirs.median if theirs else None, digits)} → {fmt(mine.median if mine else None, digits)}"


def _connections(row: VariantRow) -> str:
    """In use, and held in brackets: stack → variant."""

    def one(side: int) -> str:
        used, held = row.figures["connections-in-use"][side], row.figures["connections-held"][side]
        if used is None and held is None:
            return "–"
        return f"{fmt(used.median if used else None)} ({fmt(held.median if held else None)})"

    measured_any = any(row.figures[k] != (None, None) for k in ("connections-in-use", "connections-held"))
    return f"{one(0)} → {one(1)}" if measured_any else "–"


def _jvm(row: VariantRow) -> str:
    """GC pause ms per second · heap MiB: stack → variant."""

    def one(side: int) -> str:
        gc, heap = row.figures["gc"][side], row.figures["heap"][side]
        if gc is None and heap is None:
            return "–"
        return f"{fmt(gc.median if gc else None, 1)} · {fmt(heap.median if heap else None)}"

    return f"{one(0)} → {one(1)}" if any(row.figures[k] != (None, None) for k in ("gc", "heap")) else "–"


def variants_section(cells_by_scenario: dict[str, list[Cell]]) -> list[str]:
    """Empty without a variant in the raw files."""
    rows = variant_rows(cells_by_scenario)
    if not rows:
        return []
    described = descriptions()
    lines = [
        "## Variants",
        "",
        "A variant is its stack with one knob changed ([method](docs/method.md#variants)), measured in the "
        "scenarios its impl.toml names under the same caps and ladder; each row is a variant in one scenario, "
        "under its stack. *a → b* is the stack's figure, then the variant's (medians over runs). *÷ stack* is "
        "the variant's figure divided by the stack's: the ratio of the medians, with in brackets the lowest and "
        "highest ratio any run of the one and any run of the other give (it includes 1 exactly when their "
        "ranges overlap: no difference). Cost and the figures after it are at the highest ladder rate both held "
        "in every run (*compared at*): app CPU per request (equal to app cores per 1,000 req/s), PostgreSQL's CPU per "
        "request, SQL statements per request, bytes per response, the app's peak threads, the database "
        "connections it had in use at once (held, in brackets; peaks of samples every 0.5 s), and for a JVM its "
        "GC pauses in ms per second and heap used in MiB.",
        "",
    ]
    by_stack: dict[str, list[VariantRow]] = defaultdict(list)
    for row in rows:
        by_stack[stack_of(row.variant.stack.name)].append(row)
    for stack, mine in by_stack.items():
        lines += [
            f"### {stack}",
            "",
            "| variant | scenario | capacity req/s | capacity ÷ stack | compared at req/s | app CPU ms/req "
            "| cost ÷ stack | PostgreSQL CPU ms/req | SQL/req | bytes/resp | peak threads "
            "| DB connections in use (held) | GC ms/s · heap MiB |",
            "|" + " --- |" * 13,
        ]
        for row in mine:
            name = row.variant.stack.name
            shown = f"{VARIANT_SEPARATOR}{name.partition(VARIANT_SEPARATOR)[2]}"
            if name in described:
                shown += f": {described[name]}"
            if row.stack is None:
                missing = f"{stack} has no raw file of {row.scenario}"
                lines.append(f"| {shown} | {row.scenario} | – | {missing} |" + " |" * 9)
                continue
            if row.variant.failures:
                shown += f" ({len(row.variant.failures)} run(s) failed)"
            columns = [
                shown,
                row.scenario,
                _pair(row.figures["capacity"], 0),
                fmt_ratio(row.ratios["capacity"]),
                fmt(row.rate) if row.rate is not None else "none both held",
                _pair(row.figures["app-cpu"], 3),
                fmt_ratio(row.ratios["app-cpu"]),
                _pair(row.figures["postgres-cpu"], 3),
                _pair(row.figures["sql"], 2),
                _pair(row.figures["bytes"], 0),
                _pair(row.figures["threads"], 0),
                _connections(row),
                _jvm(row),
            ]
            lines.append("| " + " | ".join(columns) + " |")
        lines.append("")
    return lines
