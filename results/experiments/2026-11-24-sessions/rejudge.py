"""Judges this experiment's recorded steady-state windows again as longer windows, averaging k
consecutive 4 s windows (the rate was fixed, so the mean of k windows' CPU per request is the CPU
per request over their span), with the runner's own rule. Run from loadtests/:

    ../.bench/venv/bin/python ../results/experiments/2026-11-24-sessions/rejudge.py
"""

import statistics
from pathlib import Path

from bench.judgement.steady import settled
from bench.records import RawResult

RAW = Path(__file__).parent / "raw" / "quick"
WINDOW_S = 4

for k in (1, 2, 3):
    settled_at: list[int | None] = []
    spreads = []
    for path in sorted(RAW.glob("*.json")):
        steady = RawResult.read(path).steady_state
        assert steady is not None and steady.windows_app_cpu_share is not None
        cpu, share = steady.windows_cpu_ms_per_request, steady.windows_app_cpu_share
        spans = range(0, len(cpu) - k + 1, k)
        windows = [statistics.fmean(w for w in cpu[i : i + k] if w is not None) for i in spans]
        shares = [max(s for s in share[i : i + k] if s is not None) for i in spans]
        at = next((n for n in range(len(windows) + 1) if settled(windows[:n], shares[:n])), None)
        settled_at.append(None if at is None else at * k * WINDOW_S)
        last = windows[-3:]
        spreads.append(max(last) / min(last) - 1)
    fired = [s for s in settled_at if s is not None]
    print(
        f"{k * WINDOW_S:>2} s windows: settled in {len(fired)} of {len(settled_at)} warm-ups (at {fired} s); "
        f"the last three windows' spread: median {statistics.median(spreads):.0%}, "
        f"{min(spreads):.0%}-{max(spreads):.0%}"
    )
