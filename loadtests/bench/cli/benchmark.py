"""`./bench run` and `./bench report`: the benchmark and its results.md."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

from bench import paths
from bench.cli.group import cli
from bench.console import console
from bench.scenarios import SCENARIOS

if TYPE_CHECKING:
    from bench.manifest import Stack
    from bench.records import FaultKind


@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
@click.option(
    "--scenario",
    "scenario_names",
    multiple=True,
    metavar="S",
    help=f"{', '.join(list(SCENARIOS)[:-1])} or {list(SCENARIOS)[-1]} (repeatable; all by default).",
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
@click.option(
    "--loadgen-cpus", metavar="LIST", help="CPU set of the load generator (default 1 on 2 cores, 2-N on more)."
)
@click.option("--yes", is_flag=True, help="Do not ask before a run estimated at over an hour.")
@click.option(
    "--estimate",
    "estimate_only",
    is_flag=True,
    help="Print the plan and how long it would take, then stop: nothing is built, started or measured.",
)
@click.option(
    "--variants",
    "with_variants",
    is_flag=True,
    help="Each stack named (all by default) followed by its variants (its impl.toml's [variants]), "
    "each in its own scenarios: a publication's rows in one command.",
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
    help="Keep the records the output already has whose inputs are today's (same stack or "
    "ceiling, scenario and run number, method, profile, CPU split, caps and tool versions; the "
    "same runner code, db/, spec/ (not its test suites), compose.yaml and stack sources; failed "
    "ones are run again) and run only the rest: a run cut short by Ctrl-C or a session's end goes "
    "on where it stopped, even after commits to docs or the report. A block (one scenario × one run: its ceiling and "
    "every stack in it) is kept only whole and from one machine, else measured again whole. "
    "What the run measures must have no uncommitted change.",
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
    with_variants: bool,
    ceilings: bool,
    resume: bool,
    output: Path | None,
    target_url: str | None,
) -> None:
    """Benchmark stacks (all by default) and write the raw results and results.md.

    A variant, STACK@VARIANT, is measured in the scenarios its stack's impl.toml lists for it, and
    in no other: with --scenario, in those of its own that are named.

    Block by block (one scenario × one run: its database ceiling, then every stack measured in
    it; run 1's scenarios, then run 2's), each stack on a
    fresh process of the stack (method v4; docs/method.md, "One run, step by step"): replace
    the database, start the stack in its cgroup (CPU set and memory cap from compose.yaml) and
    wait for /health; in join-filter and the avatar, measure its first minute; bring it to
    steady state at a fixed rate (CPU per request settled and, for a JVM, its JIT quiet, or the
    cap), run the fixed-rate ladder until the first rate it cannot hold (oha, or vegeta for the
    write scenarios), then the original study's closed-model stages (k6, or oha), on the load
    generator's CPUs; stop it.
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
    from bench import measure, report
    from bench.judgement.verdict import verdict

    planned = measure.plan_run(
        measure.RunRequest(
            impls=impls,
            scenario_names=scenario_names,
            profile=profile,
            repeat=repeat,
            mem_ladder=mem_ladder,
            fault=fault,
            app_cpus=app_cpus,
            db_cpus=db_cpus,
            loadgen_cpus=loadgen_cpus,
            ceilings=ceilings,
            variants=with_variants,
            resume=resume,
            output=output,
            target_url=target_url,
        )
    )
    plan, where_to, estimate = planned.plan, planned.where_to, planned.estimate_s
    if resume:
        console.print(f"--resume: {len(plan.kept)} record(s) of earlier runs kept, measured from today's inputs")
    console.print(
        f"{planned.shape} × {repeat} run(s), "
        f"profile {profile}: "
        f"about {estimate / 60:.0f} min"
        + (f" (following {len(plan.observed)} earlier run(s))" if plan.observed else "")
    )
    if estimate_only:
        return
    if estimate > 3600 and not yes and sys.stdin.isatty():
        click.confirm("That is over an hour. Go on?", abort=True)
    with planned.held() as cluster:
        started = time.monotonic()
        if target_url is None:
            _train(plan.stacks)
        results = planned.execute(cluster)
        # results.md is the quick (or full) profile's; ladder, soak and fault runs add sections to it.
        main_profile = profile if profile in ("smoke", "quick", "full") else "quick"
        raw = where_to.output / "raw" / main_profile
        target = where_to.target
        if any(raw.glob("*.json")):
            report.render(raw, target, where_to.output, analysis=where_to.analysis)
        else:
            target = raw.parent
            console.print(f"results.md is rendered once a {main_profile} run exists; raw results are in {target}")
        judged = verdict(results, ladder=mem_ladder)
        where = target.relative_to(paths.ROOT) if target.is_relative_to(paths.ROOT) else target
        took = time.monotonic() - started
        console.print(f"done in {took / 60:.1f} min (estimated {estimate / 60:.1f}): {judged.summary}; report {where}")
        for problem in judged.problems:
            console.print(f"  [red]{problem}[/]")
        if judged.problems:
            sys.exit(1)


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


def _train(stacks: list[Stack]) -> None:
    """Variants that train are built and trained before the plan runs (bench.training)."""
    from bench import training

    for stack in stacks:
        if stack.training is not None:
            with console.status(f"building and training {stack.name}"):
                if training.build(stack):
                    console.print(f"{stack.name}: {training.summary(stack)}")
