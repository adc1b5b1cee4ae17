"""nginx as the HTTP and proxy ceilings' server (bench.measure.plan.ceilings): the cheapest possible
answer to GET /avatar, and GET /items/{id}/stock passed on to the stock upstream, on the app's CPU
set."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from bench import paths, procs, system
from bench.errors import BenchError

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
