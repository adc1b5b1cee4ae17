"""The experiment's figures from its records, one line per record and one per cell. Run from a
checkout's loadtests/ with the runner's Python:

    ../.bench/venv/bin/python ../results/experiments/2026-12-02-jvm-classes/analyze.py DIR

Per record: time to steady state (and whether the cap ended it), its class, the repeated step's
rate and its CPU per request against the first step at that rate, and over the warm-up's windows
the median collections, pause, safepoints and time stopped per window. Per cell (stack ×
scenario): the highest full-length step both runs ran (held by both where there is one) and the
two runs' app CPU per request there, with their difference against the lower."""

import statistics
import sys
from collections import defaultdict
from pathlib import Path

from bench.records import RawResult

TOLERANCE = 0.15


def fmt(value, digits=2):
    return "–" if value is None else f"{value:.{digits}f}"


def median(values):
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def full_length(record):
    return [s for s in record.ladder.steps if not s.probe] if record.ladder else []


def repeat_change(record):
    ladder = record.ladder
    if ladder is None or ladder.repeat is None:
        return None, None
    again = ladder.repeat
    first = next((s for s in full_length(record) if s.offered_rps == again.offered_rps), None)
    if first is None or not first.cpu_ms_per_request or again.cpu_ms_per_request is None:
        return again.offered_rps, None
    return again.offered_rps, again.cpu_ms_per_request / first.cpu_ms_per_request - 1


def common_step(runs):
    """The highest offered rate every run ran as a full-length step and held. The bisection puts
    two runs' top steps at different rates: where no rate is common, the highest held step of the
    first run that the second has a held step within 10% of, each run's own step (the rates are
    printed)."""
    held = [{s.offered_rps: s for s in full_length(r) if s.held} for r in runs]
    if len(held) < 2:
        return [], [], False
    shared = set.intersection(*(set(r) for r in held))
    if shared:
        chosen = max(shared)
        return [chosen] * len(held), [r[chosen].cpu_ms_per_request for r in held], True
    for rate in sorted(held[0], reverse=True):
        near = [min(r, key=lambda other: abs(other - rate)) for r in held[1:] if r]
        if len(near) == len(held) - 1 and all(abs(n - rate) <= 0.10 * rate for n in near):
            rates = [rate, *near]
            return rates, [r[x].cpu_ms_per_request for r, x in zip(held, rates, strict=True)], False
    return [], [], False


def warm_end(record, count=5):
    """The median CPU per request of the warm-up's last `count` windows, at the warm rate."""
    steady = record.steady_state
    return median(steady.windows_cpu_ms_per_request[-count:]) if steady else None


records = [RawResult.read(p) for p in sorted(Path(sys.argv[1]).glob("**/*.json"))]
cells = defaultdict(list)
print("stack · scenario · run | steady s (cap?) | class | repeat at req/s: change | per window: gc, gc ms, safepoints, sp ms | capacity")
for record in records:
    cells[(record.stack.name, record.scenario)].append(record)
    steady = record.steady_state
    readings = [r.jvm for r in (steady.windows_readings or []) if r.jvm is not None] if steady else []
    rate, change = repeat_change(record)
    print(
        f"{record.stack.name} · {record.scenario} · {record.run} | "
        f"{fmt(steady.time_s if steady else None, 0)} ({'settled' if steady and steady.reached else 'cap'}) | "
        f"{record.warmup_class or '–'} | {fmt(rate, 0)}: {fmt(change * 100 if change is not None else None, 1)}% | "
        f"{fmt(median(j.gc_pauses for j in readings), 1)}, {fmt(median(j.gc_pause_ms for j in readings), 1)}, "
        f"{fmt(median(j.safepoints for j in readings), 1)}, {fmt(median(j.safepoint_ms for j in readings), 1)} | "
        f"{fmt(record.ladder.capacity_rps if record.ladder else None, 0)}"
    )

print(
    "\nstack · scenario | held full-length step req/s per run (same rate?) | app CPU ms/req per run | difference"
    " | warm-up's last 5 windows ms/req per run | difference"
)
within = paired = within_warm = 0
for (stack, scenario), runs in sorted(cells.items()):
    runs.sort(key=lambda r: r.run)
    rates, costs, same = common_step(runs)
    known = [c for c in costs if c is not None]
    difference = (max(known) - min(known)) / min(known) if len(known) == len(runs) > 1 else None
    warm = [warm_end(r) for r in runs]
    warm_known = [w for w in warm if w is not None]
    warm_difference = (max(warm_known) - min(warm_known)) / min(warm_known) if len(warm_known) == len(runs) > 1 else None
    paired += len(runs) > 1
    within += difference is not None and difference <= TOLERANCE
    within_warm += warm_difference is not None and warm_difference <= TOLERANCE
    print(
        f"{stack} · {scenario} | {', '.join(fmt(r, 0) for r in rates) or '–'} ({'yes' if same else 'no'}) | "
        f"{', '.join(fmt(c, 3) for c in costs)} | {fmt(difference * 100 if difference is not None else None, 1)}% | "
        f"{', '.join(fmt(w, 3) for w in warm)} | {fmt(warm_difference * 100 if warm_difference is not None else None, 1)}%"
    )
print(
    f"\nof {paired} cells with two runs: within {TOLERANCE:.0%} at a held full-length step in {within}, "
    f"at the warm-up's end in {within_warm}"
)
