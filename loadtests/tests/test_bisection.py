"""The bisection after the ladder and the load-generator bound (method v3), pure: a synthetic
stack whose knee lies between two of the ladder's rates, and a load generator that takes CPU 1."""

import pytest
from ladder_steps import ladder_step

from bench.judgement.bounds import CpuTimes, role_cpu
from bench.judgement.ladder import (
    BISECT_RATIO,
    bisect_rate,
    capacity,
    capacity_lower_bound,
    loadgen_bound,
    stopping_step,
)
from bench.measure.phases.ladder import climb
from bench.records import CpuSplit
from bench.records.steps import LadderStep, RoleCpu
from bench.scenarios import SCENARIOS

TWO_CORES = CpuSplit(app="0", postgres="1", loadgen="1")


def _cpu(loadgen_share: float) -> RoleCpu:
    """Ten seconds of a step with PostgreSQL at 30% of CPU 1 and the load generator at `loadgen_share`."""
    return role_cpu(
        TWO_CORES,
        CpuTimes(0.0, 0.0, 0.0),
        CpuTimes(5.0, 3.0, 10 * loadgen_share),
        wall_s=10.0,
        requests=10_000,
    )


class Knee:
    """A synthetic stack that holds every rate up to `knee` and none above; the load generator's
    share of CPU 1 grows with the rate, `loadgen_per_rate` of it per request/s. Its probes may
    see another knee (`probe_knee`): a short step's p99 rests on fewer requests."""

    def __init__(self, knee: float, loadgen_per_rate: float = 0.0, probe_knee: float | None = None) -> None:
        self.knee, self.loadgen_per_rate = knee, loadgen_per_rate
        self.probe_knee = knee if probe_knee is None else probe_knee
        self.offered: list[tuple[float, bool, bool]] = []

    def __call__(self, rate: float, bisecting: bool, probe: bool) -> LadderStep:
        self.offered.append((rate, bisecting, probe))
        held = rate <= (self.probe_knee if probe else self.knee)
        return ladder_step(rate, held, cpu=_cpu(rate * self.loadgen_per_rate), bisection=bisecting, probe=probe)


def test_a_knee_between_two_ladder_rates_is_found_to_within_ten_percent():
    rates = [float(r) for r in SCENARIOS["join-filter"].rates]
    stack = Knee(knee=870.0)  # between the ladder's 630 and 1,000
    steps = climb(rates, stack)

    # Probes up the ladder to the first not held, their bisection between 630 and 1,000, then
    # the bracket they found at full length: the probes' last rate held and the lowest not held.
    climbed = [r for r in rates if r <= 1000]
    assert stack.offered == [
        *[(r, False, True) for r in climbed],
        (794.0, True, True),
        (891.0, True, True),
        (841.0, True, True),
        (841.0, True, False),
        (891.0, True, False),
    ]
    # Every step is recorded, in the order run.
    assert [s.offered_rps for s in steps] == [*climbed, 794, 891, 841, 841, 891]
    assert [s.probe for s in steps] == [True] * (len(climbed) + 3) + [False] * 2
    held = capacity(steps)
    stop = stopping_step(steps)
    assert held == 841 and stop is not None and stop.offered_rps == 891 and not stop.probe
    assert stop.offered_rps / held <= BISECT_RATIO
    # Within 10% of the knee, and never above it.
    assert stack.knee / 1.10 <= held <= stack.knee
    assert not capacity_lower_bound(steps)


def test_only_full_length_steps_decide_the_capacity():
    rates = [float(r) for r in SCENARIOS["join-filter"].rates]
    # The probes are held up to 1,000 but the stack holds 870 at full length: the bracket goes down.
    optimistic = Knee(knee=870.0, probe_knee=1200.0)
    steps = climb(rates, optimistic)
    full = [s for s in steps if not s.probe]
    held = capacity(steps)
    assert held is not None and 870 / 1.10 <= held <= 870
    assert all(s.held == (s.offered_rps <= 870) for s in full)
    # The probes failed early (a short step's tail): the full-length steps go up past them.
    pessimistic = Knee(knee=870.0, probe_knee=500.0)
    steps = climb(rates, pessimistic)
    held = capacity(steps)
    assert held is not None and 870 / 1.10 <= held <= 870
    stop = stopping_step(steps)
    assert stop is not None and not stop.probe and stop.offered_rps / held <= BISECT_RATIO


@pytest.mark.parametrize("knee", [161.0, 199.0, 333.0, 999.0, 1599.0, 3999.0, 6000.0])
@pytest.mark.parametrize("probe_error", [0.7, 1.0, 1.3])
def test_wherever_the_knee_lies_capacity_ends_within_the_bisection_ratio_of_it(knee, probe_error):
    rates = [float(r) for r in SCENARIOS["join-filter"].rates]
    steps = climb(rates, Knee(knee, probe_knee=knee * probe_error))
    held = capacity(steps)
    assert held is not None and held <= knee
    stop = stopping_step(steps)
    assert stop is not None and stop.offered_rps > knee and stop.offered_rps / held <= BISECT_RATIO + 0.01
    # Two full-length steps when the probes were right; a few more when they were 30% off.
    assert len([s for s in steps if not s.probe]) <= (2 if probe_error == 1.0 else 8)


def test_no_bisection_without_a_rate_held_or_a_rate_not_held():
    rates = [100.0, 160.0, 250.0]
    # Not even the first held: nothing to bisect from, no capacity.
    none_held = climb(rates, Knee(50.0))
    assert [(s.offered_rps, s.probe) for s in none_held] == [(100.0, True), (100.0, False)]
    assert capacity(none_held) is None and not capacity_lower_bound(none_held)
    # Every rate held: the capacity is the top rate, and only a lower bound.
    all_held = climb(rates, Knee(1000.0))
    assert [s.offered_rps for s in all_held] == [*rates, 250.0] and capacity(all_held) == 250.0
    assert capacity_lower_bound(all_held) and stopping_step(all_held) is None


def test_a_stack_that_stopped_running_ends_the_ladder():
    steps = climb([100.0, 160.0, 250.0], Knee(200.0), alive=lambda: False)
    assert [s.offered_rps for s in steps] == [100.0]
    assert capacity(steps) is None


def test_bisection_rates_are_geometric_and_whole():
    assert bisect_rate(630, 1000) == 794.0
    assert bisect_rate(100, 110) is None  # already within 10%
    assert bisect_rate(50, 56) == 53.0
    assert bisect_rate(1, 2) is None  # no whole rate in between


def test_a_step_where_the_load_generator_used_half_of_cpu_1_is_load_generator_bound():
    assert not loadgen_bound(_cpu(0.49))
    assert loadgen_bound(_cpu(0.50))
    assert ladder_step(1000, True, cpu=_cpu(0.6)).loadgen_bound
    # Without CPU readings (a --target run), nothing is said.
    assert not loadgen_bound(None)


def test_a_capacity_the_load_generator_stopped_is_a_lower_bound():
    # Its share grows with the rate: 48% of CPU 1 at 841 req/s, 51% at 891, the lowest not held.
    stack = Knee(knee=870.0, loadgen_per_rate=0.00057)
    steps = climb([float(r) for r in SCENARIOS["join-filter"].rates], stack)
    assert capacity(steps) == 841 and capacity_lower_bound(steps)
    assert [(s.offered_rps, s.probe) for s in steps if s.loadgen_bound] == [(1000, True), (891, True), (891, False)]
    # Bounded at a rate above the lowest one not held says nothing about the capacity.
    free = [ladder_step(630, True), ladder_step(1000, False, cpu=_cpu(0.6)), ladder_step(794, False)]
    assert capacity(free) == 630 and not capacity_lower_bound(free)
    # Held steps where the load generator took half of CPU 1 are marked, and do not lower it.
    bound_but_held = [ladder_step(630, True, cpu=_cpu(0.7)), ladder_step(1000, False)]
    assert bound_but_held[0].loadgen_bound and not capacity_lower_bound(bound_but_held)


def test_a_step_held_above_one_not_held_does_not_count():
    steps = [ladder_step(100, True), ladder_step(200, False), ladder_step(400, True)]
    assert capacity(steps) == 100
    # Nor does a probe, held or not.
    probed = [
        ladder_step(400, True, probe=True),
        ladder_step(100, True),
        ladder_step(160, False, probe=True),
        ladder_step(200, False),
    ]
    assert capacity(probed) == 100 and stopping_step(probed) == probed[3]


def test_the_progress_line_says_what_stopped_the_ladder_and_when_capacity_is_a_lower_bound():
    import json

    from bench import paths
    from bench.judgement.verdict import summary_line
    from bench.records import RawResult
    from bench.records.steps import Ladder

    measured = json.loads(
        (paths.EXPERIMENTS / "2026-11-24-ladder/raw/quick/go-gin--join-filter--run1.json").read_text()
    )

    def line(steps: list[LadderStep]) -> str:
        ladder = Ladder(
            objective_p99_ms=100,
            rates=[630, 1000],
            bisect_ratio=BISECT_RATIO,
            steps=steps,
            capacity_rps=capacity(steps),
            capacity_lower_bound=capacity_lower_bound(steps),
        )
        return summary_line(RawResult.model_validate({**measured, "ladder": ladder.model_dump()}))

    # The bisection's last step was held: what stopped the ladder is the lowest rate not held.
    free = [
        ladder_step(630, True),
        ladder_step(1000, False),
        ladder_step(794, True),
        ladder_step(891, False),
        ladder_step(841, True),
    ]
    assert "held 841 req/s at p99 ≤ 100 ms (then p99) ·" in line(free)
    bound = [*free[:3], ladder_step(891, False, cpu=_cpu(0.6)), free[4]]
    assert "(then p99, the load generator at half its CPU or more: a lower bound) ·" in line(bound)
