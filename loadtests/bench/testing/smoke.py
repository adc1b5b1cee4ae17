"""The smoke benchmark of `./bench test`: `./bench run go-gin --profile smoke` end to end on the
first rungs of each ladder, which proves the measuring pipeline without publishing anything."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil

from bench import measure, paths, scenarios, schema
from bench.conformance import Step
from bench.console import console
from bench.errors import BenchError
from bench.manifest import Stack
from bench.postgres import Cluster
from bench.records import RawResult
from bench.testing import StackResult

SMOKE_STACK = "go-gin"

SMOKE_RUNGS = 2
"""The rates of each scenario's ladder the smoke climbs. Every scenario and ceiling still runs
every stage of a run (warm-up, probes, full-length steps, the closed model, the write check),
which is what the smoke proves; climbing all 6-12 rates took more than half its time and proved
nothing more: the ladder's climb and bisection have their own tests (tests/test_bisection.py,
tests/test_orchestration.py). Two rates, not three, since a ladder of two is still a climb, and
the third rung cost CI about a minute a run."""


def smoke_scenarios() -> list[scenarios.Scenario]:
    """Every scenario, its ladder cut to its first SMOKE_RUNGS rates."""
    return [dataclasses.replace(s, rates=s.rates[:SMOKE_RUNGS]) for s in scenarios.SCENARIOS.values()]


def smoke_verdict(records: list[RawResult], problems: list[str], *, expected_runs: int) -> tuple[bool, str]:
    """Whether a smoke run proved the pipeline: every run complete and recorded, its files valid,
    no write lost, no status the contract does not give. A 503 is the contract's answer when the
    pool's 5 s wait runs out, which a smoke's 200 VUs on a machine busy with CI can cause: it is
    counted and shown, and does not fail the pipeline."""
    failed = [r for r in records if r.failed]
    statuses = [(status, count) for r in records for stage in r.stages for status, count in stage.errors.items()]
    overloaded = sum(count for status, count in statuses if status == "503")
    unexpected = sum(count for status, count in statuses if status != "503")
    lost = sum(r.lost_writes.lost_writes for r in records if r.lost_writes is not None)
    ok = not failed and not problems and unexpected == 0 and lost == 0 and len(records) == expected_runs
    summary = (
        f"{len(records)} runs, {len(failed)} failed, {unexpected} unexpected statuses"
        + (f" ({overloaded} × 503 from the pool's wait, allowed)" if overloaded else "")
        + f", {lost} lost writes, {len(problems)} schema problems"
    )
    return ok, summary


def run_smoke(stack: Stack, cluster: Cluster) -> StackResult:
    """`./bench run STACK --profile smoke` end to end, its raw JSON validated against the schema."""
    result = StackResult(f"smoke run ({stack.name})")
    output = paths.HOME / "results"
    shutil.rmtree(output / "raw" / "smoke", ignore_errors=True)
    split = measure.default_split(os.cpu_count() or 1)
    plan = measure.Plan([stack], smoke_scenarios(), "smoke", 1, split, output)
    try:
        records = measure.execute(plan, cluster)
    except BenchError as error:
        result.steps["benchmark"] = Step(False, str(error).splitlines()[0])
        result.failed += 1
        console.print(f"[red]{error}[/]")
        return result
    problems = []
    for raw in sorted((output / "raw" / "smoke").glob("*.json")):
        problems += [f"{raw.name}: {p}" for p in schema.validate_raw(json.loads(raw.read_text()))]
    failed = [r for r in records if r.failed]
    ok, summary = smoke_verdict(records, problems, expected_runs=2 * len(scenarios.SCENARIOS))
    result.steps["benchmark"] = Step(ok, summary)
    result.passed, result.failed = (1, 0) if ok else (0, 1)
    console.print(f"smoke run: {summary}")
    for problem in problems[:20]:
        console.print(f"  [red]{problem}[/]", markup=True)
    for record in failed:
        console.print(f"  [red]{record.stack.name} · {record.scenario}: {record.failed}[/]")
    return result
