"""The first minute and the warm-up of `./bench run`, and nothing after: each stack x scenario on
a fresh process, under the quick profile with its warm-up cap raised to CAP_S, to see how long
method v4's steady state takes. Run from a checkout's loadtests/ with the runner's Python:

    [WARM_RATES=SCENARIO=RATE,...] ../.bench/venv/bin/python \
        ../results/experiments/2026-11-29-time-to-steady/warm_up_only.py \
        OUTPUT CAP_S SCENARIO[,SCENARIO...] STACK...

WARM_RATES replaces scenarios' warm rates (the same for every stack, as in the runner).

The ladder and the closed-model stages are left out; each record is marked failed with the reason
"experiment: the first minute and the warm-up only", so no report takes it for a measurement."""

import dataclasses
import os
import sys

from bench import profiles
from bench import scenarios as scenario_table
from bench.cli.group import cli
from bench.measure.run import stack_run

output, cap_s, scenarios, *stacks = sys.argv[1:]
profiles.OPEN_TIMING["quick"] = dataclasses.replace(profiles.OPEN_TIMING["quick"], cap_s=int(cap_s))
for pair in filter(None, os.environ.get("WARM_RATES", "").split(",")):
    name, rate = pair.split("=")
    scenario_table.SCENARIOS[name] = dataclasses.replace(scenario_table.SCENARIOS[name], warm_rate=int(rate))
stack_run.run_ladder = lambda *args, **kwargs: None
stack_run.k6_stages = lambda *args, **kwargs: stack_run.Outcome([])
stack_run.read_mix_stages = lambda *args, **kwargs: []
stack_run.avatar_stages = lambda *args, **kwargs: []
measured = stack_run._load_and_check


def warm_up_only(*args, **kwargs):
    outcome = measured(*args, **kwargs)
    outcome.failed = outcome.failed or "experiment: the first minute and the warm-up only"
    return outcome


stack_run._load_and_check = warm_up_only
arguments = ["run", *stacks, "--profile", "quick", "--no-ceilings", "--output", output, "--yes"]
for scenario in scenarios.split(","):
    arguments += ["--scenario", scenario]
cli(arguments)
