"""A stand-in for oha as the runner calls it: one request to the URL (a 302, not followed),
then oha's JSON output on stdout for all the requests asked."""

import http.client
import json
import sys
from urllib.parse import urlsplit

import cgroup


def main(args):
    url = urlsplit(args[-1])
    total = float(args[args.index("-z") + 1].removesuffix("s")) if "-z" in args and "-q" in args else 0.25
    if "-n" in args:
        requests = int(args[args.index("-n") + 1])
    elif "-q" in args:
        requests = round(float(args[args.index("-q") + 1]) * float(args[args.index("-z") + 1].removesuffix("s")))
    else:
        requests = 2_000
    connection = http.client.HTTPConnection(url.hostname, url.port)
    connection.request("GET", url.path)
    status = connection.getresponse().status
    if cgroup.enabled():
        cgroup.charge_cpu("app", requests / 10_000)
        cgroup.charge_cpu("loadgen", 0.01)
        cgroup.charge_cpu("postgres", 0)
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
                "latencyPercentiles": {"p50": 0.0002, "p90": 0.0006, "p95": 0.0008, "p99": 0.0015, "p99.9": 0.003},
                "statusCodeDistribution": {str(status): requests},
                "errorDistribution": {},
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
