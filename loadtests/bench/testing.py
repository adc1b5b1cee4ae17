"""`./bench test`: build, own tests and the conformance suite per stack, then the runner's own tests."""

from __future__ import annotations

import os
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table

from bench import paths, phases, procs, stacks, system
from bench.console import console
from bench.errors import BenchError
from bench.manifest import Stack
from bench.postgres import Cluster

# Exit statuses after SIGTERM that count as a clean stop: 0, or 128 + 15 from a runtime (the JVM)
# that reports the signal it ended on. Docker, Kubernetes and systemd count both as clean.
CLEAN_STOP_STATUSES = (0, 143)
SHUTDOWN_LIMIT_S = 10.5


def stopped_cleanly(exit_code: int | None, seconds: float) -> bool:
    """spec/API.md's shutdown rule: after SIGTERM, a clean status within the 10 s limit."""
    return exit_code in CLEAN_STOP_STATUSES and seconds < SHUTDOWN_LIMIT_S


if TYPE_CHECKING:
    from bench.records import RawResult


@dataclass
class Step:
    ok: bool
    summary: str
    log: Path | None = None


@dataclass
class StackResult:
    stack: str
    steps: dict[str, Step] = field(default_factory=dict)
    passed: int = 0
    failed: int = 0

    @property
    def ok(self) -> bool:
        return bool(self.steps) and all(s.ok for s in self.steps.values())


def junit_counts(report: Path) -> tuple[int, int, int]:
    """(passed, failed, skipped) from a pytest JUnit XML report."""
    try:
        root = ET.parse(report).getroot()
    except (FileNotFoundError, ET.ParseError):
        return 0, 0, 0
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    total = failed = skipped = 0
    for suite in suites:
        total += int(suite.get("tests", 0))
        failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    return total - failed - skipped, failed, skipped


def pytest_command(target: str, report: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pytest",
        target,
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "console_output_style=classic",
        f"--junitxml={report}",
        *extra,
    ]


# One conformance suite for every dialect; CONFORMANCE_DIALECT tells it the representation the
# stack serves (manifest.Manifest.dialect), and the cases of the other dialect are left out.
CONFORMANCE_SUITE = paths.SPEC_DIR / "conformance"
# The suite fakes the stock upstream of GET /items/{id}/stock in its own process
# (spec/conformance/stock_upstream.py), on a port chosen here: the stack's STOCK_URL names it, and
# the suite is told the port (and, where the stack runs elsewhere, the address to listen on).
UPSTREAM_PORT_VARIABLE = "CONFORMANCE_UPSTREAM_PORT"
UPSTREAM_HOST_VARIABLE = "CONFORMANCE_UPSTREAM_HOST"


def conformance_env(stack: Stack, upstream_port: int) -> dict[str, str]:
    return {"CONFORMANCE_DIALECT": stack.dialect, UPSTREAM_PORT_VARIABLE: str(upstream_port)}


def free_port_besides(taken: int) -> int:
    """A free port other than `taken`, which is chosen but not yet listened on."""
    while (port := stacks.free_port()) == taken:
        pass
    return port


def run_conformance(stack: Stack, cluster: Cluster, result: StackResult) -> None:
    suite = CONFORMANCE_SUITE
    cluster.reset()
    port = stacks.free_port()
    upstream_port = free_port_besides(port)
    running = stacks.start(
        stack,
        port=port,
        database_url=cluster.url(),
        stock_url=f"http://127.0.0.1:{upstream_port}",
        log_name=f"{stack.name}-conformance-server.log",
    )
    log = paths.LOGS / f"{stack.name}-conformance.log"
    report = paths.LOGS / f"{stack.name}-conformance.xml"
    report.unlink(missing_ok=True)
    try:
        env = {
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "BASE_URL": running.base_url,
            "BENCH_DB_STOP": cluster.stop_command(),
            "BENCH_DB_START": cluster.start_command(),
            "CONFORMANCE_STRICT": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            **conformance_env(stack, upstream_port),
        }
        code = procs.run(pytest_command(str(suite), report), cwd=paths.ROOT, env=env, log=log, timeout_s=900)
    finally:
        cluster.start()  # the resilience cases stop it; whatever happened, leave it running
        shutdown_started = time.monotonic()
        exit_code = running.stop()
        shutdown_s = time.monotonic() - shutdown_started
    passed, failed, skipped = junit_counts(report)
    result.passed += passed
    result.failed += failed
    ok = code == 0 and failed == 0 and skipped == 0 and passed > 0
    result.steps["conformance"] = Step(
        ok, f"{suite.name}: {passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""), log
    )
    if code != 0 and failed == 0:
        result.failed += 1
    result.steps["shutdown"] = Step(
        stopped_cleanly(exit_code, shutdown_s), f"exit {exit_code} in {shutdown_s:.1f} s", running.log
    )


def _build_step(stack: Stack, result: StackResult) -> bool:
    """Builds `stack` as a step of `result`; False when the build failed."""
    with console.status(f"[bold]{stack.name}[/]: building"), phases.timed(stack.name, "build"):
        try:
            built = stacks.build(stack)
        except BenchError as error:
            result.steps["build"] = Step(False, str(error).splitlines()[0])
            console.print(f"[red]{error}[/]")
            result.failed += 1
            return False
    shared = stack.build_key != stack.name
    result.steps["build"] = Step(True, "built" if built else f"{stack.build_key}'s build" if shared else "up to date")
    console.print(f"{stack.name}: build {result.steps['build'].summary}")
    return True


def _conformance_step(stack: Stack, cluster: Cluster, result: StackResult) -> bool:
    """The conformance suite and the SIGTERM check as steps of `result`; False when the suite
    could not run at all (the stack did not start)."""
    profile = CONFORMANCE_SUITE.relative_to(paths.ROOT)
    with (
        console.status(f"[bold]{stack.name}[/]: conformance suite ({profile})"),
        phases.timed(stack.name, "conformance and shutdown"),
    ):
        try:
            run_conformance(stack, cluster, result)
        except BenchError as error:
            result.steps["conformance"] = Step(False, f"{profile.name}: {str(error).splitlines()[0]}")
            console.print(f"[red]{error}[/]")
            result.failed += 1
            return False
    step = result.steps["conformance"]
    console.print(f"{stack.name}: {step.summary}; shutdown {result.steps['shutdown'].summary}")
    if not step.ok and step.log is not None:
        console.print(procs.tail(step.log, 60), markup=False)
    return True


def run_stack(stack: Stack, cluster: Cluster) -> StackResult:
    result = StackResult(stack.name)
    if not _build_step(stack, result):
        return result

    with console.status(f"[bold]{stack.name}[/]: its own tests"), phases.timed(stack.name, "own tests"):
        cluster.reset()
        log = paths.LOGS / f"{stack.name}-test.log"
        code = procs.run(
            stack.test_command,
            cwd=stack.directory,
            env=stack.environment({"DATABASE_URL": cluster.url()}),
            log=log,
            timeout_s=1200,
        )
        result.steps["own tests"] = Step(code == 0, "passed" if code == 0 else f"failed (exit {code})", log)
    console.print(f"{stack.name}: own tests {result.steps['own tests'].summary}")
    if code != 0:
        result.failed += 1
        console.print(procs.tail(log, 40), markup=False)

    if not _conformance_step(stack, cluster, result):
        return result
    with phases.timed(stack.name, "fuzz"):
        run_fuzz(stack, cluster, max_examples=TEST_FUZZ_EXAMPLES, seconds=TEST_FUZZ_SECONDS, result=result)
    return result


def run_stack_or_say_why(stack: Stack, cluster: Cluster) -> StackResult:
    """A stack's (or a variant's) row; when the runner's PostgreSQL cannot be brought back (a
    resilience case's restart failed), a failed row that says why, and the next stack tries again."""
    try:
        cluster.start()
        return run_variant(stack, cluster) if stack.variant else run_stack(stack, cluster)
    except BenchError as error:
        console.print(f"[red]{stack.name}: {error}[/]")
        return StackResult(stack.name, {"build": Step(False, str(error).splitlines()[0])}, failed=1)


def run_variant(variant: Stack, cluster: Cluster) -> StackResult:
    """A variant serves the whole contract too: built when it has a build of its own, then the
    conformance suite and the SIGTERM check against it, as a row of its own."""
    result = StackResult(variant.name)
    if _build_step(variant, result):
        _conformance_step(variant, cluster, result)
    return result


RUNNER_DIR = paths.ROOT / "loadtests"
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
    """ruff (lint and format) and mypy --strict on the runner, and mypy on the conformance suite
    and the fuzz pass (spec/mypy.ini), before anything is built."""
    result = StackResult("runner")
    for name, commands in LINTERS.items():
        log = paths.LOGS / f"runner-{name.replace(' ', '-')}.log"
        with console.status(f"the runner: {name}"):
            code = 0
            for args in commands:
                code = procs.run([sys.executable, *args], cwd=RUNNER_DIR, env=_python_env(), log=log, timeout_s=600)
                if code != 0:
                    break
        ok = code == 0
        result.steps[name] = Step(ok, "clean" if ok else _last_line(log), log)
        if ok:
            result.passed += 1
        else:
            result.failed += 1
        console.print(f"runner: {name} {result.steps[name].summary}")
        if not ok:
            console.print(procs.tail(log, 40), markup=False)
    return result


def check_k8s(result: StackResult) -> None:
    """deploy/k8s/ built and validated against the vendored schemas (bench.k8s), as a step of
    the runner's row: like ruff and mypy, a static check that needs no stack."""
    from bench import k8s, manifest, tools
    from bench.compose_file import caps

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
            pytest_command(str(RUNNER_DIR / "tests"), report),
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


def print_table(results: list[StackResult]) -> None:
    columns = [
        "build",
        "own tests",
        "conformance",
        "shutdown",
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


SMOKE_STACK = "go-gin"


def smoke_verdict(records: list[RawResult], problems: list[str], *, expected_runs: int) -> tuple[bool, str]:
    """Whether a smoke run proved the pipeline: every run complete and recorded, its files valid,
    no write lost, no status the contract does not give. A 503 is the contract's answer when the
    pool's 5 s wait runs out, which a smoke's 200 VUs on a machine busy with CI can cause: it is
    counted and shown, and does not fail the pipeline."""
    failed = [r for r in records if r.failed]
    statuses = [(status, count) for r in records for stage in r.stages for status, count in stage.errors.items()]
    overloaded = sum(count for status, count in statuses if status == "503")
    unexpected = sum(count for status, count in statuses if status != "503")
    lost = sum(r.lost_writes.lost_writes for r in records if r.lost_writes is not None)
    ok = not failed and not problems and unexpected == 0 and lost == 0 and len(records) == expected_runs
    summary = (
        f"{len(records)} runs, {len(failed)} failed, {unexpected} unexpected statuses"
        + (f" ({overloaded} × 503 from the pool's wait, allowed)" if overloaded else "")
        + f", {lost} lost writes, {len(problems)} schema problems"
    )
    return ok, summary


def run_smoke(stack: Stack, cluster: Cluster) -> StackResult:
    """`./bench run STACK --profile smoke` end to end, its raw JSON validated against the schema."""
    import json
    import shutil

    from bench import measure, scenarios, schema

    result = StackResult(f"smoke run ({stack.name})")
    output = paths.HOME / "results"
    shutil.rmtree(output / "raw" / "smoke", ignore_errors=True)
    split = measure.default_split(os.cpu_count() or 1)
    plan = measure.Plan([stack], list(scenarios.SCENARIOS.values()), "smoke", 1, split, output)
    try:
        records = measure.execute(plan, cluster)
    except BenchError as error:
        result.steps["benchmark"] = Step(False, str(error).splitlines()[0])
        result.failed += 1
        console.print(f"[red]{error}[/]")
        return result
    problems = []
    for raw in sorted((output / "raw" / "smoke").glob("*.json")):
        problems += [f"{raw.name}: {p}" for p in schema.validate_raw(json.loads(raw.read_text()))]
    failed = [r for r in records if r.failed]
    ok, summary = smoke_verdict(records, problems, expected_runs=2 * len(scenarios.SCENARIOS))
    result.steps["benchmark"] = Step(ok, summary)
    result.passed, result.failed = (1, 0) if ok else (0, 1)
    console.print(f"smoke run: {summary}")
    for problem in problems[:20]:
        console.print(f"  [red]{problem}[/]", markup=True)
    for record in failed:
        console.print(f"  [red]{record.stack.name} · {record.scenario}: {record.failed}[/]")
    return result


def run_docker_checks(stacks: list[str] | None = None) -> StackResult:
    """compose.yaml against the Compose specification and our rules; the Dockerfiles of `stacks`
    (all by default) linted."""
    from bench import docker_checks

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


# The bounded pass that ./bench test makes per stack; `./bench fuzz` goes further.
TEST_FUZZ_EXAMPLES = 15
TEST_FUZZ_SECONDS = 60


def run_fuzz(
    stack: Stack,
    cluster: Cluster,
    *,
    max_examples: int,
    seconds: float,
    verbose: bool = False,
    result: StackResult | None = None,
) -> StackResult:
    """Fuzzes one stack on a fresh database; its findings become a failed step."""
    from bench import fuzz, upstream

    result = result or StackResult(stack.name)
    spec = fuzz.spec_for(stack.dialect)
    try:
        stacks.build(stack)
        # GET /items/{id}/stock asks the real stock service, without its delay: every fuzzed id
        # is answered at once (200, or 404 past the seed's items), never with the 502 of an
        # upstream that is not there nor after a timeout.
        with upstream.running(stacks.free_port(), delay_ms="0") as stock:
            for attempt in (1, 2):
                with console.status(
                    f"[bold]{stack.name}[/]: fuzzing from {spec.name} "
                    f"({max_examples} examples per operation, at most {seconds:.0f} s)"
                ):
                    cluster.reset()
                    running = stacks.start(
                        stack,
                        port=stacks.free_port(),
                        database_url=cluster.url(),
                        stock_url=stock.url,
                        log_name=f"fuzz/{stack.name}-server.log",
                    )
                    try:
                        outcome = fuzz.fuzz_stack(
                            running.base_url,
                            max_examples=max_examples,
                            seconds=seconds,
                            log=paths.LOGS / "fuzz" / f"{stack.name}.log",
                            spec=spec,
                        )
                        if not running.alive():
                            fuzz.note_exit(outcome, running.proc.returncode, running.log)
                    finally:
                        running.stop()
                if not outcome.fuzzer_crashed or attempt == 2:
                    break
                # A crash of the fuzzer proves nothing about the stack; once more with a new seed.
                # Twice in a row stays a failure: a pass that could not test is no pass.
                console.print(
                    f"{stack.name}: fuzz {outcome.summary()}, "
                    + "; ".join(f"{f.title}: {f.message}" for f in outcome.failures)
                    + " — fuzzing again with a new seed",
                    markup=False,
                )
    except BenchError as error:
        result.steps["fuzz"] = Step(False, str(error).splitlines()[0])
        result.failed += 1
        console.print(f"[red]{error}[/]")
        return result
    result.steps["fuzz"] = Step(outcome.ok, f"{spec.name}: {outcome.summary()}", outcome.log)
    if outcome.ok:
        result.passed += 1
    else:
        result.failed += len(outcome.failures) or 1
    console.print(f"{stack.name}: fuzz ({spec.relative_to(paths.ROOT)}) {outcome.summary()}")
    if not outcome.ok or verbose:
        console.print(outcome.render(), markup=False)
    return result


def run_docker_path(selected: list[Stack]) -> list[StackResult]:
    """`./bench docker` for `selected`, one result row per stack; when this machine cannot run it
    (not root on Debian, no daemon), one failed-free row that says so, loudly."""
    from bench.docker import session

    reason = session.available()
    if reason is not None:
        console.print(f"[bold yellow]docker path: SKIPPED, ./bench docker {reason}[/]")
        return [StackResult("docker path", {"docker": Step(True, f"skipped: {reason}")})]
    with console.status("docker") as status:
        try:
            report = session.run(selected, on_progress=lambda text: status.update(f"[bold]docker[/]: {text}"))
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
    return results
