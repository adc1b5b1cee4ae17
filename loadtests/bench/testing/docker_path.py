"""The Docker path in `./bench test`: `./bench docker` for the stacks tested, and the checks of
compose.yaml and the Dockerfiles, which need no Docker."""

from __future__ import annotations

from bench import paths
from bench.checks import docker_checks
from bench.conformance import Step
from bench.console import console
from bench.docker import session
from bench.errors import BenchError
from bench.manifest import Stack
from bench.testing import StackResult


def run_docker_checks(stacks: list[str] | None = None) -> StackResult:
    """compose.yaml against the Compose specification and our rules; the Dockerfiles of `stacks`
    (all by default) linted."""
    result = StackResult("docker path")
    with console.status("checking compose.yaml and the Dockerfiles"):
        problems = docker_checks.check(paths.ROOT, stacks=stacks)
    ok = not problems
    result.steps["checks"] = Step(ok, "compose.yaml and Dockerfiles ok" if ok else f"{len(problems)} problems")
    result.passed, result.failed = (1, 0) if ok else (0, len(problems))
    console.print(f"docker path: {result.steps['checks'].summary}")
    for problem in problems:
        console.print(f"  {problem}", markup=False)
    return result


def run_docker_path(selected: list[Stack]) -> list[StackResult]:
    """`./bench docker` for `selected`, one result row per stack, without the conformance cases
    that the stack has just passed natively and that test its code alone (bench.conformance.CODE_ONLY_MARKER);
    when this machine cannot run it (not root on Debian, no daemon), one failed-free row that says
    so, loudly."""
    reason = session.available()
    if reason is not None:
        console.print(f"[bold yellow]docker path: SKIPPED, ./bench docker {reason}[/]")
        return [StackResult("docker path", {"docker": Step(True, f"skipped: {reason}")})]
    with console.status("docker") as status:
        try:
            report = session.run(
                selected, on_progress=lambda text: status.update(f"[bold]docker[/]: {text}"), whole_suite=False
            )
        except BenchError as error:
            console.print(f"[red]{error}[/]")
            return [StackResult("docker path", {"docker": Step(False, str(error).splitlines()[0])}, failed=1)]
    session.print_table(report)
    results = []
    for outcome in report.outcomes:
        summary = session.summary(outcome)
        results.append(
            StackResult(
                f"{outcome.stack} (docker)", {"docker": Step(outcome.ok, summary)}, outcome.passed, outcome.failed
            )
        )
    if report.problems:
        step = Step(False, report.problems[0].splitlines()[0])
        results.append(StackResult("docker path", {"docker": step}, failed=len(report.problems)))
    return results
