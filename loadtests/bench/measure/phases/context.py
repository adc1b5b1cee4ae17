"""What the jobs of one `./bench run` share: the plan, the cluster, the roles' cgroups, the
live display, the load generators, the header every record starts with, and where the stock
upstream listens while a scenario that calls it runs."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench import paths, procs, upstream
from bench.errors import BenchError
from bench.measure.host.roles import Roles
from bench.measure.phases.display import Display
from bench.measure.plan.plan import Plan
from bench.postgres import Cluster
from bench.records import RunHeader
from bench.scenarios import Scenario


@dataclass
class Context:
    plan: Plan
    cluster: Cluster | None  # None: a --target run, whose database is elsewhere
    roles: Roles
    display: Display
    tools: dict[str, Path]  # "k6", "oha": the load generators this plan needs
    header: RunHeader

    def database(self) -> Cluster:
        """The local cluster, for the jobs that reset or read it (none of a --target run's)."""
        if self.cluster is None:
            raise BenchError("this run has no local database: its stack runs elsewhere (--target)")
        return self.cluster


def vacuum_before_step(ctx: Context, scenario: Scenario) -> None:
    """Before a measured ladder step or closed-model stage of a write scenario, outside its
    meters: VACUUM of the working database. Until autovacuum's first pass (item's threshold is
    about 20,000 dead rows) every write of the warm-up and of the earlier steps leaves dead rows
    and clears the visibility map that the page's count reads, so a step paid for how long the
    steps before it wrote: a JVM's long warm-up, and the ceiling's longer ladder most, whose
    PostgreSQL CPU per transaction doubled along it (docs/method.md, "The database between
    steps"). A --target run's database is not the runner's to vacuum."""
    if scenario.writes and ctx.cluster is not None:
        ctx.cluster.vacuum()


@contextmanager
def upstream_for(ctx: Context, scenario: Scenario, name: str) -> Iterator[upstream.Upstream | None]:
    """The stock upstream for the length of a job of `scenario` if its stacks call it (else
    None): in its role's group on the load generator's CPUs, fresh for each job, so that every
    stack meets it as the first did, and stopped however the job ends. Started before what calls
    it, on a port free at that moment, which that caller is then given."""
    if not scenario.upstream:
        yield None
        return
    ctx.roles.place_upstream()
    try:
        started = upstream.start(
            wrap=functools.partial(ctx.roles.wrap, "upstream"), log_name=f"run/{name}-upstream.log"
        )
    except BaseException:
        ctx.roles.release_upstream()
        raise
    try:
        yield started
    finally:
        procs.stop(started.proc)
        ctx.roles.release_upstream()


def logs() -> Path:
    """Where the load generators' logs and outputs of `./bench run` go."""
    return paths.LOGS / "run"
