"""How far the publication's runs agree, as issue 70 asks it: per stack × scenario cell, at the
highest full-length step every run held, each run's app CPU per request against the runs' median,
as measured and divided by its block's calibration of the app's CPU. Run from a checkout's
loadtests/ with the runner's Python:

    ../.bench/venv/bin/python ../results/pending/agreement.py [RAW_DIR]

RAW_DIR defaults to results/pending/raw/quick. A cell counts as agreeing when every run lies within
15% of the median. "Divided by the calibration" multiplies each run's CPU ms per request by its
block's SHA-256 MiB per CPU second over the first block's: the cost in the first block's
machine's milliseconds. Ceilings have no app CPU; cells with fewer than two runs that held a
full-length step are listed apart."""

from __future__ import annotations

import statistics
import sys
from collections import defaultdict
from pathlib import Path

from bench import paths
from bench.records import RawResult

TOLERANCE = 0.15
JVM_SHARE, OTHER_SHARE = 0.80, 0.90


def full_length_held(record: RawResult) -> dict[float, float]:
    """Offered rate → app CPU ms per request of each full-length step the record held."""
    if record.ladder is None:
        return {}
    return {
        s.offered_rps: s.cpu_ms_per_request
        for s in record.ladder.steps
        if not s.probe and s.held and s.cpu_ms_per_request is not None
    }


def common_costs(runs: list[RawResult]) -> tuple[float, list[float]] | None:
    """The highest rate every run held at full length and each run's cost there; where the
    bisection left no rate common to all, the first run's highest held rate that every other run
    held within 10% of (each run's own step)."""
    held = [full_length_held(r) for r in runs]
    if any(not h for h in held):
        return None
    shared = set.intersection(*(set(h) for h in held))
    if shared:
        rate = max(shared)
        return rate, [h[rate] for h in held]
    for rate in sorted(held[0], reverse=True):
        near = [min(h, key=lambda other: abs(other - rate)) for h in held[1:]]
        if all(abs(n - rate) <= 0.10 * rate for n in near):
            return rate, [h[x] for h, x in zip(held, [rate, *near], strict=True)]
    return None


def agrees(values: list[float]) -> bool:
    middle = statistics.median(values)
    return all(abs(v - middle) <= TOLERANCE * middle for v in values)


def speed(record: RawResult) -> float | None:
    calibration = record.calibration
    return calibration.cpu.sha256_mib_per_s if calibration and calibration.cpu else None


def main(raw: Path) -> None:
    records = [RawResult.read(p) for p in sorted(raw.glob("*.json"))]
    cells: dict[tuple[str, str], list[RawResult]] = defaultdict(list)
    for record in records:
        if record.kind != "ceiling" and not record.failed:
            cells[(record.stack.name, record.scenario)].append(record)
    speeds = [s for r in records if (s := speed(r)) is not None]
    reference = speeds[0] if speeds else None
    counts = {kind: {"cells": 0, "raw": 0, "calibrated": 0} for kind in ("JVM", "other")}
    apart = []
    print("stack · scenario | rate | CPU ms/req per run | calibrated | within 15% (raw, calibrated)")
    for (name, scenario), runs in sorted(cells.items()):
        runs.sort(key=lambda r: r.run)
        found = common_costs(runs) if len(runs) > 1 else None
        if found is None:
            apart.append(f"{name} · {scenario}: {len(runs)} run(s), no full-length step held by every run")
            continue
        rate, costs = found
        scaled = (
            [c * s / reference for c, s in zip(costs, (speed(r) for r in runs), strict=True) if s is not None]
            if reference
            else []
        )
        kind = "JVM" if runs[0].stack.language == "Java" else "other"
        counts[kind]["cells"] += 1
        measured = agrees(costs)
        calibrated = len(scaled) == len(costs) and agrees(scaled)
        counts[kind]["raw"] += measured
        counts[kind]["calibrated"] += calibrated
        print(
            f"{name} · {scenario} | {rate:g} | {', '.join(f'{c:.3f}' for c in costs)} | "
            f"{', '.join(f'{c:.3f}' for c in scaled)} | {measured}, {calibrated}"
        )
    for kind, share in (("JVM", JVM_SHARE), ("other", OTHER_SHARE)):
        c = counts[kind]
        print(
            f"{kind}: {c['raw']} of {c['cells']} cells within 15% as measured, {c['calibrated']} divided by the "
            f"calibration (criterion: {share:.0%})"
        )
    for line in apart:
        print(line)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else paths.ROOT / "results" / "pending" / "raw" / "quick")
