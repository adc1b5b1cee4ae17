"""What the machine itself did around a step: the CPU time its hypervisor took (steal, /proc/stat)
and how long tasks waited for a CPU (pressure stall information, /proc/pressure/cpu). A step
measured while the host took CPUs away measured the host, not the stack: it is run again
(bench.measure.phases.ladder)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from bench.records.steps import HostFigures


@dataclass(frozen=True)
class HostReading:
    at: float
    steal_ticks: int
    total_ticks: int
    cpu_pressure_us: int | None
    """The "some" line's total: microseconds in which at least one task waited for a CPU; None
    on a kernel without pressure stall information."""

    @staticmethod
    def take(proc: Path = Path("/proc")) -> HostReading:
        # The first line sums every CPU: user nice system idle iowait irq softirq steal guest guest_nice.
        ticks = [int(t) for t in (proc / "stat").read_text().splitlines()[0].split()[1:]]
        return HostReading(time.monotonic(), ticks[7] if len(ticks) > 7 else 0, sum(ticks[:8]), _pressure(proc))


def _pressure(proc: Path) -> int | None:
    try:
        text = (proc / "pressure" / "cpu").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("some "):
            return int(line.rsplit("total=", 1)[1])
    return None


def host_figures(before: HostReading, after: HostReading) -> HostFigures:
    ticks = after.total_ticks - before.total_ticks
    wall_us = (after.at - before.at) * 1e6
    pressure = None
    if before.cpu_pressure_us is not None and after.cpu_pressure_us is not None and wall_us > 0:
        pressure = min(max(after.cpu_pressure_us - before.cpu_pressure_us, 0) / wall_us, 1.0)
    return HostFigures(
        steal_share=max(after.steal_ticks - before.steal_ticks, 0) / ticks if ticks > 0 else 0.0,
        cpu_pressure_share=pressure,
    )
