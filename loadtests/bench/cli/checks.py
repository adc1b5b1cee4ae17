"""`./bench test` and `./bench fuzz`: the stacks and the runner checked."""

from __future__ import annotations

import sys

import click

from bench.cli.group import cli
from bench.console import console
from bench.lock import Lock


@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
@click.option(
    "--no-smoke",
    "smoke",
    flag_value=False,
    default=True,
    help="Skip the smoke benchmark of go-gin (every scenario and ceiling, the first two rates of each ladder).",
)
@click.option(
    "--no-docker",
    "docker",
    flag_value=False,
    default=True,
    help="Skip `./bench docker` (every stack built and run with Docker Compose).",
)
@click.option(
    "--changed",
    metavar="BASE",
    help="Test only the stacks that the changes since git revision BASE touch (what the pull request check runs).",
)
def test(impls: tuple[str, ...], smoke: bool, docker: bool, changed: str | None) -> None:
    """Build and test stacks (all by default), then the runner itself.

    For each stack: build it, run its own tests against a freshly reset database, then start it
    and run the conformance suite of spec/ against it on another fresh database, including the
    resilience cases that stop and restart PostgreSQL, check that SIGTERM ends it cleanly and that
    its log holds none of the values of the rows the suite had PostgreSQL reject, start it again
    under its cap for the resilience case (an oversized body, bursts of near-limit bodies,
    slow clients; spec/README.md), and fuzz it briefly with schemathesis (`./bench fuzz` goes
    further); then the conformance suite, the SIGTERM check and the log check against each of its
    variants (its impl.toml's [variants]). Then
    `./bench run go-gin --profile smoke` up the first two rates of each ladder, its raw JSON
    checked against the schema, `./bench docker` for the same stacks (after every measurement,
    so that no daemon is busy during one; skipped loudly where it cannot run: not root on Debian
    and no daemon; without the conformance cases marked code_only, which test the code alone and
    have just passed), the checks of compose.yaml and of the stacks' Dockerfiles, and the
    runner's own tests; ruff and mypy check the runner's code first, ESLint its JavaScript (the
    results page's script, the k6 scripts), actionlint the GitHub workflows, and kustomize with
    kubeconform the manifests of deploy/k8s/. While the stacks' rows run, the smoke benchmark's
    load generators and the Docker images are built ahead on CPU 1 at the lowest priority
    (.bench/logs/prefetch.log), and the smoke benchmark waits for them. Prints a pass/fail table and
    the time each phase took; exits 1 on any failure. Logs are in .bench/logs/.

    With --changed BASE, the stacks are those that the changes since BASE touch, committed or not
    (from where HEAD left BASE): a stack's directory, its compose.yaml service and its manifests
    touch it, a [variants.NAME] table of its impl.toml that variant alone; spec/, db/, the runner,
    ./bench, .ci/, .github/ and the rest of compose.yaml touch every stack; documentation (Markdown
    outside spec/, docs/, results/) none. The runner's own checks and tests run whatever changed.
    """
    from bench import manifest, phases, postgres
    from bench.testing import docker_path, pipeline, runner, table
    from bench.testing.changed import stacks_changed_since as changed_since
    from bench.testing.prefetch import Prefetch
    from bench.testing.smoke import SMOKE_STACK, run_smoke

    if changed is not None and impls:
        raise click.UsageError("name stacks or give --changed, not both")
    selected = changed_since(changed) if changed is not None else manifest.select(impls)
    # Compose builds a stack, never one of its variants, which differ only in the native run.
    docker_stacks = [s for s in selected if s.variant is None] if docker else []
    with Lock():
        with phases.timed("runner", "ruff and mypy"):
            own = runner.run_lint()
        with phases.timed("runner", "k8s checks"):
            runner.check_k8s(own)
        with phases.timed("runner", "eslint and actionlint"):
            runner.check_scripts(own)
        with postgres.session() as cluster:
            names = [s.name for s in selected]
            will_smoke = smoke and SMOKE_STACK in names
            prefetch = Prefetch(smoke=will_smoke, docker_stacks=docker_stacks).start()
            # A variant named on the command line is tested as itself; a stack, with its variants.
            rows = [one for stack in selected for one in (stack, *stack.variant_stacks())]
            results = pipeline.run_rows(rows, cluster)
            with phases.timed("every stack", "builds ahead, waited for"):
                prefetch.wait("the smoke benchmark and the Docker path")
            if will_smoke and all(r.ok for r in results if r.stack == SMOKE_STACK):
                smoke_stack = selected[names.index(SMOKE_STACK)]
                with phases.timed(smoke_stack.name, "smoke benchmark"):
                    results.append(run_smoke(smoke_stack, cluster))
            if docker_stacks:
                with phases.timed("every stack", "docker path"):
                    results += docker_path.run_docker_path(docker_stacks)
            with phases.timed("runner", "compose and Dockerfile checks"):
                results.append(docker_path.run_docker_checks(names if impls or changed is not None else None))
            with phases.timed("runner", "runner tests"):
                results.append(runner.run_runner_tests(own))
            table.print_table(results)
            console.print(phases.table(phases.recorded()))
            table.print_failures(results)
            passed = sum(r.passed for r in results)
            failed = sum(r.failed for r in results)
            # A plain closing line that CI reads: test cases of the conformance suite and the runner.
            console.print(f"tests: {passed} passed, {failed} failed")
            if not all(r.ok for r in results):
                sys.exit(1)


@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
@click.option(
    "--max-examples",
    type=click.IntRange(1, 10_000),
    default=100,
    show_default=True,
    help="Generated cases per operation and phase.",
)
@click.option("--seconds", type=click.IntRange(10, 7200), default=300, show_default=True, help="Time budget per stack.")
def fuzz(impls: tuple[str, ...], max_examples: int, seconds: int) -> None:
    """Fuzz stacks (all by default) with schemathesis, from their dialect's description.

    The description is spec/openapi.yaml, or spec/hal-openapi.yaml for a HAL stack.

    Each stack runs on a freshly reset database; every operation is sent generated valid and
    invalid requests (and create → get chains through the spec's links), bounded in examples
    and time. Any 5xx, any answer that breaks the spec (status, content type, body schema) and
    any request that hangs is a failure, printed with a curl command that reproduces it.
    Logs are in .bench/logs/fuzz/.
    """
    from bench import manifest, postgres
    from bench.testing import fuzzing, table

    selected = manifest.select(impls)
    with Lock(), postgres.session() as cluster:
        results = [
            fuzzing.run_fuzz(stack, cluster, max_examples=max_examples, seconds=seconds, verbose=True)
            for stack in selected
        ]
    table.print_table(results)
    table.print_failures(results)
    if not all(r.ok for r in results):
        sys.exit(1)
