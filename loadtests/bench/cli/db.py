"""`./bench db`: the runner's private PostgreSQL cluster by hand."""

from __future__ import annotations

import time

from bench.cli.group import cli
from bench.console import console
from bench.lock import Lock


@cli.group()
def db() -> None:
    """The runner's private PostgreSQL cluster (never the system's).

    It lives in .bench/postgres, listens on 127.0.0.1:$BENCH_PG_PORT (default 25432) and
    holds the seeded template database `bench_template` and the working database `bench`
    (user bench, password bench).
    """


@db.command("start")
def db_start() -> None:
    """Create the cluster if needed, start it, seed the template and reset `bench`."""
    from bench import postgres

    with Lock():
        with console.status("starting PostgreSQL"):
            cluster = postgres.ready_cluster()
            cluster.reset()
        console.print(f"PostgreSQL running: DATABASE_URL={cluster.url()}")


@db.command("stop")
def db_stop() -> None:
    """Stop the cluster (its data stays)."""
    from bench import postgres

    with Lock():
        cluster = postgres.cluster()
        was_running = cluster.running()
        cluster.stop()
        console.print("PostgreSQL stopped" if was_running else "PostgreSQL was not running")


@db.command("reset")
def db_reset() -> None:
    """Replace `bench` with a fresh copy of the seeded template (starts the cluster if needed)."""
    from bench import postgres

    with Lock():
        cluster = postgres.ready_cluster()
        started = time.monotonic()
        cluster.reset()
        console.print(f"database reset to the seed in {time.monotonic() - started:.2f} s: DATABASE_URL={cluster.url()}")


@db.command("status")
def db_status() -> None:
    """Say whether the cluster runs, where, and what it holds."""
    from bench import postgres

    cluster = postgres.cluster()
    if not cluster.initialised():
        console.print(f"no cluster yet (it will live in {cluster.data}); `./bench db start` creates it")
        return
    if not cluster.running():
        console.print(f"stopped; data in {cluster.data}")
        return
    console.print(f"running on 127.0.0.1:{cluster.port}, data in {cluster.data}")
    console.print(f"databases: {', '.join(cluster.databases())}")
    console.print(f"DATABASE_URL={cluster.url()}")
