"""Command line of the runner: `./bench --help`.

group       the `./bench` group itself
setup       ./bench setup
db          ./bench db start|stop|reset|status
stacks      ./bench build, ./bench serve, ./bench k8s
checks      ./bench test, ./bench fuzz
benchmark   ./bench run, ./bench report
docker      ./bench docker
"""

from __future__ import annotations

import sys

import click

from bench import procs

# Each module adds its commands to the group.
from bench.cli import benchmark, checks, db, docker, setup, stacks  # noqa: F401
from bench.cli.group import cli
from bench.console import err
from bench.errors import BenchError

__all__ = ["cli", "main"]


def main() -> None:
    procs.install_handlers()
    try:
        cli.main(prog_name="./bench", standalone_mode=False)
    except click.exceptions.Abort:
        err.print("bench: interrupted")
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except BenchError as error:
        err.print(f"bench: {error}", markup=False)
        sys.exit(1)
    except KeyboardInterrupt:
        err.print("bench: interrupted; everything it started is stopped")
        sys.exit(130)
    finally:
        procs.stop_all()
