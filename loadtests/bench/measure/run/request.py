"""`./bench run`'s options made into a plan: the stacks and scenarios, the CPU sets, where the
results go, what earlier runs from the same inputs leave to do and how long the rest should take;
then the plan carried out, here or against a stack that runs elsewhere (--target).
bench.cli.benchmark parses the options and prints."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter

from bench import compose_file, manifest, paths, postgres, scenarios, tools
from bench.errors import BenchError
from bench.lock import Lock
from bench.manifest import Stack
from bench.measure.host import environment
from bench.measure.plan import inputs
from bench.measure.plan.estimate import estimate_seconds
from bench.measure.plan.plan import (
    LADDER_SCENARIOS,
    Plan,
    Today,
    cpu_count,
    default_split,
    kept_records,
    ladder_rungs,
    measured_in,
    observed_runs,
    whole_blocks,
)
from bench.measure.run.orchestrate import execute, execute_ladder
from bench.measure.run.stack_run import stack_info
from bench.measure.run.target_run import execute_target, unnamed_target
from bench.postgres import Cluster
from bench.profiles import SOAK_SCENARIO
from bench.records import Caps, CpuList, CpuSplit, FaultKind, Profile, RawResult
from bench.scenarios import Scenario


@dataclass(frozen=True)
class RunRequest:
    """What `./bench run` is asked for, option by option."""

    impls: tuple[str, ...] = ()
    scenario_names: tuple[str, ...] = ()
    profile: Profile = "quick"
    repeat: int = 1
    mem_ladder: bool = False
    fault: FaultKind | None = None
    app_cpus: str | None = None
    db_cpus: str | None = None
    loadgen_cpus: str | None = None
    ceilings: bool = True
    variants: bool = False
    resume: bool = False
    output: Path | None = None
    target_url: str | None = None


@dataclass
class PlannedRun:
    """A request made into a plan, with where its results go and how long it should take."""

    plan: Plan
    where_to: paths.ResultPaths
    estimate_s: float
    mem_ladder: bool
    target_url: str | None  # a stack that runs elsewhere: only the load generator runs here

    @property
    def stack_count(self) -> int:
        """A target is one stack, whether it is named after one of the repository's or not."""
        return max(len(self.plan.stacks), 1 if self.target_url else 0)

    @property
    def shape(self) -> str:
        """How many stacks and scenarios, as the estimate's line says it."""
        plan = self.plan
        jobs = sum(len(plan.stack_scenarios(getattr(stack, "name", ""))) for stack in plan.stacks)
        if plan.stacks and jobs != len(plan.stacks) * len(plan.scenarios):
            return f"{len(plan.stacks)} stack(s), {jobs} stack × scenario job(s) (a variant in its own scenarios only)"
        return f"{self.stack_count} stack(s) × {len(plan.scenarios)} scenario(s)"

    @contextlib.contextmanager
    def held(self) -> Iterator[Cluster | None]:
        """The state's lock and the runner's cluster while stacks are measured here. A --target
        run uses neither the local cluster nor cgroups, and its logs are named apart: it may run
        beside `./bench serve` (the usual way to try it) without the state's lock."""
        if self.target_url is not None:
            yield None
            return
        with Lock(), postgres.session() as cluster:
            yield cluster

    def execute(self, cluster: Cluster | None) -> list[RawResult]:
        """Every job of the plan: against the target, or here on `cluster` (held's)."""
        if self.target_url is not None:
            info = stack_info(self.plan.stacks[0]) if self.plan.stacks else unnamed_target(self.target_url)
            return execute_target(self.plan, self.target_url.rstrip("/"), info)
        if cluster is None:
            raise ValueError("stacks measured here need the runner's cluster: execute within held()")
        return (execute_ladder if self.mem_ladder else execute)(self.plan, cluster)


def plan_run(request: RunRequest) -> PlannedRun:
    """The plan of `request`, its defaults filled in; BenchError says which option cannot be."""
    target = request.target_url
    if target is not None:
        _check_target_options(request)
    selected = manifest.select(request.impls) if target is None or request.impls else []
    asked = _scenarios(request)
    if request.variants:
        if target is not None:
            raise BenchError("--variants starts each variant here; --target measures a stack that runs elsewhere")
        selected = [row for stack in selected for row in (stack, *_variants_in(stack, asked))]
    chosen = _variants_scenarios(selected, asked)
    split = _cpu_split(request)
    output = request.output
    if target is not None and output is None:
        output = paths.HOME / "results" / "target"
    where_to = paths.result_paths(request.profile, output)
    ceilings = request.ceilings and not (request.mem_ladder or request.fault or request.profile == "soak")
    plan = Plan(
        selected,
        chosen,
        request.profile,
        request.repeat,
        split,
        where_to.output,
        fault=request.fault,
        ceilings=ceilings and target is None,
    )
    # Taken before anything is built: a build writes only what the stacks' .gitignore ignores.
    plan.inputs = inputs.today(selected)
    if request.resume:
        if target is not None or request.mem_ladder or request.fault:
            raise BenchError("--resume goes on from a run of stacks here: not with --target, --mem-ladder or --fault")
        plan.kept = whole_blocks(plan, kept_records(where_to.output / "raw" / request.profile, _today(plan)))
    published = paths.result_paths(request.profile, None).output
    plan.observed = observed_runs(
        where_to.output / "raw" / request.profile,
        published / "raw" / request.profile,
        *paths.EXPERIMENTS.glob(f"*/raw/{request.profile}"),
    )
    if target is None:
        if request.mem_ladder:
            ladders = f"raw/{request.profile}-mem-ladder"
            estimate = plan.ladder_estimate_seconds(ladder_rungs(where_to.output / ladders, published / ladders))
        else:
            estimate = plan.estimate_seconds()
    else:
        # One stack, whether named or not (an unnamed target has no manifest in plan.stacks).
        estimate = request.repeat * sum(
            estimate_seconds(s, request.profile, open_model=plan.open_model) for s in chosen
        )
    return PlannedRun(plan, where_to, estimate, request.mem_ladder, target)


def _today(plan: Plan) -> Today:
    """What a record must share with this run to be kept; BenchError where records measured now
    would not name a commit that holds what measured them."""
    commit = environment.git_commit(inputs.measured_pathspecs(plan.stacks))
    if commit is None or plan.inputs is None:
        raise BenchError(
            "--resume keeps records by the commit and inputs they were measured at: this is not a git checkout"
        )
    changed = inputs.uncommitted(plan.stacks)
    if changed:
        shown = ", ".join(changed[:8]) + (f" and {len(changed) - 8} more" if len(changed) > 8 else "")
        raise BenchError(
            f"--resume: what this run measures has uncommitted changes ({shown}); the records would name "
            "a commit that does not hold them: commit or stash them first (docs, the report and the page may change)"
        )
    built = {tool.name: tool.cached for tool in tools.TOOLS if tool.cached.exists()}
    return Today(
        profile=plan.profile,
        split=plan.split,
        caps=Caps.model_validate(compose_file.caps(paths.ROOT)),
        versions=environment.tool_versions(postgres.find_bindir(), built),
        inputs=plan.inputs,
        commit=commit,
    )


def _scenarios(request: RunRequest) -> list[Scenario]:
    unknown = [s for s in request.scenario_names if s not in scenarios.SCENARIOS]
    if unknown:
        raise BenchError(f"unknown scenario {', '.join(unknown)}: choose from {', '.join(scenarios.SCENARIOS)}")
    names = request.scenario_names
    if request.profile == "soak" or request.fault:
        names = names or (SOAK_SCENARIO,)
    elif request.mem_ladder:
        names = names or LADDER_SCENARIOS
    return [scenarios.SCENARIOS[s] for s in (names or scenarios.SCENARIOS)]


def _variants_in(stack: Stack, asked: list[Scenario]) -> list[Stack]:
    """A stack's variants measured in any of the scenarios asked for (none for a variant)."""
    names = {s.name for s in asked}
    if stack.variant:
        return []
    return [v for v in stack.variant_stacks() if names & set(v.variant_scenarios or ())]


def _variants_scenarios(selected: list[Stack], chosen: list[Scenario]) -> list[Scenario]:
    """The scenarios chosen that some selected stack is measured in (a variant only in those its
    impl.toml lists), so that no ceiling is measured for a scenario no stack runs; a variant
    named with none of its scenarios is an error that names them."""
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


def _cpu_split(request: RunRequest) -> CpuSplit:
    default = default_split(os.cpu_count() or 1)
    if request.target_url is not None:
        # Only the load generator runs here: it gets the whole machine.
        default = CpuSplit(app="0", postgres="0", loadgen=f"0-{(os.cpu_count() or 1) - 1}")
    cpus = {
        "app": request.app_cpus or default.app,
        "db": request.db_cpus or default.postgres,
        "loadgen": request.loadgen_cpus or default.loadgen,
    }
    for role, value in cpus.items():
        try:
            cpu_count(value)
            TypeAdapter(CpuList).validate_python(value)
        except ValueError:  # pydantic's ValidationError too
            raise BenchError(f"--{role}-cpus {value!r} is not a CPU list like 0 or 2-3") from None
    return CpuSplit(app=cpus["app"], postgres=cpus["db"], loadgen=cpus["loadgen"])


def _check_target_options(request: RunRequest) -> None:
    """What --target cannot do: it reaches the stack over HTTP only."""
    if len(request.impls) > 1:
        raise BenchError("--target measures one stack: name it with at most one IMPL")
    if request.mem_ladder or request.fault or request.profile == "soak":
        what = "--mem-ladder" if request.mem_ladder else "--fault" if request.fault else "--profile soak"
        raise BenchError(f"{what} needs the stack's memory or its database here; --target reaches it over HTTP only")
    if request.app_cpus or request.db_cpus:
        raise BenchError("--app-cpus and --db-cpus place processes of this machine; with --target they run elsewhere")
