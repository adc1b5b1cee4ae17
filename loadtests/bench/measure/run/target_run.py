"""`./bench run --target URL`: a stack that runs elsewhere (on Kubernetes, another machine),
measured by the load generator on this machine.

The runner neither builds nor starts the stack, and does not reset its database: it cannot
reach it. It runs the same steady state (settled by p50 latency: bench.measure.phases.steady),
ladder and stages as a local run, with oha, vegeta and k6 pinned to the load generator's CPUs
(the rows a write step deletes are made through the stack's API, as locally). What only the
stack's machine can see (NOT_MEASURED) is recorded as null, never estimated, and each record
says which figures those are and why.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import httpx

from bench.console import console
from bench.errors import BenchError
from bench.judgement.verdict import summary_line
from bench.measure.host import environment
from bench.measure.host.roles import Roles
from bench.measure.load.figures import LoadFigures
from bench.measure.phases.context import Context
from bench.measure.phases.display import Display
from bench.measure.phases.ladder import run_ladder
from bench.measure.phases.oha_runs import avatar_stages, read_mix_stages
from bench.measure.phases.steady import reach_steady_latency
from bench.measure.plan import inputs
from bench.measure.plan.plan import Plan
from bench.measure.run.orchestrate import load_generators, write_raw
from bench.measure.run.stack_run import k6_stages, ladder_step, scenario_generators
from bench.records import METHOD, SCHEMA_VERSION, RawResult, RunHeader, StackInfo, Target
from bench.scenarios import Scenario

_ELSEWHERE = "the stack runs elsewhere: its process's cgroup (CPU time, memory, OOM kills) cannot be read from here"
_DATABASE = "PostgreSQL runs elsewhere: its pg_stat_statements and rows cannot be read from here"
_NOT_STARTED = "the runner did not start the stack"
_LOADGEN = "the load generator runs pinned with taskset, outside a cgroup: its CPU share is not read"

NOT_MEASURED = {
    "stages[].app_cpu_s, cpu_ms_per_request, cpu; ladder.steps[].cpu_ms_per_request, cpu": _ELSEWHERE,
    "stages[].app_peak_memory_bytes, memory_samples, memory_growth, oom_kills; idle_memory_bytes": _ELSEWHERE,
    "steady_state.windows_cpu_ms_per_request (settled by p50 latency instead)": _ELSEWHERE,
    "stages[].sql_statements, sql_per_request; ladder.steps[].sql_per_request; sql_per_request_by_endpoint": _DATABASE,
    "lost_writes (no 2xx write is looked up)": _DATABASE,
    "startup_s, app_exit_code": _NOT_STARTED,
    "stages[].loadgen_cpu_share, client_bound": _LOADGEN,
}

TARGET_NAME = "target"
HEALTH_TIMEOUT_S = 10.0


def unnamed_target(url: str) -> StackInfo:
    """A target that was not named after one of the repository's stacks: nothing is known of it
    but where it answers."""
    unknown = "unknown"
    return StackInfo(
        name=TARGET_NAME,
        display=url,
        language=unknown,
        language_version=unknown,
        framework=unknown,
        framework_version=unknown,
        server=unknown,
        data_access=unknown,
    )


def check_health(url: str) -> None:
    """The target must answer GET /health with a 200 before any load is sent."""
    try:
        status = httpx.get(f"{url}/health", timeout=HEALTH_TIMEOUT_S).status_code
    except httpx.HTTPError as error:
        raise BenchError(f"nothing answers at {url}/health ({error}): start the stack there first") from None
    if status != 200:
        raise BenchError(f"{url}/health answered {status}, not 200: the stack there is not healthy")


def execute_target(plan: Plan, url: str, info: StackInfo) -> list[RawResult]:
    """Every scenario of the plan against `url`, `plan.repeat` times; one raw record each."""
    check_health(url)
    return run_target(plan, url, info, load_generators(plan))


def run_target(plan: Plan, url: str, info: StackInfo, tool_paths: dict[str, Path]) -> list[RawResult]:
    """The jobs of execute_target with the load generators given."""
    plan.warnings.append(
        f"the stack ran elsewhere ({url}); its database was not reset before each run, so write "
        "scenarios find it as earlier runs left it"
    )
    roles = Roles(plan.split, None, plan.warnings, plan.cgroup_root)
    try:
        ctx = Context(plan, None, roles, Display(plan.estimate_seconds()), tool_paths, _header(plan, url, tool_paths))
        for warning in plan.warnings:
            console.print(f"[yellow]warning:[/] {warning}")
        results = []
        with ctx.display.live:
            for run_number in range(1, plan.repeat + 1):
                for scenario in plan.scenarios:
                    record = _job(ctx, url, info, scenario, run_number)
                    path = write_raw(plan.output, record)
                    results.append(record)
                    console.print(f"{summary_line(record)}  [dim]{path}[/]")
        return results
    finally:
        roles.close()


def _job(ctx: Context, url: str, info: StackInfo, scenario: Scenario, run_number: int) -> RawResult:
    label = f"{info.name} · {scenario.name} · run {run_number}/{ctx.plan.repeat}"
    started_at = datetime.now(UTC).replace(microsecond=0)
    fields: dict[str, object]
    try:
        fields = _load(ctx, url, info, scenario, label)
    except BenchError as error:
        console.print(f"[red]{label}: {error}[/]")
        fields = {"failed": str(error).splitlines()[0], "stages": []}
    return RawResult.model_validate(
        {
            **ctx.header.model_dump(exclude_unset=True),
            "stack": info,
            "scenario": scenario.name,
            "run": run_number,
            "started_at": started_at,
            "startup_s": None,
            "idle_memory_bytes": None,
            "app_exit_code": None,
            "lost_writes": None,
            "sql_per_request_by_endpoint": {},
            # Its stack's sources here are not known to be what runs at the target.
            **ctx.plan.inputs_of(None),
            **fields,
        }
    )


def _load(ctx: Context, url: str, info: StackInfo, scenario: Scenario, label: str) -> dict[str, object]:
    """Steady state and the ladder (the open model), then the closed-model stages."""
    # Named apart from a local run's logs (bench.measure.phases.context.logs): the two may run at once.
    name = f"target-{info.name}-{scenario.name}"
    k6, vegeta_steps = scenario_generators(ctx, scenario, name=name, label=label, base_url=url, dialect=info.dialect)
    prepare_step = ladder_step(ctx, scenario, vegeta_steps, base_url=url, dialect=info.dialect, name=name, label=label)

    def run_window(rate: float, seconds: int, tag: str) -> LoadFigures:
        return prepare_step(rate, seconds, tag)()

    fields: dict[str, object] = {}
    warm = ctx.plan.open_model
    if warm:
        fields["steady_state"] = reach_steady_latency(ctx, scenario, run_window, label=label)
        fields["ladder"] = run_ladder(ctx, scenario, prepare_step, label=label, statements=None)
    if k6 is not None:
        fields["stages"] = k6_stages(ctx, scenario, label, k6, url, None, warm=warm).stages
    elif scenario.read_mix:
        fields["stages"] = read_mix_stages(
            ctx, scenario, base_url=url, dialect=info.dialect, name=name, label=label, statements=None, warm=warm
        )
    else:
        fields["stages"] = avatar_stages(
            ctx, scenario, url=url + "/avatar", name=name, label=label, statements=None, warm=warm
        )
    return fields


def _header(plan: Plan, url: str, tool_paths: dict[str, Path]) -> RunHeader:
    return RunHeader(
        schema_version=SCHEMA_VERSION,
        method=METHOD,
        profile=plan.profile,
        machine=environment.machine(),
        versions=environment.tool_versions(None, tool_paths),
        git_commit=environment.git_commit(inputs.measured_pathspecs([])),
        caps=None,
        cpu_split=plan.split,
        cgroups=None,
        warnings=list(plan.warnings),
        target=Target(url=url, not_measured=dict(NOT_MEASURED)),
    )
