"""The runner's layout: no import cycle between its modules, nor between the packages and modules
that sit side by side in one package, no module over 400 lines, and the report reading nothing of
the measuring wing (the rules both apply are bench.judgement's).

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


def member_of(package: str, name: str) -> str | None:
    """The member of `package` (a subpackage or a module) that module `name` is or sits in."""
    if not name.startswith(package + "."):
        return None
    return ".".join(name.split(".")[: package.count(".") + 2])


def package_graphs(graph: dict[str, set[str]], packages: set[str]) -> dict[str, dict[str, set[str]]]:
    """For each package, the imports between its members, each with all that sits in it: a member
    imports another where one of its modules imports one of the other's."""
    found: dict[str, dict[str, set[str]]] = {}
    for package in sorted(packages):
        members: dict[str, set[str]] = {}
        for name, targets in graph.items():
            if (source := member_of(package, name)) is None:
                continue
            imported_members = {member_of(package, target) for target in targets}
            members.setdefault(source, set()).update(m for m in imported_members if m is not None and m != source)
        found[package] = members
    return found


def reached(graph: dict[str, set[str]], start: set[str]) -> set[str]:
    """Every module that importing `start` imports, directly or through others."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def packages_in(package: Path) -> set[str]:
    return {name for name, path in modules(package).items() if path.name == "__init__.py"}


def test_the_runner_has_no_import_cycle():
    assert cycles(import_graph(PACKAGE)) == []


def test_no_package_of_the_runner_has_members_that_import_each_other():
    graphs = package_graphs(import_graph(PACKAGE), packages_in(PACKAGE))
    assert {package: found for package, members in graphs.items() if (found := cycles(members))} == {}


def test_the_report_imports_nothing_of_the_measuring_wing():
    graph = import_graph(PACKAGE)
    report = {name for name in graph if name == "bench.report" or name.startswith("bench.report.")}
    assert sorted(name for name in reached(graph, report) if name.startswith("bench.measure")) == []


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


def test_packages_that_import_each_other_are_a_cycle_though_no_two_modules_are(tmp_path):
    package = tmp_path / "bench"
    for sub in ("run", "load", "load/tools"):
        (package / sub).mkdir(parents=True)
        (package / sub / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "run" / "job.py").write_text("from bench.load.tools import k6\n")
    (package / "run" / "context.py").write_text("")
    (package / "load" / "tools" / "k6.py").write_text("")
    (package / "load" / "tools" / "oha.py").write_text("from bench.load import stages\n")
    (package / "load" / "stages.py").write_text("from bench.run.context import x\n")
    graph = import_graph(package)
    assert cycles(graph) == []
    graphs = package_graphs(graph, packages_in(package))
    assert cycles(graphs["bench"]) == [["bench.load", "bench.run"]]
    # Inside load, tools imports stages and not back: no cycle there.
    assert graphs["bench.load"] == {"bench.load.stages": set(), "bench.load.tools": {"bench.load.stages"}}
    assert reached(graph, {"bench.load.tools.oha"}) == {"bench.load.stages", "bench.run", "bench.run.context"}
