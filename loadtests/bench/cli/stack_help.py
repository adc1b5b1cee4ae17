"""The stacks in `./bench CMD --help`: found the way every command finds them, never listed by hand."""

from __future__ import annotations

from pathlib import Path

import click

from bench import manifest
from bench.errors import BenchError

HEADING = "Stacks (top-level directories with an impl.toml)"
VARIANTS_NOTE = "STACK@VARIANT is the stack with one knob changed, as its impl.toml's [variants] says."


def _rows(directory: Path) -> list[tuple[str, str]]:
    """The stack's line, then a line per variant (STACK@VARIANT, as a command takes it)."""
    try:
        stack = manifest.load(directory)
    except BenchError:
        return [(directory.name, "(its impl.toml is not valid: ./bench test says why)")]
    variants = [
        (f"{stack.name}{manifest.VARIANT_SEPARATOR}{name}", f"  {variant.description}")
        for name, variant in stack.variants.items()
    ]
    return [(stack.name, stack.display), *variants]


class StackCommand(click.Command):
    """A command that takes stacks (an IMPL argument): its help ends with those there are."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if any(isinstance(p, click.Argument) and "IMPL" in p.human_readable_name for p in self.params):
            rows = [row for d in manifest.stack_dirs() for row in _rows(d)]
            with formatter.section(HEADING):
                if rows:
                    formatter.write_dl(rows)
                    if any(manifest.VARIANT_SEPARATOR in name for name, _ in rows):
                        formatter.write_paragraph()
                        formatter.write_text(VARIANTS_NOTE)
                else:
                    formatter.write_text("none yet")
        super().format_epilog(ctx, formatter)


class StackGroup(click.Group):
    """The command group whose commands list the stacks in their help."""

    command_class = StackCommand
