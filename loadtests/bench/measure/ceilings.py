"""The ceilings measured in the same run: pgbench replaying each scenario's SQL (database),
nginx answering `return 302` on the app's CPU set (HTTP), and for the outbound scenario nginx
passing GET /items/{id}/stock on to the stock upstream (proxy). A stack's efficiency is its
throughput divided by the ceiling of the same scenario and stage."""

from __future__ import annotations

import math
import re
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench import paths, procs, system
from bench.errors import BenchError
from bench.records import StackInfo
from bench.records.steps import Latency
from bench.scenarios import Scenario

CEILING_DB = StackInfo(
    name="ceiling-db",
    display="database ceiling (pgbench, as many connections as DB_POOL_SIZE)",
    language="SQL",
    language_version="",
    framework="pgbench",
    framework_version="",
    server="PostgreSQL",
    data_access="the scenario's SQL, prepared",
)
CEILING_HTTP = StackInfo(
    name="ceiling-http",
    display="HTTP ceiling (nginx return 302)",
    language="C",
    language_version="",
    framework="nginx",
    framework_version="",
    server="nginx",
    data_access="none",
)


CEILING_PROXY = StackInfo(
    name="ceiling-proxy",
    display="proxy ceiling (nginx proxy_pass to the stock upstream)",
    language="C",
    language_version="",
    framework="nginx",
    framework_version="",
    server="nginx",
    data_access="none: the stock upstream over kept-alive HTTP/1.1",
)


def ceiling_of(scenario: Scenario) -> StackInfo:
    """The database's for the k6 scenarios, nginx's for the avatar, nginx as a proxy for a
    scenario that calls the stock upstream (outbound)."""
    if scenario.upstream:
        return CEILING_PROXY
    return CEILING_DB if scenario.tool == "k6" else CEILING_HTTP


PGBENCH_DIR = paths.ROOT / "loadtests" / "pgbench"

# The scenarios' request mixes (loadtests/k6/*.js) as pgbench scripts and weights.
PGBENCH_MIXES = {
    "read-heavy": {"items_page": 50, "items_by_category": 20, "category_items": 20, "categories_page": 10},
    "join-filter": {"items_by_category": 70, "item_by_id": 30},
    "mixed": {
        "item_by_id": 35,
        "items_page": 15,
        "item_create": 15,
        "item_replace": 10,
        "item_delete": 10,
        "category_by_id": 10,
        "category_create": 5,
    },
    "heavy-body": {"heavy_create": 50, "heavy_replace": 50},
}

_TPS = re.compile(r"^tps = ([0-9.]+)", re.MULTILINE)
_LATENCY = re.compile(r"^latency average = ([0-9.]+) ms", re.MULTILINE)
_FAILED = re.compile(r"^number of failed transactions: (\d+)", re.MULTILINE)
_DONE = re.compile(r"^number of transactions actually processed: (\d+)", re.MULTILINE)


def pgbench_command(
    pgbench: Path,
    url: str,
    scenario: str,
    clients: int,
    seconds: int,
    *,
    rate: float | None = None,
    latency_limit_ms: float | None = None,
    log_prefix: Path | None = None,
) -> str:
    """pgbench replaying `scenario`'s mix; at a fixed `rate` (transactions/s over all clients,
    latency then counted from each transaction's scheduled start, as k6's arrival rate does),
    skipping those already later than `latency_limit_ms` when their turn comes (k6's dropped
    iterations), and logging every transaction under `log_prefix` for the percentiles."""
    scripts = " ".join(
        f"-f '{PGBENCH_DIR / (name + '.sql')}@{weight}'" for name, weight in PGBENCH_MIXES[scenario].items()
    )
    options = f"-n -M prepared -c {clients} -j 1 -T {seconds}"
    if rate is not None:
        options += f" -R {rate:g}"
    if latency_limit_ms is not None:
        options += f" -L {latency_limit_ms:g}"
    if log_prefix is not None:
        options += f" -l --log-prefix='{log_prefix}'"
    return f"exec '{pgbench}' {options} {scripts} '{url}'"


@dataclass(frozen=True)
class PgbenchReport:
    """What pgbench prints at its end. It reports the mean latency only."""

    tps: float
    transactions: int | None
    latency_avg_ms: float | None
    failed: int


def parse_pgbench(text: str) -> PgbenchReport:
    tps = _TPS.search(text)
    if tps is None:
        raise ValueError("pgbench printed no tps line")
    latency = _LATENCY.search(text)
    failed = _FAILED.search(text)
    done = _DONE.search(text)
    return PgbenchReport(
        tps=float(tps.group(1)),
        transactions=int(done.group(1)) if done else None,
        latency_avg_ms=float(latency.group(1)) if latency else None,
        failed=int(failed.group(1)) if failed else 0,
    )


@dataclass(frozen=True)
class TransactionLog:
    """pgbench's per-transaction log (-l): each latency, and the transactions it skipped (-L)."""

    latencies_ms: list[float]
    skipped: int


def read_transaction_logs(prefix: Path) -> TransactionLog:
    """Every file pgbench wrote under `prefix` (one per thread: PREFIX.PID, PREFIX.PID.N). A line
    is `client transaction time script epoch microseconds [lag]`; with a rate, `time` is counted
    from the scheduled start (lag included), and is `skipped` for a transaction -L skipped."""
    latencies: list[float] = []
    skipped = 0
    for path in sorted(prefix.parent.glob(prefix.name + ".*")):
        for line in path.read_text().splitlines():
            fields = line.split()
            if len(fields) < 3:
                continue
            if fields[2] == "skipped":
                skipped += 1
            else:
                latencies.append(int(fields[2]) / 1000)
    return TransactionLog(latencies, skipped)


def latency_of(latencies_ms: list[float]) -> Latency | None:
    """The percentiles the k6 and oha figures have, from every transaction's latency."""
    if not latencies_ms:
        return None
    ordered = sorted(latencies_ms)

    def percentile(share: float) -> float:
        # Nearest rank: a latency some transaction actually had.
        return ordered[max(0, math.ceil(share * len(ordered)) - 1)]

    return Latency(
        avg=statistics.fmean(ordered),
        min=ordered[0],
        p50=percentile(0.50),
        p90=percentile(0.90),
        p95=percentile(0.95),
        p99=percentile(0.99),
        p999=percentile(0.999),
        max=ordered[-1],
    )


NGINX_CONF = """\
# The HTTP ceiling: the cheapest possible answer to GET /avatar, on the app's CPU set.
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
# A proxied request holds two connections: the client's and one to the stock upstream. Outbound's
# 20,000 req/s step opens 1,024 clients' and as many upstream connections as requests wait there:
# at 2,048 nginx ran out ("worker_connections are not enough"), dropped connections and left oha
# hung at the next step.
worker_rlimit_nofile 16384;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    # nginx closes a keep-alive connection after 1,000 requests by default; the stacks never do.
    keepalive_requests 1000000000;
    client_body_temp_path {prefix}/tmp;
    proxy_temp_path {prefix}/tmp;
    fastcgi_temp_path {prefix}/tmp;
    uwsgi_temp_path {prefix}/tmp;
    scgi_temp_path {prefix}/tmp;
{stock_upstream}    server {{
        listen 127.0.0.1:{port};
        # What the stacks answer: 302, the Location, and no body. `return 302 URL` would add
        # nginx's 145-byte HTML page; a 418 turned into a 302 by error_page, answered by an
        # internal location with an empty body, sends the status and headers alone.
        location = /avatar {{ error_page 418 =302 /avatar-302; return 418; }}
        location = /avatar-302 {{
            internal;
            default_type "";
            add_header Location "https://avatar.example.com/Renard-1.png" always;
            return 200 "";
        }}
        location = /health {{ return 200 '{{"status":"UP"}}'; }}
{stock_location}    }}
}}
"""

# The outbound scenario's ceiling: the cheapest possible GET /items/{id}/stock, nginx passing it
# to the upstream's /stock/{id} over kept-alive connections (as many as the stacks' pools may
# keep, never closed for a number of requests) with the contract's 1 s timeouts, and the
# upstream's answer passed on as it is.
NGINX_STOCK_UPSTREAM = """\
    # The outbound scenario's ceiling: GET /items/{{id}}/stock passed on to the stock upstream.
    upstream stock {{
        server 127.0.0.1:{port};
        keepalive 512;
        keepalive_requests 1000000000;
    }}
"""
NGINX_STOCK_LOCATION = """\
        location ~ ^/items/([0-9]+)/stock$ {
            proxy_pass http://stock/stock/$1;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_connect_timeout 1s;
            proxy_read_timeout 1s;
        }
"""


def ensure_nginx() -> Path:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found is None:
        system.apt_install(
            ["nginx-light", "nginx"], why="nginx (the HTTP ceiling)", keep_services_down=True, any_of=True
        )
        found = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(found).exists():
            raise BenchError("nginx is still missing after installing it")
    return Path(found)


def start_nginx(
    wrap: Callable[[str], str], port: int, stock_port: int | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Starts nginx on 127.0.0.1:port, its command wrapped by `wrap` (into the app's cgroup),
    passing the stock endpoint to the upstream on `stock_port` if given; returns the process and
    its base URL."""
    nginx = ensure_nginx()
    home = paths.HOME / "nginx"
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    conf = home / "nginx.conf"
    stock = stock_port is not None
    conf.write_text(
        NGINX_CONF.format(
            prefix=home,
            port=port,
            stock_upstream=NGINX_STOCK_UPSTREAM.format(port=stock_port) if stock else "",
            stock_location=NGINX_STOCK_LOCATION if stock else "",
        )
    )
    proc = procs.spawn(
        wrap(f"exec '{nginx}' -c '{conf}' -p '{home}'"),
        cwd=paths.HOME,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
        log=home / "nginx.out",
    )
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while True:
        try:
            if httpx.get(base_url + "/health", timeout=1).status_code == 200:
                return proc, base_url
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            procs.stop(proc)
            raise BenchError(f"nginx did not start; see {home / 'error.log'}: {procs.tail(home / 'nginx.out', 3)}")
        time.sleep(0.1)
