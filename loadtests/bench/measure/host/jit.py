"""Whether a JVM's JIT is still at work, read from outside it: the compilations it has finished
(`sun.ci.totalCompiles` in its hsperfdata, bench.measure.host.hsperf) and the CPU time of its
compiler threads (/proc/PID/task/TID/stat of the threads HotSpot names `C1 CompilerThreadN` and
`C2 CompilerThreadN`, which the kernel cuts to 15 characters).

A cold java-spring at 600 req/s of join-filter spent 0.41-0.53 of its core in those threads for
its first minute and under 0.07 after (issue 52): the app's CPU per request alone cannot say
whether that minute is over, since a core busy compiling serves fewer requests at a flat cost.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from bench.measure.host.hsperf import JvmReading, PerfData, combined, open_jvms

COMPILER_THREADS = ("C1 CompilerThre", "C2 CompilerThre")


@dataclass(frozen=True)
class JitReading:
    """A JVM's finished compilations and its compiler threads' CPU seconds at one moment, with the
    rest of its counters."""

    compiles: int
    compiler_cpu_s: float
    counters: JvmReading | None = None


def compiler_cpu_seconds(pids: list[int], proc: Path = Path("/proc")) -> float:
    """The user and system CPU time of the compiler threads of the processes `pids`. A compiler
    thread that ended (HotSpot starts and stops them as the queue grows and shrinks) takes its time
    with it; the JVM keeps at least one of each, so a JIT at work is never missed."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            tasks = list((proc / str(pid) / "task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                stat = (task / "stat").read_text()
            except OSError:
                continue
            # The name is between the first "(" and the last ")": it may hold spaces and brackets.
            name = stat[stat.find("(") + 1 : stat.rfind(")")]
            if name.startswith(COMPILER_THREADS):
                fields = stat[stat.rfind(")") + 2 :].split()
                # After the name: state is field 3 of proc(5), utime 14 and stime 15.
                total += int(fields[11]) + int(fields[12])
    return total / ticks


class JitMeter:
    """The JVMs among a group's processes, read at each `read()`; None from a group with no JVM
    (every runtime but HotSpot's)."""

    def __init__(self, pids: list[int], proc: Path = Path("/proc"), tmp: Path = Path("/tmp")) -> None:
        self.pids, self.proc = pids, proc
        self.jvms: list[PerfData] = open_jvms(pids, proc, tmp)

    def read(self) -> JitReading | None:
        if not self.jvms:
            return None
        counters = combined([jvm.read() for jvm in self.jvms])
        assert counters is not None
        return JitReading(counters.compiles, compiler_cpu_seconds(self.pids, self.proc), counters)

    def close(self) -> None:
        for jvm in self.jvms:
            jvm.close()
        self.jvms = []
