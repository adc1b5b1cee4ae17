"""`./bench build`, `./bench serve` and `./bench k8s`: one stack at a time, by hand."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import click

from bench import procs
from bench.cli.group import cli
from bench.console import console
from bench.errors import BenchError
from bench.lock import Lock

if TYPE_CHECKING:
    from bench.manifest import Stack
    from bench.postgres import Cluster
    from bench.upstream import Upstream


@cli.command()
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
@click.option("--force", is_flag=True, help="Build even when nothing changed.")
def build(impls: tuple[str, ...], force: bool) -> None:
    """Build stacks (all by default) from their impl.toml, skipping those that are up to date.

    A stack is up to date when none of its files that git would track changed since its
    last successful build and its artifact exists.
    """
    from bench import manifest, training

    selected = manifest.select(impls)
    with Lock():
        for stack in selected:
            with console.status(f"building {stack.name}"):
                started = time.monotonic()
                built = training.build(stack, force=force)
            trained = training.summary(stack) if built else None
            console.print(
                f"{stack.name}: "
                + (f"built in {time.monotonic() - started:.0f} s" if built else "up to date")
                + (f"; {trained}" if trained else "")
            )


@cli.command("k8s")
@click.argument("impls", nargs=-1, metavar="[IMPL]...")
def k8s_command(impls: tuple[str, ...]) -> None:
    """Write stacks' Kubernetes manifests (all by default) from compose.yaml.

    deploy/k8s/stacks/IMPL/ is made from what compose.yaml says of the stack's service (its
    environment, caps and healthcheck timing), so that those facts are written once; `./bench
    test` fails when the committed manifests are missing or say something else. Writes only
    the files that change.
    """
    from bench import k8s_stack, manifest, paths

    selected = manifest.select(impls)
    changed = k8s_stack.write(paths.ROOT, [s.name for s in selected])
    for path in changed:
        console.print(f"wrote {path.relative_to(paths.ROOT)}")
    if not changed:
        console.print("deploy/k8s/stacks: up to date")


@cli.command()
@click.argument("impl", metavar="IMPL")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8080,
    show_default=True,
    help="Port the stack listens on (127.0.0.1).",
)
def serve(impl: str, port: int) -> None:
    """Run one stack on a freshly seeded database until Ctrl-C.

    Builds it if needed, resets the database, starts the stock upstream that its GET
    /items/{id}/stock asks (on port 8099, or the next free one), starts the stack with the same
    environment the benchmark uses, prints their URLs, and stops everything it started on Ctrl-C.
    """
    from bench import manifest, postgres, training, upstream

    (stack,) = manifest.select([impl])
    with Lock():
        with console.status(f"building {stack.name}"):
            training.build(stack)
        with postgres.session() as cluster:
            cluster.reset()
            with console.status("starting the stock upstream"):
                stock = upstream.start(log_name=f"{stack.name}-serve-upstream.log")
            try:
                serve_until_interrupted(stack, cluster, port, stock)
            finally:
                procs.stop(stock.proc)


def serve_until_interrupted(stack: Stack, cluster: Cluster, port: int, stock: Upstream) -> None:
    from bench import stacks, upstream

    with console.status(f"starting {stack.name}"):
        running = stacks.start(stack, port=port, database_url=cluster.url(), stock_url=stock.url)
    console.print(
        f"{stack.display} is serving at [bold]{running.base_url}[/] "
        f"(healthy after {running.startup_s:.1f} s; log {running.log})"
    )
    console.print(
        f"the stock upstream is serving at [bold]{stock.url}[/] "
        f"(GET /stock/{{id}} after {upstream.DEFAULT_DELAY_MS} ms; log {stock.log})"
    )
    console.print(f"DATABASE_URL={cluster.url()}  ·  STOCK_URL={stock.url}  ·  Ctrl-C stops both")
    try:
        running.proc.wait()
        raise BenchError(
            f"{stack.name} exited with code {running.proc.returncode}; "
            f"log {running.log}:\n{procs.tail(running.log, 20)}"
        )
    except KeyboardInterrupt:
        console.print(f"\nstopping {stack.name}")
    finally:
        running.stop()
