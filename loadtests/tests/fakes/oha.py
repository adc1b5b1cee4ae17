"""A stand-in for oha as the runner calls it: one request to the URL (a 302, not followed),
then oha's JSON output on stdout for all the requests asked."""

import http.client
import json
import sys
from urllib.parse import urlsplit

import cgroup


def main(args):
    requests, url = int(args[args.index("-n") + 1]), urlsplit(args[-1])
    connection = http.client.HTTPConnection(url.hostname, url.port)
    connection.request("GET", url.path)
    status = connection.getresponse().status
    if cgroup.enabled():
        cgroup.charge_cpu("app", requests / 10_000)
        cgroup.charge_cpu("loadgen", 0.01)
        cgroup.set_memory("app", 24 << 20, 30 << 20)
    print(
        json.dumps(
            {
                "summary": {
                    "successRate": 1.0,
                    "total": 0.25,
                    "slowest": 0.004,
                    "fastest": 0.00001,
                    "average": 0.0002,
                    "requestsPerSec": requests / 0.25,
                    "totalData": 0,
                    "sizePerRequest": 0,
                },
                "latencyPercentiles": {"p50": 0.0002, "p95": 0.0008, "p99": 0.0015},
                "statusCodeDistribution": {str(status): requests},
                "errorDistribution": {},
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
