"""The machine's calibration at the start of every `./bench run` here (bench.records.Calibration).

Sittings of one publication can run on machines of one cloud kind that differ up to fourfold in
speed under the same model name: two fixed workloads, the same on every machine, say how fast
this one was where the figures are made. The app's CPUs: SHA-256 (native code) and a pure-Python
loop (the interpreter), as the stacks run both, in one process pinned to the app's CPU set.
PostgreSQL's CPUs: pgbench reading one item by its key, its client on the app's CPUs as the
database ceiling's is, through more connections than PostgreSQL has CPUs, so that PostgreSQL's
CPUs, not the round trip, bound it. Each takes a few seconds; a part that cannot run is recorded
as null with why, and the run goes on."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psycopg

from bench.errors import BenchError
from bench.judgement.bounds import cpu_set
from bench.measure.host.roles import Roles
from bench.measure.load import pgbench
from bench.measure.load.process import run_load
from bench.measure.phases.context import logs
from bench.postgres import Cluster
from bench.records import Calibration, CpuCalibration, PostgresCalibration

# About 3 s each on the 2-core Xeon under KVM (family 6, model 207) they were sized on: at half
# that, two calibrations there a minute apart differed by up to 25% (slow spells of the host's
# that outlasted every slice); at this length they mostly agreed within 5% (docs/rationale.md, What is measured).
SHA256_MIB = 4096
PYTHON_LOOPS = 32_000_000
# Each part's rate is its fastest slice's (cpu_workload): about 0.2 s each.
SLICES = 32
# A second's warm-up (the database was just copied: its pages are read in), then ten one-second
# runs (of five, a slow spell sometimes held every one).
PGBENCH_WARMUP_S = 1
PGBENCH_SECONDS = 10
# More connections than PostgreSQL has CPUs in the runner's default split (one core), so that
# its CPU is busy throughout: one client would leave it idle during every round trip, and its
# tps would measure the client's CPU and the wake-ups as much as PostgreSQL's.
PGBENCH_CLIENTS = 4
SCRIPT = """\\set id random(1, 100000)
SELECT id, sku, name, price, stock, description, category_id, updated_at FROM item WHERE id = :id;
"""

_BUFFER = bytes(range(256)) * 256  # 64 KiB


def cpu_workload(sha256_mib: int, python_loops: int, slices: int = SLICES) -> dict[str, float]:
    """`sha256_mib` MiB hashed and `python_loops` loop iterations, each part in `slices` equal
    slices. Each part's rate per CPU second is its fastest slice's: whatever else the host runs
    (on a shared one, spells of a second or two) only slows a slice. A slice too short for the
    clock (a test's) counts as a microsecond."""
    wall = time.perf_counter()
    buffers, loops = max(sha256_mib * 16 // slices, 1), max(python_loops // slices, 1)
    sha256_s, python_s = [], []
    # The parts in turns, so that a slow spell slows some slices of each, seldom all of one.
    for _ in range(slices):
        started = time.process_time()
        digest = hashlib.sha256()
        for _ in range(buffers):
            digest.update(_BUFFER)
        sha256_s.append(time.process_time() - started)
        started = time.process_time()
        x = 0
        for i in range(loops):
            # Stays under 2**37: small ints, no growing numbers to allocate.
            x = (x * 31 + i) & 0xFFFFFFFF
        python_s.append(time.process_time() - started)
    return {
        "sha256_mib_per_s": buffers / 16 / max(min(sha256_s), 1e-6),
        "python_mloops_per_s": loops / 1e6 / max(min(python_s), 1e-6),
        "cpu_s": sum(sha256_s) + sum(python_s),
        "wall_s": time.perf_counter() - wall,
    }


def _child(cpus: str, sha256_mib: int, python_loops: int) -> None:
    os.sched_setaffinity(0, cpu_set(cpus))
    print(json.dumps(cpu_workload(sha256_mib, python_loops)))


def cpu_calibration(cpus: str, sha256_mib: int = SHA256_MIB, python_loops: int = PYTHON_LOOPS) -> CpuCalibration:
    """The workload in a process of its own, pinned to `cpus`: nothing of the runner's (its live
    display, its threads) shares the CPU it is timed on. Its rates are per CPU second of that
    process: another process on the CPU, or the hypervisor's steal, lengthens the wall time, not
    them (the wall time says it). BenchError if it cannot run there."""
    code = f"from bench.measure.run.calibration import _child; _child({cpus!r}, {sha256_mib}, {python_loops})"
    # The runner's own package, wherever it was started from.
    package = str(Path(__file__).resolve().parents[3])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [package, os.environ.get("PYTHONPATH")])))
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, check=False
        )
    except subprocess.TimeoutExpired:
        raise BenchError("the CPU workload did not finish within 120 s") from None
    if out.returncode != 0:
        raise BenchError(f"the CPU workload failed: {(out.stderr.strip().splitlines() or ['no output'])[-1]}")
    figures = json.loads(out.stdout)
    return CpuCalibration(
        cpus=cpus,
        sha256_mib=sha256_mib,
        sha256_mib_per_s=figures["sha256_mib_per_s"],
        python_loops=python_loops,
        python_mloops_per_s=figures["python_mloops_per_s"],
        seconds=figures["wall_s"],
        cpu_seconds=figures["cpu_s"],
    )


def postgres_calibration(
    cluster: Cluster, roles: Roles, seconds: int = PGBENCH_SECONDS, warmup_s: int = PGBENCH_WARMUP_S
) -> PostgresCalibration:
    """pgbench's fixed read-only run on a fresh copy of the seeded database, on the CPUs the
    database ceiling's client has. BenchError if it fails."""
    cluster.reset()
    directory = logs()
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "calibration.sql"
    script.write_text(SCRIPT)
    binary = cluster.bindir / "pgbench"

    def run(name: str, length: int) -> Path:
        options = f"-n -M prepared -c {PGBENCH_CLIENTS} -j 1 -T {length}"
        command = roles.wrap("loadgen", f"exec '{binary}' {options} -f '{script}' '{cluster.url()}'")
        log = directory / f"calibration-{name}.log"
        code = run_load(command, log, lambda _: None, length + 60)
        if code != 0:
            tail = log.read_text(errors="replace").strip().splitlines()[-1:] if log.exists() else []
            raise BenchError(f"pgbench failed (exit {code}): {''.join(tail) or 'no output'}; log {log}")
        return log

    tps: list[float] = []
    per_cpu_s: list[float] = []
    with roles.client_on_app_cpus():
        if warmup_s:
            run("warmup", warmup_s)
        # One-second runs, the best of which counts, as the CPU workload's fastest slice does.
        for second in range(1, seconds + 1):
            cpu_before = roles.postgres.cpu_seconds() if roles.postgres is not None else None
            log = run(f"{second}", 1)
            cpu_after = roles.postgres.cpu_seconds() if roles.postgres is not None else None
            report = pgbench.parse_pgbench(log.read_text())
            if report.failed:
                raise BenchError(f"pgbench: {report.failed} transaction(s) failed; log {log}")
            tps.append(report.tps)
            if cpu_before is not None and cpu_after is not None and cpu_after > cpu_before:
                per_cpu_s.append((report.transactions or report.tps) / (cpu_after - cpu_before))
    calibration = PostgresCalibration(clients=PGBENCH_CLIENTS, seconds=seconds, tps=max(tps))
    if len(per_cpu_s) == seconds:
        calibration.transactions_per_cpu_s = max(per_cpu_s)
    return calibration


def calibrate(
    cluster: Cluster | None, roles: Roles, on_progress: Callable[[str], object] = lambda _: None
) -> Calibration:
    """Both parts, PostgreSQL's placed on its CPUs already (roles.place_postgres); without a
    cluster, the CPU's alone."""
    cpu: CpuCalibration | None = None
    postgres: PostgresCalibration | None = None
    failed: dict[str, str] = {}
    on_progress(f"calibrating the app's CPUs (cpuset {roles.split.app}): SHA-256 and a Python loop")
    try:
        cpu = cpu_calibration(roles.split.app, SHA256_MIB, PYTHON_LOOPS)
    except (BenchError, OSError, ValueError) as error:
        failed["cpu_failed"] = str(error)
    if cluster is None:
        failed["postgres_failed"] = "no local PostgreSQL"
    else:
        on_progress(f"calibrating PostgreSQL's CPUs (cpuset {roles.split.postgres}): pgbench, {PGBENCH_SECONDS} s")
        try:
            postgres = postgres_calibration(cluster, roles, PGBENCH_SECONDS, PGBENCH_WARMUP_S)
        except (BenchError, OSError, ValueError, psycopg.Error) as error:
            failed["postgres_failed"] = str(error)
    calibration = Calibration(cpu=cpu, postgres=postgres)
    for field, reason in failed.items():
        setattr(calibration, field, reason)
    return calibration
