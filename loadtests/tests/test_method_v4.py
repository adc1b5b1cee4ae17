"""Method v4's promises, checked over every published raw file the method measured (issue 52): no
share of the app's CPU above its CPU set, no scenario measured on a process another scenario
warmed, and every step of a JVM with its JIT's compilations and compiler CPU, so that a reader
can see the JIT was quiet when it was measured. The rules run on synthetic records first, so
that the check over the published files is known to catch what it looks for."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from test_report import laddered

from bench.records import RawResult

RAW = Path(__file__).resolve().parents[2] / "results" / "raw"
# A share is CPU seconds over the wall time between two readings: within the readings' own
# imprecision of its CPU set.
SHARE_LIMIT = 1.02


def problems(record: RawResult) -> list[str]:
    """What in a record measured by method v4 breaks its promises."""
    found = []
    if record.served_before:
        found.append(f"served after {record.served_before} on the same process")
    steady = record.steady_state
    windows = (steady.windows_app_cpu_share or []) if steady is not None else []
    shares = [("window", share) for share in windows]
    steps = record.ladder.steps if record.ladder is not None else []
    shares += [(f"step at {s.offered_rps:g}", s.cpu.app_cpu_share) for s in steps if s.cpu is not None]
    shares += [(f"stage of {s.vus}", s.cpu.app_cpu_share) for s in record.stages if s.cpu is not None]
    found += [
        f"{where}: app CPU share {share:.2f}" for where, share in shares if share is not None and share > SHARE_LIMIT
    ]
    for step in steps:
        jvm = step.resources.jvm if step.resources is not None else None
        if jvm is not None and (jvm.compilations is None or jvm.compiler_cpu_s is None):
            found.append(f"step at {step.offered_rps:g}: a JVM's step without its compilations and compiler CPU")
    jvm_steps = any(s.resources is not None and s.resources.jvm is not None for s in steps)
    if jvm_steps and steady is not None and steady.settled_by != "cpu-per-request-and-jit":
        found.append(f"a JVM's warm-up settled by {steady.settled_by}, without the JIT's signal")
    return found


def _v4(**changes: object) -> dict[str, Any]:
    raw: dict[str, Any] = laddered("java-spring", 1, [250.0, 400.0], 630.0)
    raw["method"] = 4
    raw["steady_state"].update(settled_by="cpu-per-request-and-jit", windows_app_cpu_share=[0.9, 0.5, 0.5, 0.5])
    for step in raw["ladder"]["steps"]:
        step["resources"] = {
            "samples": 10,
            "threads_peak": 40,
            "db_connections_held_peak": 10,
            "db_connections_in_use_peak": 4,
            "jvm": {
                "gc_pause_ms_per_s": 1.0,
                "gc_pauses": 3,
                "heap_used_peak_bytes": 80 << 20,
                "compilations": 0,
                "compiler_cpu_s": 0.01,
            },
            "sampler_cpu_ms": 5.0,
        }
    raw.update(changes)
    return raw


def test_a_record_that_keeps_the_promises_has_no_problem():
    assert problems(RawResult.model_validate(_v4())) == []


def test_each_broken_promise_is_found():
    warmed = _v4(served_before=["read-heavy"])
    assert problems(RawResult.model_validate(warmed)) == ["served after ['read-heavy'] on the same process"]

    over = _v4()
    over["ladder"]["steps"][1]["cpu"]["app_cpu_share"] = 1.31
    over["steady_state"]["windows_app_cpu_share"][0] = 4.3
    assert problems(RawResult.model_validate(over)) == ["window: app CPU share 4.30", "step at 400: app CPU share 1.31"]

    blind = _v4()
    del blind["ladder"]["steps"][0]["resources"]["jvm"]["compilations"]
    blind["steady_state"]["settled_by"] = "cpu-per-request"
    assert problems(RawResult.model_validate(copy.deepcopy(blind))) == [
        "step at 250: a JVM's step without its compilations and compiler CPU",
        "a JVM's warm-up settled by cpu-per-request, without the JIT's signal",
    ]


def test_every_published_record_of_method_v4_keeps_its_promises():
    """Files measured before method v4 (no `method` in their header) made none of these promises."""
    found = []
    for path in sorted(RAW.rglob("*.json")):
        record = RawResult.read(path)
        if record.method == 4:
            found += [f"{path.relative_to(RAW)}: {problem}" for problem in problems(record)]
    assert found == [], "\n".join(found[:30])
