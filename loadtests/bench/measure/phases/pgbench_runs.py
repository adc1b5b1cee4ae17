"""The database ceiling: each scenario's SQL replayed by pgbench (bench.measure.load.pgbench) through
as many connections as a stack's pool, from the app's CPUs (bench.measure.run.ceiling_run moves the
load generator there), measured like a stack: the fixed-rate ladder at the scenario's rates
(pgbench -R, latency from each transaction's scheduled start) and the closed-model stages."""

from __future__ import annotations

from bench import stacks
from bench.errors import BenchError
from bench.measure.load import pgbench
from bench.measure.load.figures import LoadFigures, latency_of
from bench.measure.load.process import run_load
from bench.measure.phases.context import Context, logs, vacuum_before_step
from bench.measure.phases.ladder import run_ladder, sent_at_once
from bench.measure.phases.probes import StageMeter, Statements
from bench.profiles import closed_timing, replication_stages
from bench.records.steps import Ladder, Latency, Stage
from bench.scenarios import Scenario


def pgbench_run(
    ctx: Context, scenario: Scenario, *, name: str, vus: int, clients: int, seconds: int, label: str
) -> LoadFigures:
    log = logs() / f"ceiling-{scenario.name}-{name}.log"
    binary = ctx.database().bindir / "pgbench"
    command = ctx.roles.wrap(
        "loadgen", pgbench.pgbench_command(binary, ctx.database().url(), scenario, clients, seconds)
    )
    code = run_load(command, log, ctx.display.show_rate, seconds + 120)
    if code != 0:
        raise BenchError(f"pgbench failed (exit {code}) on {label}; log {log}")
    report = pgbench.parse_pgbench(log.read_text())
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
        vacuum_before_step(ctx, scenario)
        with StageMeter(ctx.roles, statements) as meter:
            figures = pgbench_run(ctx, scenario, name=str(vus), vus=vus, clients=clients, seconds=seconds, label=label)
        stage = meter.stage(figures)
        # The app's cgroup is idle during pgbench: its figures would read as zero cost.
        stage.app_cpu_s = stage.cpu_ms_per_request = None
        stage.app_peak_memory_bytes = None
        stages.append(stage)
    return stages


def pgbench_rate_run(
    ctx: Context, scenario: Scenario, *, rate: float, seconds: int, tag: str, label: str
) -> LoadFigures:
    """One ladder step: the mix at `rate` transactions/s, those already later than the scenario's
    objective when their turn comes skipped (counted as dropped), every latency logged."""
    clients = int(stacks.DEFAULT_POOL_SIZE)
    log = logs() / f"ceiling-{scenario.name}-{tag}.log"
    prefix = logs() / f"ceiling-{scenario.name}-{tag}-transactions"
    for stale in prefix.parent.glob(prefix.name + ".*"):
        stale.unlink()
    command = ctx.roles.wrap(
        "loadgen",
        pgbench.pgbench_command(
            ctx.database().bindir / "pgbench",
            ctx.database().url(),
            scenario,
            clients,
            seconds,
            rate=rate,
            latency_limit_ms=scenario.objective_ms,
            log_prefix=prefix,
        ),
    )
    code = run_load(command, log, ctx.display.show_rate, seconds + 120)
    if code != 0:
        raise BenchError(f"pgbench failed (exit {code}) on {label} at {rate:g}/s; log {log}")
    report = pgbench.parse_pgbench(log.read_text())
    transactions = pgbench.read_transaction_logs(prefix)
    for written in prefix.parent.glob(prefix.name + ".*"):
        written.unlink()
    return LoadFigures(
        vus=clients,
        db_clients=clients,
        requests=len(transactions.latencies_ms),
        rps=report.tps,
        duration_s=seconds,
        latency_ms=latency_of(transactions.latencies_ms),
        errors={"other": report.failed} if report.failed else {},
        error_count=report.failed,
        bytes_received=None,
        offered_rps=rate,
        dropped_iterations=transactions.skipped,
        arrivals=len(transactions.latencies_ms) + transactions.skipped,
    )


def database_ceiling_ladder(ctx: Context, scenario: Scenario, *, label: str, statements: Statements) -> Ladder:
    def run_step(rate: float, seconds: int, tag: str) -> LoadFigures:
        return pgbench_rate_run(ctx, scenario, rate=rate, seconds=seconds, tag=tag, label=label)

    ladder = run_ladder(ctx, scenario, sent_at_once(run_step), label=label, statements=statements)
    for step in ladder.steps:
        # The app's cgroup is idle during pgbench: its figures would read as zero cost.
        step.cpu_ms_per_request = None
        step.app_peak_memory_bytes = None
    return ladder
