"""What the jobs of one `./bench run` share: the plan, the cluster, the roles' cgroups, the
live display, the load generators and the header every record starts with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bench import paths
from bench.errors import BenchError
from bench.measure.display import Display
from bench.measure.plan import Plan
from bench.measure.roles import Roles
from bench.postgres import Cluster
from bench.records import RunHeader


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


def logs() -> Path:
    """Where the load generators' logs and outputs of `./bench run` go."""
    return paths.LOGS / "run"
