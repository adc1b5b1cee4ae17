"""The command group `./bench`: every command of the runner is one of its subcommands."""

from __future__ import annotations

import click

from bench.cli.stack_help import StackGroup


@click.group(cls=StackGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
def cli() -> None:
    """Build, test, serve and benchmark the stacks of this repository.

    Every stack is a top-level directory with an impl.toml. The runner keeps its state
    (a private PostgreSQL cluster, its Python environment, the load generators and logs) in
    .bench/ (or $BENCH_HOME) and installs what it needs on first use.

    \b
    Start here:
      ./bench test            build and test every stack (what CI runs)
      ./bench serve go-gin    one stack on a freshly seeded database, until Ctrl-C
      ./bench docker go-gin   the same stack built and run with Docker Compose
    """
