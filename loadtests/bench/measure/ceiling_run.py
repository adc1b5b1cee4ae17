"""The ceilings of one scenario, measured like a stack on the same CPU sets
(bench.measure.ceilings says what they are): the same fixed-rate ladder, or without the open model
the same closed stages. The ladder makes the closed stages redundant for a ceiling: its capacity
is what the stacks' are compared with, so an open-model run spends no time on them."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from bench import procs, stacks
from bench.measure import ceilings
from bench.measure.ceilings import ceiling_of
from bench.measure.context import Context, upstream_for
from bench.measure.ladder import run_ladder
from bench.measure.oha import avatar_stages, fixed_rate_step, read_mix_stages, read_mix_step
from bench.measure.pgbench import database_ceiling_ladder, database_ceiling_stages
from bench.measure.probes import Statements
from bench.records import RawResult
from bench.records.steps import Ladder, Stage
from bench.scenarios import Scenario


def run_ceiling(ctx: Context, scenario: Scenario, run_number: int) -> RawResult:
    label = f"ceiling · {scenario.name} · run {run_number}/{ctx.plan.repeat}"
    ctx.database().reset()
    statements = Statements(ctx.database())
    started_at = datetime.now(UTC).replace(microsecond=0)
    idle_memory = None
    nginx = None
    ladder: Ladder | None = None
    stages: list[Stage] = []
    try:
        if scenario.tool == "k6":
            if ctx.plan.open_model:
                ladder = database_ceiling_ladder(ctx, scenario, label=label, statements=statements)
            else:
                stages = database_ceiling_stages(ctx, scenario, label=label, statements=statements)
        elif scenario.upstream:
            with upstream_for(ctx, scenario, f"ceiling-{scenario.name}"):
                ctx.roles.fresh_app()
                wrap = functools.partial(ctx.roles.wrap, "app")
                nginx, base_url = ceilings.start_nginx(wrap, stacks.free_port(), stock_port=ctx.stock_port)
                idle_memory = ctx.roles.app.memory_bytes() if ctx.roles.app is not None else None
                name = f"ceiling-{scenario.name}"
                if ctx.plan.open_model:
                    run_step = read_mix_step(ctx, scenario, base_url=base_url, dialect="api", name=name, label=label)
                    ladder = run_ladder(ctx, scenario, run_step, label=label, statements=statements)
                else:
                    stages = read_mix_stages(
                        ctx, scenario, base_url=base_url, dialect="api", name=name, label=label, statements=statements
                    )
        else:
            ctx.roles.fresh_app()
            nginx, base_url = ceilings.start_nginx(functools.partial(ctx.roles.wrap, "app"), stacks.free_port())
            idle_memory = ctx.roles.app.memory_bytes() if ctx.roles.app is not None else None
            if ctx.plan.open_model:
                run_step = fixed_rate_step(
                    ctx, scenario, url=base_url + "/avatar", name=f"ceiling-{scenario.name}", label=label
                )
                ladder = run_ladder(ctx, scenario, run_step, label=label, statements=statements)
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
        if nginx is not None:
            procs.stop(nginx)
    return RawResult.model_validate(
        {
            **ctx.header.model_dump(exclude_unset=True),
            "stack": ceiling_of(scenario),
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
            **({"ladder": ladder} if ladder is not None else {}),
        }
    )
