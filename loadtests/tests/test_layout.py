"""The runner's layout: no import cycle between its modules, and no module over 400 lines.

Every import counts, a function's deferred one and a TYPE_CHECKING one included: deferring an
import hides a cycle from Python, not from the reader. Importing a module runs the __init__ of
each package it sits in, so an import from another package depends on those too; a module's
imports of its own packages' __init__ do not count (Python runs those before the module)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bench"
MAX_LINES = 400


def modules(package: Path) -> dict[str, Path]:
    """Every module of `package` by its dotted name (a package by its own)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def packages_of(name: str) -> set[str]:
    """The packages whose __init__ runs before module `name`: bench, bench.measure, …"""
    parts = name.split(".")
    return {".".join(parts[:end]) for end in range(1, len(parts))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The runner's modules that module `name` (at `path`) imports, anywhere in it."""
    # A relative import is relative to the package `name` is (an __init__) or sits in.
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    targets = {target for target in found if target in known}
    # The packages a target sits in run first, unless they are the importer's own.
    targets |= {package for target in targets for package in packages_of(target)}
    return targets - packages_of(name) - {name}


def import_graph(package: Path) -> dict[str, set[str]]:
    found = modules(package)
    return {name: imported(name, path, set(found)) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module importing itself),
    by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_runner_has_no_import_cycle():
    assert cycles(import_graph(PACKAGE)) == []


def test_no_module_of_the_runner_is_over_400_lines():
    lines = {name: len(path.read_text().splitlines()) for name, path in modules(PACKAGE).items()}
    assert {name: count for name, count in lines.items() if count > MAX_LINES} == {}


def test_a_cycle_is_found_through_a_deferred_import_and_through_a_package(tmp_path):
    package = tmp_path / "bench"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from bench import b\n")
    (package / "b.py").write_text("from bench.a import f\n")
    (package / "sub" / "__init__.py").write_text("from bench.sub.inner import g\n")
    (package / "sub" / "inner.py").write_text("from bench import c\n\ng = 1\n")
    (package / "c.py").write_text("from bench.sub.inner import g\n")
    (package / "d.py").write_text("from bench.sub import inner\n")
    (package / "sub" / "e.py").write_text("from . import inner\nfrom .. import d\n")
    graph = import_graph(package)
    assert cycles(graph) == [["bench.a", "bench.b"], ["bench.c", "bench.sub", "bench.sub.inner"]]
    assert graph["bench.sub.e"] == {"bench.sub.inner", "bench.d"}
    assert graph["bench.d"] == {"bench.sub", "bench.sub.inner"}
