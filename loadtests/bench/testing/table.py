"""The pass/fail table `./bench test` and `./bench fuzz` end with, and each failed step again."""

from __future__ import annotations

from rich.table import Table

from bench import procs
from bench.console import console
from bench.testing import StackResult


def print_table(results: list[StackResult]) -> None:
    columns = [
        "build",
        "own tests",
        "conformance",
        "shutdown",
        "log",
        "resilience",
        "fuzz",
        "benchmark",
        "docker",
        "checks",
        "ruff",
        "ruff format",
        "mypy",
        "mypy spec",
        "kubeconform",
        "runner tests",
    ]
    used = [c for c in columns if any(c in r.steps for r in results)]
    table = Table(title="./bench test")
    table.add_column("stack")
    for column in used:
        table.add_column(column)
    table.add_column("result")
    for r in results:
        cells = []
        for column in used:
            step = r.steps.get(column)
            cells.append("" if step is None else (step.summary if step.ok else f"[red]{step.summary}[/]"))
        table.add_row(r.stack, *cells, "[green]PASS[/]" if r.ok else "[red]FAIL[/]")
    console.print(table)


def print_failures(results: list[StackResult]) -> None:
    """Each failed step again, after the table, with its log's last lines.

    CI keeps only the tail of a long log, and a table squeezed to the log's width truncates
    the cell that says what failed; these lines are the part of the output that survives.
    """
    for result in results:
        for name, step in result.steps.items():
            if step.ok:
                continue
            where = f" (log: {step.log})" if step.log else ""
            console.print(f"[red]FAILED[/] {result.stack} · {name}: {step.summary}{where}")
            if step.log and step.log.is_file():
                console.print(procs.tail(step.log, 15), markup=False)
