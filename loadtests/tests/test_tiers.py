"""Tiers: stacks whose capacity ranges over all runs overlap, directly or through another stack,
share a tier; a run that held no rate counts as 0 req/s."""

from test_report import laddered

from bench.records import RawResult
from bench.report.figures import group_cells
from bench.report.tiers import separated_pairs, tier_line, tiers

RATES = [250.0, 400.0, 630.0, 1000.0]


def cells(capacities_by_stack):
    """One join-filter cell per stack, a run per capacity (None: held no rate)."""
    records = []
    for name, capacities in capacities_by_stack.items():
        for run, capacity in enumerate(capacities, start=1):
            held = [] if capacity is None else RATES[: RATES.index(capacity) + 1]
            failed = None if capacity == RATES[-1] else RATES[len(held)]
            records.append(RawResult.model_validate(laddered(name, run, held, failed)))
    return group_cells(records)["join-filter"]


def test_stacks_whose_ranges_overlap_share_a_tier_and_the_others_do_not():
    found = tiers(cells({"a": [1000.0, 1000.0], "b": [630.0, 1000.0], "c": [400.0, 400.0]}))
    assert [(t.number, t.labels, t.low, t.high) for t in found] == [
        (1, ("a", "b"), 630.0, 1000.0),
        (2, ("c",), 400.0, 400.0),
    ]


def test_overlaps_chain_a_tier_even_where_its_ends_do_not_overlap():
    # a and c do not overlap, but each overlaps b: one tier, as nothing separates a from b or b from c.
    found = tiers(cells({"a": [630.0, 1000.0], "b": [400.0, 630.0], "c": [250.0, 400.0], "d": [None, None]}))
    assert [t.labels for t in found] == [("a", "b", "c"), ("d",)]
    assert separated_pairs(cells({"a": [630.0, 1000.0], "b": [400.0, 630.0], "c": [250.0, 400.0]})) == (1, 3)


def test_a_run_that_held_no_rate_widens_its_stacks_range_down_to_zero():
    found = tiers(cells({"steady": [250.0, 250.0], "flaky": [1000.0, None]}))
    assert [t.labels for t in found] == [("flaky", "steady")]
    assert found[0].low == 0.0


def test_the_tier_line_says_each_tier_and_its_range():
    line = tier_line("join-filter", cells({"a": [1000.0, 1000.0], "b": [630.0, 1000.0], "c": [400.0, 400.0]}))
    assert line == "- **join-filter** (2 of 3 pairs separated): 1: a, b (630–1,000 req/s); 2: c (400 req/s)."
