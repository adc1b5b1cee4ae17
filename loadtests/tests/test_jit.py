"""The JIT's signal (bench.measure.host.jit): a JVM's finished compilations from its hsperfdata and
its compiler threads' CPU from /proc, on a fake /proc laid out as Linux lays one out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_resources import SERIAL, fake_process, set_long

from bench.measure.host.jit import JitMeter, compiler_cpu_seconds

TICKS = os.sysconf("SC_CLK_TCK")


def fake_thread(proc: Path, pid: int, tid: int, name: str, *, utime: int, stime: int) -> None:
    """/proc/PID/task/TID/stat: pid, (comm), state, then 49 fields with utime and stime at 14-15."""
    fields = ["0"] * 49
    fields[10], fields[11] = str(utime), str(stime)
    task = proc / str(pid) / "task" / str(tid)
    task.mkdir(parents=True, exist_ok=True)
    (task / "stat").write_text(f"{tid} ({name}) S " + " ".join(fields) + "\n")


def test_only_the_compiler_threads_cpu_is_counted(tmp_path):
    proc = tmp_path / "proc"
    fake_thread(proc, 100, 100, "java", utime=900, stime=100)
    # The kernel keeps 15 characters of a thread's name: HotSpot's "C2 CompilerThread0".
    fake_thread(proc, 100, 101, "C2 CompilerThre", utime=3 * TICKS, stime=TICKS)
    fake_thread(proc, 100, 102, "C1 CompilerThre", utime=TICKS // 2, stime=0)
    # A name with a space and a bracket, which a naive split of the line would misread.
    fake_thread(proc, 100, 103, "GC Thread) #0", utime=5_000, stime=0)
    assert compiler_cpu_seconds([100], proc) == pytest.approx(4.5, abs=1 / TICKS)
    # A process that ended is left out.
    assert compiler_cpu_seconds([100, 999], proc) == pytest.approx(4.5, abs=1 / TICKS)


def test_a_jvm_is_read_and_any_other_process_is_not(tmp_path):
    proc, tmp = tmp_path / "proc", tmp_path / "tmp"
    path = fake_process(proc, tmp, 100, threads=30, counters=SERIAL)
    assert path is not None
    fake_thread(proc, 100, 101, "C2 CompilerThre", utime=TICKS, stime=0)
    meter = JitMeter([100], proc, tmp)
    first = meter.read()
    assert first is not None and first.compiles == 5_000 and first.compiler_cpu_s == pytest.approx(1.0)
    set_long(path, "sun.ci.totalCompiles", 5_007)
    fake_thread(proc, 100, 101, "C2 CompilerThre", utime=3 * TICKS, stime=0)
    later = meter.read()
    assert later is not None and later.compiles - first.compiles == 7
    assert later.compiler_cpu_s - first.compiler_cpu_s == pytest.approx(2.0)
    meter.close()

    fake_process(proc, tmp, 200, threads=4)
    assert JitMeter([200], proc, tmp).read() is None
