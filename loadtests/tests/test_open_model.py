"""The open model's rules, pure: when a ladder step is held, capacity at objective, when a stack
is at steady state, and what bound a stage."""

import contextlib
import itertools
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from ladder_steps import ladder_step

from bench.judgement.bounds import CpuTimes, client_bound, cpu_set, role_cpu
from bench.judgement.ladder import capacity, stop_reasons
from bench.judgement.steady import STEADY_SPREAD, STEADY_TREND, core_full, jit_quiet, settled
from bench.measure.phases.context import Context
from bench.measure.phases.probes import StageMeter
from bench.measure.phases.steady import _run_windows, warm_rates
from bench.profiles import OPEN_TIMING
from bench.records import CpuSplit, RawResult
from bench.records.steps import LadderStep
from bench.scenarios import SCENARIOS

# The keyword arguments of stop_reasons, of several types.
HELD: dict[str, Any] = {
    "offered_rps": 1000.0,
    "duration_s": 10.0,
    "delivered_rps": 1000.0,
    "dropped": 0,
    "error_count": 0,
    "p99_ms": 40.0,
    "objective_ms": 100.0,
}


def test_a_step_that_keeps_up_within_the_objective_is_held():
    assert stop_reasons(**HELD) == []
    # At the limits: 97% delivered, 1% dropped, p99 exactly the objective.
    assert stop_reasons(**dict(HELD, delivered_rps=970.0, dropped=100, p99_ms=100.0)) == []


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"delivered_rps": 969.0}, "delivered"),
        ({"dropped": 101}, "dropped"),
        ({"error_count": 1}, "errors"),
        ({"p99_ms": 100.1}, "p99"),
        ({"p99_ms": None}, "no-latency"),
    ],
)
def test_each_reason_alone_stops_the_ladder(change, reason):
    assert stop_reasons(**dict(HELD, **change)) == [reason]


def test_every_reason_is_said():
    reasons = stop_reasons(**dict(HELD, delivered_rps=500.0, dropped=5000, error_count=3, p99_ms=900.0))
    assert reasons == ["delivered", "dropped", "errors", "p99"]


def test_capacity_is_the_highest_rate_held_before_the_first_step_not_held():
    assert capacity([ladder_step(100, True), ladder_step(200, True), ladder_step(400, False)]) == 200
    assert capacity([ladder_step(100, True), ladder_step(200, True)]) == 200
    assert capacity([ladder_step(100, False)]) is None
    # A later step held by chance does not count: the ladder ends at the first failure.
    assert capacity([ladder_step(100, True), ladder_step(200, False), ladder_step(400, True)]) == 100


def test_cpu_per_request_that_settles_is_steady():
    # A JIT compiling: CPU per request falls, then flattens within 5% for two sets of three windows.
    assert not settled([2.5, 1.9, 1.4])
    assert not settled([2.5, 1.9, 1.4, 1.1, 1.02])
    # Three windows flat, but the three before them were 44% dearer: still getting cheaper.
    assert not settled([2.5, 1.9, 1.4, 1.1, 1.02, 1.0, 1.04])
    assert settled([2.5, 1.9, 1.4, 1.1, 1.02, 1.0, 1.04, 1.01, 1.03, 1.0])


def test_three_flat_windows_after_a_step_down_are_not_steady():
    # Flat within 5%, then a step 15% cheaper, then flat again: the step resets the judgement.
    windows = [4.0, 3.95, 3.97, 3.9, 3.4, 3.35, 3.37]
    assert not any(settled(windows[:n]) for n in range(len(windows) + 1))
    assert settled([*windows, 3.36, 3.38, 3.35])


def test_cpu_per_request_that_oscillates_wider_than_the_noise_is_not_steady():
    # Swinging by half from window to window: no level to measure.
    windows = [1.0, 1.5] * 20
    assert not any(settled(windows[:n]) for n in range(len(windows) + 1))


def test_noise_within_a_quarter_around_a_level_that_stopped_falling_is_steady():
    # go-gin's join-filter windows on 2026-11-25 (no JIT): flat, then a fifth dearer and
    # scattering. The strict rule of three windows within 5% waited the whole 60 s cap for them.
    windows = [0.39, 0.40, 0.39, 0.39, 0.49, 0.50, 0.45, 0.47, 0.50, 0.45, 0.44, 0.45, 0.58, 0.57]
    held = next(n for n in range(len(windows) + 1) if settled(windows[:n]))
    assert held == 7  # at 6 the step from 0.39 to 0.49 is still among the last three
    # A level that rose is not waited for; one that fell by more than 5% is.
    assert settled([1.0, 1.0, 1.0, 1.2, 1.2, 1.2])
    assert not settled([1.2, 1.2, 1.2, 1.0, 1.0, 1.0])
    assert settled([1.2, 1.2, 1.2, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    # One stray window does not move a median.
    assert settled([1.0, 1.0, 0.7, 1.0, 0.98, 1.0])


def test_cpu_per_request_that_never_settles_is_not_steady():
    falling = [3.0 * 0.9**n for n in range(40)]  # 10% less every window, for ever
    assert not any(settled(falling[:n]) for n in range(len(falling) + 1))


def test_a_plateau_at_a_saturated_core_is_not_steady():
    # A JVM still compiling at 250 req/s, more than it can serve yet: its core is full, and CPU
    # per request reads 1000 / 250 = 4 ms whatever a request costs, flat within 5%.
    windows = [26.9, 11.0, 5.5, 4.02, 3.99, 4.01, 3.98, 4.03, 3.99]
    shares = [w * 250 / 1000 for w in windows]
    assert settled(windows)  # the rule without shares is fooled
    assert not settled(windows, shares)
    # Compiled, it needs a quarter of the core: those windows count.
    windows += [1.1, 1.05, 1.07, 1.08, 1.06, 1.07, 1.05]
    shares += [w * 250 / 1000 for w in windows[-7:]]
    assert not settled(windows[:-3], shares[:-3])  # the three before the last still include the plateau
    assert settled(windows, shares)
    assert not settled([1.0, 1.0, 1.0], [0.25, None, 0.25])


def test_the_measured_java_plateaus_are_not_steady():
    # Four quick runs of java-spring's join-filter whose warm-up was declared over while the CPU
    # per request was still to fall to a third: three at 250 req/s (capacities 250, 630 and
    # 1,000 after them), two of them on the saturated plateau near 4 ms, and one at 3.3 ms with
    # its core 83% busy, the ladder after it measuring 2.7, 2.0 and 1.5 ms. Under the rule none
    # settles before its CPU per request is below 2 ms. Files from before the app's share was
    # recorded get it from CPU ms × rate.
    experiments = Path(__file__).parents[2] / "results/experiments"
    paths = sorted(experiments.glob("2026-11-24-spread/raw/quick/java-spring--join-filter--run*.json"))
    paths.append(experiments / "2026-11-24-java/raw/quick/java-spring--join-filter--run1.json")
    declared_early = 0
    for path in paths:
        steady = RawResult.read(path).steady_state
        assert steady is not None
        windows = steady.windows_cpu_ms_per_request
        shares = steady.windows_app_cpu_share or [
            w * steady.rate_rps / 1000 if w is not None else None for w in windows
        ]
        declared_early += steady.reached and windows[-1] is not None and windows[-1] > 3.0
        held = next((n for n in range(len(windows) + 1) if settled(windows[:n], shares[:n])), None)
        if held is not None:
            settled_at = windows[held - 1]
            assert settled_at is not None and settled_at < 2.0, path.name
    assert declared_early == 3


def test_fewer_than_three_windows_or_unknown_ones_are_not_steady():
    assert not settled([1.0, 1.0])
    assert not settled([1.0, None, 1.0])
    assert not settled([1.0, 0.0, 1.0])
    assert not settled([None, 1.0, 1.0, 1.0, 1.0, 1.0])
    assert settled([None, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])


def _warm_up(windows_at, *, give_up_after=None):
    """The warm-up of join-filter over scripted windows: `windows_at[rate]`, the (CPU ms per
    request, app share) of each window at that rate, in turn. Gives the warm-up and the rates
    whose windows were opened."""
    opened = []

    @contextlib.contextmanager
    def open_windows(rate):
        opened.append(rate)
        windows = iter(windows_at[rate])
        yield lambda: next(windows)

    # All of a run's context that the warm-up reads: the profile and the live line.
    ctx = SimpleNamespace(plan=SimpleNamespace(profile="quick"), display=SimpleNamespace(update=lambda *a, **k: None))
    warmup = _run_windows(
        cast(Context, ctx),
        SCENARIOS["join-filter"],
        open_windows,
        label="test",
        spread=STEADY_SPREAD,
        trend=STEADY_TREND,
        alive=lambda: True,
        give_up_after=give_up_after,
        judge_shares=True,
    )
    return warmup, opened


def test_the_warm_up_steps_down_the_ladder_while_the_apps_core_stays_full():
    assert warm_rates(SCENARIOS["join-filter"]) == [400, 250, 160]
    assert warm_rates(SCENARIOS["avatar"]) == [2000, 800]
    full = [(2.5, 1.0)] * 4
    warmup, opened = _warm_up({400: full, 250: full, 160: [(4.0, 0.64)] * 6})
    assert opened == [400, 250, 160]
    # Six windows at 160: only the windows at the last rate are judged (with the ones before
    # judged too, three would have done, the saturated 2.5 ms read as "getting dearer").
    assert warmup.reached and warmup.rates == [400] * 4 + [250] * 4 + [160] * 6


def test_a_cold_core_full_for_fewer_windows_than_the_rule_stays_at_the_warm_rate():
    # A JVM compiling: its core full for three windows, then cheaper and cheaper, then flat.
    cold = [(5.0, 1.0), (3.0, 1.0), (2.4, 0.96), (2.0, 0.8), (1.6, 0.64), (1.3, 0.52)]
    warm = [(1.0, 0.4)] * 6
    warmup, opened = _warm_up({400: cold + warm})
    assert opened == [400] and warmup.reached and warmup.rates == [400] * 11
    # Full for four windows, but getting cheaper: java-spring's join-filter at 400, cold.
    assert not core_full([37.5, 17.45, 16.96, 12.48], [1.0] * 4)
    assert core_full([4.1, 4.0, 4.2, 3.95], [1.0] * 4)
    assert not core_full([4.0] * 4, [1.0, 1.0, 1.0, 0.89])
    assert core_full([4.0] * 5, [0.5, 1.0, 1.0, 0.9, 0.95])


def test_at_the_ladders_first_rate_a_full_core_is_waited_out():
    full = [(2.5, 1.0)] * 24
    warmup, opened = _warm_up({400: full, 250: full, 160: full}, give_up_after=24)
    assert opened == [400, 250, 160] and not warmup.reached
    assert warmup.rates == [400] * 4 + [250] * 4 + [160] * 16


TWO_CORES = CpuSplit(app="0", postgres="1", loadgen="1")
FOUR_CORES = CpuSplit(app="0", postgres="1", loadgen="2-3")


def _cpu(split: CpuSplit, *, app: float, postgres: float, loadgen: float, wall: float = 10.0):
    return role_cpu(
        split,
        CpuTimes(100.0, 50.0, 20.0),
        CpuTimes(100.0 + app, 50.0 + postgres, 20.0 + loadgen),
        wall_s=wall,
        requests=10_000,
    )


def test_the_app_at_90_percent_of_its_core_bounds_the_stage():
    cpu = _cpu(TWO_CORES, app=9.0, postgres=3.0, loadgen=2.0)
    assert cpu.bound_by == ["app"] and cpu.app_cpu_share == pytest.approx(0.9)
    assert cpu.postgres_ms_per_request == pytest.approx(0.3)
    assert not client_bound(cpu)
    assert _cpu(TWO_CORES, app=8.9, postgres=3.0, loadgen=2.0).bound_by == []


def test_postgres_and_the_load_generator_together_bound_the_cpu_they_share():
    # Neither alone is at 90% of CPU 1, which is why the old client-bound rule never fired.
    cpu = _cpu(TWO_CORES, app=4.0, postgres=6.0, loadgen=3.0)
    assert cpu.shared_cpu_share == pytest.approx(0.9) and cpu.loadgen_cpu_share == pytest.approx(0.3)
    assert cpu.bound_by == ["postgres+loadgen"] and client_bound(cpu)
    both = _cpu(TWO_CORES, app=9.5, postgres=6.0, loadgen=3.5)
    assert both.bound_by == ["app", "postgres+loadgen"]


def test_on_separate_cpus_each_role_is_judged_on_its_own():
    assert _cpu(FOUR_CORES, app=1.0, postgres=9.5, loadgen=2.0).bound_by == ["postgres"]
    loadgen = _cpu(FOUR_CORES, app=1.0, postgres=1.0, loadgen=18.0)
    assert loadgen.bound_by == ["loadgen"] and client_bound(loadgen) and loadgen.shared_cpu_share is None


def test_cpu_sets():
    assert cpu_set("0") == {0} and cpu_set("2-3") == {2, 3} and cpu_set("0,2-4") == {0, 2, 3, 4}


def test_a_step_is_limited_by_its_load_generator_only_when_that_did_most_of_the_work():
    from bench.judgement.bounds import limited_by_loadgen

    # pgbench and PostgreSQL saturating CPU 1, PostgreSQL doing most: the database's limit.
    assert not limited_by_loadgen(_cpu(TWO_CORES, app=0.0, postgres=7.5, loadgen=1.5))
    # oha against nginx (on the app's core), PostgreSQL idle: the load generator's limit.
    assert limited_by_loadgen(_cpu(TWO_CORES, app=6.0, postgres=0.1, loadgen=9.0))
    assert limited_by_loadgen(_cpu(FOUR_CORES, app=5.0, postgres=0.1, loadgen=19.0))
    assert not limited_by_loadgen(_cpu(TWO_CORES, app=6.0, postgres=0.1, loadgen=5.0))
    # A stack's join-filter step where k6 and PostgreSQL filled CPU 1, k6 the larger: k6's limit,
    # unless the stack filled its own core too.
    assert limited_by_loadgen(_cpu(TWO_CORES, app=7.0, postgres=4.0, loadgen=5.5))
    assert not limited_by_loadgen(_cpu(TWO_CORES, app=9.5, postgres=4.0, loadgen=5.5))
    assert not limited_by_loadgen(_cpu(TWO_CORES, app=7.0, postgres=5.5, loadgen=4.0))


class _Meter(StageMeter):
    """A StageMeter that measured nothing around the step (no cgroups, no SQL count)."""

    def __init__(self):
        """Nothing to measure with: no roles, no database."""

    def stage(self, figures):
        from bench.records.steps import Stage

        return Stage(
            vus=figures.vus,
            requests=figures.requests,
            rps=figures.rps,
            duration_s=figures.duration_s,
            latency_ms=figures.latency_ms,
            errors={},
            error_count=0,
            error_rate=0.0,
            bytes_received=None,
            memory_samples=[],
            memory_growth=None,
            sql_statements=0,
            sql_per_request=None,
            mean_response_bytes=None,
            app_cpu_s=None,
            cpu_ms_per_request=None,
            app_peak_memory_bytes=None,
            loadgen_cpu_share=None,
            client_bound=None,
            oom=False,
            oom_kills=0,
        )


def _pgbench_step(processed: int, skipped: int, p99: float = 20.0) -> LadderStep:
    from bench.measure.load.figures import LoadFigures
    from bench.measure.phases.ladder import make_step
    from bench.records.steps import Latency

    figures = LoadFigures(
        vus=10,
        requests=processed,
        rps=processed / 5,
        duration_s=5,
        errors={},
        error_count=0,
        bytes_received=None,
        latency_ms=Latency(avg=5.0, p50=4.0, p95=10.0, p99=p99, max=40.0),
        offered_rps=630.0,
        dropped_iterations=skipped,
        arrivals=processed + skipped,
    )
    return make_step(figures, _Meter(), objective_ms=100.0)


def test_a_pgbench_step_is_judged_against_the_poisson_arrivals_it_drew():
    # 630/s for 5 s is 3,150 arrivals on average; pgbench drew 3,040 and served them all in time.
    step = _pgbench_step(3040, 0)
    assert step.held and step.arrivals == 3040 and step.delivered_rps == 608.0
    # Arrivals skipped as already late count as dropped, and more than 1% stop the ladder.
    assert _pgbench_step(3000, 40).stop_reasons == ["dropped"]
    # Falling behind shows in the latency, counted from each arrival's scheduled start.
    assert _pgbench_step(3040, 0, p99=450.0).stop_reasons == ["p99"]


def test_a_jvm_settles_once_its_compiler_threads_are_quiet_though_it_still_compiles_now_and_then():
    # (CPU ms per request, app share, compilations, compiler threads' share of the core)
    compiling_quietly = [(1.0, 0.4, 2, 0.02)] * 6
    warmup, _ = _warm_up({400: compiling_quietly})
    assert warmup.reached and len(warmup.rates) == 6
    busy_compiling = [(1.0, 0.4, 0, 0.06)] * 6 + [(1.0, 0.4, 0, 0.04), (1.0, 0.4, 0, 0.06)] * 3
    warmup, _ = _warm_up({400: busy_compiling}, give_up_after=12)
    assert not warmup.reached, "one window of the last two at 5% or more of the core"
    assert jit_quiet([0, 5, 9], [0.3, 0.01, 0.049]) and not jit_quiet([0, 0], [0.01, None])
    assert jit_quiet([None] * 3, [None] * 3), "not a HotSpot JVM: nothing to wait for"


@pytest.mark.parametrize("jvm, cap_s", [(False, 120), (True, 200)])
def test_the_quick_warm_up_of_a_jvm_has_the_longer_cap(monkeypatch, jvm, cap_s):
    seconds = itertools.count(0.0, 0.5)  # the clock moves half a second every reading
    monkeypatch.setattr(time, "monotonic", lambda: next(seconds))
    never_settling = [(1.0, 0.4, 0 if jvm else None, 0.01 if jvm else None), (2.0, 0.4, 0 if jvm else None, 0.01)]
    warmup, _ = _warm_up({400: never_settling * 1000})
    assert not warmup.reached
    assert cap_s - OPEN_TIMING["quick"].window_s <= warmup.seconds <= cap_s
