"""When each record's warm-up would have settled under other rules for a JVM's compiler: its
recorded windows replayed through bench.judgement.steady's CPU-per-request rule (`settled`) with
each JIT condition in turn. Run from loadtests/ with the runner's Python: replay.py RAW_DIR.
Times are the record's time to steady state spread evenly over its windows (each window is one
load run of 3 s plus the runner's reads)."""

import json
import sys
from pathlib import Path

from bench.judgement import steady


def compiler_of_core(limit):
    """The compiler threads' CPU under `limit` of the core over the last two windows: their share
    of the process's CPU times the process's share of its core."""

    def quiet(compiler_shares, app_shares):
        pairs = list(zip(compiler_shares, app_shares, strict=True))[-2:]
        return len(pairs) == 2 and all(c is not None and a is not None and c * a < limit for c, a in pairs)

    return quiet


def compiler_of_process(limit):
    def quiet(compiler_shares, app_shares):
        return len(compiler_shares) >= 2 and all(c is not None and c < limit for c in compiler_shares[-2:])

    return quiet


RULES = {
    "method v4 (no compilation, compiler under 5% of the process)": None,
    "compiler under 5% of the process": compiler_of_process(0.05),
    "compiler under 5% of the core": compiler_of_core(0.05),
    "CPU per request alone (method v3)": lambda compiler_shares, app_shares: True,
}


def settled_at(state, rule):
    windows, shares = state["windows_cpu_ms_per_request"], state["windows_app_cpu_share"]
    compilations = state.get("windows_compilations") or [None] * len(windows)
    compiler = state.get("windows_compiler_cpu_share") or [None] * len(windows)
    for n in range(1, len(windows) + 1):
        if not steady.settled(windows[:n], shares[:n]):
            continue
        if rule is None:
            if steady.jit_quiet(compilations[:n], compiler[:n]):
                return n
        elif rule(compiler[:n], shares[:n]):
            return n
    return None


print("| stack | scenario | warm rate (req/s) | recorded | " + " | ".join(RULES) + " |")
print("| --- | --- | --- | --- |" + " --- |" * len(RULES))
for path in sorted(Path(sys.argv[1]).rglob("*.json")):
    record = json.loads(path.read_text())
    state = record.get("steady_state")
    if not state:
        continue
    per_window = state["time_s"] / len(state["windows_cpu_ms_per_request"])
    cells = []
    for rule in RULES.values():
        n = settled_at(state, rule)
        cells.append("not within the cap" if n is None else f"{n * per_window:.0f} s")
    recorded = f"{state['time_s']:.0f} s" + ("" if state["reached"] else " (cap)")
    rate = state["rate_rps"]
    print(f"| {record['stack']['name']} | {record['scenario']} | {rate:.0f} | {recorded} | " + " | ".join(cells) + " |")
