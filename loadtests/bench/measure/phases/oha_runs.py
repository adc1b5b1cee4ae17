"""The oha runs: the avatar scenario's single endpoint, against a stack or nginx, by duration:
closed-model stages (as many requests as its connections get answered) or fixed-rate ones; and
the fixed-rate steps of a read scenario, from its URL list, and the closed-model stage of one
that oha alone sends (the outbound scenario)."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from bench.errors import BenchError
from bench.measure.load import oha
from bench.measure.load.figures import LoadFigures
from bench.measure.load.oha import rate_connections
from bench.measure.load.process import run_load
from bench.measure.load.urls import write_url_list
from bench.measure.phases.context import Context, logs
from bench.measure.phases.ladder import RunStep
from bench.measure.phases.probes import StageMeter, Statements
from bench.profiles import closed_timing
from bench.records import Dialect
from bench.records.steps import Stage
from bench.scenarios import Scenario

# Seconds one oha run may take beyond its duration.
OHA_GRACE_S = 120


def oha_run(
    ctx: Context,
    *,
    url: str,
    connections: int,
    seconds: float,
    name: str,
    label: str,
    rate: float | None = None,
    url_file: Path | None = None,
    expected_status: int = 302,
    requests_db: Path | None = None,
) -> LoadFigures:
    """One oha run of `seconds` against `url` (or the URLs of `url_file`) on the load generator's
    CPUs, at `rate` if given; with `requests_db`, each answered request logged there too."""
    output: Path = logs() / f"{name}.json"
    log = logs() / f"{name}.log"
    command = ctx.roles.wrap(
        "loadgen",
        oha.oha_command(
            ctx.tools["oha"],
            url,
            connections=connections,
            output=output,
            rate=rate,
            duration_s=seconds,
            url_file=url_file,
            requests_db=requests_db,
        ),
    )
    code = run_load(command, log, ctx.display.show_rate, seconds + OHA_GRACE_S)
    if code != 0:
        raise BenchError(f"oha failed (exit {code}) on {label}; log {log}")
    figures = oha.parse_oha(output, expected_status=expected_status, connections=connections)
    if rate is not None:
        figures.offered_rps = rate
        figures.dropped_iterations = 0
    return figures


def fixed_rate_step(ctx: Context, scenario: Scenario, *, url: str, name: str, label: str) -> RunStep:
    """A ladder step against `url`: oha at the step's rate, with connections for it (rate_connections)."""

    def run_step(rate: float, seconds: int, tag: str) -> LoadFigures:
        connections = rate_connections(rate, scenario.objective_ms)
        return oha_run(
            ctx, url=url, connections=connections, seconds=seconds, name=f"{name}-{tag}", label=label, rate=rate
        )

    return run_step


def read_mix_step(
    ctx: Context, scenario: Scenario, *, base_url: str, dialect: Dialect, name: str, label: str
) -> RunStep:
    """A ladder step of a read scenario: oha at the step's rate over the scenario's URL list
    (bench.measure.load.urls), written once for the stack at `base_url`, every answer expected 200."""
    url_file = write_url_list(logs() / f"{name}-urls.txt", scenario, base_url, dialect)

    def run_step(rate: float, seconds: int, tag: str) -> LoadFigures:
        connections = rate_connections(rate, scenario.objective_ms)
        return oha_run(
            ctx,
            url=base_url,
            connections=connections,
            seconds=seconds,
            name=f"{name}-{tag}",
            label=label,
            rate=rate,
            url_file=url_file,
            expected_status=200,
        )

    return run_step


class LoggedWindow(Protocol):
    """A fixed-rate oha run of the scenario that also logs each answered request to `requests_db`."""

    def __call__(self, rate: float, seconds: int, tag: str, requests_db: Path) -> LoadFigures: ...


def logged_window(
    ctx: Context, scenario: Scenario, *, base_url: str, dialect: Dialect, name: str, label: str
) -> LoggedWindow:
    """The windows of the first minute (bench.measure.phases.first_minute): oha as in the ladder's
    steps (the avatar's one URL, or a read scenario's URL list), each request logged."""
    url_file = write_url_list(logs() / f"{name}-urls.txt", scenario, base_url, dialect) if scenario.read_mix else None

    def run_window(rate: float, seconds: int, tag: str, requests_db: Path) -> LoadFigures:
        return oha_run(
            ctx,
            url=base_url if url_file is not None else base_url + "/avatar",
            connections=rate_connections(rate, scenario.objective_ms),
            seconds=seconds,
            name=f"{name}-{tag}",
            label=label,
            rate=rate,
            url_file=url_file,
            expected_status=200 if url_file is not None else 302,
            requests_db=requests_db,
        )

    return run_window


def avatar_stages(
    ctx: Context,
    scenario: Scenario,
    *,
    url: str,
    name: str,
    label: str,
    statements: Statements | None,
    warm: bool = False,
) -> list[Stage]:
    """The avatar's closed-model stage against `url` (the original study's 10 connections, by
    duration), after an uncounted warm-up unless the stack is `warm` (steady state reached)."""
    return _closed_stages(ctx, scenario, url=url, name=name, label=label, statements=statements, warm=warm)


def read_mix_stages(
    ctx: Context,
    scenario: Scenario,
    *,
    base_url: str,
    dialect: Dialect,
    name: str,
    label: str,
    statements: Statements | None,
    warm: bool = False,
) -> list[Stage]:
    """The closed-model stage of a read scenario that oha sends (outbound): its connections over
    the scenario's URL list, by duration, every answer expected 200; warmed up as the avatar's."""
    url_file = write_url_list(logs() / f"{name}-urls.txt", scenario, base_url, dialect)
    return _closed_stages(
        ctx,
        scenario,
        url=base_url,
        name=name,
        label=label,
        statements=statements,
        warm=warm,
        url_file=url_file,
        expected_status=200,
    )


def _closed_stages(
    ctx: Context,
    scenario: Scenario,
    *,
    url: str,
    name: str,
    label: str,
    statements: Statements | None,
    warm: bool,
    url_file: Path | None = None,
    expected_status: int = 302,
) -> list[Stage]:
    connections = scenario.stages[0]
    warmup, seconds = closed_timing(ctx.plan.profile, ctx.plan.open_model)

    def run(seconds: float, tag: str) -> LoadFigures:
        return oha_run(
            ctx,
            url=url,
            connections=connections,
            seconds=seconds,
            name=f"{name}-{tag}",
            label=label,
            url_file=url_file,
            expected_status=expected_status,
        )

    if not warm:
        ctx.display.update(f"{label}: warm-up ({warmup} s, not counted)")
        run(warmup, "warmup")
    ctx.display.update(f"{label}: {connections} connections for {seconds} s")
    with StageMeter(ctx.roles, statements) as meter:
        figures = run(seconds, "stage")
    return [meter.stage(figures)]
