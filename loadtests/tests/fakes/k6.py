"""A stand-in for k6 as the runner calls it: checks the stack answers at BASE_URL, then writes
the summary that loadtests/k6/lib/common.js's handleSummary writes, for one stage or the warm-up,
or for a fixed-rate run (RATE) as `python -m bench.measure.load.generators` starts one."""

import itertools
import json
import os
import sys
import time
import urllib.request
from pathlib import Path

import cgroup

REQUESTS = 400
SENT = 500  # the ramp's requests too
LATENCY = {"avg": 2.0, "min": 0.5, "p50": 1.8, "p95": 4.0, "p99": 6.0, "max": 9.0}


def main(args):
    started = time.monotonic()
    env, log_file, script = {}, None, Path(args[-1])
    for flag, value in itertools.pairwise(args):
        if flag == "-e":
            key, _, val = value.partition("=")
            env[key] = val
        elif flag == "--log-output":
            log_file = Path(value.removeprefix("file="))
    with urllib.request.urlopen(env["BASE_URL"] + "/health") as answer:
        assert answer.status == 200
    stage = env["STAGE"]
    seconds, sent = 4, SENT
    if "RATE" in env:
        # A fixed-rate step: the rate delivered up to FAKE_LOAD_CAPACITY, then p99 over any objective.
        rate, seconds = float(env["RATE"]), int(env["DURATION"])
        capacity = float(os.environ.get("FAKE_LOAD_CAPACITY", "1e9"))
        requests = round(min(rate, capacity) * seconds)
        sent = requests
        latency = dict(LATENCY, p90=5.0, p999=8.0) if rate <= capacity else dict(LATENCY, p99=5000.0, p999=6000.0)
        stages = [
            {
                "vus": int(env["VUS"]),
                "offered_rps": rate,
                "dropped_iterations": 0,
                "requests": requests,
                "rps": requests / seconds,
                "latency_ms": latency,
                "errors": {},
                "error_count": 0,
                "bytes_received": requests * 100,
                "endpoints": {"item_by_id": {"requests": requests, "latency_ms": latency}},
            }
        ]
    elif stage == "warmup":
        stages = []
    else:
        stages = [
            {
                "vus": int(stage),
                "requests": REQUESTS,
                "rps": REQUESTS / 4,
                "latency_ms": LATENCY,
                "errors": {},
                "error_count": 0,
                "bytes_received": REQUESTS * 100,
                "endpoints": {"item_by_id": {"requests": REQUESTS, "latency_ms": LATENCY}},
            }
        ]
    if log_file is not None:
        log_file.write_text("time=now level=info msg=starting\n")
    summary = {
        "scenario": script.stem,
        "profile": env["PROFILE"],
        "base_url": env["BASE_URL"],
        "stage_seconds": seconds,
        "stages": stages,
        "writes": {"items_created": 0, "items_deleted": 0, "categories_created": 0},
        "total_requests": sent,
        "run_seconds": seconds,
    }
    Path(env["SUMMARY"]).write_text(json.dumps(summary))
    # 0.1 ms of the app's CPU per request sent (the fake oha's and vegeta's), half that of
    # PostgreSQL's, and a little of the load generator's.
    app_s, postgres_s, loadgen_s = sent / 10_000, sent / 20_000, 0.01
    if cgroup.enabled():
        cgroup.charge_cpu("app", app_s)
        cgroup.charge_cpu("loadgen", loadgen_s)
        cgroup.charge_cpu("postgres", postgres_s)
        cgroup.set_memory("app", 24 << 20, 30 << 20)
    # Time is compressed (the summary says `seconds`, the run takes far less): its CPU over the
    # real time stays a stack's that keeps up, PostgreSQL's and the load generator's together.
    cgroup.keep_up(started, app_s, postgres_s + loadgen_s)
    print(f"running (0m04.0s), 050/050 VUs, {sent} complete and 0 interrupted iterations")


if __name__ == "__main__":
    main(sys.argv[1:])
