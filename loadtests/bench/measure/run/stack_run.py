"""One stack × scenario × run: fresh database, a fresh process of the stack, steady state, ladder,
stages, checks."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from bench import ports, procs, stacks, upstream
from bench.judgement.steady import warmup_class
from bench.manifest import Stack
from bench.measure.load.figures import LoadFigures
from bench.measure.phases import writes
from bench.measure.phases.context import Context, upstream_for, vacuum_before_step
from bench.measure.phases.first_minute import run_first_minute, run_steady_windows
from bench.measure.phases.k6_runs import K6Stages
from bench.measure.phases.ladder import PrepareStep, run_ladder, sent_at_once
from bench.measure.phases.oha_runs import (
    avatar_stages,
    fixed_rate_step,
    logged_window,
    read_mix_stages,
    read_mix_step,
)
from bench.measure.phases.probes import StageMeter, Statements, sql_per_endpoint
from bench.measure.phases.steady import cpu_window_runs, reach_steady_state
from bench.measure.phases.vegeta_runs import VegetaSteps
from bench.measure.run.faults import DatabaseRestart
from bench.profiles import OPEN_TIMING, TIMING, replication_stages
from bench.records import Dialect, Fault, LostWrites, RawResult, StackInfo, Training
from bench.records.steps import FirstMinute, Ladder, Stage, SteadyState
from bench.scenarios import Scenario

# The stack's memory once it is healthy and idle.
IDLE_AFTER_S = 1.0


def stack_info(stack: Stack) -> StackInfo:
    # A variant that trains carries its training's record (bench.training); no other has the key.
    record = stack.training_record
    trained = {"training": Training.model_validate_json(record.read_text())} if record and record.is_file() else {}
    return StackInfo(
        **trained,
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
    first_minute: FirstMinute | None = None
    steady_state: SteadyState | None = None
    ladder: Ladder | None = None

    def fields(self) -> dict[str, Any]:
        """The record's fields; the optional ones only when they happened."""
        values: dict[str, Any] = {
            "stages": self.stages,
            "lost_writes": self.lost_writes,
            "sql_per_request_by_endpoint": self.sql_per_request_by_endpoint,
        }
        if self.first_minute is not None:
            values["first_minute"] = self.first_minute
        if self.steady_state is not None:
            values["steady_state"] = self.steady_state
        if self.ladder is not None:
            values["ladder"] = self.ladder
        measured_in = warmup_class(self.steady_state, self.ladder)
        if measured_in is not None:
            values["warmup_class"] = measured_in
        if self.fault is not None:
            values["fault"] = self.fault
        if self.failed is not None:
            values["failed"] = self.failed
        return values


class Process:
    """The stack's process for one scenario: every stack × scenario × run starts a fresh one and
    stops it after (method v4). A process kept up across scenarios carried the earlier scenarios'
    JIT profile into the later ones: java-spring's outbound, served after the avatar on its run's
    process, held 800-1,182 req/s where fresh processes held 1,491-1,778
    (results/experiments/2026-11-28-spring-clients); JMH forks a JVM per benchmark for the same
    reason."""

    def __init__(self, ctx: Context, stack: Stack, scenario: Scenario, run_number: int) -> None:
        self.ctx, self.stack, self.scenario, self.run_number = ctx, stack, scenario, run_number
        self.running: stacks.Running | None = None
        self.idle_memory: int | None = None
        self.launched_at = 0.0
        """time.monotonic() when the process was launched: the first minute counts from it."""

    def start(self, label: str, stock: upstream.Upstream | None) -> stacks.Running:
        """Starts the process, with `stock`'s URL as its STOCK_URL when its scenario calls one."""
        self.ctx.display.update(f"{label}: starting")
        self.ctx.roles.fresh_app()
        self.launched_at = time.monotonic()
        self.running = stacks.start(
            self.stack,
            port=ports.free_port(),
            database_url=self.ctx.database().url(),
            stock_url=stock.url if stock is not None else upstream.DEFAULT_URL,
            command=self.ctx.roles.wrap("app", self.stack.run_command),
            log_name=f"run/{self.stack.name}-{self.scenario.name}-run{self.run_number}-server.log",
        )
        time.sleep(IDLE_AFTER_S)
        self.idle_memory = self.ctx.roles.app.memory_bytes() if self.ctx.roles.app is not None else None
        return self.running

    def stop(self) -> int | None:
        """Stops the process if one is up: its exit code."""
        running, self.running = self.running, None
        return running.stop() if running is not None else None


def run_stack(ctx: Context, stack: Stack, scenario: Scenario, run_number: int) -> RawResult:
    """One scenario on a process of its own, started for it and stopped after it, whatever
    happened."""
    process = Process(ctx, stack, scenario, run_number)
    label = f"{stack_info(stack).label} · {scenario.name} · run {run_number}/{ctx.plan.repeat}"
    ctx.display.update(f"{label}: resetting the database")
    ctx.database().reset()
    rows_before = writes.baseline(ctx.database())
    started_at = datetime.now(UTC).replace(microsecond=0)
    statements = Statements(ctx.database())
    exit_code = None
    try:
        with upstream_for(ctx, scenario, f"{stack.name}-{scenario.name}") as stock:
            running = process.start(label, stock)
            outcome = _load_and_check(
                ctx, stack, scenario, label, running, statements, rows_before, launched_at=process.launched_at
            )
    finally:
        statements.close()
        exit_code = process.stop()
    return RawResult.model_validate(
        {
            **ctx.header.model_dump(exclude_unset=True),
            "stack": stack_info(stack),
            "scenario": scenario.name,
            "run": run_number,
            "started_at": started_at,
            "startup_s": running.startup_s,
            "idle_memory_bytes": process.idle_memory,
            **outcome.fields(),
            "app_exit_code": exit_code,
            **ctx.plan.inputs_of(stack),
        }
    )


def ladder_step(
    ctx: Context,
    scenario: Scenario,
    vegeta_steps: VegetaSteps | None,
    *,
    base_url: str,
    dialect: Dialect,
    name: str,
    label: str,
) -> PrepareStep:
    """What readies and sends a step of the scenario's steady state and ladder
    (Scenario.ladder_tool): oha from the URL list of a read mix, or at the avatar; vegeta from
    requests prepared ahead for the writes (`vegeta_steps`)."""
    if vegeta_steps is not None:
        steps = vegeta_steps

        def prepare(rate: float, seconds: int, tag: str) -> Callable[[], LoadFigures]:
            return steps.prepare(rate, seconds, tag).send

        return prepare
    if scenario.read_mix:
        return sent_at_once(read_mix_step(ctx, scenario, base_url=base_url, dialect=dialect, name=name, label=label))
    return sent_at_once(fixed_rate_step(ctx, scenario, url=base_url + "/avatar", name=name, label=label))


def scenario_generators(
    ctx: Context, scenario: Scenario, *, name: str, label: str, base_url: str, dialect: Dialect
) -> tuple[K6Stages | None, VegetaSteps | None]:
    """k6 for the closed-model stages that k6 sends; vegeta's steps for a write scenario's
    steady state and ladder."""
    k6 = (
        K6Stages(ctx, scenario, name=name, label=label, base_url=base_url, dialect=dialect)
        if scenario.tool == "k6"
        else None
    )
    vegeta_steps = None
    if scenario.ladder_tool == "vegeta":
        vegeta_steps = VegetaSteps(ctx, scenario, name=name, label=label, base_url=base_url, dialect=dialect)
    return k6, vegeta_steps


def _load_and_check(
    ctx: Context,
    stack: Stack,
    scenario: Scenario,
    label: str,
    running: stacks.Running,
    statements: Statements,
    rows_before: writes.Baseline,
    *,
    launched_at: float,
) -> Outcome:
    """With the open model: the first minute where the scenario has one, steady state, then the
    fixed-rate ladder. Then the closed-model stages, then (if the stack is still up) the lost-write
    check and the SQL count per endpoint; a stack that crashed keeps the stages it served."""
    name = f"{stack.name}-{scenario.name}"
    k6, vegeta_steps = scenario_generators(
        ctx, scenario, name=name, label=label, base_url=running.base_url, dialect=stack.dialect
    )
    prepare_step = ladder_step(
        ctx, scenario, vegeta_steps, base_url=running.base_url, dialect=stack.dialect, name=name, label=label
    )

    steady_state = ladder = first_minute = None
    warm = ctx.plan.open_model
    first_minute_window = None
    if warm and scenario.measures_first_minute(variant=stack.variant is not None):
        # Before anything else reaches the process: its first requests are the first minute's.
        first_minute_window = logged_window(
            ctx, scenario, base_url=running.base_url, dialect=stack.dialect, name=name, label=label
        )
        first_minute = run_first_minute(
            ctx, scenario, first_minute_window, launched_at=launched_at, label=label, alive=running.alive
        )
    if warm and running.alive():
        # Only the open model has a warm-up's timing (OPEN_TIMING): not the soak's profile.
        # Each window is a run of its own (oha and vegeta start in milliseconds).
        windows = cpu_window_runs(ctx, prepare_step)
        steady_state = reach_steady_state(ctx, scenario, windows, label=label, alive=running.alive)
        if first_minute is not None and first_minute_window is not None:
            run_steady_windows(ctx, first_minute, first_minute_window, label=label, alive=running.alive)
        if running.alive():
            ladder = run_ladder(ctx, scenario, prepare_step, label=label, statements=statements, alive=running.alive)
    if not running.alive():
        outcome = Outcome([])
    elif k6 is not None:
        outcome = k6_stages(ctx, scenario, label, k6, running.base_url, statements, warm=warm)
    elif scenario.read_mix:
        stages = read_mix_stages(
            ctx,
            scenario,
            base_url=running.base_url,
            dialect=stack.dialect,
            name=name,
            label=label,
            statements=statements,
            warm=warm,
        )
        outcome = Outcome(stages)
    else:
        stages = avatar_stages(
            ctx, scenario, url=running.base_url + "/avatar", name=name, label=label, statements=statements, warm=warm
        )
        outcome = Outcome(stages)
    outcome.first_minute, outcome.steady_state, outcome.ladder = first_minute, steady_state, ladder
    if not running.alive():
        # Crashed or OOM-killed under load: the stages it served are kept, the run is failed.
        last = (procs.tail(running.log, 1) or "no output").strip()
        outcome.failed = (
            f"{stack.name} exited with code {running.proc.returncode} under load{ctx.roles.oom_note()}: {last}"
        )
        return outcome
    if scenario.writes:
        ctx.display.update(f"{label}: looking up every write that got a 2xx")
        logged = [(k6.write_log, k6.counted())] if k6 is not None else []
        if vegeta_steps is not None:
            logged.append((vegeta_steps.write_log, vegeta_steps.counted))
        log, counted = writes.combined(logged)
        outcome.lost_writes = writes.check(ctx.database(), rows_before, log, counted)
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
        vacuum_before_step(ctx, scenario)
        with StageMeter(ctx.roles, statements) as meter:
            figures = k6.stage(vus, seconds=seconds)
        outcome.stages.append(meter.stage(figures))
        if fault is not None:
            outcome.fault = fault.finish()
            ctx.display.update(f"{label}: database restarted; recovered in {outcome.fault.recovered_within_s} s")
    return outcome
