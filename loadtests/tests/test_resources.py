"""What the app holds during a step, sampled from outside it: threads from a fake /proc, a JVM's
counters from a synthetic hsperfdata file laid out as HotSpot writes one, and the app's
PostgreSQL sessions from a real cluster's pg_stat_activity."""

import os
import pwd
import struct
import time
from pathlib import Path

import psycopg
import pytest

from bench.measure.host import cgroups
from bench.measure.host.hsperf import NotPerfData, PerfData, open_jvms, perf_file
from bench.measure.host.resources import ResourceSampler, Sessions, resident_peak_bytes, thread_count
from bench.postgres import Cluster

GIB = 1 << 30


def perf_data(counters: dict[str, int | str], *, little_endian: bool = True) -> bytes:
    """A perf-data file: HotSpot's prologue (magic, byte order, version, accessible, used,
    overflow, modification time, first entry's offset, entry count), then one entry per counter
    (its header, its NUL-terminated name, its value: a long, or a byte vector for a string)."""
    order = "<" if little_endian else ">"
    entries = b""
    for name, value in counters.items():
        encoded = name.encode() + b"\0"
        name_at = 20
        data = struct.pack(order + "q", value) if isinstance(value, int) else value.encode() + b"\0"
        # Data aligned to 8 bytes, as HotSpot aligns it.
        data_at = (name_at + len(encoded) + 7) // 8 * 8
        length = (data_at + len(data) + 7) // 8 * 8
        kind, vector = (ord("J"), 0) if isinstance(value, int) else (ord("B"), len(data))
        header = struct.pack(order + "iiiBBBBi", length, name_at, vector, kind, 0, 1, 3, data_at)
        entry = header + encoded.ljust(data_at - 20, b"\0") + data
        entries += entry.ljust(length, b"\0")
    prologue = struct.pack(">I", 0xCAFEC0C0) + bytes([1 if little_endian else 0, 2, 0, 1])
    prologue += struct.pack(order + "iiqii", 32 + len(entries), 0, 0, 32, len(counters))
    # HotSpot sizes the file once (PerfDataMemorySize, 32 KiB by default) and appends inside it.
    return (prologue + entries).ljust(4096, b"\0")


SERIAL: dict[str, int | str] = {
    "sun.os.hrt.frequency": 1_000_000_000,
    "sun.gc.collector.0.name": "Serial young collection pauses",
    "sun.gc.collector.0.invocations": 10,
    "sun.gc.collector.0.time": 40_000_000,
    "sun.gc.collector.1.invocations": 1,
    "sun.gc.collector.1.time": 100_000_000,
    "sun.gc.generation.0.capacity": 4 * GIB,
    "sun.gc.generation.0.space.0.used": 30 << 20,
    "sun.gc.generation.0.space.1.used": 2 << 20,
    "sun.gc.generation.1.space.0.used": 50 << 20,
    "sun.gc.metaspace.used": 90 << 20,
    "java.threads.live": 17,
    "sun.ci.totalCompiles": 5_000,
    "sun.rt.safepoints": 300,
    "sun.rt.safepointTime": 90_000_000,
}


def fake_process(
    proc: Path, tmp: Path, pid: int, threads: int, counters: dict[str, int | str] | None = None
) -> Path | None:
    """/proc/PID/status with its thread count and, for a JVM, /tmp/hsperfdata_USER/PID."""
    (proc / str(pid)).mkdir(parents=True)
    (proc / str(pid) / "status").write_text(f"Name:\tjava\nPid:\t{pid}\nThreads:\t{threads}\nVmRSS:\t1 kB\n")
    if counters is None:
        return None
    user = pwd.getpwuid(os.getuid()).pw_name
    path = tmp / f"hsperfdata_{user}" / str(pid)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(perf_data(counters))
    return path


def set_long(path: Path, name: str, value: int) -> None:
    """Writes a counter in place, as the JVM does."""
    data = PerfData(path)
    at = data.longs[name]
    data.close()
    with path.open("r+b") as file:
        file.seek(at)
        file.write(struct.pack("<q", value))


@pytest.mark.parametrize("little_endian", [True, False])
def test_a_jvms_counters_are_read_from_its_perf_data_file(tmp_path, little_endian):
    path = tmp_path / "4242"
    path.write_bytes(perf_data(SERIAL, little_endian=little_endian))
    reading = PerfData(path).read()
    # Every collector's pauses (jstat's GCT); the heap's spaces, not the metaspace.
    assert reading.gc_ticks == 140_000_000 and reading.gc_pauses == 11
    assert reading.heap_used_bytes == 82 << 20 and reading.ticks_per_second == 1_000_000_000
    assert (reading.safepoints, reading.safepoint_ticks, reading.live_threads) == (300, 90_000_000, 17)


def test_a_counter_the_jvm_adds_later_is_found(tmp_path):
    path = tmp_path / "4242"
    path.write_bytes(perf_data(SERIAL))
    data = PerfData(path)
    assert data.read().gc_pauses == 11
    # A collector's counters may appear later: appended inside the mapping, the count with them.
    path.write_bytes(perf_data({**SERIAL, "sun.gc.collector.2.invocations": 4, "sun.gc.collector.2.time": 5}))
    assert data.read().gc_pauses == 15


def test_a_file_that_is_not_a_jvms_is_refused(tmp_path):
    path = tmp_path / "4242"
    path.write_bytes(b"\0" * 64)
    with pytest.raises(NotPerfData):
        PerfData(path)
    assert open_jvms([4242], tmp_path / "proc", tmp_path) == []


def test_threads_are_counted_over_the_apps_processes_from_proc(tmp_path):
    proc = tmp_path / "proc"
    fake_process(proc, tmp_path, 100, threads=24)
    fake_process(proc, tmp_path, 101, threads=3)
    assert thread_count([100, 101], proc) == 27
    # A process that ended between the group's list and its status file is left out.
    assert thread_count([100, 999], proc) == 24
    assert thread_count([], proc) is None


def test_only_a_jvm_has_a_perf_data_file(tmp_path):
    proc, tmp = tmp_path / "proc", tmp_path / "tmp"
    path = fake_process(proc, tmp, 100, threads=24, counters=SERIAL)
    fake_process(proc, tmp, 101, threads=3)
    assert perf_file(100, proc, tmp) == path
    assert perf_file(101, proc, tmp) is None
    assert [jvm.path for jvm in open_jvms([100, 101], proc, tmp)] == [path]


class Group(cgroups.Group):
    """The app's cgroup, as far as the sampler reads it: the processes it lists."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__("v2", Path("/nonexistent"), "app")
        self.listed = pids

    def pids(self) -> list[int]:
        return self.listed


class FakeSessions(Sessions):
    """pg_stat_activity's counts, one answer per sample; None: the database was out of reach."""

    def __init__(self, answers: list[tuple[int, int] | None]) -> None:
        """No database to connect to: the counts are made up."""
        self.conn = None
        self.answers = answers

    def count(self) -> tuple[int, int] | None:
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def test_a_step_records_peak_threads_sessions_gc_time_and_heap(tmp_path):
    proc, tmp = tmp_path / "proc", tmp_path / "tmp"
    path = fake_process(proc, tmp, 100, threads=24, counters=SERIAL)
    assert path is not None
    sessions = FakeSessions([(10, 2), (10, 7), None, (10, 3)])
    sampler = ResourceSampler(Group([100]), sessions, "0", proc=proc, tmp=tmp, interval_s=0.05)
    time.sleep(0.12)
    # During the step: more threads, a young collection of 30 ms, the heap at its top before it.
    (proc / "100" / "status").write_text("Threads:\t210\n")
    set_long(path, "sun.gc.generation.1.space.0.used", 400 << 20)
    time.sleep(0.12)
    set_long(path, "sun.gc.collector.0.time", 70_000_000)
    set_long(path, "sun.gc.collector.0.invocations", 11)
    set_long(path, "sun.gc.generation.1.space.0.used", 60 << 20)
    set_long(path, "sun.ci.totalCompiles", 5_042)
    # The collection's safepoint and a deoptimisation's: 36 ms stopped in all.
    set_long(path, "sun.rt.safepoints", 302)
    set_long(path, "sun.rt.safepointTime", 126_000_000)
    set_long(path, "java.threads.live", 19)
    time.sleep(0.12)
    started = sampler.started
    resources = sampler.stop()
    wall = time.monotonic() - started
    assert resources.samples >= 4
    assert resources.threads_peak == 210
    assert (resources.db_connections_held_peak, resources.db_connections_in_use_peak) == (10, 7)
    jvm = resources.jvm
    assert jvm is not None and jvm.gc_pauses == 1 and jvm.compilations == 42
    # No compiler thread in this fake /proc: no compiler CPU.
    assert jvm.compiler_cpu_s == 0.0
    assert jvm.heap_used_peak_bytes == (400 + 32) << 20
    # 30 ms of pauses over the step's wall time.
    assert jvm.gc_pause_ms_per_s == pytest.approx(30 / wall, rel=0.1)
    assert jvm.safepoints == 2 and jvm.safepoint_ms_per_s == pytest.approx(36 / wall, rel=0.1)
    assert jvm.live_threads == 19
    assert resources.sampler_cpu_ms > 0


def test_without_a_jvm_or_a_database_those_figures_stay_absent(tmp_path):
    proc = tmp_path / "proc"
    fake_process(proc, tmp_path, 100, threads=5)
    sampler = ResourceSampler(Group([100]), None, "0", proc=proc, tmp=tmp_path, interval_s=0.05)
    resources = sampler.stop()
    assert resources.threads_peak == 5 and resources.jvm is None
    assert resources.db_connections_held_peak is None and resources.db_connections_in_use_peak is None
    # An empty group (the database ceiling's app group: pgbench runs as the load generator).
    assert ResourceSampler(Group([]), None, "0", proc=proc, tmp=tmp_path).stop().threads_peak is None


def test_the_apps_sessions_are_counted_apart_from_the_runners_own(pg_cluster: Cluster):
    pg_cluster.reset()
    app = [psycopg.connect(pg_cluster.url(), autocommit=True) for _ in range(3)]
    runner = pg_cluster.connect()  # the postgres database, as Statements and the sampler connect
    sessions = Sessions(pg_cluster)
    try:
        assert sessions.count() == (3, 0)
        # A transaction left open holds its connection: in use, though no statement runs.
        app[0].execute("BEGIN")
        app[0].execute("SELECT 1")
        assert sessions.count() == (3, 1)
        app[1].close()
        # Its backend ends a moment after the client has gone.
        deadline = time.monotonic() + 5
        while sessions.count() != (2, 1) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sessions.count() == (2, 1)
    finally:
        for conn in [*app, runner]:
            conn.close()
        sessions.close()


def test_resident_memory_is_each_processs_high_water_mark_summed(tmp_path):
    proc = tmp_path / "proc"
    for pid, peak_kib in ((100, 40_960), (101, 1_024)):
        (proc / str(pid)).mkdir(parents=True)
        (proc / str(pid) / "status").write_text(f"Name:\tjava\nVmHWM:\t{peak_kib} kB\nVmRSS:\t512 kB\nThreads:\t3\n")
    assert resident_peak_bytes([100, 101], proc) == (40_960 + 1_024) * 1024
    assert resident_peak_bytes([999], proc) is None


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_the_working_set_leaves_out_the_inactive_file_cache(tmp_path, version):
    group = cgroups.Group(version, tmp_path, "app")
    memory = tmp_path / "memory" / "app" if version == "v1" else tmp_path / "app"
    memory.mkdir(parents=True)
    usage, stat_key = (
        ("memory.usage_in_bytes", "total_inactive_file") if version == "v1" else ("memory.current", "inactive_file")
    )
    (memory / usage).write_text(str(300 << 20))
    # A log file's pages, read once and never again, are the inactive cache.
    (memory / "memory.stat").write_text(f"cache {120 << 20}\n{stat_key} {100 << 20}\nrss {180 << 20}\n")
    assert group.working_set_bytes() == 200 << 20
    (memory / "memory.stat").unlink()
    assert group.working_set_bytes() == 300 << 20
