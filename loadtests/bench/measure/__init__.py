"""`./bench run`: the benchmark itself, in packages that each do one thing, each importing only
those listed after it.

run      the plan carried out, job by job: a stack's, a ceiling's, a --target's (plan_run, execute)
phases   one job's phases against a running server: steady state, ladder, stages, metered
plan     what a run is to do and how long it takes (Plan, the estimate, the ceilings)
load     the load generators k6, oha and pgbench: their commands and what they report
host     the machine: the roles' cgroups and CPU sets, what the app holds, the environment

What a step, a warm-up or a run is judged by is bench.judgement, which the report reads too.
"""

from bench.measure.plan.plan import (
    LADDER_SCENARIOS,
    MEM_LADDER_MIB,
    Plan,
    cpu_count,
    default_split,
    kept_records,
    observed_runs,
)
from bench.measure.run.orchestrate import execute, execute_ladder
from bench.measure.run.request import PlannedRun, RunRequest, plan_run
from bench.measure.run.stack_run import stack_info
from bench.measure.run.target_run import execute_target, unnamed_target

__all__ = [
    "LADDER_SCENARIOS",
    "MEM_LADDER_MIB",
    "Plan",
    "PlannedRun",
    "RunRequest",
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
]
