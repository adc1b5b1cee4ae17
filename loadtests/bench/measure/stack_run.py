"""One stack × scenario × run: fresh database, start, warm up, stages, checks, stop."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from bench import procs, stacks, writes
from bench.loadgen import LoadFigures
from bench.manifest import Stack
from bench.measure.context import Context
from bench.measure.faults import DatabaseRestart
from bench.measure.k6 import K6Stages
from bench.measure.ladder import RunStep, run_ladder
from bench.measure.oha import avatar_stages, fixed_rate_step
from bench.measure.probes import StageMeter, Statements, sql_per_endpoint
from bench.measure.steady import reach_steady_state
from bench.records import Fault, Ladder, LostWrites, RawResult, StackInfo, Stage, SteadyState
from bench.scenarios import OPEN_TIMING, TIMING, Scenario, replication_stages

# The stack's memory once it is healthy and idle.
IDLE_AFTER_S = 1.0


def stack_info(stack: Stack) -> StackInfo:
    return StackInfo(
        name=stack.name,
        display=stack.display,
        language=stack.language,
        language_version=stack.language_version,
        framework=stack.framework,
        framework_version=stack.framework_version,
        server=stack.server,
        data_access=stack.data_access,
        dialect=stack.dialect,
    )


@dataclass
class Outcome:
    """What the load and the checks after it found."""

    stages: list[Stage]
    fault: Fault | None = None
    lost_writes: LostWrites | None = None
    sql_per_request_by_endpoint: dict[str, float] = field(default_factory=dict)
    failed: str | None = None
    steady_state: SteadyState | None = None
    ladder: Ladder | None = None

    def fields(self) -> dict[str, Any]:
        """The record's fields; the optional ones only when they happened."""
        values: dict[str, Any] = {
            "stages": self.stages,
            "lost_writes": self.lost_writes,
            "sql_per_request_by_endpoint": self.sql_per_request_by_endpoint,
        }
        if self.steady_state is not None:
            values["steady_state"] = self.steady_state
        if self.ladder is not None:
            values["ladder"] = self.ladder
        if self.fault is not None:
            values["fault"] = self.fault
        if self.failed is not None:
            values["failed"] = self.failed
        return values


def run_stack(ctx: Context, stack: Stack, scenario: Scenario, run_number: int) -> RawResult:
    label = f"{stack_info(stack).label} · {scenario.name} · run {run_number}/{ctx.plan.repeat}"
    ctx.display.update(f"{label}: resetting the database")
    ctx.database().reset()
    rows_before = writes.baseline(ctx.database())
    ctx.display.update(f"{label}: starting")
    ctx.roles.fresh_app()
    started_at = datetime.now(UTC).replace(microsecond=0)
    running = None
    statements = Statements(ctx.database())
    try:
        running = stacks.start(
            stack,
            port=stacks.free_port(),
            database_url=ctx.database().url(),
            command=ctx.roles.wrap("app", stack.run_command),
            log_name=f"run/{stack.name}-{scenario.name}-server.log",
        )
        startup_s = running.startup_s
        time.sleep(IDLE_AFTER_S)
        idle_memory = ctx.roles.app.memory_bytes() if ctx.roles.app is not None else None
        outcome = _load_and_check(ctx, stack, scenario, label, running, statements, rows_before)
    finally:
        statements.close()
        exit_code = running.stop() if running is not None else None
    return RawResult.model_validate(
        {
            **ctx.header.model_dump(exclude_unset=True),
            "stack": stack_info(stack),
            "scenario": scenario.name,
            "run": run_number,
            "started_at": started_at,
            "startup_s": startup_s,
            "idle_memory_bytes": idle_memory,
            **outcome.fields(),
            "app_exit_code": exit_code,
        }
    )


def _load_and_check(
    ctx: Context,
    stack: Stack,
    scenario: Scenario,
    label: str,
    running: stacks.Running,
    statements: Statements,
    rows_before: writes.Baseline,
) -> Outcome:
    """With the open model: steady state, then the fixed-rate ladder. Then the closed-model
    stages, then (if the stack is still up) the lost-write check and the SQL count per endpoint;
    a stack that crashed keeps the stages it served."""
    name = f"{stack.name}-{scenario.name}"
    k6 = None
    run_step: RunStep
    if scenario.tool == "k6":
        k6 = K6Stages(ctx, scenario, name=name, label=label, base_url=running.base_url, dialect=stack.dialect)
        k6_runner = k6

        def run_step(rate: float, seconds: int, tag: str) -> LoadFigures:
            return k6_runner.rate(rate, seconds, objective_ms=scenario.objective_ms, tag=tag)

    else:
        run_step = fixed_rate_step(ctx, scenario, url=running.base_url + "/avatar", name=name, label=label)

    steady_state = ladder = None
    warm = ctx.plan.open_model
    if warm:
        steady_state = reach_steady_state(ctx, scenario, run_step, label=label, alive=running.alive)
        if running.alive():
            ladder = run_ladder(ctx, scenario, run_step, label=label, statements=statements, alive=running.alive)
    if not running.alive():
        outcome = Outcome([])
    elif k6 is not None:
        outcome = k6_stages(ctx, scenario, label, k6, running.base_url, statements, warm=warm)
    else:
        stages = avatar_stages(
            ctx, scenario, url=running.base_url + "/avatar", name=name, label=label, statements=statements, warm=warm
        )
        outcome = Outcome(stages)
    outcome.steady_state, outcome.ladder = steady_state, ladder
    if not running.alive():
        # Crashed or OOM-killed under load: the stages it served are kept, the run is failed.
        last = (procs.tail(running.log, 1) or "no output").strip()
        outcome.failed = (
            f"{stack.name} exited with code {running.proc.returncode} under load{ctx.roles.oom_note()}: {last}"
        )
        return outcome
    if k6 is not None and scenario.writes:
        ctx.display.update(f"{label}: looking up every write that got a 2xx")
        outcome.lost_writes = writes.check(ctx.database(), rows_before, k6.write_log, k6.counted())
    ctx.display.update(f"{label}: counting SQL statements per endpoint")
    try:
        for endpoint, count in sql_per_endpoint(running.base_url, scenario.endpoints, statements, stack.dialect):
            outcome.sql_per_request_by_endpoint[endpoint] = count
    except (httpx.HTTPError, KeyError, ValueError) as error:
        outcome.failed = f"{stack.name} stopped answering while its SQL statements were counted: {error}"
    return outcome


def k6_stages(
    ctx: Context,
    scenario: Scenario,
    label: str,
    k6: K6Stages,
    base_url: str,
    statements: Statements | None,
    *,
    warm: bool,
) -> Outcome:
    """The closed-model stages; a `warm` stack (at steady state, after the ladder) gets no
    warm-up and the open model's shorter stages without ramps."""
    timing = TIMING[ctx.plan.profile]
    seconds = OPEN_TIMING[ctx.plan.profile].replication_stage_s if warm else None
    if not warm:
        ctx.display.update(f"{label}: warm-up ({timing['warmup']} s, not counted)")
        k6.warm_up()
    outcome = Outcome([])
    # The soak is one long stage at the first stage's concurrency.
    stages = scenario.stages[:1] if ctx.plan.profile == "soak" else scenario.stages
    if warm:
        stages = replication_stages(scenario, ctx.plan.profile)
    for index, vus in enumerate(stages):
        ctx.display.update(f"{label}: {vus} VUs")
        fault = None
        if index == 0 and ctx.plan.fault == "db-restart" and scenario.writes:
            fault = DatabaseRestart(
                ctx.database(),
                ctx.roles,
                base_url,
                at_s=timing["ramp"] + timing["stage"] / 3,
                outage_s=min(10.0, timing["stage"] / 4),
            )
        with StageMeter(ctx.roles, statements) as meter:
            figures = k6.stage(vus, seconds=seconds)
        outcome.stages.append(meter.stage(figures))
        if fault is not None:
            outcome.fault = fault.finish()
            ctx.display.update(f"{label}: database restarted; recovered in {outcome.fault.recovered_within_s} s")
    return outcome
