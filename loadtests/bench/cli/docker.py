"""`./bench docker`: every stack built and run as a visitor would, with Docker Compose."""

from __future__ import annotations

import sys

import click

from bench.cli.group import cli
from bench.console import console
from bench.lock import Lock


@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
def docker(impls: tuple[str, ...]) -> None:
    """Run stacks (all by default) through the Docker path of docs/docker.md.

    Installs what is missing: Docker Engine (Debian's docker.io, as root) and the Compose v2
    plugin (built once from its Go module, pinned, kept in ~/.cache/bench-tools). Starts dockerd
    when no daemon answers, and stops it afterwards. Base images that cannot be pulled are built
    here as stand-ins (loadtests/standins/; the output names them). PostgreSQL (seeded as
    `docker compose up` seeds it) and the stock upstream come up once, for the first stack; each
    later stack gets the seeded database back from a copy of it. Then, per stack: `docker
    compose build`, `docker compose up -d` and GET /health on the published port until 200, the
    conformance suite of its dialect against that port (PostgreSQL's container stopped and
    started for the resilience cases), a k6 smoke of one scenario from compose's k6 service,
    Docker's verdict on compose.yaml's healthcheck, and the stack's container removed; `docker
    compose down -v` at the end, even on Ctrl-C. Prints image size, build time, the times to the
    database and to GET /health's 200, and the results; exits 1 on any failure. Logs are in
    .bench/logs/docker/.

    A variant (STACK@VARIANT) runs from the stage of its name in the stack's Dockerfile, built
    with that target into the stack's service (the AOT-cache variants: java-spring@aot-cache);
    one whose Dockerfile has no such stage is refused.
    """
    from bench import manifest
    from bench.docker import session

    selected = manifest.select(impls)
    with Lock(), console.status("docker") as status:
        report = session.run(selected, on_progress=lambda text: status.update(f"[bold]docker[/]: {text}"))
    session.print_table(report)
    if not report.ok:
        sys.exit(1)
