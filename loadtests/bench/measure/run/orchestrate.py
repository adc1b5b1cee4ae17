"""`./bench run`: every stack × scenario (and the ceilings) under the same caps and load, one
raw JSON per run; and the memory ladder, which steps one stack's cap down."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bench import compose_file, paths, stacks, tools, upstream
from bench.console import console
from bench.errors import BenchError
from bench.judgement.verdict import step_failed, summary_line, with_note
from bench.manifest import Stack
from bench.measure.host import cgroups, environment
from bench.measure.host.roles import Roles
from bench.measure.phases.context import Context
from bench.measure.phases.display import Display
from bench.measure.plan import inputs
from bench.measure.plan.ceilings import ceiling_of
from bench.measure.plan.plan import MEM_LADDER_MIB, Plan
from bench.measure.run import calibration
from bench.measure.run.ceiling_run import run_ceiling
from bench.measure.run.stack_run import run_stack, stack_info
from bench.postgres import Cluster
from bench.records import METHOD, SCHEMA_VERSION, Calibration, Cap, Caps, RawResult, RunHeader
from bench.records.machines import describe_calibration
from bench.scenarios import Scenario


def load_generators(plan: Plan) -> dict[str, Path]:
    """The load generators the plan's scenarios need, installed if missing."""
    needed = {s.tool for s in plan.scenarios} | {s.ladder_tool for s in plan.scenarios}
    tool_paths = {}
    for tool in tools.TOOLS:
        if tool.name in needed:
            with console.status(f"{tool.name} {tool.version}") as status:
                tool_paths[tool.name] = tools.ensure(tool, on_progress=status.update)
    return tool_paths


def prepare(plan: Plan) -> tuple[dict[str, Path], Caps]:
    """The load generators, the stacks' builds (and the stock upstream's), and the caps of compose.yaml."""
    tool_paths = load_generators(plan)
    for stack in plan.stacks:
        with console.status(f"building {stack.name}"):
            stacks.build(stack)
        # A variant that trains was trained before the plan ran (bench.training.build, in the
        # command): started without its artifact, a JVM would warn and run without its cache.
        record = stack.training_record
        if record is not None and not record.is_file():
            raise BenchError(f"{stack.name} is not trained: run ./bench build {stack.name}")
    if any(s.upstream for s in plan.scenarios):
        with console.status("building the stock upstream"):
            upstream.build()
    return tool_paths, Caps.model_validate(compose_file.caps(paths.ROOT))


def execute(plan: Plan, cluster: Cluster) -> list[RawResult]:
    tool_paths, caps = prepare(plan)
    return run_plan(plan, cluster, tool_paths, caps)


def execute_ladder(plan: Plan, cluster: Cluster) -> list[RawResult]:
    """Steps each stack's memory cap down the ladder until it no longer serves without errors."""
    if not cgroups.Cgroups(plan.cgroup_root).available:
        raise BenchError(
            "the memory ladder needs writable cgroups (cgroup v1 or v2 with the memory controller, as root); none here"
        )
    tool_paths, caps = prepare(plan)
    results: list[RawResult] = []
    for stack in plan.stacks:
        for mib in MEM_LADDER_MIB:
            step_caps = caps.model_copy(update={"app": Cap(cpus=caps.app.cpus, mem_bytes=mib << 20)})
            step = dataclasses.replace(plan, stacks=[stack], ceilings=False, mem_ladder_mib=mib)
            # One calibration for the whole ladder, as for any one `./bench run`.
            calibrated = next((r.calibration for r in results if r.calibration is not None), None)
            records = run_plan(step, cluster, tool_paths, step_caps, calibrated=calibrated)
            results += records
            if any(step_failed(r) for r in records):
                console.print(f"{stack.name}: stops serving cleanly at {mib} MiB; smaller caps not tried")
                break
    return results


def run_plan(
    plan: Plan,
    cluster: Cluster,
    tool_paths: dict[str, Path],
    caps: Caps,
    *,
    calibrated: Calibration | None = None,
) -> list[RawResult]:
    """Every job of the plan with the tools and caps given, block by block (Plan.blocks): each
    scenario's ceiling, then every stack measured in it; run 1's scenarios, then run 2's. One
    stack failing to start or crashing ends only its job; the next scenario starts it again. The
    machine is calibrated first, unless `calibrated` says how it was earlier in the same
    `./bench run`."""
    roles = Roles(plan.split, caps, plan.warnings, plan.cgroup_root)
    try:
        for warning in plan.warnings:
            console.print(f"[yellow]warning:[/] {warning}")
        # Before the header: its calibration measures PostgreSQL on its own CPUs.
        roles.place_postgres(cluster)
        ctx = Context(
            plan,
            cluster,
            roles,
            Display(plan.estimate_seconds()),
            tool_paths,
            _header(plan, cluster, roles, caps, tool_paths, calibrated),
        )
        results = []

        def done(record: RawResult) -> None:
            path = write_raw(plan.output, record)
            results.append(record)
            where = f"  [dim]{path.relative_to(paths.ROOT)}[/]" if path.is_relative_to(paths.ROOT) else ""
            console.print(summary_line(record) + where)

        def kept(name: str, scenario: Scenario, run_number: int) -> bool:
            record = plan.kept.get((name, scenario.name, run_number))
            if record is not None:
                results.append(record)
                since = record.git_commit[:7] if record.git_commit else "an unknown commit"
                console.print(f"[dim]kept, its inputs unchanged since {since}:[/] {summary_line(record)}")
            return record is not None

        with ctx.display.live:
            for run_number, scenario in plan.blocks():
                if plan.ceilings and not kept(ceiling_of(scenario).name, scenario, run_number):
                    done(_job(ctx, None, scenario, run_number))
                for stack in plan.block_stacks(scenario):
                    if not kept(stack.name, scenario, run_number):
                        done(_job(ctx, stack, scenario, run_number))
        return results
    finally:
        roles.close()


def _job(ctx: Context, stack: Stack | None, scenario: Scenario, run_number: int) -> RawResult:
    """One record: a stack's run on a fresh process (a ceiling's when `stack` is None), or why it
    failed."""
    try:
        if stack is None:
            return run_ceiling(ctx, scenario, run_number)
        return run_stack(ctx, stack, scenario, run_number)
    except BenchError as error:
        info = ceiling_of(scenario) if stack is None else stack_info(stack)
        console.print(f"[red]{info.label} · {scenario.name}: {error}[/]")
        return RawResult.model_validate(
            {
                **ctx.header.model_dump(exclude_unset=True),
                "stack": info,
                **({"kind": "ceiling"} if stack is None else {}),
                "scenario": scenario.name,
                "run": run_number,
                "failed": with_note(str(error).splitlines()[0], ctx.roles.oom_note()),
                "stages": [],
                "lost_writes": None,
                "sql_per_request_by_endpoint": {},
                **ctx.plan.inputs_of(stack),
            }
        )


def _header(
    plan: Plan,
    cluster: Cluster,
    roles: Roles,
    caps: Caps,
    tool_paths: dict[str, Path],
    calibrated: Calibration | None = None,
) -> RunHeader:
    header = RunHeader(
        schema_version=SCHEMA_VERSION,
        method=METHOD,
        profile=plan.profile,
        machine=environment.machine(),
        versions=environment.tool_versions(cluster.bindir, tool_paths),
        git_commit=environment.git_commit(inputs.measured_pathspecs(plan.stacks)),
        caps=caps,
        cpu_split=plan.split,
        cgroups=roles.cg.version,
        warnings=list(plan.warnings),
    )
    if plan.mem_ladder_mib is not None:
        header.mem_ladder_mib = plan.mem_ladder_mib
    if plan.fault is not None:
        header.fault_kind = plan.fault
    if calibrated is None:
        with console.status("calibrating the machine") as status:
            calibrated = calibration.calibrate(cluster, roles, on_progress=status.update)
        console.print(f"[dim]calibration:[/] {describe_calibration(calibrated)}")
    header.calibration = calibrated
    return header


def write_raw(output: Path, record: RawResult) -> Path:
    """Writes atomically: a Ctrl-C never leaves half a result file behind."""
    ladder = record.mem_ladder_mib
    suffix = "-mem-ladder" if ladder else "-fault" if record.fault_kind else ""
    directory = output / "raw" / (record.profile + suffix)
    directory.mkdir(parents=True, exist_ok=True)
    step = f"--mem{ladder}" if ladder else ""
    target = directory / f"{record.stack.name}--{record.scenario}{step}--run{record.run}.json"
    partial = target.with_suffix(".json.partial")
    partial.write_text(record.to_json())
    partial.replace(target)
    return target
