"""Raw files shaped like a publication, for the results page's tests: four stacks of three languages
in two scenarios, three runs each, every ladder climbed as the runner climbs it (probes up the
ladder's rates and bisected, then full-length steps from where the probes stopped, bisected too;
docs/method.md), so that most rates below a capacity are probes alone.

On purpose: java-spring's second run of join-filter held no rate; its third run of heavy-body
held 225 req/s where its others held 378, so that it holds 300 req/s in 2 of 3 runs; go-gin held
every rate of heavy-body (a lower bound); python-fastapi held no rate of heavy-body in any run
(its second run's probe held the first rate, its full-length step did not); java-jersey's first
two runs of join-filter bisected to different rates (841 in one, 944 in the other), so that
between two rates both held a step at lies one only the first did; and each run's figures
differ, so that a median over runs is not any one run's value."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from test_report import cpu, ladder_step, record, stack

RATES = {
    "join-filter": [160.0, 250.0, 400.0, 630.0, 1000.0, 1600.0, 2500.0],
    "heavy-body": [125.0, 200.0, 320.0, 500.0, 800.0, 1250.0],
}
OBJECTIVE_MS = 100.0
LANGUAGES = {"go-gin": "Go", "java-jersey": "Java", "java-spring": "Java", "python-fastapi": "Python"}
# Per stack, scenario and run: the highest rate a probe holds, and the highest a full-length step holds.
KNEES: dict[tuple[str, str], list[tuple[float, float]]] = {
    ("go-gin", "join-filter"): [(1320.0, 1290.0), (1400.0, 1350.0), (1260.0, 1230.0)],
    ("java-jersey", "join-filter"): [(870.0, 950.0), (920.0, 930.0), (860.0, 820.0)],
    ("java-spring", "join-filter"): [(1100.0, 1070.0), (120.0, 100.0), (1010.0, 950.0)],
    ("python-fastapi", "join-filter"): [(300.0, 285.0), (330.0, 300.0), (300.0, 290.0)],
    ("go-gin", "heavy-body"): [(5000.0, 5000.0), (5000.0, 5000.0), (5000.0, 5000.0)],
    ("java-jersey", "heavy-body"): [(420.0, 400.0), (460.0, 430.0), (410.0, 380.0)],
    ("java-spring", "heavy-body"): [(400.0, 380.0), (405.0, 385.0), (245.0, 230.0)],
    ("python-fastapi", "heavy-body"): [(110.0, 100.0), (130.0, 110.0), (110.0, 100.0)],
}
# What a request costs each stack: app CPU ms and PostgreSQL CPU ms at a light load, and memory MiB.
COSTS = {"go-gin": (0.5, 0.4, 30.0), "java-jersey": (0.9, 0.45, 250.0), "java-spring": (1.3, 0.5, 420.0)}
COSTS["python-fastapi"] = (4.0, 0.5, 150.0)
BISECT = 1.1


def _jitter(*keys: float) -> float:
    """0.9 to 1.1, fixed for the same keys: each run and rate its own figure."""
    seed = sum((i + 1) * 7919 * int(k) for i, k in enumerate(keys))
    return 0.9 + 0.2 * ((seed * 2654435761) % 1000) / 1000


def _step(name: str, run: int, rate: float, held: bool, probe: bool, bisection: bool, knee: float) -> dict[str, Any]:
    app_ms, postgres_ms, memory = COSTS[name]
    jitter = _jitter(run, rate, len(name), probe)
    p99 = min(OBJECTIVE_MS * 0.95, 4.0 + 80.0 * (rate / knee) ** 6) * jitter if held else 180.0 * jitter
    step: dict[str, Any] = ladder_step(rate, held=held, cpu_ms=app_ms * (0.6 + 120.0 / rate) * jitter, p99=p99)
    step["cpu"] = cpu(0.5)
    step["cpu"]["postgres_ms_per_request"] = postgres_ms * (0.8 + 60.0 / rate) * jitter
    step["app_peak_memory_bytes"] = int((memory * _jitter(run, len(name)) + rate * 0.02) * (1 << 20))
    step["probe"] = probe
    step["bisection"] = bisection
    if not held:
        step["stop_reasons"] = ["p99"]
    return step


def climb(name: str, run: int, rates: list[float], probe_knee: float, full_knee: float) -> dict[str, Any]:
    """One run's ladder as the runner climbs it: probes, then full-length steps."""
    steps: list[dict[str, Any]] = []
    probed: list[float] = []

    def run_step(rate: float, probe: bool, knee: float) -> bool:
        held = rate <= knee
        steps.append(_step(name, run, rate, held, probe, rate not in rates, full_knee))
        if probe:
            probed.append(rate)
        return held

    held_probe: float | None = None
    failed_probe: float | None = None
    for rate in rates:
        if not run_step(rate, True, probe_knee):
            failed_probe = rate
            break
        held_probe = rate
    while held_probe is not None and failed_probe is not None and failed_probe / held_probe > BISECT:
        middle = float(round(math.sqrt(held_probe * failed_probe)))
        if run_step(middle, True, probe_knee):
            held_probe = middle
        else:
            failed_probe = middle
    # Full length from the highest rate a probe held: up while held, down while not.
    candidates = sorted(set(probed) | set(rates))
    rate = held_probe if held_probe is not None else rates[0]
    held_full: float | None = None
    failed_full: float | None = None
    while True:
        if run_step(rate, False, full_knee):
            held_full = rate
            above = [r for r in candidates if r > rate]
            if failed_full is not None or not above:
                break
            rate = above[0]
        else:
            failed_full = rate
            below = [r for r in candidates if r < rate]
            if held_full is not None or not below:
                break
            rate = below[-1]
    while held_full is not None and failed_full is not None and failed_full / held_full > BISECT:
        middle = float(round(math.sqrt(held_full * failed_full)))
        if run_step(middle, False, full_knee):
            held_full = middle
        else:
            failed_full = middle
    full = [s for s in steps if not s["probe"]]
    ceiling = min((s["offered_rps"] for s in full if not s["held"]), default=math.inf)
    capacity = max((s["offered_rps"] for s in full if s["held"] and s["offered_rps"] < ceiling), default=None)
    return {
        "objective_p99_ms": OBJECTIVE_MS,
        "rates": rates,
        "bisect_ratio": BISECT,
        "probe_s": 3.0,
        "steps": steps,
        "capacity_rps": capacity,
        "capacity_lower_bound": capacity is not None and ceiling == math.inf,
    }


def records() -> list[dict[str, Any]]:
    found = []
    for (name, scenario), knees in KNEES.items():
        for run, (probe_knee, full_knee) in enumerate(knees, start=1):
            r = record(name, scenario, run, [(120, 900.0)])
            r["stack"] = dict(stack(name), language=LANGUAGES[name], dialect="api")
            r["ladder"] = climb(name, run, RATES[scenario], probe_knee, full_knee)
            found.append(r)
    return found


def write(raw_dir: Path) -> list[Path]:
    """The records as raw files in `raw_dir`, named as the runner names them."""
    raw_dir.mkdir(parents=True, exist_ok=True)
    files = []
    for r in records():
        path = raw_dir / f"{r['stack']['name']}--{r['scenario']}--run{r['run']}.json"
        path.write_text(json.dumps(r))
        files.append(path)
    return files
