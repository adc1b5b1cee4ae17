"""The bisection after the ladder and the load-generator bound (method v3), pure: a synthetic
stack whose knee lies between two of the ladder's rates, and a load generator that takes CPU 1."""

import pytest
from ladder_steps import ladder_step

from bench.measure.bounds import CpuTimes, role_cpu
from bench.measure.ladder import capacity, capacity_lower_bound, climb, loadgen_bound, stopping_step
from bench.records import CpuSplit, LadderStep, RoleCpu
from bench.scenarios import BISECT_RATIO, SCENARIOS, bisect_rate

TWO_CORES = CpuSplit(app="0", postgres="1", loadgen="1")


def _cpu(loadgen_share: float) -> RoleCpu:
    """Ten seconds of a step with PostgreSQL at 30% of CPU 1 and the load generator at `loadgen_share`."""
    return role_cpu(
        TWO_CORES,
        CpuTimes(0.0, 0.0, 0.0),
        CpuTimes(5.0, 3.0, 10 * loadgen_share),
        wall_s=10.0,
        requests=10_000,
        active_s=10.0,
    )


class Knee:
    """A synthetic stack that holds every rate up to `knee` and none above; the load generator's
    share of CPU 1 grows with the rate, `loadgen_per_rate` of it per request/s."""

    def __init__(self, knee: float, loadgen_per_rate: float = 0.0) -> None:
        self.knee, self.loadgen_per_rate = knee, loadgen_per_rate
        self.offered: list[tuple[float, bool]] = []

    def __call__(self, rate: float, bisecting: bool) -> LadderStep:
        self.offered.append((rate, bisecting))
        return ladder_step(rate, rate <= self.knee, cpu=_cpu(rate * self.loadgen_per_rate), bisection=bisecting)


def test_a_knee_between_two_ladder_rates_is_found_to_within_ten_percent():
    rates = [float(r) for r in SCENARIOS["join-filter"].rates]
    stack = Knee(knee=870.0)  # between the ladder's 630 and 1,000
    steps = climb(rates, stack)

    # The ladder up to its first step not held, then the bisection between 630 and 1,000.
    assert stack.offered == [(r, False) for r in rates[:7]] + [(794.0, True), (891.0, True), (841.0, True)]
    assert [s.bisection for s in steps] == [False] * 7 + [True] * 3
    # Every step is recorded, in the order run.
    assert [s.offered_rps for s in steps] == [60, 100, 160, 250, 400, 630, 1000, 794, 891, 841]
    held = capacity(steps)
    lowest_failed = min(s.offered_rps for s in steps if not s.held)
    assert held == 841 and lowest_failed == 891
    assert lowest_failed / held <= BISECT_RATIO
    # What stopped the ladder is that lowest rate not held, not the last step run (held here).
    stop = stopping_step(steps)
    assert steps[-1].held and stop is not None and stop.offered_rps == 891
    # Within 10% of the knee, and never above it.
    assert stack.knee / 1.10 <= held <= stack.knee
    assert not capacity_lower_bound(steps)


@pytest.mark.parametrize("knee", [61.0, 99.0, 150.0, 333.0, 999.0, 1599.0, 3999.0])
def test_wherever_the_knee_lies_capacity_ends_within_the_bisection_ratio_of_it(knee):
    rates = [float(r) for r in SCENARIOS["join-filter"].rates]
    steps = climb(rates, Knee(knee))
    held = capacity(steps)
    assert held is not None and held <= knee
    failed = min(s.offered_rps for s in steps if not s.held)
    assert failed > knee and failed / held <= BISECT_RATIO + 0.01


def test_no_bisection_without_a_rate_held_or_a_rate_not_held():
    rates = [100.0, 160.0, 250.0]
    # Not even the first held: nothing to bisect from, no capacity.
    none_held = climb(rates, Knee(50.0))
    assert [s.offered_rps for s in none_held] == [100.0] and capacity(none_held) is None
    assert not capacity_lower_bound(none_held)
    # Every rate held: the capacity is the top rate, and only a lower bound.
    all_held = climb(rates, Knee(1000.0))
    assert [s.offered_rps for s in all_held] == rates and capacity(all_held) == 250.0
    assert capacity_lower_bound(all_held) and stopping_step(all_held) is None


def test_a_stack_that_stopped_running_ends_the_bisection():
    steps = climb([100.0, 160.0, 250.0], Knee(200.0), alive=lambda: False)
    assert [s.offered_rps for s in steps] == [100.0, 160.0, 250.0]


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
    assert [s.offered_rps for s in steps if s.loadgen_bound] == [1000, 891]
    # Bounded at a rate above the lowest one not held says nothing about the capacity.
    free = [ladder_step(630, True), ladder_step(1000, False, cpu=_cpu(0.6)), ladder_step(794, False)]
    assert capacity(free) == 630 and not capacity_lower_bound(free)
    # Held steps where the load generator took half of CPU 1 are marked, and do not lower it.
    bound_but_held = [ladder_step(630, True, cpu=_cpu(0.7)), ladder_step(1000, False)]
    assert bound_but_held[0].loadgen_bound and not capacity_lower_bound(bound_but_held)


def test_a_step_held_above_one_not_held_does_not_count():
    steps = [ladder_step(100, True), ladder_step(200, False), ladder_step(400, True)]
    assert capacity(steps) == 100


def test_the_progress_line_says_what_stopped_the_ladder_and_when_capacity_is_a_lower_bound():
    import json

    from bench import paths
    from bench.measure.verdict import summary_line
    from bench.records import Ladder, RawResult

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
