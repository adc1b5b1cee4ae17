"""Command line of the runner: `./bench --help`."""

from __future__ import annotations

import fcntl
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console

from bench import paths, procs
from bench.errors import BenchError

# A log (CI) is not a terminal: rich would wrap tables at 80 columns.
console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False)


@dataclass(frozen=True)
class ResultPaths:
    output: Path  # raw/ and the charts
    target: Path  # results.md
    analysis: Path | None  # the hand-written text placed above the tables


def result_paths(profile: str, output: Path | None = None) -> ResultPaths:
    """Published profiles write results/ and results.md; smoke runs (.bench/results/) and
    experiments (--output) are never published, and carry no analysis."""
    if profile != "smoke" and output is None:
        return ResultPaths(paths.ROOT / "results", paths.ROOT / "results.md", paths.ROOT / "results" / "analysis.md")
    directory = output.resolve() if output else paths.HOME / "results"
    return ResultPaths(directory, directory / "results.md", None)


class Lock:
    """One runner at a time per state directory: two would fight over the cluster and ports."""

    def __init__(self) -> None:
        paths.ensure_dirs()
        self.file = open(paths.HOME / "lock", "a+")

    def __enter__(self):
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.file.seek(0)
            holder = self.file.read().strip() or "?"
            raise BenchError(f"another ./bench is already running (pid {holder}) with state in {paths.HOME}: "
                             "wait for it to finish, or set BENCH_HOME to use a separate state directory")
        self.file.seek(0)
        self.file.truncate()
        self.file.write(str(os.getpid()))
        self.file.flush()
        return self

    def __exit__(self, *exc):
        self.file.seek(0)
        self.file.truncate()
        fcntl.flock(self.file, fcntl.LOCK_UN)
        self.file.close()


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
def cli() -> None:
    """Build, test, serve and benchmark the stacks of this repository.

    Every stack is a top-level directory with an impl.toml. The runner keeps its state
    (a private PostgreSQL cluster, its Python environment, the load generators and logs) in
    .bench/ (or $BENCH_HOME) and installs what it needs on first use.

    \b
    Start here:
      ./bench test            build and test every stack (what CI runs)
      ./bench serve go-gin    one stack on a freshly seeded database, until Ctrl-C
    """


# -- setup -------------------------------------------------------------------------------------

@cli.command()
@click.option("--no-tools", is_flag=True, help="Skip building the load generators (oha, k6).")
def setup(no_tools: bool) -> None:
    """Install what the repository needs, skipping what is already there.

    PostgreSQL's server binaries (from Debian's packages when absent), every stack's
    toolchain check and dependency download, and the pinned load generators oha and k6
    (built from their registries into .bench/bin). Every other command does the part it
    needs by itself, so this is only a way to do it all ahead of time.
    """
    from bench import manifest, postgres, stacks, tools

    with Lock():
        with console.status("PostgreSQL"):
            bindir = postgres.ensure_installed()
        console.print(f"PostgreSQL {postgres.server_version(bindir)}: {bindir}")
        for stack in manifest.discover():
            with console.status(f"{stack.name}: toolchain and dependencies"):
                stacks.check_toolchain(stack)
                if stack.fetch_command:
                    log = paths.LOGS / f"{stack.name}-fetch.log"
                    code = procs.run(stack.fetch_command, cwd=stack.directory, env=stack.environment(), log=log)
                    if code != 0:
                        raise BenchError(f"{stack.name}: downloading dependencies failed; see {log}\n"
                                         f"{procs.tail(log, 10)}")
            console.print(f"{stack.name}: toolchain ready")
        if not no_tools:
            for tool in tools.TOOLS:
                with console.status(f"{tool.name} {tool.version}") as status:
                    path = tools.ensure(tool, on_progress=status.update)
                console.print(f"{tool.name} {tool.version}: {path}")


# -- db ----------------------------------------------------------------------------------------

@cli.group()
def db() -> None:
    """The runner's private PostgreSQL cluster (never the system's).

    It lives in .bench/postgres, listens on 127.0.0.1:$BENCH_PG_PORT (default 54329) and
    holds the seeded template database `bench_template` and the working database `bench`
    (user bench, password bench).
    """


@db.command("start")
def db_start() -> None:
    """Create the cluster if needed, start it, seed the template and reset `bench`."""
    from bench import postgres

    with Lock():
        with console.status("starting PostgreSQL"):
            cluster = postgres.ready_cluster()
            cluster.reset()
        console.print(f"PostgreSQL running: DATABASE_URL={cluster.url()}")


@db.command("stop")
def db_stop() -> None:
    """Stop the cluster (its data stays)."""
    from bench import postgres

    with Lock():
        cluster = postgres.cluster()
        was_running = cluster.running()
        cluster.stop()
        console.print("PostgreSQL stopped" if was_running else "PostgreSQL was not running")


@db.command("reset")
def db_reset() -> None:
    """Replace `bench` with a fresh copy of the seeded template (starts the cluster if needed)."""
    from bench import postgres

    with Lock():
        cluster = postgres.ready_cluster()
        started = time.monotonic()
        cluster.reset()
        console.print(f"database reset to the seed in {time.monotonic() - started:.2f} s: "
                      f"DATABASE_URL={cluster.url()}")


@db.command("status")
def db_status() -> None:
    """Say whether the cluster runs, where, and what it holds."""
    from bench import postgres

    cluster = postgres.cluster()
    if not cluster.initialised():
        console.print(f"no cluster yet (it will live in {cluster.data}); `./bench db start` creates it")
        return
    if not cluster.running():
        console.print(f"stopped; data in {cluster.data}")
        return
    console.print(f"running on 127.0.0.1:{cluster.port}, data in {cluster.data}")
    console.print(f"databases: {', '.join(cluster.databases())}")
    console.print(f"DATABASE_URL={cluster.url()}")


# -- build / serve / test ----------------------------------------------------------------------

@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
@click.option("--force", is_flag=True, help="Build even when nothing changed.")
def build(impls: tuple[str, ...], force: bool) -> None:
    """Build stacks (all by default) from their impl.toml, skipping those that are up to date.

    A stack is up to date when none of its files that git would track changed since its
    last successful build and its artifact exists.
    """
    from bench import manifest, stacks

    selected = manifest.select(impls)
    with Lock():
        for stack in selected:
            with console.status(f"building {stack.name}"):
                started = time.monotonic()
                built = stacks.build(stack, force=force)
            console.print(f"{stack.name}: " + (f"built in {time.monotonic() - started:.0f} s" if built
                                                else "up to date"))


@cli.command()
@click.argument("impl", metavar="IMPL")
@click.option("--port", type=click.IntRange(1, 65535), default=8080, show_default=True,
              help="Port the stack listens on (127.0.0.1).")
def serve(impl: str, port: int) -> None:
    """Run one stack on a freshly seeded database until Ctrl-C.

    Builds it if needed, resets the database, starts the stack with the same environment
    the benchmark uses, prints its base URL, and stops everything it started on Ctrl-C.
    """
    from bench import manifest, postgres, stacks

    (stack,) = manifest.select([impl])
    with Lock():
        with console.status(f"building {stack.name}"):
            stacks.build(stack)
        with postgres.session() as cluster:
            cluster.reset()
            serve_until_interrupted(stack, cluster, port)


def serve_until_interrupted(stack, cluster, port: int) -> None:
    from bench import stacks

    with console.status(f"starting {stack.name}"):
        running = stacks.start(stack, port=port, database_url=cluster.url())
    console.print(f"{stack.display} is serving at [bold]{running.base_url}[/] "
                  f"(healthy after {running.startup_s:.1f} s; log {running.log})")
    console.print(f"DATABASE_URL={cluster.url()}  ·  Ctrl-C stops it")
    try:
        running.proc.wait()
        raise BenchError(f"{stack.name} exited with code {running.proc.returncode}; "
                         f"log {running.log}:\n{procs.tail(running.log, 20)}")
    except KeyboardInterrupt:
        console.print(f"\nstopping {stack.name}")
    finally:
        running.stop()


@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
@click.option("--no-smoke", "smoke", flag_value=False, default=True,
              help="Skip the smoke benchmark of go-gin (every scenario, a few seconds each).")
def test(impls: tuple[str, ...], smoke: bool) -> None:
    """Build and test stacks (all by default), then the runner itself.

    For each stack: build it, run its own tests against a freshly reset database, then start
    it and run the conformance suite of spec/ against it on another fresh database, including
    the resilience cases that stop and restart PostgreSQL, check that SIGTERM ends it
    cleanly, and fuzz it briefly with schemathesis (`./bench fuzz` goes further). Then `./bench run go-gin --profile smoke` with its raw JSON checked against the
    schema, the checks of compose.yaml and the Dockerfiles (when testing all stacks), and the
    runner's own tests. Prints a pass/fail table; exits 1 on any failure. Logs are in
    .bench/logs/.
    """
    from bench import manifest, postgres, testing

    selected = manifest.select(impls)
    with Lock(), postgres.session() as cluster:
        results = [testing.run_stack(stack, cluster) for stack in selected]
        names = [s.name for s in selected]
        if smoke and testing.SMOKE_STACK in names and all(r.ok for r in results
                                                          if r.stack == testing.SMOKE_STACK):
            smoke_stack = selected[names.index(testing.SMOKE_STACK)]
            results.append(testing.run_smoke(smoke_stack, cluster))
        if not impls:
            results.append(testing.run_docker_checks())
        results.append(testing.run_runner_tests())
        testing.print_table(results)
        passed = sum(r.passed for r in results)
        failed = sum(r.failed for r in results)
        # A plain closing line that CI reads: test cases of the conformance suite and the runner.
        console.print(f"tests: {passed} passed, {failed} failed")
        if not all(r.ok for r in results):
            sys.exit(1)


@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
@click.option("--scenario", "scenario_names", multiple=True, metavar="S",
              help="read-heavy, join-filter, mixed, heavy-body or avatar (repeatable; all by default).")
@click.option("--profile", type=click.Choice(["smoke", "quick", "full", "soak"]), default="quick",
              show_default=True,
              help="smoke: seconds, proves the pipeline, publishes nothing; quick: short stages; "
                   "full: the original study's 10-minute stages with 60 s ramps; soak: the mixed "
                   "scenario for 10 minutes at 50 VUs, failing a stack whose memory keeps growing.")
@click.option("--mem-ladder", is_flag=True,
              help="Step the app's memory cap down (512, 256, 128, 64, 32 MiB) on the avatar and "
                   "join-filter scenarios; record the smallest cap served without errors.")
@click.option("--fault", type=click.Choice(["db-restart"]),
              help="db-restart: stop PostgreSQL a third into the mixed scenario's first stage and "
                   "start it again; the stack must answer 503s, recover within 5 s, lose no write.")
@click.option("--repeat", type=click.IntRange(1, 20), default=1, show_default=True,
              help="Runs per stack × scenario; results show the median with min–max.")
@click.option("--app-cpus", metavar="LIST", help="CPU set of the application (default 0).")
@click.option("--db-cpus", metavar="LIST", help="CPU set of PostgreSQL (default 1).")
@click.option("--loadgen-cpus", metavar="LIST", help="CPU set of k6/oha (default 1 on 2 cores, 2-N on more).")
@click.option("--yes", is_flag=True, help="Do not ask before a run estimated at over an hour.")
@click.option("--no-ceilings", "ceilings", flag_value=False, default=True,
              help="Skip the database and HTTP ceilings (for comparing stacks or settings only).")
@click.option("--output", type=click.Path(file_okay=False, path_type=Path),
              help="Write raw results and the report here instead of results/ (for experiments that "
                   "are not to be published, such as comparing a stack's settings).")
def run(impls, scenario_names, profile, repeat, mem_ladder, fault, app_cpus, db_cpus, loadgen_cpus, yes, ceilings,
        output):
    """Benchmark stacks (all by default) and write the raw results and results.md.

    For each stack × scenario × run: reset the database, start the stack in its cgroup
    (CPU set and memory cap from compose.yaml), wait for /health, warm up (not counted),
    run each stage with k6 or oha on the load generator's CPUs, and stop the stack.
    Per stage it records requests/s, latency percentiles, errors by status, app CPU per
    request, peak memory, SQL statements per request and response bytes; after write
    scenarios, that no 2xx write was lost. Raw JSON goes to results/raw/PROFILE/ (smoke runs
    to .bench/results/, never published) and results.md is rendered from it.
    """
    from bench import manifest, measure, postgres, report, scenarios

    selected = manifest.select(impls)
    unknown = [s for s in scenario_names if s not in scenarios.SCENARIOS]
    if unknown:
        raise BenchError(f"unknown scenario {', '.join(unknown)}: choose from {', '.join(scenarios.SCENARIOS)}")
    if profile == "soak" or fault:
        scenario_names = scenario_names or (scenarios.SOAK_SCENARIO,)
    elif mem_ladder:
        scenario_names = scenario_names or measure.LADDER_SCENARIOS
    chosen = [scenarios.SCENARIOS[s] for s in (scenario_names or scenarios.SCENARIOS)]
    split = measure.CpuSplit.default(os.cpu_count() or 1)
    split = measure.CpuSplit(app=app_cpus or split.app, postgres=db_cpus or split.postgres,
                             loadgen=loadgen_cpus or split.loadgen)
    for role, cpus in vars(split).items():
        try:
            measure.cpu_count(cpus)
        except ValueError:
            raise BenchError(f"--{role}-cpus {cpus!r} is not a CPU list like 0 or 2-3") from None
    where_to = result_paths(profile, output)
    plan = measure.Plan(selected, chosen, profile, repeat, split, where_to.output, fault=fault,
                        ceilings=ceilings and not (mem_ladder or fault or profile == "soak"))
    estimate = plan.estimate_seconds() * (len(measure.MEM_LADDER_MIB) if mem_ladder else 1)
    console.print(f"{len(selected)} stack(s) × {len(chosen)} scenario(s) × {repeat} run(s), profile {profile}: "
                  f"about {estimate / 60:.0f} min")
    if estimate > 3600 and not yes and sys.stdin.isatty():
        click.confirm("That is over an hour. Go on?", abort=True)
    with Lock(), postgres.session() as cluster:
        started = time.monotonic()
        results = (measure.execute_ladder if mem_ladder else measure.execute)(plan, cluster)
        # results.md is the quick (or full) profile's; ladder, soak and fault runs add sections to it.
        main_profile = profile if profile in ("smoke", "quick", "full") else "quick"
        raw = where_to.output / "raw" / main_profile
        target = where_to.target
        if any(raw.glob("*.json")):
            report.render(raw, target, where_to.output, analysis=where_to.analysis)
        else:
            target = raw.parent
            console.print(f"results.md is rendered once a {main_profile} run exists; raw results are in {target}")
        verdict = measure.verdict(results, ladder=mem_ladder)
        where = target.relative_to(paths.ROOT) if target.is_relative_to(paths.ROOT) else target
        console.print(f"done in {(time.monotonic() - started) / 60:.1f} min: {verdict.summary}; report {where}")
        for problem in verdict.problems:
            console.print(f"  [red]{problem}[/]")
        if verdict.problems:
            sys.exit(1)


@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
@click.option("--max-examples", type=click.IntRange(1, 10_000), default=100, show_default=True,
              help="Generated cases per operation and phase.")
@click.option("--seconds", type=click.IntRange(10, 7200), default=300, show_default=True,
              help="Time budget per stack.")
def fuzz(impls: tuple[str, ...], max_examples: int, seconds: int) -> None:
    """Fuzz stacks (all by default) with schemathesis, generated from spec/openapi.yaml.

    Each stack runs on a freshly reset database; every operation is sent generated valid and
    invalid requests (and create → get chains through the spec's links), bounded in examples
    and time. Any 5xx, any answer that breaks the spec (status, content type, body schema) and
    any request that hangs is a failure, printed with a curl command that reproduces it.
    Logs are in .bench/logs/fuzz/.
    """
    from bench import manifest, postgres, testing

    selected = manifest.select(impls)
    with Lock(), postgres.session() as cluster:
        results = [testing.run_fuzz(stack, cluster, max_examples=max_examples, seconds=seconds, verbose=True)
                   for stack in selected]
    testing.print_table(results)
    if not all(r.ok for r in results):
        sys.exit(1)


@cli.command("report")
@click.option("--profile", type=click.Choice(["smoke", "quick", "full"]), default="quick", show_default=True,
              help="Which profile's raw results to render (memory-ladder, soak and fault results are "
                   "added as sections).")
def report_command(profile):
    """Render results.md and its charts from the raw JSON files (never edit results.md by hand).

    Reads results/raw/PROFILE/*.json (smoke: .bench/results/raw/smoke/) and the hand-written
    results/analysis.md, which is placed above the generated tables.
    """
    from bench import report

    where_to = result_paths(profile)
    report.render(where_to.output / "raw" / profile, where_to.target, where_to.output,
                  analysis=where_to.analysis)
    console.print(f"wrote {where_to.target}")


def main() -> None:
    procs.install_handlers()
    try:
        cli.main(prog_name="./bench", standalone_mode=False)
    except click.exceptions.Abort:
        err.print("bench: interrupted")
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except BenchError as error:
        err.print(f"bench: {error}", markup=False)
        sys.exit(1)
    except KeyboardInterrupt:
        err.print("bench: interrupted; everything it started is stopped")
        sys.exit(130)
    finally:
        procs.stop_all()
