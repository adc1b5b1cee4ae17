"""Tiers: what the runs can tell apart. Per scenario, two stacks whose capacity ranges over all
runs overlap show no difference (the pairwise rule of docs/method.md), and stacks linked by such
overlaps, directly or through another stack, share a tier. Tier 1 holds the highest capacities;
the order of stacks inside a tier says nothing."""

from __future__ import annotations

from dataclasses import dataclass

from bench.report.figures import Cell, Spread, fmt, spread
from bench.report.ladder import capacities, has_ladder


@dataclass(frozen=True)
class Tier:
    number: int
    labels: tuple[str, ...]
    low: float  # the lowest capacity of any run of its stacks
    high: float  # the highest


def capacity_range(cell: Cell) -> Spread | None:
    """Capacity over the runs (a run that held no rate as 0 req/s: `capacities`)."""
    return spread(capacities(cell))


def tiers(cells: list[Cell]) -> list[Tier]:
    """The tiers of one scenario's stacks, highest first. Sorted by the top of their ranges, a
    stack joins the tier above when its top reaches the lowest run of any stack already in it:
    that is exactly when it overlaps one of them, as every range above reaches at least as high."""
    ranges = sorted(
        ((c.stack.label, r) for c in cells if has_ladder([c]) and (r := capacity_range(c)) is not None),
        key=lambda item: (-item[1].high, -item[1].median, item[0]),
    )
    groups: list[list[tuple[str, Spread]]] = []
    for label, found in ranges:
        if groups and found.high >= min(r.low for _, r in groups[-1]):
            groups[-1].append((label, found))
        else:
            groups.append([(label, found)])
    return [
        Tier(
            number,
            tuple(label for label, _ in sorted(group, key=lambda item: (-item[1].median, item[0]))),
            min(r.low for _, r in group),
            max(r.high for _, r in group),
        )
        for number, group in enumerate(groups, start=1)
    ]


def tier_of(found: list[Tier]) -> dict[str, int]:
    return {label: tier.number for tier in found for label in tier.labels}


def separated_pairs(cells: list[Cell]) -> tuple[int, int]:
    """How many pairs of stacks the runs separate (ranges that do not overlap), of all pairs."""
    ranges = [r for c in cells if has_ladder([c]) and (r := capacity_range(c)) is not None]
    pairs = [(a, b) for i, a in enumerate(ranges) for b in ranges[i + 1 :]]
    return sum(1 for a, b in pairs if a.high < b.low or b.high < a.low), len(pairs)


def tier_line(scenario: str, cells: list[Cell]) -> str:
    """One scenario's tiers in a sentence, with each tier's range of capacities."""
    found = tiers(cells)
    if not found:
        return f"- **{scenario}**: no stack was measured."
    separated, pairs = separated_pairs(cells)
    said = "; ".join(f"{tier.number}: {', '.join(tier.labels)} ({_range(tier)})" for tier in found)
    return f"- **{scenario}** ({separated} of {pairs} pairs separated): {said}."


def _range(tier: Tier) -> str:
    """A run that held no rate counts as 0 req/s; a tier of such runs alone held none, as the
    summary says it."""
    if tier.high == 0:
        return "none held"
    return f"{fmt(tier.low)} req/s" if tier.low == tier.high else f"{fmt(tier.low)}–{fmt(tier.high)} req/s"
