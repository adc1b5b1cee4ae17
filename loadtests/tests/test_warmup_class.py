"""What state a record was measured in (docs/method.md, Steady state): the ladder runs one of its
full-length steps again on the same process, and the warm-up and that repeat class the record as
steady, still warming, slowing or not settled; each warm-up window keeps the machine's steal and
pressure and a JVM's collections, safepoints, heap and threads."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest
from ladder_steps import ladder_step
from test_open_model import _warm_up

from bench.judgement.steady import repeated_step, warmup_class
from bench.measure.host.hsperf import JvmReading
from bench.measure.load.figures import LoadFigures
from bench.measure.phases import ladder as ladder_phase
from bench.measure.phases.context import Context
from bench.measure.phases.steady import jvm_window
from bench.records.steps import HostFigures, JvmWindow, Ladder, LadderStep, Latency, SteadyState, WindowReadings
from bench.scenarios import SCENARIOS


def _step(rate: float, held: bool, cpu_ms: float | None, *, probe: bool = False) -> LadderStep:
    step = ladder_step(rate, held, probe=probe)
    step.cpu_ms_per_request = cpu_ms
    return step


def _steady(reached: bool = True) -> SteadyState:
    return SteadyState(
        rate_rps=400,
        window_s=3,
        cap_s=200,
        windows_cpu_ms_per_request=[1.0] * 6,
        time_s=18 if reached else 200,
        reached=reached,
    )


def _ladder(first_ms: float | None, repeat_ms: float | None) -> Ladder:
    steps = [
        _step(400, True, 9.0, probe=True),
        _step(800, False, 9.0, probe=True),
        _step(560, False, 2.0),
        _step(400, True, first_ms),
        _step(480, True, 1.5),
    ]
    repeat = _step(400, True, repeat_ms) if repeat_ms is not None or first_ms is not None else None
    return Ladder(objective_p99_ms=100, rates=[400, 800], steps=steps, capacity_rps=480, repeat=repeat)


def test_the_repeated_step_is_the_first_full_length_step_held():
    steps = _ladder(1.0, 1.0).steps
    # Not a probe (short), not 560 (not held: it measured a full core, not its requests).
    assert repeated_step(steps) is steps[3]
    # None held at full length: the first full-length step, which is all there is to compare.
    unheld = [_step(400, True, 1.0, probe=True), _step(560, False, 3.0), _step(480, False, 2.5)]
    assert repeated_step(unheld) is unheld[1]
    # A step without the app's CPU (a --target run) cannot be compared.
    assert repeated_step([_step(400, True, None)]) is None
    assert repeated_step([]) is None


@pytest.mark.parametrize(
    "first_ms, repeat_ms, expected",
    [
        (1.0, 1.0, "steady"),
        (1.0, 1.09, "steady"),
        (1.0, 0.91, "steady"),
        (1.0, 0.85, "still-warming"),  # java-quarkus's join-filter falling late, in the small
        (1.0, 1.2, "slowing"),
    ],
)
def test_a_settled_warm_up_is_classed_by_its_repeated_step(first_ms, repeat_ms, expected):
    assert warmup_class(_steady(), _ladder(first_ms, repeat_ms)) == expected


def test_a_warm_up_that_reached_its_cap_is_not_settled_whatever_the_repeat_says():
    assert warmup_class(_steady(reached=False), _ladder(1.0, 1.0)) == "not-settled"
    assert warmup_class(_steady(reached=False), None) == "not-settled"


def test_nothing_to_compare_gives_no_class():
    assert warmup_class(None, _ladder(1.0, 1.0)) is None, "no warm-up: a ceiling, a closed-model run"
    assert warmup_class(_steady(), None) is None, "the stack stopped before its ladder"
    no_repeat = _ladder(1.0, 1.0).model_copy(update={"repeat": None})
    assert warmup_class(_steady(), no_repeat) is None
    assert warmup_class(_steady(), _ladder(1.0, None).model_copy(update={"repeat": _step(400, True, None)})) is None


def delivered_figures(rate: float, seconds: int, *, p99: float) -> LoadFigures:
    """A fixed-rate step that delivered all it was offered, without an error, at `p99` ms."""
    return LoadFigures.model_construct(
        vus=10,
        requests=int(rate * seconds),
        rps=rate,
        duration_s=float(seconds),
        latency_ms=Latency(avg=1.0, p50=1.0, p95=p99, p99=p99, max=p99),
        errors={},
        error_count=0,
        bytes_received=None,
        offered_rps=rate,
        dropped_iterations=0,
        arrivals=None,
        endpoints=None,
    )


class _FakeMeter:
    """Measures nothing around a step: its app CPU per request is 0.5 ms at every rate."""

    def __init__(self, roles: object, statements: object) -> None:
        """Nothing to measure with: no roles, no database."""

    def __enter__(self) -> _FakeMeter:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def stage(self, figures: LoadFigures) -> SimpleNamespace:
        return SimpleNamespace(cpu_ms_per_request=0.5)


def test_the_ladder_runs_its_first_held_full_length_step_again_under_a_tag_of_its_own(monkeypatch):
    scenario = SCENARIOS["avatar"]
    capacity = 3000.0
    tags: list[str] = []

    def prepare(rate: float, seconds: int, tag: str):
        tags.append(tag)
        figures = delivered_figures(rate, seconds, p99=500.0 if rate > capacity else 5.0)
        return lambda: figures

    monkeypatch.setattr(ladder_phase, "StageMeter", _FakeMeter)
    monkeypatch.setattr(ladder_phase, "make_step", _make_step_with_fake_latency)
    display = SimpleNamespace(update=lambda *a: None)
    ctx = SimpleNamespace(plan=SimpleNamespace(profile="smoke"), display=display, roles=None)
    ladder = ladder_phase.run_ladder(cast(Context, ctx), scenario, prepare, label="test", statements=None)
    full = [s for s in ladder.steps if not s.probe]
    first = next(s for s in full if s.held)
    assert ladder.repeat is not None and ladder.repeat.offered_rps == first.offered_rps
    assert tags[-1] == f"repeat{first.offered_rps:g}", "the repeat's requests and logs are its own"
    assert all(s is not ladder.repeat for s in ladder.steps), "the repeat decides no capacity"
    assert len(tags) == len(ladder.steps) + 1

    # A ceiling has no warm-up to class: no repeat.
    tags.clear()
    ceiling = ladder_phase.run_ladder(cast(Context, ctx), scenario, prepare, label="c", statements=None, repeat=False)
    assert ceiling.repeat is None and not any(t.startswith("repeat") for t in tags)


def _make_step_with_fake_latency(figures, meter, *, objective_ms, alive=True, bisection=False, probe=False):
    stage = meter.stage(figures)
    held = figures.latency_ms.p99 <= objective_ms
    step = ladder_step(figures.offered_rps, held, bisection=bisection, probe=probe)
    step.cpu_ms_per_request = stage.cpu_ms_per_request
    return step


def test_a_jvms_window_counters_are_the_differences_over_the_window():
    before = JvmReading(
        gc_ticks=40_000_000,
        gc_pauses=10,
        heap_used_bytes=80 << 20,
        ticks_per_second=1_000_000_000,
        compiles=5_000,
        safepoints=120,
        safepoint_ticks=60_000_000,
        live_threads=31,
    )
    after = JvmReading(
        gc_ticks=52_000_000,
        gc_pauses=13,
        heap_used_bytes=64 << 20,
        ticks_per_second=1_000_000_000,
        compiles=5_004,
        safepoints=131,
        safepoint_ticks=75_000_000,
        live_threads=33,
    )
    window = jvm_window(before, after)
    assert (window.gc_pauses, window.safepoints, window.heap_used_bytes, window.live_threads) == (3, 11, 64 << 20, 33)
    assert window.gc_pause_ms == pytest.approx(12.0) and window.safepoint_ms == pytest.approx(15.0)


def test_every_warm_up_window_keeps_its_readings():
    host = HostFigures(steal_share=0.001, cpu_pressure_share=0.2)
    jvm = JvmWindow(
        gc_pauses=2, gc_pause_ms=6.0, heap_used_bytes=1 << 20, safepoints=9, safepoint_ms=7.5, live_threads=30
    )
    readings = WindowReadings(host=host, jvm=jvm)
    warmup, _ = _warm_up({400: [(1.0, 0.4, 0, 0.01, 3.0, readings)] * 6})
    assert warmup.reached and warmup.readings == [readings] * 6


def test_results_md_and_the_claims_say_the_class_of_the_records_they_rest_on():
    from test_claims import cells, claim, run

    from bench.report.claims import judge, rests_on
    from bench.report.figures import class_counts
    from bench.report.ladder import ladder_table
    from bench.report.pairs import METRICS

    records = []
    for run_number, cls in enumerate(["steady", "still-warming", "steady"], 1):
        a = run("a", run_number, 630.0)
        a["warmup_class"] = cls
        records.append(a)
    for run_number in (1, 2, 3):
        b = run("b", run_number, 400.0)
        b["warmup_class"] = "steady"
        records.append(b)
    by_name = cells(records)
    a_cell = by_name["join-filter"]["a"]
    assert class_counts(a_cell.records) == "2 steady, 1 still warming"
    judged = judge(claim(), by_name)
    said = rests_on(judged.measured[0], METRICS["capacity"])
    assert said.endswith("not steady: 1 of a's still warming"), said
    table = "\n".join(ladder_table("join-filter", list(by_name["join-filter"].values())))
    assert "2 steady, 1 still warming" in table and "3 steady" in table


def test_the_progress_line_says_what_the_repeated_step_found():
    from test_claims import run

    from bench.judgement.verdict import summary_line
    from bench.records import RawResult

    record = run("a", 1, 630.0)
    record["warmup_class"] = "still-warming"
    assert "steady in 12 s, still warming by its repeated step" in summary_line(RawResult.model_validate(record))
    record["warmup_class"] = "not-settled"
    record["steady_state"]["reached"] = False
    assert "by its repeated step" not in summary_line(RawResult.model_validate(record))
