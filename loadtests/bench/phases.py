"""How long each phase of `./bench test` took, printed at its end: where CI's time goes, measured
on every run instead of guessed."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.table import Table


@dataclass(frozen=True)
class Timing:
    who: str  # a stack, or "runner"
    phase: str  # "build", "own tests", "conformance", ...
    seconds: float


_timings: list[Timing] = []


@contextmanager
def timed(who: str, phase: str) -> Iterator[None]:
    """Records how long the block took, however it ended (a failure's time counts too)."""
    started = time.monotonic()
    try:
        yield
    finally:
        _timings.append(Timing(who, phase, time.monotonic() - started))


def recorded() -> list[Timing]:
    return list(_timings)


def clear() -> None:
    _timings.clear()


def table(timings: list[Timing]) -> Table:
    """Per phase, in the order first met: its total over every stack, its share of the whole, and
    the stack it took longest for."""
    totals: dict[str, float] = defaultdict(float)
    slowest: dict[str, Timing] = {}
    for timing in timings:
        totals[timing.phase] += timing.seconds
        if timing.phase not in slowest or timing.seconds > slowest[timing.phase].seconds:
            slowest[timing.phase] = timing
    whole = sum(totals.values()) or 1.0
    result = Table(title=f"time per phase ({whole / 60:.1f} min in all)")
    for column in ("phase", "total", "share", "longest"):
        result.add_column(column, justify="left" if column in ("phase", "longest") else "right")
    for phase, seconds in totals.items():
        longest = slowest[phase]
        result.add_row(
            phase, _duration(seconds), f"{seconds / whole:.0%}", f"{longest.who} ({_duration(longest.seconds)})"
        )
    return result


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"
