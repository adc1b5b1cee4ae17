"""A stand-in for vegeta as the runner calls it. `attack` takes rate × duration requests of the
targets file in order: each write (POST, PUT, DELETE) is sent to the stack for real, so that the
rows the lost-write check looks up are made, and answered with the stack's status; a read is
answered 200 without being sent. Its results are written as CSV (what `encode -to=csv` prints),
each request on its schedule, taking 2 ms up to FAKE_LOAD_CAPACITY requests/s and 5 s above it.
`encode` copies them.

Time is compressed, as in the fake oha: the attack does not last its duration (the runner takes a
step's duration from its plan and each request's time from its result, never from the clock). It
charges 0.1 ms of the app's CPU per request, oha's figure, and lasts at least as long as keeps
each group it charges at half a core (cgroup.keep_up), so that the shares the runner computes
over the real time between its readings are a stack's that keeps up: a steady state is reached
only below 0.9."""

import base64
import csv
import json
import os
import shutil
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import cgroup


def flags(args):
    return dict(arg.lstrip("-").split("=", 1) for arg in args if "=" in arg)


def send(target):
    request = urllib.request.Request(
        target["url"].split("#")[0],
        data=base64.b64decode(target["body"]) if "body" in target else None,
        method=target["method"],
        headers={name: values[0] for name, values in target.get("header", {}).items()},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def attack(options):
    started = time.monotonic()
    rate = float(options["rate"].removesuffix("/1s"))
    seconds = float(options["duration"].removesuffix("s"))
    capacity = float(os.environ.get("FAKE_LOAD_CAPACITY", "1e9"))
    latency_ns = 2_000_000 if rate <= capacity else 5_000_000_000
    targets = [json.loads(line) for line in Path(options["targets"]).read_text().splitlines()]
    count = round(rate * seconds)
    interval, began = int(1e9 / rate), time.time_ns()
    headers = base64.b64encode(b"Content-Length: 100\r\n\r\n").decode()
    with Path(options["output"]).open("w", newline="") as out:
        results = csv.writer(out)
        for seq, target in enumerate(targets[:count]):
            code = 200 if target["method"] == "GET" else send(target)
            stamp = began + (seq + 1) * interval
            url = target["url"]
            results.writerow([stamp, code, latency_ns, 0, 0, "", "", "", seq, target["method"], url, headers])
    # 0.1 ms of the app's CPU per request sent, half that of PostgreSQL's, and a little of the
    # load generator's (which may share PostgreSQL's CPUs).
    app_s, postgres_s, loadgen_s = count / 10_000, count / 20_000, 0.01
    if cgroup.enabled():
        cgroup.charge_cpu("app", app_s)
        cgroup.charge_cpu("loadgen", loadgen_s)
        cgroup.charge_cpu("postgres", postgres_s)
        cgroup.set_memory("app", 24 << 20, 30 << 20)
    # PostgreSQL and the load generator may share CPUs: their CPU together.
    cgroup.keep_up(started, app_s, postgres_s + loadgen_s)


def main(args):
    command, options = args[0], flags(args[1:])
    if command == "attack":
        attack(options)
    elif command == "encode":
        shutil.copyfile(args[-1], options["output"])
    else:
        sys.exit(f"the fake vegeta knows attack and encode, not {command}")


if __name__ == "__main__":
    main(sys.argv[1:])
