"""The roles of a run (the app, PostgreSQL, the load generator, and for the outbound scenario the
stock upstream): each in its own cgroup with its CPU set and memory cap, or pinned with taskset
where there are no writable cgroups. The upstream runs on the load generator's CPUs (on two cores
CPU 1, with PostgreSQL): it is part of the harness, and its CPU is measured apart."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from bench.measure.host import cgroups
from bench.postgres import Cluster
from bench.records import Caps, CpuSplit

Role = Literal["app", "postgres", "loadgen", "upstream"]


class Roles:
    def __init__(
        self, split: CpuSplit, caps: Caps | None, warnings: list[str], root: Path = cgroups.DEFAULT_ROOT
    ) -> None:
        """`caps` None: the app and PostgreSQL run elsewhere (--target); the load generator alone
        runs here, pinned to its CPUs with taskset, and nothing is measured from cgroups."""
        self.split = split
        self.caps = caps
        self.cg = cgroups.Cgroups(root)
        self.app: cgroups.Group | None = None
        self.postgres: cgroups.Group | None = None
        self.loadgen: cgroups.Group | None = None
        self.upstream: cgroups.Group | None = None
        if caps is None:
            return
        if not self.cg.available:
            warnings.append(
                "no writable cgroups: CPU sets applied with taskset, memory caps NOT applied, "
                "CPU time and memory NOT measured"
            )
            return
        self.app = self.cg.group("app", split.app, caps.app.mem_bytes)
        self.postgres = self.cg.group("postgres", split.postgres, caps.postgres.mem_bytes)
        self.loadgen = self.cg.group("loadgen", split.loadgen, None)

    def group(self, role: Role) -> cgroups.Group | None:
        return {"app": self.app, "postgres": self.postgres, "loadgen": self.loadgen, "upstream": self.upstream}[role]

    def cpus(self, role: Role) -> str:
        """The role's CPU set: the upstream's is the load generator's."""
        return self.split.loadgen if role == "upstream" else getattr(self.split, role)

    def wrap(self, role: Role, command: str) -> str:
        """`command` run inside the role's group, or pinned to its CPUs without cgroups."""
        group = self.group(role)
        if group is not None:
            return group.shell_prefix() + command
        return f"exec taskset -c {self.cpus(role)} bash -c {json.dumps(command)}"

    @contextlib.contextmanager
    def client_on_app_cpus(self) -> Iterator[CpuSplit]:
        """The load generator on the app's CPUs, for the database ceiling: its client (pgbench)
        takes the place of a stack's app, and PostgreSQL keeps its CPUs to itself, as a stack's
        load generator on them leaves it no more. Yields the split the ceiling is measured with
        (its readings and bounds are judged against it), and puts the load generator back after."""
        split = self.split
        moved = split.model_copy(update={"loadgen": split.app})
        if self.loadgen is not None:
            self.loadgen.set_cpus(moved.loadgen)
        self.split = moved
        try:
            yield moved
        finally:
            self.split = split
            if self.loadgen is not None:
                self.loadgen.set_cpus(split.loadgen)

    def app_cap_mib(self) -> int:
        return (self.caps.app.mem_bytes or 0) >> 20 if self.caps is not None else 0

    def fresh_app(self) -> None:
        if self.app is not None:
            self.app = self.cg.renew("app")

    def place_upstream(self) -> None:
        """A group of its own for the stock upstream about to start: its CPU is measured while it
        runs (release_upstream ends that), and is in no other scenario's figures. No memory cap:
        like the load generator, it is the harness, not what is measured."""
        if self.app is None:
            return
        if "upstream" in self.cg.groups:
            self.upstream = self.cg.renew("upstream")
        else:
            self.upstream = self.cg.group("upstream", self.split.loadgen, None)

    def release_upstream(self) -> None:
        """The upstream has stopped: the stages after it measure no upstream."""
        self.upstream = None

    def place_postgres(self, cluster: Cluster) -> None:
        if self.postgres is None:
            return
        postmaster = int((cluster.data / "postmaster.pid").read_text().splitlines()[0])
        for pid in [postmaster, *_children(postmaster)]:
            # A backend may end meanwhile.
            with contextlib.suppress(OSError):
                self.postgres.add(pid)

    def oom_note(self) -> str:
        """Says so when the kernel killed a process of the app's cgroup for its memory cap: the exit
        code alone (-9, or 1 from a parent whose worker was killed) does not."""
        kills = self.app.oom_kills() if self.app is not None else 0
        return f" (OOM-killed: {kills} kill(s) at its {self.app_cap_mib()} MiB cap)" if kills else ""

    def close(self) -> None:
        self.cg.close()


def _children(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            found.append(int(stat.parent.name))
    return found
