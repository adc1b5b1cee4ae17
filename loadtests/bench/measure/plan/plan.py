"""The run plan: which stacks and scenarios, how often, on which CPUs, and where results go."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.manifest import Stack
from bench.measure.host import cgroups
from bench.measure.plan.ceilings import ceiling_of
from bench.measure.plan.estimate import CALIBRATION_S, Observed, estimate_seconds
from bench.measure.plan.inputs import Fingerprints
from bench.records import METHOD, Caps, CpuSplit, FaultKind, Inputs, Profile, RawResult, Versions
from bench.records.machines import machines
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
    """Records of earlier runs that --resume keeps (kept_records): measured the way this run
    measures, from the same inputs. Their jobs are not run again."""

    inputs: Fingerprints | None = None
    """Today's fingerprints (bench.measure.plan.inputs), taken once as the run is planned
    (plan_run): each record carries its own. None outside a git checkout, or where a test made the
    plan: its records carry none."""

    def inputs_of(self, stack: Stack | None) -> dict[str, Inputs]:
        """A record's `inputs` field for a job of `stack` (a ceiling's or a --target run's: None),
        or no field where the plan has no fingerprints."""
        return {} if self.inputs is None else {"inputs": self.inputs.of(stack)}

    def stack_scenarios(self, name: str) -> list[Scenario]:
        """The plan's scenarios that stack (or ceiling) `name` is measured in: a variant's only
        those its manifest lists (measured_in), a stack's and a ceiling's all."""
        stack = next((s for s in self.stacks if getattr(s, "name", None) == name), None)
        wanted = measured_in(stack) if stack is not None else None
        return [s for s in self.scenarios if wanted is None or s.name in wanted]

    def blocks(self) -> list[tuple[int, Scenario]]:
        """The plan's blocks in the order they run: run 1's scenarios, then run 2's. A block is one
        scenario × one run: its ceiling and every stack and variant measured in it, run back to back
        so that they are compared on one machine in one state."""
        return [(run_number, scenario) for run_number in range(1, self.repeat + 1) for scenario in self.scenarios]

    def block_stacks(self, scenario: Scenario) -> list[Stack]:
        """The stacks and variants of a block of `scenario`, in the plan's order."""
        return [stack for stack in self.stacks if scenario in self.stack_scenarios(stack.name)]

    def block_jobs(self, run_number: int, scenario: Scenario) -> list[JobKey]:
        """A block's jobs in the order they run: the ceiling first."""
        ceiling = [(ceiling_of(scenario).name, scenario.name, run_number)] if self.ceilings else []
        return ceiling + [(stack.name, scenario.name, run_number) for stack in self.block_stacks(scenario)]

    def remaining(self, name: str, run_number: int) -> list[Scenario]:
        """The scenarios of stack (or ceiling) `name` still to run in repeat `run_number`."""
        return [s for s in self.stack_scenarios(name) if (name, s.name, run_number) not in self.kept]

    def estimate_seconds(self) -> float:
        """Every job of the plan, the ceilings' included."""
        known = self.observed
        total = CALIBRATION_S
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
                        scenario,
                        self.profile,
                        open_model=self.open_model,
                        observed=known.get((name, scenario.name)),
                        variant=getattr(stack, "variant", None) is not None,
                    )
        return total

    def ladder_estimate_seconds(self, rungs: dict[str, int]) -> float:
        """The memory ladder (execute_ladder, bench.measure.run.orchestrate): each stack down the
        caps as far as its latest ladder went (`ladder_rungs`; every cap without one), each cap
        one closed-model run of the plan's scenarios, no ceilings."""
        # One calibration for the whole ladder (bench.measure.run.orchestrate.execute_ladder).
        total = CALIBRATION_S
        for stack in self.stacks:
            one_cap = dataclasses.replace(self, stacks=[stack], ceilings=False, mem_ladder_mib=MEM_LADDER_MIB[0])
            caps = rungs.get(getattr(stack, "name", ""), len(MEM_LADDER_MIB))
            total += caps * (one_cap.estimate_seconds() - CALIBRATION_S)
        return total


def measured_in(stack: Stack) -> tuple[str, ...] | None:
    """The scenarios a variant is measured in, as its stack's impl.toml lists them; None for a
    stack itself, which is measured in every scenario."""
    return getattr(stack, "variant_scenarios", None)


@dataclass(frozen=True)
class Today:
    """What a record must share with today's run for --resume to keep it (kept_records)."""

    profile: Profile
    split: CpuSplit
    caps: Caps
    versions: Versions
    """Today's tools as they answer before the run: a load generator not built yet is None."""
    inputs: Fingerprints
    commit: str | None
    """HEAD (environment.git_commit, "-dirty" after a change to what the run measures from)."""
    method: int = METHOD


# The tools whose version bears on a figure; Python's is the runner's, pinned by its lock.
MEASURING_TOOLS = ("postgres", "k6", "oha", "vegeta")


def kept_records(raw_dir: Path, today: Today) -> dict[JobKey, RawResult]:
    """The records in `raw_dir` that today's run can go on from: not failed, measured by the same
    method and profile, tools, CPU split and caps, from the same inputs (Inputs: the runner's
    measuring code, db/, spec/, compose.yaml and, but for a ceiling, the stack's sources). Docs,
    the report or another stack may have changed since: a publication's sittings span commits."""
    kept: dict[JobKey, RawResult] = {}
    for record in _readable_records(raw_dir):
        if record.failed is None and _measured_as_today(record, today):
            kept[(record.stack.name, record.scenario, record.run)] = record
    return kept


def _measured_as_today(record: RawResult, today: Today) -> bool:
    if record.method != today.method or record.profile != today.profile:
        return False
    if record.mem_ladder_mib is not None or record.fault_kind is not None or record.target is not None:
        return False
    if record.caps is None or record.caps.model_dump() != today.caps.model_dump():
        return False
    # The database ceiling's client runs on the app's CPUs, and its record says so
    # (bench.measure.host.roles.client_on_app_cpus).
    splits = [today.split]
    if record.kind == "ceiling":
        splits.append(today.split.model_copy(update={"loadgen": today.split.app}))
    if record.cpu_split.model_dump() not in [s.model_dump() for s in splits]:
        return False
    # A record names only the tools its run used; the version of each must be today's.
    for tool in MEASURING_TOOLS:
        theirs = getattr(record.versions, tool)
        if theirs is not None and theirs != getattr(today.versions, tool):
            return False
    if record.inputs is None:
        # Written before records carried their inputs: kept only if measured at today's commit,
        # unchanged since (the rule before inputs).
        return today.commit is not None and not today.commit.endswith("-dirty") and record.git_commit == today.commit
    expected = today.inputs.expected(None if record.kind == "ceiling" else record.stack.name)
    return record.inputs.model_dump() == expected.model_dump()


def whole_blocks(plan: Plan, kept: dict[JobKey, RawResult]) -> dict[JobKey, RawResult]:
    """Of the records --resume could keep, those of blocks kept whole and measured on one machine
    (bench.records.machines.machines): a block cut short, or finished on another machine, is
    measured again whole, as its figures are compared with each other."""
    whole: dict[JobKey, RawResult] = {}
    for run_number, scenario in plan.blocks():
        jobs = plan.block_jobs(run_number, scenario)
        records = [kept[job] for job in jobs if job in kept]
        if len(records) == len(jobs) and len(machines(records)) == 1:
            whole.update(zip(jobs, records, strict=True))
    return whole


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
