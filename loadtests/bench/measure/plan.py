"""The run plan: which stacks and scenarios, how often, on which CPUs, and where results go."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bench import cgroups
from bench.manifest import Stack
from bench.records import CpuSplit, FaultKind, Profile
from bench.scenarios import Scenario, estimate_seconds

MEM_LADDER_MIB = (512, 256, 128, 64, 32)
LADDER_SCENARIOS = ("avatar", "join-filter")


def default_split(cores: int) -> CpuSplit:
    """The app and PostgreSQL on a core each, the load generator on the rest; on two cores it
    shares PostgreSQL's."""
    if cores >= 4:
        return CpuSplit(app="0", postgres="1", loadgen=f"2-{cores - 1}")
    if cores >= 2:
        return CpuSplit(app="0", postgres="1", loadgen="1")
    return CpuSplit(app="0", postgres="0", loadgen="0")


def cpu_count(cpus: str) -> int:
    """CPUs in a list like `0`, `2-3` or `0,2-3`; ValueError for anything else."""
    total = 0
    for part in cpus.split(","):
        low, _, high = part.partition("-")
        total += (int(high) - int(low) + 1) if high else 1
    return total


@dataclass
class Plan:
    stacks: list[Stack]
    scenarios: list[Scenario]
    profile: Profile
    repeat: int
    split: CpuSplit
    output: Path  # raw/ goes here
    fault: FaultKind | None = None
    ceilings: bool = True
    mem_ladder_mib: int | None = None
    warnings: list[str] = field(default_factory=list)
    cgroup_root: Path = cgroups.DEFAULT_ROOT  # a fake tree in the tests

    def estimate_seconds(self) -> float:
        per_stack = sum(estimate_seconds(s, self.profile) for s in self.scenarios)
        return self.repeat * (len(self.stacks) + int(self.ceilings)) * per_stack
