"""The raw result records of `./bench run`: one JSON file per stack × scenario × run in
results/raw/PROFILE/, which `./bench report` renders alone.

Here, the record of one run (RawResult): the header every record of a `./bench run` shares, the
stack, and the checks after the load; in bench.records.steps, what each of its stages and ladder
steps measured. bench/raw-result.schema.json is generated from these models (bench.schema).
Optional fields stay absent from a file unless the runner set them: records are written with
`exclude_unset`, so a record read and written again is the same JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    AwareDatetime,
    ConfigDict,
    Field,
    NonNegativeFloat,
    NonNegativeInt,
    PlainSerializer,
    PositiveInt,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)

from bench.records.model import Model
from bench.records.steps import FirstMinute, Ladder, Stage, SteadyState, WarmupClass
from bench.scenarios import SCENARIOS

SCHEMA_VERSION = 1
# The method's version the runner measures by (docs/method.md), written in every record's header.
METHOD = 4

Profile = Literal["smoke", "quick", "full", "soak"]
FaultKind = Literal["db-restart"]


def _known_scenario(name: str) -> str:
    if name not in SCENARIOS:
        raise ValueError(f"unknown scenario {name!r}: the scenarios are {', '.join(SCENARIOS)} (bench.scenarios)")
    return name


# A scenario's name, checked against bench.scenarios as a record is read; the schema lists the
# names it had when the schema was generated (bench.schema).
ScenarioName = Annotated[
    str, AfterValidator(_known_scenario), WithJsonSchema({"enum": list(SCENARIOS), "type": "string"})
]
CpuList = Annotated[str, StringConstraints(pattern=r"^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$")]
# As the runner has always written it (2026-11-22T04:21:37+00:00), not pydantic's Z form.
Timestamp = Annotated[AwareDatetime, PlainSerializer(lambda t: t.isoformat(), return_type=str)]


class Machine(Model):
    """The machine a record was measured on. Machines of one cloud kind share a model name yet can
    differ severalfold in speed: the fields after `os` (from /proc/cpuinfo's first processor) tell
    them apart, with the run's calibration. Absent in records written before them, or where the
    CPU does not say (cpuinfo on ARM has no family)."""

    cpu_model: str
    cores: PositiveInt
    memory_bytes: NonNegativeInt
    kernel: str
    os: str
    cpu_family: int | None = None
    """cpuinfo's `cpu family`."""
    cpu_model_number: int | None = None
    """cpuinfo's `model`: the model's number within its family."""
    stepping: int | None = None
    microcode: str | None = None
    """As cpuinfo prints it (0x1 under many hypervisors, which hide the host's)."""
    cache_size: str | None = None
    """As cpuinfo prints it: `307200 KB`."""
    flags_sha256: str | None = None
    """The first 16 hex digits of the SHA-256 of cpuinfo's flags, sorted and joined by spaces: the
    same model name with other features (AVX-512, SHA) exposed differs here."""
    hypervisor: str | None = None
    """The hypervisor under the machine, as /sys/hypervisor/type or `systemd-detect-virt --vm`
    names it (kvm, xen, amazon, microsoft); `unknown` where the CPU says there is one but neither
    names it; null without one."""

    def identity(self) -> tuple[str | int | None, ...]:
        """What tells two machines apart: the CPU (model name, family, model, stepping,
        microcode, the features it exposes), its cores and its memory in whole GiB. A field a
        record lacks is None (bench.records.machines.same_machine does not compare it)."""
        return (
            self.cpu_model,
            self.cpu_family,
            self.cpu_model_number,
            self.stepping,
            self.microcode,
            self.flags_sha256,
            self.cores,
            round(self.memory_bytes / (1 << 30)),
        )


class Versions(Model):
    """The first line each tool prints for its version; a load generator the run did not use is absent."""

    postgres: str | None
    python: str
    k6: str | None = None
    oha: str | None = None
    vegeta: str | None = None


class Cap(Model):
    cpus: Annotated[float, Field(gt=0)]
    mem_bytes: PositiveInt | None


class Caps(Model):
    """compose.yaml's caps, applied natively too; a stack with caps of its own has an entry."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, Cap]

    app: Cap
    postgres: Cap


class CpuSplit(Model):
    """The CPU sets of the three roles (taskset or cpuset syntax: 0, 1-3, 0,2)."""

    app: CpuList
    postgres: CpuList
    loadgen: CpuList


# The representation a stack serves (its manifest's `dialect`): spec/API.md's, or spec/hal.md's.
Dialect = Literal["api", "hal"]
# How a report or the progress line marks a dialect beside a stack's name; the API's is unmarked.
DIALECT_MARKS: dict[str, str] = {"api": "", "hal": "HAL"}


class Training(Model):
    """How a variant that trains made the file its run reads (bench.training): written beside that
    file when the variant was built, and copied into each of its records."""

    workload: str
    """What the process served while it trained, in words."""
    requests: PositiveInt
    seconds: NonNegativeFloat
    """Wall time from its start to its exit with the file written: start-up, the walk, the exit."""
    artifact: str
    """The file, relative to the stack's directory."""
    artifact_bytes: PositiveInt
    runtime: str
    """What the manifest's `train.runtime` command printed, its lines joined: the JVM the cache belongs to."""
    trained_at: Timestamp


class StackInfo(Model):
    name: str
    display: str
    language: str
    language_version: str
    framework: str
    framework_version: str
    server: str
    data_access: str
    dialect: Dialect = "api"
    """Records written before dialects existed have none: they were all the API's."""
    training: Training | None = None
    """A variant that trains (an AOT cache): its training run; absent for any other."""

    @property
    def label(self) -> str:
        """The stack's name as the report and the progress line show it: with its dialect, if not the API's."""
        return stack_label(self.name, self.dialect)


def stack_label(name: str, dialect: str) -> str:
    """`name (HAL)` for a stack of the HAL dialect, `name` for one of the API's."""
    mark = DIALECT_MARKS[dialect]
    return f"{name} ({mark})" if mark else name


class LostWrites(Model):
    """The lost-write check after a write scenario (bench.measure.phases.writes): every 2xx write
    looked up, by id or by the key it wrote (an item's sku, a category's code)."""

    items_created: int
    items_deleted: int
    categories_created: int
    item_rows_delta: int
    category_rows_delta: int
    items_missing: int
    items_deleted_present: int
    categories_missing: int
    seeded_rows_missing: int
    items_unacknowledged: int
    """Writes made by requests that got no 2xx (a commit whose answer was cut off): not losses."""
    categories_unacknowledged: int
    lost_writes: NonNegativeInt


class Fault(Model):
    stopped_at_s: float
    outage_s: float
    recovered_within_s: float | None
    """Until the first 200 of GET /items/1 after PostgreSQL was back; null: not within 60 s."""


class Inputs(Model):
    """The fingerprints of what the record's figures follow from besides the header's tools,
    method, profile, CPU split and caps (bench.measure.plan.inputs): sha256 digests of files' paths
    and contents as git tracks them, taken as the run was planned. `./bench run --resume` keeps a
    record whose inputs equal today's, whatever else changed in the tree."""

    stack: str | None
    """The stack's directory, every file git tracks or would track there but its prose (`*.md`;
    bench.measure.plan.inputs.STACK; a variant's manifest is in its stack's directory). Null for
    a ceiling, and for a --target run, whose stack's sources here are not what runs there."""
    runner: str
    """The runner's measuring code: the modules, load scripts and pinned dependencies listed in
    bench.measure.plan.inputs.RUNNER."""
    database: str
    """db/: the schema, the seed and PostgreSQL's settings."""
    spec: str
    """spec/: the API the stacks serve and the load scripts ask for."""
    compose: str
    """compose.yaml, whose caps the run applies."""


class Target(Model):
    """A --target run: the stack ran at `url`; neither its process nor its database were read."""

    url: str
    not_measured: dict[str, str]
    """Each figure left null because it cannot be measured from here, with the reason."""


class CpuCalibration(Model):
    """A fixed CPU-bound workload in one process pinned to the app's CPUs
    (bench.measure.run.calibration): native code, then the interpreter, as the stacks run both."""

    cpus: CpuList
    """The CPU set it was pinned to: the app's."""
    sha256_mib: PositiveInt
    """MiB hashed with SHA-256 (hashlib: native code), a 64 KiB buffer over and over."""
    sha256_mib_per_s: Annotated[float, Field(gt=0)]
    """MiB hashed per CPU second of the process, in its fastest slice: another process on
    its CPU, or the hypervisor's steal, lengthens `seconds`, not this."""
    python_loops: PositiveInt
    """Iterations of a fixed pure-Python integer loop (the interpreter, no allocation but its ints)."""
    python_mloops_per_s: Annotated[float, Field(gt=0)]
    """Millions of the loop's iterations per CPU second of the process, in its fastest slice."""
    seconds: NonNegativeFloat
    """Wall seconds both parts took."""
    cpu_seconds: NonNegativeFloat
    """CPU seconds both parts took: below `seconds` where the process waited for its CPU."""


class PostgresCalibration(Model):
    """A fixed read-only pgbench run on the seeded database: one primary-key SELECT of an item
    (`\\set id random(1, 100000)`), its client on the app's CPUs as the database ceiling's is, so
    that PostgreSQL's CPUs bound it."""

    clients: PositiveInt
    seconds: PositiveInt
    """How many one-second pgbench runs, after a one-second warm-up; the best counts."""
    tps: Annotated[float, Field(gt=0)]
    """Transactions (one SELECT each) per second, as pgbench reports it: the best run's."""
    transactions_per_cpu_s: Annotated[float, Field(gt=0)] | None = None
    """Transactions per CPU second of PostgreSQL's cgroup, the best run's: what machines are
    compared by, as another process on its CPUs lowers `tps`, not this; absent without cgroups."""


class Calibration(Model):
    """Two fixed workloads at the start of a `./bench run` on this machine: how fast its app's CPUs
    and its PostgreSQL were, so that records measured on two machines of one kind can be told
    apart and compared (bench.records.machines). A part that could not run is null, with why."""

    cpu: CpuCalibration | None
    cpu_failed: str | None = None
    postgres: PostgresCalibration | None
    postgres_failed: str | None = None


class RunHeader(Model):
    """What every record of one `./bench run` shares: where and how it was measured."""

    schema_version: Literal[1]
    method: Literal[4] | None = None
    """The method that measured it (docs/method.md): 4 for a fresh process per scenario, the JIT's
    signal, shares over the wall time between readings and the machine's steal; absent in files
    written before method v4."""
    profile: Profile
    machine: Machine
    versions: Versions
    git_commit: str | None
    caps: Caps | None
    """Null for a --target run: the caps, if any, are the remote platform's, unknown here."""
    cpu_split: CpuSplit
    cgroups: Literal["v1", "v2"] | None
    warnings: list[str]
    mem_ladder_mib: PositiveInt | None = None
    fault_kind: FaultKind | None = None
    target: Target | None = None
    calibration: Calibration | None = None
    """The machine's calibration at the run's start; absent for a --target run and in files
    written before it existed."""


# A record that did not fail has these, and at least one stage.
_COMPLETED = ("started_at", "startup_s", "idle_memory_bytes", "app_exit_code")


def _completed_runs_are_complete(schema: dict[str, Any]) -> None:
    schema["if"] = {"not": {"required": ["failed"]}}
    schema["then"] = {
        "required": list(_COMPLETED),
        "anyOf": [
            {"properties": {"stages": {"minItems": 1}}},
            # A ceiling measured by the open model runs its ladder only (bench.measure.run.ceiling_run).
            {
                "required": ["kind", "ladder"],
                "properties": {"kind": {"const": "ceiling"}, "ladder": {"type": "object"}},
            },
        ],
    }


class RawResult(RunHeader):
    """One stack × scenario × run of ./bench run."""

    model_config = ConfigDict(json_schema_extra=_completed_runs_are_complete)

    stack: StackInfo
    kind: Literal["ceiling"] | None = None
    scenario: ScenarioName
    run: PositiveInt
    failed: str | None = None
    """Why the run failed; the stages it served before are kept."""
    started_at: Timestamp | None = None
    startup_s: NonNegativeFloat | None = None
    """Seconds from start to the first healthy /health."""
    idle_memory_bytes: NonNegativeInt | None = None
    served_before: list[ScenarioName] | None = None
    """The scenarios this process of the stack served earlier in the repeat, in order ([] on the
    one that started it; absent where each scenario starts the stack afresh: the soak, the memory
    ladder, a fault run, records before one process per repeat). startup_s and idle_memory_bytes
    are that process's, taken when it started."""
    app_exit_code: int | None = None
    """Null while the process goes on to the next scenario."""
    stages: list[Stage]
    """The original study's closed-model stages (the replication)."""
    first_minute: FirstMinute | None = None
    """The first minute of the fresh process, before its steady-state warm-up (join-filter and the
    avatar, since method v4's first-minute runs)."""
    steady_state: SteadyState | None = None
    ladder: Ladder | None = None
    warmup_class: WarmupClass | None = None
    """steady, still-warming, slowing or not-settled (bench.judgement.steady.warmup_class): what
    the warm-up and the ladder's repeated step say of the state the record was measured in.
    Absent before 2026-12-02, for a ceiling and where nothing could be compared."""
    fault: Fault | None = None
    lost_writes: LostWrites | None
    sql_per_request_by_endpoint: dict[str, NonNegativeFloat]
    """Each endpoint's requests sent one by one after the load, SQL statements counted."""
    inputs: Inputs | None = None
    """What the figures follow from, fingerprinted; absent in records written before it was."""

    @model_validator(mode="after")
    def _complete_unless_failed(self) -> Self:
        if self.failed is None:
            missing = [name for name in _COMPLETED if name not in self.model_fields_set]
            # A ceiling measured by the open model runs its ladder only (bench.measure.run.ceiling_run).
            if missing or not (self.stages or (self.kind == "ceiling" and self.ladder is not None)):
                raise ValueError(f"a run that did not fail needs {', '.join(missing) or 'a stage'}")
        return self

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json", exclude_unset=True), indent=2) + "\n"

    @classmethod
    def read(cls, path: Path) -> RawResult:
        # Python's own float parsing, as the files were written with it: figures read back exact.
        return cls.model_validate(json.loads(path.read_text()))
