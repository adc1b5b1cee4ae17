"""A stand-in for k6 as the runner calls it: checks the stack answers at BASE_URL, then writes
the summary that loadtests/k6/lib/common.js's handleSummary writes, for one stage or the warm-up."""

import itertools
import json
import sys
import urllib.request
from pathlib import Path

import cgroup

REQUESTS = 400
SENT = 500  # the ramp's requests too
LATENCY = {"avg": 2.0, "min": 0.5, "p50": 1.8, "p95": 4.0, "p99": 6.0, "max": 9.0}


def main(args):
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
    stages = (
        []
        if stage == "warmup"
        else [
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
    )
    if log_file is not None:
        log_file.write_text("time=now level=info msg=starting\n")
    summary = {
        "scenario": script.stem,
        "profile": env["PROFILE"],
        "base_url": env["BASE_URL"],
        "stage_seconds": 4,
        "stages": stages,
        "writes": {"items_created": 0, "items_deleted": 0, "categories_created": 0},
        "total_requests": SENT,
    }
    Path(env["SUMMARY"]).write_text(json.dumps(summary))
    if cgroup.enabled():
        # 1 ms of the app's CPU per request sent, and a little of the load generator's.
        cgroup.charge_cpu("app", SENT / 1000)
        cgroup.charge_cpu("loadgen", 0.01)
        cgroup.set_memory("app", 24 << 20, 30 << 20)
    print(f"running (0m04.0s), 050/050 VUs, {SENT} complete and 0 interrupted iterations")


if __name__ == "__main__":
    main(sys.argv[1:])
