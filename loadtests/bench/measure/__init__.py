"""`./bench run`: the benchmark itself.

request       `./bench run`'s options made into a plan, and the plan carried out (plan_run)
plan          what to run: stacks, scenarios, profile, CPU split (Plan)
estimate      how long each stack × scenario of a plan takes, from earlier runs where there are any
orchestrate   runs a plan job by job and writes one raw record per job (execute, execute_ladder)
stack_run     one stack × scenario × run: start it, steady state, ladder, stages, checks, stop it
steady        steady state before measuring: CPU per request settled over windows at a fixed rate
ladder        the fixed-rate ladder (the open model) and when a step is held
bounds        every role's CPU over a stage and what bound it
ceiling_run   the database and HTTP ceilings of a scenario
k6, oha, pgbench   the stage runners of each load generator; load runs one to completion
probes        what is measured around a stage: app CPU and memory, SQL statement counts
roles         the cgroups (or taskset pinning) of the app, PostgreSQL, the load generator and the stock upstream
faults        faults injected during a stage (PostgreSQL restarted)
ceilings      what the database and HTTP ceilings are, and running pgbench and nginx for them
loadgen       running k6 and oha, and reading what they report
writes        the lost-write check after a write scenario
cgroups       CPU sets and memory caps of the three roles, with cgroup v1 or v2
environment   what a result was measured on: machine, versions, git commit
target_run    a stack that runs elsewhere (--target): the load from here, the rest not measured
display       the live status line
verdict       what a run must not have
"""

from bench.measure.orchestrate import execute, execute_ladder
from bench.measure.plan import (
    LADDER_SCENARIOS,
    MEM_LADDER_MIB,
    Plan,
    cpu_count,
    default_split,
    kept_records,
    observed_runs,
)
from bench.measure.request import PlannedRun, RunRequest, plan_run
from bench.measure.stack_run import stack_info
from bench.measure.target_run import execute_target, unnamed_target
from bench.measure.verdict import Verdict, verdict

__all__ = [
    "LADDER_SCENARIOS",
    "MEM_LADDER_MIB",
    "Plan",
    "PlannedRun",
    "RunRequest",
    "Verdict",
    "cpu_count",
    "default_split",
    "execute",
    "execute_ladder",
    "execute_target",
    "kept_records",
    "observed_runs",
    "plan_run",
    "stack_info",
    "unnamed_target",
    "verdict",
]
