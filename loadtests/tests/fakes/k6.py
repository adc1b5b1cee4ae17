"""A stand-in for k6 as the runner calls it: checks the stack answers at BASE_URL, then writes
the summary that loadtests/k6/lib/common.js's handleSummary writes, for one stage or the warm-up.
With --address, a fixed-rate run is a live one: it serves k6's REST API (the iterations completed,
charging the app's CPU as they complete) until it is stopped through it or its DURATION ends,
and exits as k6 does after a stop (103)."""

import itertools
import json
import os
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cgroup

REQUESTS = 400
SENT = 500  # the ramp's requests too
LATENCY = {"avg": 2.0, "min": 0.5, "p50": 1.8, "p95": 4.0, "p99": 6.0, "max": 9.0}


def live(address, rate, seconds):
    """Serves k6's REST API at `address` while iterations complete at `rate`: the seconds it ran
    and whether it was stopped."""
    stopped, started, lock = threading.Event(), time.monotonic(), threading.Lock()
    charged = [0]

    class Api(BaseHTTPRequestHandler):
        def do_GET(self):
            assert self.path == "/v1/metrics/iterations"
            with lock:
                count = int(rate * (time.monotonic() - started))
                if cgroup.enabled():
                    cgroup.charge_cpu("app", (count - charged[0]) / 1000)
                charged[0] = count
            self._answer({"data": {"type": "metrics", "id": "iterations", "attributes": {"sample": {"count": count}}}})

        def do_PATCH(self):
            assert self.path == "/v1/status"
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            assert body["data"]["attributes"]["stopped"] is True
            self._answer(body)
            stopped.set()

        def _answer(self, body):
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    host, _, port = address.rpartition(":")
    server = ThreadingHTTPServer((host, int(port)), Api)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    was_stopped = stopped.wait(seconds)
    server.shutdown()
    return time.monotonic() - started, was_stopped


def main(args):
    env, log_file, script, address = {}, None, Path(args[-1]), None
    for flag, value in itertools.pairwise(args):
        if flag == "-e":
            key, _, val = value.partition("=")
            env[key] = val
        elif flag == "--log-output":
            log_file = Path(value.removeprefix("file="))
        elif flag == "--address":
            address = value
    with urllib.request.urlopen(env["BASE_URL"] + "/health") as answer:
        assert answer.status == 200
    stage = env["STAGE"]
    seconds, sent, was_stopped = 4, SENT, False
    if address is not None:
        rate = float(env["RATE"])
        _, was_stopped = live(address, rate, int(env["DURATION"]))
        stages, sent = [], 0  # its CPU is charged as it runs; its figures are not read
    elif "RATE" in env:
        # A fixed-rate step: the rate delivered up to FAKE_K6_CAPACITY, then p99 over any objective.
        rate, seconds = float(env["RATE"]), int(env["DURATION"])
        capacity = float(os.environ.get("FAKE_K6_CAPACITY", "1e9"))
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
    if cgroup.enabled():
        # 1 ms of the app's CPU per request sent, and a little of the load generator's.
        cgroup.charge_cpu("app", sent / 1000)
        cgroup.charge_cpu("loadgen", 0.01)
        cgroup.charge_cpu("postgres", sent / 2000)
        cgroup.set_memory("app", 24 << 20, 30 << 20)
    print(f"running (0m04.0s), 050/050 VUs, {sent} complete and 0 interrupted iterations")
    if was_stopped:
        sys.exit(103)


if __name__ == "__main__":
    main(sys.argv[1:])
