"""The stacks in `./bench CMD --help`: found the way every command finds them, never listed by hand."""

from __future__ import annotations

from pathlib import Path

import click

from bench import manifest
from bench.errors import BenchError

HEADING = "Stacks (top-level directories with an impl.toml)"


def _describe(directory: Path) -> str:
    try:
        return manifest.load(directory).display
    except BenchError:
        return "(its impl.toml is not valid: ./bench test says why)"


class StackCommand(click.Command):
    """A command that takes stacks (an IMPL argument): its help ends with those there are."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if any(isinstance(p, click.Argument) and "IMPL" in p.human_readable_name for p in self.params):
            rows = [(d.name, _describe(d)) for d in manifest.stack_dirs()]
            with formatter.section(HEADING):
                if rows:
                    formatter.write_dl(rows)
                else:
                    formatter.write_text("none yet")
        super().format_epilog(ctx, formatter)


class StackGroup(click.Group):
    """The command group whose commands list the stacks in their help."""

    command_class = StackCommand
