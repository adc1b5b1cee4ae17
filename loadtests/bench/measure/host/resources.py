"""What the app holds while a step runs, sampled from outside it: the threads of its processes
(/proc), the PostgreSQL sessions it holds and uses (pg_stat_activity), and for a JVM its
collectors' pauses and its heap (its hsperfdata counters, bench.measure.host.hsperf).

The sampler is a thread of the runner pinned to the load generator's CPUs, so that it takes
nothing from the app's core; every SAMPLE_INTERVAL_S it reads each process's status file, runs
one query through a connection of its own to the `postgres` database (its own statements are
not counted as the app's, nor as the bench database's in pg_stat_statements) and unpacks the
JVM's counters from their mapping. Its CPU over each step is recorded beside what it found; the
cost per sample is stated in docs/rationale.md ("What is measured").
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

import psycopg

from bench.errors import BenchError
from bench.judgement.bounds import cpu_set
from bench.measure.host import cgroups
from bench.measure.host.hsperf import PerfData, combined, open_jvms
from bench.measure.host.jit import compiler_cpu_seconds
from bench.postgres import DB_NAME, DB_USER, Cluster
from bench.records.steps import JvmFigures, Resources

SAMPLE_INTERVAL_S = 0.5

# The app's sessions: the bench user's client backends in the bench database. The runner's own
# connections are to the postgres database (Cluster.connect), and this one is excluded by its pid.
# "In use" is every state but idle: running a statement, or holding a transaction open.
ACTIVITY = (
    "SELECT count(*), count(*) FILTER (WHERE state IS DISTINCT FROM 'idle') FROM pg_stat_activity "
    "WHERE datname = %s AND usename = %s AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
)


def _status_sum(pids: list[int], field: str, proc: Path) -> int | None:
    """The first number of the `field:` line of each process's status file, summed; None when
    none was read (no process, or all ended)."""
    total, seen = 0, False
    for pid in pids:
        try:
            status = (proc / str(pid) / "status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith(f"{field}:"):
                total += int(line.split()[1])
                seen = True
                break
    return total if seen else None


def resident_peak_bytes(pids: list[int], proc: Path = Path("/proc")) -> int | None:
    """The processes' peak resident memory (VmHWM: the kernel's high-water mark of each one's
    resident set since it started, in kB), summed; None when none was read."""
    kib = _status_sum(pids, "VmHWM", proc)
    return kib * 1024 if kib is not None else None


def thread_count(pids: list[int], proc: Path = Path("/proc")) -> int | None:
    """The threads of the processes `pids`, from each one's status file; None when none was read
    (no process, or all ended)."""
    return _status_sum(pids, "Threads", proc)


class Sessions:
    """The app's PostgreSQL sessions, through a connection of the sampler's own (opened on first
    use, and again after PostgreSQL was restarted under it)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.conn: psycopg.Connection | None = None

    def count(self) -> tuple[int, int] | None:
        """Sessions held and in use; None while the database is out of reach."""
        try:
            if self.conn is None or self.conn.closed:
                self.conn = self.cluster.connect()
            row = self.conn.execute(ACTIVITY, (DB_NAME, DB_USER)).fetchone()
        except (psycopg.Error, BenchError):
            self.close()
            return None
        return (int(row[0]), int(row[1])) if row else None

    def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(psycopg.Error):
                conn.close()


class ResourceSampler:
    """Samples the app's threads, sessions and JVM heap from start until stop(), which returns
    the step's figures:

    sampler = ResourceSampler(app_group, sessions, loadgen_cpus)
    run_the_load()
    resources = sampler.stop()
    """

    def __init__(
        self,
        group: cgroups.Group | None,
        sessions: Sessions | None,
        cpus: str,
        *,
        proc: Path = Path("/proc"),
        tmp: Path = Path("/tmp"),
        interval_s: float = SAMPLE_INTERVAL_S,
    ) -> None:
        self.group, self.sessions, self.cpus = group, sessions, cpus
        self.proc, self.interval_s = proc, interval_s
        self.threads: list[int] = []
        self.held: list[int] = []
        self.in_use: list[int] = []
        self.heap: list[int] = []
        self.working_set: list[int] = []
        self.samples = 0
        self.cpu_s = 0.0
        spent = time.thread_time()
        self.jvms: list[PerfData] = open_jvms(self._pids(), proc, tmp)
        self.first = [jvm.read() for jvm in self.jvms]
        self.compiler_cpu_s = compiler_cpu_seconds(self._pids(), proc) if self.jvms else 0.0
        self.heap += [sum(r.heap_used_bytes for r in self.first)] if self.first else []
        self.cpu_s += time.thread_time() - spent
        self.started = time.monotonic()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="resource-sampler", daemon=True)
        self.thread.start()

    def _pids(self) -> list[int]:
        return self.group.pids() if self.group is not None else []

    def _run(self) -> None:
        # Linux applies a thread's affinity to that thread alone: the runner's others keep theirs.
        with contextlib.suppress(OSError, ValueError):
            os.sched_setaffinity(0, cpu_set(self.cpus))
        begin = time.thread_time()
        while True:
            self.sample()
            if self.done.wait(self.interval_s):
                break
        self.cpu_s += time.thread_time() - begin

    def sample(self) -> None:
        threads = thread_count(self._pids(), self.proc) if self.group is not None else None
        if threads is not None:
            self.threads.append(threads)
        if self.group is not None:
            with contextlib.suppress(OSError, ValueError):
                self.working_set.append(self.group.working_set_bytes())
        sessions = self.sessions.count() if self.sessions is not None else None
        if sessions is not None:
            self.held.append(sessions[0])
            self.in_use.append(sessions[1])
        if self.jvms:
            self.heap.append(sum(jvm.read().heap_used_bytes for jvm in self.jvms))
        self.samples += 1

    def stop(self) -> Resources:
        self.done.set()
        self.thread.join()
        wall = time.monotonic() - self.started
        spent = time.thread_time()
        jvm = self._jvm_figures(wall)
        resident = resident_peak_bytes(self._pids(), self.proc) if self.group is not None else None
        self.cpu_s += time.thread_time() - spent
        return Resources(
            working_set_peak_bytes=max(self.working_set, default=None),
            resident_peak_bytes=resident,
            samples=self.samples,
            threads_peak=max(self.threads, default=None),
            db_connections_held_peak=max(self.held, default=None),
            db_connections_in_use_peak=max(self.in_use, default=None),
            **({"jvm": jvm} if jvm is not None else {}),
            sampler_cpu_ms=self.cpu_s * 1000,
        )

    def _jvm_figures(self, wall_s: float) -> JvmFigures | None:
        if not self.jvms:
            return None
        last = [jvm.read() for jvm in self.jvms]
        for jvm in self.jvms:
            jvm.close()
        self.heap.append(sum(r.heap_used_bytes for r in last))
        compiler_cpu_s = compiler_cpu_seconds(self._pids(), self.proc) - self.compiler_cpu_s
        first, final = combined(self.first), combined(last)
        if first is None or final is None:
            return None
        change = final.since(first)
        per_s = 1000 / wall_s if wall_s > 0 else 0.0
        return JvmFigures(
            gc_pause_ms_per_s=change.gc_pause_s * per_s,
            gc_pauses=change.gc_pauses,
            heap_used_peak_bytes=max(self.heap),
            compilations=change.compiles,
            compiler_cpu_s=max(compiler_cpu_s, 0.0),
            safepoints=change.safepoints,
            safepoint_ms_per_s=change.safepoint_s * per_s,
            live_threads=sum(r.live_threads for r in last),
        )
