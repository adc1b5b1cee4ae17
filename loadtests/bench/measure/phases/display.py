"""The live line of `./bench run`: stack, scenario, stage, elapsed/remaining and the request rate."""

from __future__ import annotations

import time

from rich.live import Live
from rich.table import Table

from bench.console import console


class Display:
    def __init__(self, total_s: float) -> None:
        self.total = total_s
        self.started = time.monotonic()
        self.what = "starting"
        self.rps: float | None = None
        self.live = Live(self._render(), console=console, refresh_per_second=2, transient=True)

    def _render(self) -> Table:
        elapsed = time.monotonic() - self.started
        remaining = max(self.total - elapsed, 0)
        table = Table.grid(padding=(0, 2))
        table.add_row(
            f"[bold]{self.what}[/]",
            f"{self.rps:,.0f} req/s" if self.rps else "",
            f"elapsed {_mmss(elapsed)}",
            f"about {_mmss(remaining)} left",
        )
        return table

    def update(self, what: str | None = None, rps: float | None = None) -> None:
        if what is not None:
            self.what = what
            self.rps = None
        if rps is not None:
            self.rps = rps
        self.live.update(self._render())

    def show_rate(self, rps: float) -> None:
        """The request rate a load generator reports while it runs (bench.measure.load.process)."""
        self.update(rps=rps)


def _mmss(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"
