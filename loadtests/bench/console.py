"""The runner's one console (and its stderr twin): every command prints through these."""

from __future__ import annotations

import sys

from rich.console import Console

# A log (CI) is not a terminal: rich would wrap tables at 80 columns.
console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False)
