"""The runner's own row of `./bench test`: ruff and mypy over its code (and mypy over spec/),
the checks of deploy/k8s/, ESLint over its JavaScript, actionlint over the workflows, and its own
tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from bench import manifest, paths, procs, system, tools
from bench.checks import k8s, scripts
from bench.compose_file import caps
from bench.conformance import Step, junit_counts, pytest_command
from bench.console import console
from bench.errors import BenchError
from bench.testing import StackResult

RUNNER_DIR = paths.ROOT / "loadtests"
# Most of the runner's tests' time is real-time windows and ladder steps of the fake stacks, not
# CPU: on the project's 2 cores four workers took them from 5.8 to 2.2 minutes, using 104 s of CPU.
# Each worker makes its own PostgreSQL cluster on a free port, so many more would cost more than
# they save. worksteal, as the eight longest tests (19-35 s) sit in three modules.
RUNNER_TEST_WORKERS = 4
# The runner's own checks, configured in loadtests/pyproject.toml.
SPEC_MYPY = ["-m", "mypy", "--cache-dir=/dev/null", "--config-file", str(paths.SPEC_DIR / "mypy.ini")]
# Each step's commands run in turn; the first that fails fails the step.
LINTERS: dict[str, list[list[str]]] = {
    "ruff": [["-m", "ruff", "check", "--no-cache", "."]],
    "ruff format": [["-m", "ruff", "format", "--check", "--no-cache", "."]],
    "mypy": [["-m", "mypy", "--cache-dir=/dev/null"]],
    "mypy spec": [[*SPEC_MYPY, str(paths.SPEC_DIR / suite)] for suite in ("conformance", "fuzz")],
}


def run_lint() -> StackResult:
    """ruff (lint and format) and mypy on the runner (strict) and its tests, and mypy on the
    conformance suite and the fuzz pass (spec/mypy.ini), before anything is built."""
    result = StackResult("runner")
    for name, commands in LINTERS.items():
        log = paths.LOGS / f"runner-{name.replace(' ', '-')}.log"
        with console.status(f"the runner: {name}"):
            code = 0
            for args in commands:
                code = procs.run([sys.executable, *args], cwd=RUNNER_DIR, env=_python_env(), log=log, timeout_s=600)
                if code != 0:
                    break
        _record(result, name, Step(code == 0, "clean" if code == 0 else _last_line(log), log))
    return result


def check_scripts(result: StackResult) -> None:
    """ESLint over the results page's script and the k6 scenarios, actionlint over the GitHub
    workflows: static checks like ruff and mypy, with tools installed on first use (bench.checks.scripts)."""
    for name, prepare in scripts.CHECKS.items():
        log = paths.LOGS / f"runner-{name}.log"
        with console.status(f"the runner: {name}") as status:
            try:
                command, cwd = prepare(status.update)
            except BenchError as error:
                step = Step(False, str(error).splitlines()[0])
            else:
                code = procs.run(command, cwd=cwd, env=dict(os.environ), log=log, timeout_s=600)
                step = Step(code == 0, "clean" if code == 0 else _last_line(log), log)
        _record(result, name, step)


def _record(result: StackResult, name: str, step: Step) -> None:
    result.steps[name] = step
    if step.ok:
        result.passed += 1
    else:
        result.failed += 1
    console.print(f"runner: {name} {step.summary}")
    if not step.ok and step.log is not None:
        console.print(procs.tail(step.log, 40), markup=False)


def check_k8s(result: StackResult) -> None:
    """deploy/k8s/ built and validated against the vendored schemas (bench.checks.k8s), as a step of
    the runner's row: like ruff and mypy, a static check that needs no stack."""
    try:
        with console.status("deploy/k8s: kustomize and kubeconform") as status:
            validators = k8s.Validators(
                kustomize=tools.ensure(tools.KUSTOMIZE, on_progress=status.update),
                kubeconform=tools.ensure(tools.KUBECONFORM, on_progress=status.update),
            )
            count, problems = k8s.check(validators, [s.name for s in manifest.discover()], caps(paths.ROOT))
    except BenchError as error:
        count, problems = 0, [str(error).splitlines()[0]]
    ok = not problems
    summary = f"{count} kustomizations valid" if ok else f"{len(problems)} problems"
    result.steps["kubeconform"] = Step(ok, summary)
    if ok:
        result.passed += 1
    else:
        result.failed += 1
    console.print(f"runner: deploy/k8s {summary}")
    for problem in problems:
        console.print(f"  {problem}", markup=False)


def _last_line(log: Path) -> str:
    lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    return lines[-1].strip() if lines else "failed"


def run_runner_tests(result: StackResult | None = None) -> StackResult:
    """The runner's own tests, as a step of `result` (run_lint's) when given."""
    result = result or StackResult("runner")
    log = paths.LOGS / "runner-tests.log"
    report = paths.LOGS / "runner-tests.xml"
    report.unlink(missing_ok=True)
    # The results page's test drives Debian's Chromium: a fresh machine gets it here, as
    # PostgreSQL is got for the tests that need a cluster. Without it that test fails and says so.
    try:
        with console.status("Chromium and chromedriver for the results page's test"):
            system.ensure_chromium()
    except BenchError as error:
        console.print(f"runner: {error}", markup=False)
    with console.status("the runner's own tests"):
        code = procs.run(
            pytest_command(str(RUNNER_DIR / "tests"), report, "-n", str(RUNNER_TEST_WORKERS), "--dist", "worksteal"),
            cwd=paths.ROOT,
            env=_python_env(),
            log=log,
            timeout_s=1200,
        )
    passed, failed, _ = junit_counts(report)
    result.passed += passed
    result.failed += failed + (1 if code != 0 and failed == 0 else 0)
    result.steps["runner tests"] = Step(code == 0, f"{passed} passed, {failed} failed", log)
    console.print(f"runner: own tests {result.steps['runner tests'].summary}")
    if code != 0:
        console.print(procs.tail(log, 60), markup=False)
    return result


def _python_env() -> dict[str, str]:
    return dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
