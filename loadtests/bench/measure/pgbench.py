"""The pgbench stages of the database ceiling: each scenario's SQL replayed (bench.ceilings)
through as many connections as a stack's pool, measured like a stack's stages."""

from __future__ import annotations

from bench import ceilings, stacks
from bench.errors import BenchError
from bench.loadgen import LoadFigures
from bench.measure.context import Context, logs
from bench.measure.load import run_load
from bench.measure.probes import StageMeter, Statements
from bench.records import Latency, Stage
from bench.scenarios import Scenario, closed_timing, replication_stages


def pgbench_run(
    ctx: Context, scenario: Scenario, *, name: str, vus: int, clients: int, seconds: int, label: str
) -> LoadFigures:
    log = logs() / f"ceiling-{scenario.name}-{name}.log"
    pgbench = ctx.cluster.bindir / "pgbench"
    command = ctx.roles.wrap(
        "loadgen", ceilings.pgbench_command(pgbench, ctx.cluster.url(), scenario.name, clients, seconds)
    )
    code = run_load(command, log, ctx.display, seconds + 120)
    if code != 0:
        raise BenchError(f"pgbench failed (exit {code}) on {label}; log {log}")
    report = ceilings.parse_pgbench(log.read_text())
    return LoadFigures(
        vus=vus,
        db_clients=clients,
        requests=report.transactions if report.transactions is not None else round(report.tps * seconds),
        rps=report.tps,
        duration_s=seconds,
        # pgbench reports only the mean: the percentiles stay unknown rather than invented.
        latency_ms=Latency(avg=report.latency_avg_ms, p50=None, p95=None, p99=None, max=None)
        if report.latency_avg_ms is not None
        else None,
        errors={"other": report.failed} if report.failed else {},
        error_count=report.failed,
        bytes_received=None,
    )


def database_ceiling_stages(ctx: Context, scenario: Scenario, *, label: str, statements: Statements) -> list[Stage]:
    # Every stack reaches PostgreSQL through at most DB_POOL_SIZE connections, whatever the
    # number of VUs: the ceiling is what the database does through as many.
    clients = int(stacks.DEFAULT_POOL_SIZE)
    warmup, seconds = closed_timing(ctx.plan.profile, ctx.plan.open_model)
    ctx.display.update(f"{label}: warm-up")
    warm_up = {"vus": scenario.stages[0], "clients": clients, "seconds": warmup}
    pgbench_run(ctx, scenario, name="warmup", label=label, **warm_up)
    stages = []
    # After the open model the stacks replicate fewer closed-model stages: the ceiling matches them.
    for vus in replication_stages(scenario, ctx.plan.profile) if ctx.plan.open_model else scenario.stages:
        ctx.display.update(f"{label}: pgbench, {clients} clients (stage {vus})")
        with StageMeter(ctx.roles, statements) as meter:
            figures = pgbench_run(ctx, scenario, name=str(vus), vus=vus, clients=clients, seconds=seconds, label=label)
        stage = meter.stage(figures)
        # The app's cgroup is idle during pgbench: its figures would read as zero cost.
        stage.app_cpu_s = stage.cpu_ms_per_request = None
        stage.app_peak_memory_bytes = None
        stages.append(stage)
    return stages
