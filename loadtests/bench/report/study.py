"""Beside the original study: its throughput ratios between the Java stacks (docs/study.md, from
its report's summary at its highest stage), and the same ratios measured here in one run, both
as the study measured them (throughput at the highest closed-model stage) and as capacity at the
p99 objective. Only ratios carry over: the study gives neither its machine nor its caps."""

from __future__ import annotations

from bench.report.figures import Cell, fmt
from bench.report.ladder import median_capacity

JERSEY, MVC, DATA_REST, WEBFLUX = "java-jersey", "java-spring", "java-spring-data-rest", "java-spring-webflux"

# Requests/s at the study's highest stage (50 → 100 threads; join-filter 60 → 120).
STUDY_THROUGHPUT = {
    "read-heavy": {JERSEY: 2150.0, MVC: 1700.0, DATA_REST: 1160.0},
    "join-filter": {JERSEY: 1010.0, MVC: 997.0, DATA_REST: 963.0},
    "mixed": {JERSEY: 1040.0, MVC: 1180.0, DATA_REST: 817.0},
    "heavy-body": {JERSEY: 969.0, MVC: 950.0, DATA_REST: 948.0},
}
# WebFlux + R2DBC against MVC + JDBC on the same reads, in a blog comparison of the two.
WEBFLUX_OVER_MVC = 1.58
WEBFLUX_SCENARIOS = ("read-heavy", "join-filter")

PAIRS = ((MVC, JERSEY, "Spring MVC ÷ Jersey"), (DATA_REST, JERSEY, "Data REST ÷ Jersey"))


def closed_rps(cell: Cell | None) -> float | None:
    """Requests/s at the highest closed-model stage, the median over runs."""
    found = cell.rps() if cell is not None else None
    return found.median if found is not None else None


def _capacity(cell: Cell | None) -> float | None:
    return median_capacity(cell) if cell is not None else None


def _ratio(a: float | None, b: float | None) -> str:
    return fmt(a / b, 2) if a is not None and b else "–"


def _bound(cell: Cell | None) -> str:
    """What bound the highest closed-model stage, over runs."""
    if cell is None or not cell.records or cell.top() is None:
        return "–"
    top = cell.top()
    assert top is not None
    measured = [cpu for cpu in cell.stage_values(top, lambda s: s.cpu) if cpu is not None]
    if not measured:
        return "–"
    return ", ".join(dict.fromkeys(b for cpu in measured for b in cpu.bound_by)) or "none at 90%"


def study_section(cells_by_scenario: dict[str, list[Cell]]) -> list[str]:
    """Empty when the Java stacks the study compared were not measured."""
    by_name = {s: {c.stack.name: c for c in cells} for s, cells in cells_by_scenario.items()}
    rows: list[str] = []
    for numerator, denominator, title in PAIRS:
        for scenario, study in STUDY_THROUGHPUT.items():
            cells = by_name.get(scenario, {})
            if numerator not in cells or denominator not in cells:
                continue
            a, b = cells[numerator], cells[denominator]
            rows.append(
                f"| {title} | {scenario} | {_ratio(study[numerator], study[denominator])} "
                f"| {_ratio(closed_rps(a), closed_rps(b))} | {_ratio(_capacity(a), _capacity(b))} "
                f"| {_bound(a)} / {_bound(b)} |"
            )
    for scenario in WEBFLUX_SCENARIOS:
        cells = by_name.get(scenario, {})
        if WEBFLUX in cells and MVC in cells:
            a, b = cells[WEBFLUX], cells[MVC]
            rows.append(
                f"| WebFlux ÷ Spring MVC | {scenario} | {fmt(WEBFLUX_OVER_MVC, 2)} (reads) "
                f"| {_ratio(closed_rps(a), closed_rps(b))} | {_ratio(_capacity(a), _capacity(b))} "
                f"| {_bound(a)} / {_bound(b)} |"
            )
    if not rows:
        return []
    return [
        "## Beside the original study",
        "",
        "Throughput ratios between the Java stacks: the study's at its highest stage "
        "([docs/study.md](docs/study.md)), ours at the highest closed-model stage (as the study measured) "
        "and as capacity at the p99 objective. *Bound* is what filled its CPUs at our closed-model stage "
        "(numerator / denominator). The analysis above says what explains each difference.",
        "",
        "| ratio | scenario | study | here, closed model | here, capacity at objective | bound |",
        "| --- | --- | --- | --- | --- | --- |",
        *rows,
        "",
    ]
