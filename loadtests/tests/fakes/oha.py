"""A stand-in for oha as the runner calls it: one request to the URL (a 302, not followed), or
to the first of a URL list, then oha's JSON output on stdout for all the requests asked, each
answered with that request's status."""

import http.client
import json
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

import cgroup


def main(args):
    # --urls-from-file: the URLs are the file's lines; one of them stands for all.
    from_list = "--urls-from-file" in args
    url = urlsplit(Path(args[-1]).read_text().splitlines()[0] if from_list else args[-1])
    total = float(args[args.index("-z") + 1].removesuffix("s")) if "-z" in args and "-q" in args else 0.25
    if "-n" in args:
        requests = int(args[args.index("-n") + 1])
    elif "-q" in args:
        # A fixed rate: from a URL list, delivered up to FAKE_OHA_CAPACITY, then with a p99 over
        # any objective.
        rate = float(args[args.index("-q") + 1])
        capacity = float(os.environ.get("FAKE_OHA_CAPACITY", "1e9")) if from_list else rate
        requests = round(min(rate, capacity) * total)
    else:
        requests = 2_000
    p99 = 5.0 if "-q" in args and requests < round(rate * total) else 0.0015
    connection = http.client.HTTPConnection(url.netloc)
    connection.request("GET", url.path + (f"?{url.query}" if url.query else ""))
    status = connection.getresponse().status
    if cgroup.enabled():
        cgroup.charge_cpu("app", requests / 10_000)
        cgroup.charge_cpu("loadgen", 0.01)
        cgroup.charge_cpu("postgres", 0)
        if cgroup.has("upstream"):
            cgroup.charge_cpu("upstream", requests / 20_000)
        cgroup.set_memory("app", 24 << 20, 30 << 20)
    print(
        json.dumps(
            {
                "summary": {
                    "successRate": 1.0,
                    "total": total,
                    "slowest": 0.004,
                    "fastest": 0.00001,
                    "average": 0.0002,
                    "requestsPerSec": requests / total,
                    "totalData": 0,
                    "sizePerRequest": 0,
                },
                "latencyPercentiles": {
                    "p50": 0.0002,
                    "p90": 0.0006,
                    "p95": 0.0008,
                    "p99": p99,
                    "p99.9": max(p99, 0.003),
                },
                "statusCodeDistribution": {str(status): requests},
                "errorDistribution": {},
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
