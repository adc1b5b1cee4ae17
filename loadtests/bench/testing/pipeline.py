"""`./bench test` per stack: its build, its own tests, the conformance suite and the SIGTERM
check, the resilience case under its cap, a bounded fuzz pass; a variant's row."""

from __future__ import annotations

import time

from bench import paths, phases, ports, procs, stacks, training
from bench.conformance import (
    CONFORMANCE_SUITE,
    LOG_MARKER_VARIABLE,
    Step,
    new_log_marker,
    rows_kept_out_of,
    run_suite,
)
from bench.console import console
from bench.errors import BenchError
from bench.manifest import Stack
from bench.postgres import Cluster
from bench.testing import StackResult
from bench.testing.fuzzing import TEST_FUZZ_EXAMPLES, TEST_FUZZ_SECONDS, run_fuzz
from bench.testing.resilience.step import run_resilience

# Exit statuses after SIGTERM that count as a clean stop: 0, or 128 + 15 from a runtime (the JVM)
# that reports the signal it ended on. Docker, Kubernetes and systemd count both as clean.
CLEAN_STOP_STATUSES = (0, 143)
SHUTDOWN_LIMIT_S = 10.5


def stopped_cleanly(exit_code: int | None, seconds: float) -> bool:
    """spec/API.md's shutdown rule: after SIGTERM, a clean status within the 10 s limit."""
    return exit_code in CLEAN_STOP_STATUSES and seconds < SHUTDOWN_LIMIT_S


def free_port_besides(taken: int) -> int:
    """A free port other than `taken`, which is chosen but not yet listened on."""
    while (port := ports.free_port()) == taken:
        pass
    return port


def run_conformance(stack: Stack, cluster: Cluster, result: StackResult) -> None:
    cluster.reset()
    port = ports.free_port()
    upstream_port = free_port_besides(port)
    running = stacks.start(
        stack,
        port=port,
        database_url=cluster.url(),
        stock_url=f"http://127.0.0.1:{upstream_port}",
        log_name=f"{stack.name}-conformance-server.log",
    )
    marker = new_log_marker()
    try:
        suite = run_suite(
            stack,
            base_url=running.base_url,
            upstream_port=upstream_port,
            db_stop=cluster.stop_command(),
            db_start=cluster.start_command(),
            logs=paths.LOGS,
            env={LOG_MARKER_VARIABLE: marker},
        )
    finally:
        cluster.start()  # the resilience cases stop it; whatever happened, leave it running
        shutdown_started = time.monotonic()
        exit_code = running.stop()
        shutdown_s = time.monotonic() - shutdown_started
    result.passed += suite.passed
    result.failed += suite.failed
    result.steps["conformance"] = suite.step
    result.steps["shutdown"] = Step(
        stopped_cleanly(exit_code, shutdown_s), f"exit {exit_code} in {shutdown_s:.1f} s", running.log
    )
    result.steps["log"] = rows_kept_out_of(running.log, marker)


def _build_step(stack: Stack, result: StackResult) -> bool:
    """Builds `stack` as a step of `result`; False when the build failed."""
    with console.status(f"[bold]{stack.name}[/]: building"), phases.timed(stack.name, "build"):
        try:
            built = training.build(stack)
        except BenchError as error:
            result.steps["build"] = Step(False, str(error).splitlines()[0])
            console.print(f"[red]{error}[/]")
            result.failed += 1
            return False
    shared = stack.build_key != stack.name
    summary = "built" if built else f"{stack.build_key}'s build" if shared else "up to date"
    if built and (trained := training.summary(stack)) is not None:
        summary = trained
    result.steps["build"] = Step(True, summary)
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
    console.print(
        f"{stack.name}: {step.summary}; shutdown {result.steps['shutdown'].summary}; log {result.steps['log'].summary}"
    )
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
    run_resilience(stack, cluster, result)
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
        return StackResult(stack.name, {"build": _cluster_lost(stack, error)}, failed=1)


def _cluster_lost(stack: Stack, error: BenchError) -> Step:
    """The failed step of a row that the runner's PostgreSQL, not brought back, kept from running."""
    console.print(f"[red]{stack.name}: {error}[/]")
    return Step(False, str(error).splitlines()[0])


def run_rows(rows: list[Stack], cluster: Cluster) -> list[StackResult]:
    """Each row in turn."""
    return [run_stack_or_say_why(stack, cluster) for stack in rows]


def run_variant(variant: Stack, cluster: Cluster) -> StackResult:
    """A variant serves the whole contract too: built when it has a build of its own, then the
    conformance suite and the SIGTERM check against it, as a row of its own. Not the resilience
    case: a stack's row runs it once, for CI's time."""
    result = StackResult(variant.name)
    if _build_step(variant, result):
        _conformance_step(variant, cluster, result)
    return result
