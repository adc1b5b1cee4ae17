"""What bound a stage or a ladder step: every role's CPU time over it, as a share of its CPU set.

A role at >= 90% of its CPU set is marked: the app on its core(s) ("app"); PostgreSQL or the
load generator on a set of its own ("postgres", "loadgen"); or, where PostgreSQL and the load
generator share CPUs (on two cores both are on CPU 1), the two together over the CPUs they
share ("postgres+loadgen"). The stock upstream of the outbound scenario runs on the load
generator's CPUs: where it ran, its CPU counts with the load generator's, and the names say so
("loadgen+upstream", "postgres+loadgen+upstream"). Pure functions of the readings, for the tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.records import CpuSplit
from bench.records.steps import Bound, RoleCpu

BOUND_SHARE = 0.9


def cpu_set(cpus: str) -> set[int]:
    """The CPUs of a list like `0`, `2-3` or `0,2-3`."""
    found: set[int] = set()
    for part in cpus.split(","):
        low, _, high = part.partition("-")
        found.update(range(int(low), int(high or low) + 1))
    return found


@dataclass(frozen=True)
class CpuTimes:
    """CPU seconds of each role's cgroup at one moment; PostgreSQL's is None if unreadable, the
    stock upstream's None where it does not run."""

    app_s: float
    postgres_s: float | None
    loadgen_s: float
    upstream_s: float | None = None


def bounds(
    split: CpuSplit,
    *,
    app_share: float,
    postgres_share: float | None,
    loadgen_share: float,
    shared: float | None,
    upstream_share: float | None = None,
) -> list[Bound]:
    """`loadgen_share` and `shared` with the stock upstream's CPU in them where it ran
    (`upstream_share` not None)."""
    found: list[Bound] = []
    upstream = upstream_share is not None
    if app_share >= BOUND_SHARE:
        found.append("app")
    if shared is not None:
        if shared >= BOUND_SHARE:
            found.append("postgres+loadgen+upstream" if upstream else "postgres+loadgen")
        return found
    if postgres_share is not None and postgres_share >= BOUND_SHARE:
        found.append("postgres")
    if loadgen_share >= BOUND_SHARE:
        found.append("loadgen+upstream" if upstream else "loadgen")
    return found


def role_cpu(split: CpuSplit, before: CpuTimes, after: CpuTimes, *, wall_s: float, requests: int) -> RoleCpu:
    """The roles' CPU between two readings `wall_s` seconds apart, as shares of their CPU sets.
    The wall time is the readings', never the load generator's own sending time: an app that
    fell behind spends CPU after the sending ended, and a share over the sending time alone read
    up to 4.3 of one core in the publication at 72fa9f4 (method v4)."""
    wall = max(wall_s, 1e-9)
    app_set, pg_set, lg_set = cpu_set(split.app), cpu_set(split.postgres), cpu_set(split.loadgen)
    app_s = max(after.app_s - before.app_s, 0.0)
    loadgen_s = max(after.loadgen_s - before.loadgen_s, 0.0)
    postgres_s = _delta(before.postgres_s, after.postgres_s)
    upstream_s = _delta(before.upstream_s, after.upstream_s)
    app_share = app_s / wall / len(app_set)
    loadgen_share = loadgen_s / wall / len(lg_set)
    postgres_share = postgres_s / wall / len(pg_set) if postgres_s is not None else None
    # The upstream runs on the load generator's CPUs: what they bear is both roles' CPU.
    upstream_share = upstream_s / wall / len(lg_set) if upstream_s is not None else None
    harness_s = loadgen_s + (upstream_s or 0.0)
    shared = None
    if pg_set & lg_set and postgres_s is not None:
        shared = (postgres_s + harness_s) / wall / len(pg_set | lg_set)
    cpu = RoleCpu(
        app_cpu_s=app_s,
        app_cpu_share=app_share,
        postgres_cpu_s=postgres_s,
        postgres_cpu_share=postgres_share,
        postgres_ms_per_request=postgres_s * 1000 / requests if postgres_s is not None and requests else None,
        loadgen_cpu_s=loadgen_s,
        loadgen_cpu_share=min(loadgen_share, 1.0),
        shared_cpu_share=shared,
        bound_by=bounds(
            split,
            app_share=app_share,
            postgres_share=postgres_share,
            loadgen_share=harness_s / wall / len(lg_set),
            shared=shared,
            upstream_share=upstream_share,
        ),
    )
    if upstream_s is not None and upstream_share is not None:
        # Set only where it ran (records are written without unset fields): the other scenarios'
        # records stay as they were.
        cpu.upstream_cpu_s = upstream_s
        cpu.upstream_cpu_share = min(upstream_share, 1.0)
        cpu.upstream_ms_per_request = upstream_s * 1000 / requests if requests else None
    return cpu


def _delta(before: float | None, after: float | None) -> float | None:
    return max(after - before, 0.0) if after is not None and before is not None else None


def harness_share(cpu: RoleCpu) -> float:
    """The load generator's share of its CPUs with the stock upstream's, which runs on them."""
    return cpu.loadgen_cpu_share + (cpu.upstream_cpu_share or 0.0)


def client_bound(cpu: RoleCpu) -> bool:
    """The load generator's CPUs (its own, or those it shares with PostgreSQL; with the stock
    upstream where it ran) were saturated."""
    return any("loadgen" in bound for bound in cpu.bound_by)


def limited_by_loadgen(cpu: RoleCpu) -> bool:
    """A step or stage that measured its load generator rather than the server under load: the
    load generator saturated a set of its own, or the set it shares with PostgreSQL while using at
    least as much of it as PostgreSQL did, and the server did not fill its own core as well. (A
    database ceiling saturates the shared CPU by design, PostgreSQL doing most of the work: that
    is the database's limit, not pgbench's.)"""
    if "app" in cpu.bound_by:
        return False
    if "loadgen" in cpu.bound_by or "loadgen+upstream" in cpu.bound_by:
        return True
    if "postgres+loadgen" in cpu.bound_by or "postgres+loadgen+upstream" in cpu.bound_by:
        # The stock upstream is the harness too: with the load generator, it is what sends the load.
        harness = cpu.loadgen_cpu_s + (cpu.upstream_cpu_s or 0.0)
        return cpu.postgres_cpu_s is None or harness >= cpu.postgres_cpu_s
    return False


def generator_below_postgres(cpu: RoleCpu) -> bool | None:
    """The load generator (with the stock upstream, where it ran) spent less CPU than PostgreSQL
    over a step: the write generator's target at the top held step of a ladder (docs/method.md,
    The load generators). In seconds, so that it holds whether their CPU sets are one or apart;
    None without PostgreSQL's CPU (a --target run)."""
    if cpu.postgres_cpu_s is None:
        return None
    return cpu.loadgen_cpu_s + (cpu.upstream_cpu_s or 0.0) < cpu.postgres_cpu_s


def shared_cpu_full(cpu: RoleCpu) -> bool:
    """PostgreSQL and the load generator together used BOUND_SHARE or more of the CPU they share
    (CPU 1 on two cores): the step was bound by that CPU, not by the stack."""
    return cpu.shared_cpu_share is not None and cpu.shared_cpu_share >= BOUND_SHARE
