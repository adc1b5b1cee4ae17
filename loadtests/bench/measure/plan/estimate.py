"""How long `./bench run` will take, stack × scenario by stack × scenario: the profile's timing,
the ladder's probes and full-length steps (those an earlier run of the same stack × scenario
stepped, when there is one), and what each run of a load generator and each job cost beyond
their load. `./bench run` prints it first (and only it, with --estimate); its live line counts
down from it."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from bench.judgement.ladder import bisection_rates
from bench.judgement.steady import STEADY_WINDOWS
from bench.measure.plan.ceilings import CEILING_DB, ceiling_of
from bench.profiles import OPEN_TIMING, TIMING, closed_timing, replication_stages, step_seconds
from bench.scenarios import Scenario

# What a run costs beyond its load on the 2-core machine (smoke runs of go-gin, 2026-11-24): k6's
# start-up, VU initialisation and summary; oha's; one job's database reset, start-up, idle
# reading, SQL probes and stop (a JVM's start-up included).
K6_RUN_S = 1.0
OHA_RUN_S = 0.4
# vegeta's run beyond its load: its start-up and last answers, its results read back after it,
# and its requests drawn and written (and rows made) before it: 1.3 s a steady-state window (the
# most of its runs) and 1.1-2.6 s a ladder step in go-gin's heavy-body quick run of 2026-11-29,
# on a machine shared with other work.
VEGETA_RUN_S = 1.3
RUN_S = {"k6": K6_RUN_S, "oha": OHA_RUN_S, "vegeta": VEGETA_RUN_S}
PGBENCH_RUN_S = 0.5
# The machine's calibration at the start of every `./bench run` here (bench.measure.run.calibration):
# about 6 s of the app's CPU workload and 11 s of pgbench, and their start-up.
CALIBRATION_S = 20.0
JOB_S = 8.0
# Without an earlier run of the same stack × scenario to go by, the mean of the first repeat of
# the publication at 35f04db (ten stacks, eight variants, six scenarios; docs/rationale.md, Profiles): a
# ladder probed 8-12 rates, about 80% of its scenario's grid with the bisection after it, then ran
# 3.3-5.1 full-length steps, since a 3 s probe holds rates a full-length step does not and the
# full-length steps walk down from there; a warm-up took 33-51 s on average by scenario, about
# twelve 3 s windows (the JVMs mostly to the cap). The model before it (70% of the grid, two
# full-length steps, seven windows) came to 71% of that repeat's real time.
DEFAULT_LADDER_SHARE = 0.8
DEFAULT_FULL_STEPS = 4
DEFAULT_STEADY_WINDOWS = 4 * STEADY_WINDOWS


@dataclass(frozen=True)
class Observed:
    """What an earlier run of the same stack × scenario took: the estimate follows it."""

    steady_s: float | None
    probe_rates: tuple[float, ...] | None
    """Every probe's offered rate, their bisection's included (observed_runs in
    bench.measure.plan.plan reads a run from before the probes as the probes it would run now)."""
    full_rates: tuple[float, ...] | None = None
    """Every full-length step's offered rate."""


def estimate_seconds(
    scenario: Scenario,
    profile: str,
    *,
    open_model: bool = False,
    ceiling: bool = False,
    observed: Observed | None = None,
    variant: bool = False,
) -> float:
    """The duration of one stack × scenario (or of its ceiling, or of a variant's), start-up and
    probes included."""
    timing = TIMING[profile]
    per_run = RUN_S[scenario.tool]
    per_step = RUN_S[scenario.ladder_tool]
    # The soak runs the first stage only (bench.measure.run.stack_run).
    stages = scenario.stages[:1] if profile == "soak" else scenario.stages
    if ceiling:
        per_run = PGBENCH_RUN_S if ceiling_of(scenario) is CEILING_DB else OHA_RUN_S
        if not open_model:
            warmup, stage = closed_timing(profile, open_model)
            return JOB_S + warmup + per_run + len(stages) * (stage + per_run)
        # The ladder alone (bench.measure.run.ceiling_run), without a steady state: neither pgbench's
        # SQL nor nginx has a JIT to wait for.
        return JOB_S + _ladder_s(scenario, profile, observed, per_run)
    if not open_model:
        ramps = sum(1 for a, b in itertools.pairwise(stages) if a != b) + 1 if timing["ramp"] else 0
        return JOB_S + timing["warmup"] + per_run + ramps * timing["ramp"] + len(stages) * (timing["stage"] + per_run)
    open_timing = OPEN_TIMING[profile]
    # Each window is a run of the ladder's tool of its own (bench.measure.phases.steady.cpu_window_runs).
    window = open_timing.window_s + per_step
    steady = observed.steady_s if observed is not None and observed.steady_s is not None else None
    if steady is None:
        steady = DEFAULT_STEADY_WINDOWS * window
    replication = len(replication_stages(scenario, profile)) * (open_timing.replication_stage_s + per_run)
    # The first minute (bench.measure.phases.first_minute) and its windows at the same rate after the
    # warm-up: oha runs, one each.
    first_minute = (
        (math.ceil(open_timing.first_minute_s / open_timing.window_s) + STEADY_WINDOWS)
        * (open_timing.window_s + OHA_RUN_S)
        if scenario.measures_first_minute(variant=variant)
        else 0.0
    )
    return (
        JOB_S
        + first_minute
        # A JVM's cap is the longer one; another runtime's observed warm-up never reaches it.
        + min(steady, open_timing.warmup_cap_s(jvm=True) + window)
        + _ladder_s(scenario, profile, observed, per_step)
        + _repeat_s(scenario, profile, observed, per_step)
        + replication
    )


def _repeat_s(scenario: Scenario, profile: str, observed: Observed | None, per_run: float) -> float:
    """The full-length step run again after the ladder (bench.judgement.steady.repeated_step): the
    first full-length rate an earlier run stepped, else the scenario's rate that DEFAULT_LADDER_SHARE
    of its grid reaches."""
    timing = OPEN_TIMING[profile]
    if observed is not None and observed.full_rates:
        rate = observed.full_rates[0]
    else:
        rate = float(scenario.rates[max(0, round(DEFAULT_LADDER_SHARE * len(scenario.rates)) - 2)])
    return step_seconds(timing, rate) + per_run


def _ladder_s(scenario: Scenario, profile: str, observed: Observed | None, per_run: float) -> float:
    """The probes and the full-length steps: those an earlier run stepped; else the probes up a
    share of the scenario's rates, the last of them not held, and their bisection, then
    DEFAULT_FULL_STEPS full-length steps around the capacity they found."""
    timing = OPEN_TIMING[profile]
    if observed is not None and observed.probe_rates is not None:
        probes, full = list(observed.probe_rates), list(observed.full_rates or ())
    else:
        probes = [float(r) for r in scenario.rates[: max(1, round(DEFAULT_LADDER_SHARE * len(scenario.rates)))]]
        bracket = bisection_rates(probes[-2], probes[-1]) if len(probes) > 1 else []
        probes += bracket
        full = [bracket[-1] if bracket else probes[-1]] * DEFAULT_FULL_STEPS
    return sum(timing.probe_s + per_run for _ in probes) + sum(step_seconds(timing, rate) + per_run for rate in full)
