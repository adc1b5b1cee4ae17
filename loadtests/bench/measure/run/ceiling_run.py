"""The ceilings of one scenario, measured like a stack on the same CPU sets
(bench.measure.plan.ceilings says what they are): the same fixed-rate ladder, or without the open model
the same closed stages. The ladder makes the closed stages redundant for a ceiling: its capacity
is what the stacks' are compared with, so an open-model run spends no time on them."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from bench import ports, procs
from bench.measure.phases.context import Context, upstream_for
from bench.measure.phases.ladder import run_ladder, sent_at_once
from bench.measure.phases.oha_runs import avatar_stages, fixed_rate_step, read_mix_stages, read_mix_step
from bench.measure.phases.pgbench_runs import database_ceiling_ladder, database_ceiling_stages
from bench.measure.phases.probes import Statements
from bench.measure.plan.ceilings import CEILING_DB, CEILING_PROXY, ceiling_of
from bench.measure.run import nginx
from bench.records import CpuSplit, RawResult
from bench.records.steps import Ladder, Stage
from bench.scenarios import Scenario


def run_ceiling(ctx: Context, scenario: Scenario, run_number: int) -> RawResult:
    label = f"ceiling · {scenario.name} · run {run_number}/{ctx.plan.repeat}"
    ctx.database().reset()
    statements = Statements(ctx.database())
    started_at = datetime.now(UTC).replace(microsecond=0)
    idle_memory = None
    ceiling = ceiling_of(scenario)
    server = None
    measured_on: CpuSplit | None = None
    ladder: Ladder | None = None
    stages: list[Stage] = []
    try:
        if ceiling is CEILING_DB:
            with ctx.roles.client_on_app_cpus() as split:
                measured_on = split
                if ctx.plan.open_model:
                    ladder = database_ceiling_ladder(ctx, scenario, label=label, statements=statements)
                else:
                    stages = database_ceiling_stages(ctx, scenario, label=label, statements=statements)
        elif ceiling is CEILING_PROXY:
            with upstream_for(ctx, scenario, f"ceiling-{scenario.name}") as stock:
                assert stock is not None  # a proxy ceiling's scenario calls the upstream
                ctx.roles.fresh_app()
                wrap = functools.partial(ctx.roles.wrap, "app")
                server, base_url = nginx.start_nginx(wrap, ports.free_port(), stock_port=stock.port)
                idle_memory = ctx.roles.app.memory_bytes() if ctx.roles.app is not None else None
                name = f"ceiling-{scenario.name}"
                if ctx.plan.open_model:
                    run_step = read_mix_step(ctx, scenario, base_url=base_url, dialect="api", name=name, label=label)
                    ladder = run_ladder(
                        ctx, scenario, sent_at_once(run_step), label=label, statements=statements, repeat=False
                    )
                else:
                    stages = read_mix_stages(
                        ctx, scenario, base_url=base_url, dialect="api", name=name, label=label, statements=statements
                    )
        else:
            ctx.roles.fresh_app()
            server, base_url = nginx.start_nginx(functools.partial(ctx.roles.wrap, "app"), ports.free_port())
            idle_memory = ctx.roles.app.memory_bytes() if ctx.roles.app is not None else None
            if ctx.plan.open_model:
                run_step = fixed_rate_step(
                    ctx, scenario, url=base_url + "/avatar", name=f"ceiling-{scenario.name}", label=label
                )
                ladder = run_ladder(
                    ctx, scenario, sent_at_once(run_step), label=label, statements=statements, repeat=False
                )
            else:
                stages = avatar_stages(
                    ctx,
                    scenario,
                    url=base_url + "/avatar",
                    name=f"ceiling-{scenario.name}",
                    label=label,
                    statements=statements,
                )
    finally:
        statements.close()
        if server is not None:
            procs.stop(server)
    return RawResult.model_validate(
        {
            **ctx.header.model_dump(exclude_unset=True),
            "stack": ceiling,
            "kind": "ceiling",
            "scenario": scenario.name,
            "run": run_number,
            "started_at": started_at,
            "startup_s": 0.0,
            "idle_memory_bytes": idle_memory,
            "app_exit_code": None,
            "stages": stages,
            "lost_writes": None,
            "sql_per_request_by_endpoint": {},
            **ctx.plan.inputs_of(None),
            **({"ladder": ladder} if ladder is not None else {}),
            # The database ceiling's client ran on the app's CPUs: the record says so.
            **({"cpu_split": measured_on.model_dump()} if measured_on is not None else {}),
        }
    )
