"""Each warm-up window of the records under a directory, one line each: what the app's CPU per
request did and what moved with it (compilations and the compiler threads' share of the core,
collections and their pauses, safepoints and the time stopped at them, heap, live threads, the
machine's steal and CPU pressure). Then, per record, the largest late drop: the window after
which the median of the next ten windows is lowest against the median of the ten before, and
the same readings summed over each side. Run from a checkout's loadtests/ with the runner's
Python:

    ../.bench/venv/bin/python ../results/experiments/2026-12-02-late-drops/windows.py DIR [--all]

--all prints every window; without it, the drops alone."""

import statistics
import sys
from pathlib import Path

from bench.records import RawResult

directory, *flags = sys.argv[1:]
SIDE = 10


def fmt(value, digits=2):
    return "–" if value is None else f"{value:.{digits}f}"


for path in sorted(Path(directory).glob("**/*.json")):
    record = RawResult.read(path)
    steady = record.steady_state
    if steady is None or not steady.windows_readings:
        continue
    cost = steady.windows_cpu_ms_per_request
    readings = steady.windows_readings
    compiles = steady.windows_compilations or [None] * len(cost)
    compiler = steady.windows_compiler_cpu_share or [None] * len(cost)
    per_window = steady.time_s / len(cost)
    print(f"\n{record.stack.name} · {record.scenario} · run {record.run}: {len(cost)} windows of {steady.window_s:g} s "
          f"at {steady.rate_rps:g} req/s, about {per_window:.2f} s apart")
    if "--all" in flags:
        print("window  s  ms/req  compiles  compiler  gc  gc_ms  safepoints  sp_ms  heap_MiB  threads  steal  pressure")
        for i, (c, r, n, share) in enumerate(zip(cost, readings, compiles, compiler, strict=True)):
            jvm, host = r.jvm, r.host
            print(
                f"{i + 1:6} {i * per_window:4.0f} {fmt(c, 3):>7} {n if n is not None else '–':>9} {fmt(share, 3):>9}"
                f" {jvm.gc_pauses if jvm else '–':>3} {fmt(jvm.gc_pause_ms if jvm else None, 1):>6}"
                f" {jvm.safepoints if jvm else '–':>11} {fmt(jvm.safepoint_ms if jvm else None, 1):>6}"
                f" {fmt(jvm.heap_used_bytes / 2**20 if jvm else None, 0):>9} {jvm.live_threads if jvm else '–':>8}"
                f" {fmt(host.steal_share if host else None, 3):>6} {fmt(host.cpu_pressure_share if host else None, 2):>9}"
            )
    best = None
    for at in range(SIDE, len(cost) - SIDE + 1):
        before = [c for c in cost[at - SIDE : at] if c is not None]
        after = [c for c in cost[at : at + SIDE] if c is not None]
        if len(before) < SIDE // 2 or len(after) < SIDE // 2:
            continue
        ratio = statistics.median(after) / statistics.median(before)
        if best is None or ratio < best[0]:
            best = (ratio, at, statistics.median(before), statistics.median(after))
    if best is None:
        continue
    ratio, at, before_ms, after_ms = best

    def summed(lo, hi):
        side = readings[lo:hi]
        jvms = [r.jvm for r in side if r.jvm is not None]
        hosts = [r.host for r in side if r.host is not None]
        return (
            sum(n for n in compiles[lo:hi] if n is not None),
            statistics.mean(s for s in compiler[lo:hi] if s is not None) if any(compiler[lo:hi]) else None,
            sum(j.gc_pauses for j in jvms),
            sum(j.gc_pause_ms for j in jvms),
            sum(j.safepoints for j in jvms),
            sum(j.safepoint_ms for j in jvms),
            statistics.median(j.heap_used_bytes for j in jvms) / 2**20 if jvms else None,
            statistics.median(j.live_threads for j in jvms) if jvms else None,
            statistics.mean(h.steal_share for h in hosts) if hosts else None,
            statistics.mean(h.cpu_pressure_share for h in hosts if h.cpu_pressure_share is not None) if hosts else None,
        )

    print(
        f"  largest drop: after window {at} (~{at * per_window:.0f} s of warm-up), {before_ms:.3f} -> {after_ms:.3f} "
        f"ms/req ({ratio:.2f})"
    )
    for name, lo, hi in (("before", at - SIDE, at), ("after", at, at + SIDE)):
        n, share, gcs, gc_ms, sps, sp_ms, heap, threads, steal, pressure = summed(lo, hi)
        print(
            f"  {name:6}: compilations {n}, compiler share {fmt(share, 3)}, collections {gcs} ({gc_ms:.1f} ms), "
            f"safepoints {sps} ({sp_ms:.1f} ms), heap {fmt(heap, 0)} MiB, threads {threads}, steal {fmt(steal, 3)}, "
            f"pressure {fmt(pressure, 2)}"
        )
