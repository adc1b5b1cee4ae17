"""The oha stages: the avatar scenario's single-endpoint blast, against a stack or nginx."""

from __future__ import annotations

from pathlib import Path

from bench import loadgen
from bench.errors import BenchError
from bench.loadgen import LoadFigures
from bench.measure.context import Context, logs
from bench.measure.load import run_load
from bench.measure.probes import StageMeter, Statements
from bench.records import Stage
from bench.scenarios import OHA_REQUESTS, OHA_WARMUPS, Scenario

# Seconds one oha run may take.
OHA_TIMEOUT_S = 900


def oha_run(ctx: Context, *, url: str, requests: int, connections: int, name: str, label: str) -> LoadFigures:
    """One oha run against `url` on the load generator's CPUs."""
    output: Path = logs() / f"{name}.json"
    log = logs() / f"{name}.log"
    command = ctx.roles.wrap(
        "loadgen",
        loadgen.oha_command(ctx.tools["oha"], url, requests=requests, connections=connections, output=output),
    )
    code = run_load(command, log, ctx.display, OHA_TIMEOUT_S)
    if code != 0:
        raise BenchError(f"oha failed (exit {code}) on {label}; log {log}")
    return loadgen.parse_oha(output, expected_status=302, connections=connections)


def avatar_stages(
    ctx: Context, scenario: Scenario, *, url: str, name: str, label: str, statements: Statements
) -> list[Stage]:
    """The avatar scenario against `url`: uncounted warm-up runs, then the measured one."""
    connections = scenario.stages[0]
    for i, n in enumerate(OHA_WARMUPS[ctx.plan.profile]):
        ctx.display.update(f"{label}: warm-up {i + 1} ({n:,} requests, not counted)")
        oha_run(ctx, url=url, requests=n, connections=connections, name=f"{name}-warmup{i + 1}", label=label)
    requests = OHA_REQUESTS[ctx.plan.profile]
    ctx.display.update(f"{label}: {requests:,} requests at {connections} connections")
    with StageMeter(ctx.roles, statements) as meter:
        figures = oha_run(ctx, url=url, requests=requests, connections=connections, name=f"{name}-stage", label=label)
    return [meter.stage(figures)]
