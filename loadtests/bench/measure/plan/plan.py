"""The run plan: which stacks and scenarios, how often, on which CPUs, and where results go."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.errors import BenchError
from bench.manifest import Stack
from bench.measure.host import cgroups
from bench.measure.plan.ceilings import ceiling_of
from bench.measure.plan.estimate import Observed, estimate_seconds
from bench.records import CpuSplit, FaultKind, Profile, RawResult
from bench.scenarios import Scenario

# A job of a plan: the stack's (or ceiling's) name, the scenario's, the run number.
JobKey = tuple[str, str, int]

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

    @property
    def open_model(self) -> bool:
        """Steady state and the fixed-rate ladder before the closed-model stages: the smoke,
        quick and full profiles, not the soak, the memory ladder or a fault run."""
        return self.profile in ("smoke", "quick", "full") and self.fault is None and self.mem_ladder_mib is None

    observed: dict[tuple[str, str], Observed] = field(default_factory=dict)
    """What earlier runs of a stack × scenario took (observed_runs): the estimate follows them."""

    kept: dict[JobKey, RawResult] = field(default_factory=dict)
    """Records of an earlier run of this commit that --resume keeps (kept_records): their jobs
    are not run again."""

    def stack_scenarios(self, name: str) -> list[Scenario]:
        """The plan's scenarios that stack (or ceiling) `name` is measured in: a variant's only
        those its manifest lists (measured_in), a stack's and a ceiling's all."""
        stack = next((s for s in self.stacks if getattr(s, "name", None) == name), None)
        wanted = measured_in(stack) if stack is not None else None
        return [s for s in self.scenarios if wanted is None or s.name in wanted]

    def remaining(self, name: str, run_number: int) -> list[Scenario]:
        """The scenarios of stack (or ceiling) `name` still to run in repeat `run_number`."""
        return [s for s in self.stack_scenarios(name) if (name, s.name, run_number) not in self.kept]

    def estimate_seconds(self) -> float:
        """Every job of the plan, the ceilings' included."""
        known = self.observed
        total = 0.0
        for run_number in range(1, self.repeat + 1):
            if self.ceilings:
                for scenario in self.scenarios:
                    name = ceiling_of(scenario).name
                    if (name, scenario.name, run_number) not in self.kept:
                        total += estimate_seconds(
                            scenario,
                            self.profile,
                            open_model=self.open_model,
                            ceiling=True,
                            observed=known.get((name, scenario.name)),
                        )
            for stack in self.stacks:
                name = getattr(stack, "name", "")
                for scenario in self.remaining(name, run_number):
                    total += estimate_seconds(
                        scenario, self.profile, open_model=self.open_model, observed=known.get((name, scenario.name))
                    )
        return total

    def ladder_estimate_seconds(self, rungs: dict[str, int]) -> float:
        """The memory ladder (execute_ladder, bench.measure.run.orchestrate): each stack down the
        caps as far as its latest ladder went (`ladder_rungs`; every cap without one), each cap
        one closed-model run of the plan's scenarios, no ceilings."""
        total = 0.0
        for stack in self.stacks:
            one_cap = dataclasses.replace(self, stacks=[stack], ceilings=False, mem_ladder_mib=MEM_LADDER_MIB[0])
            total += rungs.get(getattr(stack, "name", ""), len(MEM_LADDER_MIB)) * one_cap.estimate_seconds()
        return total


def measured_in(stack: Stack) -> tuple[str, ...] | None:
    """The scenarios a variant is measured in, as its stack's impl.toml lists them; None for a
    stack itself, which is measured in every scenario."""
    return getattr(stack, "variant_scenarios", None)


def kept_records(raw_dir: Path, commit: str | None) -> dict[JobKey, RawResult]:
    """The records in `raw_dir` that a run of `commit` can go on from: measured at that commit,
    not failed. A tree with changes outside results/ and results.md has no commit to go on
    from."""
    if commit is None or commit.endswith("-dirty"):
        raise BenchError(
            "--resume keeps records only of the commit that measures the rest, and this tree has changes "
            "outside results/ and results.md (or is not a git checkout): commit or stash them first"
        )
    kept: dict[JobKey, RawResult] = {}
    for record in _readable_records(raw_dir):
        if record.git_commit == commit and record.failed is None:
            kept[(record.stack.name, record.scenario, record.run)] = record
    return kept


def observed_runs(*raw_dirs: Path) -> dict[tuple[str, str], Observed]:
    """Time to steady state and ladder steps of the latest earlier run (by its start) of each
    stack × scenario in any of `raw_dirs`: an experiment's output is followed as well as the
    published results. A ladder from before the probes gives its time to steady state only: its
    steps say little about the probes and full-length steps of today's (estimated from them, the
    publication at 35f04db came to 71% of its real time), so the estimate models those."""
    latest: dict[tuple[str, str], tuple[str, Observed]] = {}
    for record in _readable_records(*raw_dirs):
        if record.steady_state is None and record.ladder is None:
            continue
        key = (record.stack.name, record.scenario)
        started = str(record.started_at or "")
        if key in latest and latest[key][0] > started:
            continue
        steps = record.ladder.steps if record.ladder is not None else []
        probed = any(s.probe for s in steps)
        latest[key] = (
            started,
            Observed(
                steady_s=record.steady_state.time_s if record.steady_state else None,
                probe_rates=tuple(s.offered_rps for s in steps if s.probe) if probed else None,
                full_rates=tuple(s.offered_rps for s in steps if not s.probe) if probed else None,
            ),
        )
    return {key: observed for key, (_, observed) in latest.items()}


def ladder_rungs(*raw_dirs: Path) -> dict[str, int]:
    """How many caps each stack's latest memory ladder in any of `raw_dirs` ran, the one it
    stopped at included: the records of the commit of its latest started run. A ladder stops at
    its first cap that fails, so the caps below it have no record, or one of an older commit."""
    by_commit: dict[tuple[str, str], set[int]] = {}
    latest: dict[str, tuple[str, str]] = {}
    for record in _readable_records(*raw_dirs):
        if record.mem_ladder_mib is None:
            continue
        name, commit = record.stack.name, str(record.git_commit)
        by_commit.setdefault((name, commit), set()).add(record.mem_ladder_mib)
        if record.started_at is not None and (name not in latest or latest[name][0] < str(record.started_at)):
            latest[name] = (str(record.started_at), commit)
    return {name: len(by_commit[(name, commit)]) for name, (_, commit) in latest.items()}


def _readable_records(*raw_dirs: Path) -> Iterator[RawResult]:
    """Every record of `raw_dirs` that reads, directory by directory in name order; a directory
    that is missing has none, and a file that does not read (half written, of another schema)
    is passed over."""
    for raw_dir in raw_dirs:
        for path in sorted(raw_dir.glob("*.json")) if raw_dir.is_dir() else []:
            try:
                yield RawResult.read(path)
            except (OSError, ValueError):
                continue
