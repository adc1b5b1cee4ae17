"""The first minute and a warm-up of a fixed length, nothing after: each stack x scenario on a
fresh process, under the quick profile, its warm-up run to SECONDS whether it settles or not, so
that what happens late in it is seen. Each window keeps the runner's readings (steal, pressure; a
JVM's collections, safepoints, heap, threads, compilations and compiler CPU). Run from a
checkout's loadtests/ with the runner's Python:

    [PRINT_COMPILATION=1] ../.bench/venv/bin/python \
        ../results/experiments/2026-12-02-late-drops/warm_up_300.py OUTPUT SECONDS SCENARIO STACK...

PRINT_COMPILATION=1 starts each JVM with -XX:+PrintCompilation (through JDK_JAVA_OPTIONS, which
the java launcher reads) and copies its server log, with every compilation and its time since
the JVM started, beside the records: a run that is not a measurement, since printing costs CPU.

Records are marked failed ("experiment: …") so that no report takes them for a measurement."""

import dataclasses
import os
import shutil
import sys
from pathlib import Path

from bench import paths, profiles
from bench.cli.group import cli
from bench.measure.phases import steady
from bench.measure.run import stack_run

output, seconds, scenario, *stacks = sys.argv[1:]
quick = profiles.OPEN_TIMING["quick"]
profiles.OPEN_TIMING["quick"] = dataclasses.replace(quick, cap_s=int(seconds), jvm_cap_s=int(seconds))
steady.settled = lambda *args, **kwargs: False
printing = os.environ.get("PRINT_COMPILATION") == "1"
if printing:
    os.environ["JDK_JAVA_OPTIONS"] = "-XX:+PrintCompilation"
stack_run.run_ladder = lambda *args, **kwargs: None
stack_run.k6_stages = lambda *args, **kwargs: stack_run.Outcome([])
stack_run.read_mix_stages = lambda *args, **kwargs: []
stack_run.avatar_stages = lambda *args, **kwargs: []
measured = stack_run._load_and_check


def warm_up_only(*args, **kwargs):
    outcome = measured(*args, **kwargs)
    what = "with -XX:+PrintCompilation" if printing else f"the first minute and {seconds} s of warm-up only"
    outcome.failed = outcome.failed or f"experiment: {what}"
    return outcome


stack_run._load_and_check = warm_up_only
cli(["run", *stacks, "--profile", "quick", "--no-ceilings", "--output", output, "--yes", "--scenario", scenario,
     "--repeat", os.environ.get("REPEAT", "2")],
    standalone_mode=False)
if printing:
    for log in (paths.LOGS / "run").glob(f"*-{scenario}-run*-server.log"):
        if any(log.name.startswith(f"{name}-{scenario}-") for name in stacks):
            shutil.copy(log, Path(output) / f"compilations-{log.name}")
