"""`./bench run` and `./bench report`: the benchmark and its results.md."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

from bench import paths
from bench.cli.group import cli
from bench.console import console
from bench.errors import BenchError
from bench.lock import Lock

if TYPE_CHECKING:
    from bench.manifest import Stack
    from bench.records import FaultKind
    from bench.scenarios import Scenario


@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
@click.option(
    "--scenario",
    "scenario_names",
    multiple=True,
    metavar="S",
    help="read-heavy, join-filter, mixed, heavy-body, avatar or outbound (repeatable; all by default).",
)
@click.option(
    "--profile",
    type=click.Choice(["smoke", "quick", "full", "soak"]),
    default="quick",
    show_default=True,
    help="smoke: seconds, proves the pipeline, publishes nothing; quick: short stages; "
    "full: the original study's 10-minute stages with 60 s ramps; soak: the mixed "
    "scenario for 10 minutes at 50 VUs, failing a stack whose memory keeps growing.",
)
@click.option(
    "--mem-ladder",
    is_flag=True,
    help="Step the app's memory cap down (512, 256, 128, 64, 32 MiB) on the avatar and "
    "join-filter scenarios; record the smallest cap served without errors.",
)
@click.option(
    "--fault",
    type=click.Choice(["db-restart"]),
    help="db-restart: stop PostgreSQL a third into the mixed scenario's first stage and "
    "start it again; the stack must answer 503s, recover within 5 s, lose no write.",
)
@click.option(
    "--repeat",
    type=click.IntRange(1, 20),
    default=1,
    show_default=True,
    help="Runs per stack × scenario; results show the median with min–max.",
)
@click.option("--app-cpus", metavar="LIST", help="CPU set of the application (default 0).")
@click.option("--db-cpus", metavar="LIST", help="CPU set of PostgreSQL (default 1).")
@click.option("--loadgen-cpus", metavar="LIST", help="CPU set of k6/oha (default 1 on 2 cores, 2-N on more).")
@click.option("--yes", is_flag=True, help="Do not ask before a run estimated at over an hour.")
@click.option(
    "--estimate",
    "estimate_only",
    is_flag=True,
    help="Print the plan and how long it would take, then stop: nothing is built, started or measured.",
)
@click.option(
    "--no-ceilings",
    "ceilings",
    flag_value=False,
    default=True,
    help="Skip the database and HTTP ceilings (for comparing stacks or settings only).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Keep the records the output already has from this commit (same profile, stack or "
    "ceiling, scenario and run number; failed ones are run again) and run only the rest: a run "
    "cut short by Ctrl-C or a session's end goes on where it stopped. The tree must have no "
    "change outside results/.",
)
@click.option(
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write raw results and the report here instead of results/ (for experiments that "
    "are not to be published, such as comparing a stack's settings).",
)
@click.option(
    "--target",
    "target_url",
    metavar="URL",
    help="Measure a stack already running elsewhere (e.g. on Kubernetes, docs/kubernetes.md) at "
    "URL: nothing is built or started and its database is not reset; the load generator runs "
    "here on every CPU (or --loadgen-cpus). IMPL, if given, names it (its manifest's details "
    "and dialect); else it is recorded as 'target'. CPU, memory and SQL counts are recorded "
    "as not measured. Results go to .bench/results/target/ unless --output.",
)
def run(
    impls: tuple[str, ...],
    scenario_names: tuple[str, ...],
    profile: Literal["smoke", "quick", "full", "soak"],
    repeat: int,
    mem_ladder: bool,
    fault: FaultKind | None,
    app_cpus: str | None,
    db_cpus: str | None,
    loadgen_cpus: str | None,
    yes: bool,
    estimate_only: bool,
    ceilings: bool,
    resume: bool,
    output: Path | None,
    target_url: str | None,
) -> None:
    """Benchmark stacks (all by default) and write the raw results and results.md.

    A variant, STACK@VARIANT, is measured in the scenarios its stack's impl.toml lists for it, and
    in no other: with --scenario, in those of its own that are named.

    For each stack × run (repeat-major: every stack once, then again): start the stack in its
    cgroup (CPU set and memory cap from compose.yaml) and wait for /health; then for each
    scenario in turn on that one process: replace the database under it, bring it to steady
    state at a fixed rate (CPU per request settled, or the cap), run the fixed-rate ladder
    until the first rate it cannot hold, then the original study's closed-model stages, with
    k6 or oha on the load generator's CPUs; stop it after its last scenario (and start it
    again if it died). The soak, the memory ladder and a fault run start it per scenario.
    Per ladder step and stage it records rates, latency percentiles, errors by status, the
    app's, PostgreSQL's and the load generator's CPU (and the stock upstream's, which the outbound
    scenario's stacks call and the runner starts for it) and what bound it, peak memory, SQL
    statements per request and response bytes; after write scenarios, that no 2xx write was
    lost. The estimate printed first follows earlier runs of the same stacks. Raw JSON goes to
    results/raw/PROFILE/ (smoke runs to .bench/results/, never published) and results.md is
    rendered from it.

    With --target URL the stack runs elsewhere (docs/kubernetes.md): the same steady state
    (settled by p50 latency), ladder and stages from this machine's load generator, and the
    figures only the stack's machine could give (CPU, memory, SQL counts, lost writes)
    recorded as not measured.
    """
    from pydantic import TypeAdapter

    from bench import environment, manifest, measure, postgres, report, scenarios
    from bench.records import CpuList, CpuSplit

    if target_url is not None:
        _check_target_options(impls, profile, mem_ladder, fault, app_cpus, db_cpus)
    selected = manifest.select(impls) if target_url is None or impls else []
    unknown = [s for s in scenario_names if s not in scenarios.SCENARIOS]
    if unknown:
        raise BenchError(f"unknown scenario {', '.join(unknown)}: choose from {', '.join(scenarios.SCENARIOS)}")
    if profile == "soak" or fault:
        scenario_names = scenario_names or (scenarios.SOAK_SCENARIO,)
    elif mem_ladder:
        scenario_names = scenario_names or measure.LADDER_SCENARIOS
    chosen = _variants_scenarios(selected, [scenarios.SCENARIOS[s] for s in (scenario_names or scenarios.SCENARIOS)])
    default = measure.default_split(os.cpu_count() or 1)
    if target_url is not None:
        # Only the load generator runs here: it gets the whole machine.
        default = CpuSplit(app="0", postgres="0", loadgen=f"0-{(os.cpu_count() or 1) - 1}")
    cpus = {
        "app": app_cpus or default.app,
        "db": db_cpus or default.postgres,
        "loadgen": loadgen_cpus or default.loadgen,
    }
    for role, value in cpus.items():
        try:
            measure.cpu_count(value)
            TypeAdapter(CpuList).validate_python(value)
        except ValueError:  # pydantic's ValidationError too
            raise BenchError(f"--{role}-cpus {value!r} is not a CPU list like 0 or 2-3") from None
    split = CpuSplit(app=cpus["app"], postgres=cpus["db"], loadgen=cpus["loadgen"])
    if target_url is not None and output is None:
        output = paths.HOME / "results" / "target"
    where_to = paths.result_paths(profile, output)
    plan = measure.Plan(
        selected,
        chosen,
        profile,
        repeat,
        split,
        where_to.output,
        fault=fault,
        ceilings=ceilings and not (mem_ladder or fault or profile == "soak") and target_url is None,
    )
    if resume:
        if target_url is not None or mem_ladder or fault:
            raise BenchError("--resume goes on from a run of stacks here: not with --target, --mem-ladder or --fault")
        plan.kept = measure.kept_records(where_to.output / "raw" / profile, environment.git_commit())
        console.print(f"--resume: {len(plan.kept)} record(s) of this commit kept from an earlier run")
    plan.observed = measure.observed_runs(
        where_to.output / "raw" / profile,
        paths.result_paths(profile, None).output / "raw" / profile,
        *paths.EXPERIMENTS.glob(f"*/raw/{profile}"),
    )
    estimate = plan.estimate_seconds() * (len(measure.MEM_LADDER_MIB) if mem_ladder else 1)
    if target_url is not None:
        # One stack, whether named or not (an unnamed target has no manifest in plan.stacks).
        estimate = repeat * sum(scenarios.estimate_seconds(s, profile, open_model=plan.open_model) for s in chosen)
    jobs = sum(len(plan.stack_scenarios(stack.name)) for stack in selected)
    shape = f"{max(len(selected), 1 if target_url else 0)} stack(s) × {len(chosen)} scenario(s)"
    if jobs != len(selected) * len(chosen):
        shape = f"{len(selected)} stack(s), {jobs} stack × scenario job(s) (a variant in its own scenarios only)"
    console.print(
        f"{shape} × {repeat} run(s), "
        f"profile {profile}: "
        f"about {estimate / 60:.0f} min"
        + (f" (following {len(plan.observed)} earlier run(s))" if plan.observed else "")
    )
    if estimate_only:
        return
    if estimate > 3600 and not yes and sys.stdin.isatty():
        click.confirm("That is over an hour. Go on?", abort=True)
    with contextlib.ExitStack() as held:
        # A --target run uses neither the local cluster nor cgroups, and its logs are named apart:
        # it may run beside `./bench serve` (the usual way to try it) without the state's lock.
        cluster = None
        if target_url is None:
            held.enter_context(Lock())
            cluster = held.enter_context(postgres.session())
        started = time.monotonic()
        if cluster is None:
            info = measure.stack_info(selected[0]) if selected else measure.unnamed_target(target_url or "")
            results = measure.execute_target(plan, (target_url or "").rstrip("/"), info)
        else:
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
        took = time.monotonic() - started
        console.print(f"done in {took / 60:.1f} min (estimated {estimate / 60:.1f}): {verdict.summary}; report {where}")
        for problem in verdict.problems:
            console.print(f"  [red]{problem}[/]")
        if verdict.problems:
            sys.exit(1)


def _variants_scenarios(selected: list[Stack], chosen: list[Scenario]) -> list[Scenario]:
    """The scenarios chosen that some selected stack is measured in (a variant only in those its
    impl.toml lists), so that no ceiling is measured for a scenario no stack runs; a variant
    named with none of its scenarios is an error that names them."""
    from bench.measure.plan import measured_in

    theirs = {stack.name: measured_in(stack) for stack in selected}
    names = [s.name for s in chosen]
    for name, scenario_names in theirs.items():
        if scenario_names is not None and not set(scenario_names) & set(names):
            raise BenchError(
                f"{name} is measured in {', '.join(scenario_names)} only (its stack's impl.toml, [variants]); "
                f"this run's scenarios are {', '.join(names)}: name one of its own with --scenario"
            )
    if not selected:
        return chosen
    return [s for s in chosen if any(found is None or s.name in found for found in theirs.values())]


def _check_target_options(
    impls: tuple[str, ...],
    profile: str,
    mem_ladder: bool,
    fault: str | None,
    app_cpus: str | None,
    db_cpus: str | None,
) -> None:
    """What --target cannot do: it reaches the stack over HTTP only."""
    if len(impls) > 1:
        raise BenchError("--target measures one stack: name it with at most one IMPL")
    if mem_ladder or fault or profile == "soak":
        what = "--mem-ladder" if mem_ladder else "--fault" if fault else "--profile soak"
        raise BenchError(f"{what} needs the stack's memory or its database here; --target reaches it over HTTP only")
    if app_cpus or db_cpus:
        raise BenchError("--app-cpus and --db-cpus place processes of this machine; with --target they run elsewhere")


@cli.command("report")
@click.option(
    "--profile",
    type=click.Choice(["smoke", "quick", "full"]),
    default="quick",
    show_default=True,
    help="Which profile's raw results to render (memory-ladder, soak and fault results are added as sections).",
)
def report_command(profile: str) -> None:
    """Render results.md and its charts from the raw JSON files (never edit results.md by hand).

    Reads results/raw/PROFILE/*.json (smoke: .bench/results/raw/smoke/) and the hand-written
    results/analysis.md, which is placed above the generated tables. Writes the results page
    from the same files beside results.md: results/site/index.html, which opens from disk.
    """
    from bench import report
    from bench.report.site import write_site

    where_to = paths.result_paths(profile)
    report.render(where_to.output / "raw" / profile, where_to.target, where_to.output, analysis=where_to.analysis)
    console.print(f"wrote {where_to.target}")
    console.print(f"wrote {write_site(where_to.output / 'raw' / profile, where_to.output / 'site')}")
