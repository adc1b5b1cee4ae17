"""The raw result records of `./bench run`: one JSON file per stack × scenario × run in
results/raw/PROFILE/, which `./bench report` renders alone.

raw-result.schema.json beside this file is generated from these models (bench.schema).
Optional fields stay absent from a file unless the runner set them: records are written with
`exclude_unset`, so a record read and written again is the same JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeFloat,
    NonNegativeInt,
    PlainSerializer,
    PositiveFloat,
    PositiveInt,
    StringConstraints,
    model_validator,
)

SCHEMA_VERSION = 1

Profile = Literal["smoke", "quick", "full", "soak"]
FaultKind = Literal["db-restart"]
ScenarioName = Literal["read-heavy", "join-filter", "mixed", "heavy-body", "avatar"]
CpuList = Annotated[str, StringConstraints(pattern=r"^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$")]
# An unexpected status as k6 and oha report it: the code, 0 for a transport error, or "other".
Status = Annotated[str, StringConstraints(pattern=r"^([0-9]{1,3}|other)$")]
# As the runner has always written it (2026-11-22T04:21:37+00:00), not pydantic's Z form.
Timestamp = Annotated[AwareDatetime, PlainSerializer(lambda t: t.isoformat(), return_type=str)]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Machine(Model):
    cpu_model: str
    cores: PositiveInt
    memory_bytes: NonNegativeInt
    kernel: str
    os: str


class Versions(Model):
    """The first line each tool prints for its version; a load generator the run did not use is absent."""

    postgres: str | None
    python: str
    k6: str | None = None
    oha: str | None = None


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

    @property
    def label(self) -> str:
        """The stack's name as the report and the progress line show it: with its dialect, if not the API's."""
        return stack_label(self.name, self.dialect)


def stack_label(name: str, dialect: str) -> str:
    """`name (HAL)` for a stack of the HAL dialect, `name` for one of the API's."""
    mark = DIALECT_MARKS[dialect]
    return f"{name} ({mark})" if mark else name


class Latency(Model):
    """Milliseconds. pgbench reports only the mean: its percentiles stay null, not invented."""

    avg: float | None
    p50: float | None
    p95: float | None
    p99: float | None
    max: float | None
    min: float | None = None
    p90: float | None = None
    p999: float | None = None
    """p99.9."""


Bound = Literal["app", "postgres", "loadgen", "postgres+loadgen"]
"""What used >= 90% of its CPU set during a stage: the app's core; PostgreSQL's or the load
generator's own set; or the set they share (on two cores, CPU 1), by their CPU together."""


class RoleCpu(Model):
    """The roles' CPU time over a stage or step, and the shares that bound it (bench.measure.bounds)."""

    app_cpu_s: NonNegativeFloat
    app_cpu_share: NonNegativeFloat
    """Of the app's CPU set, over the wall time of the step."""
    postgres_cpu_s: NonNegativeFloat | None
    postgres_cpu_share: NonNegativeFloat | None
    postgres_ms_per_request: NonNegativeFloat | None
    """PostgreSQL's CPU ms per request: what the stack costs the database."""
    loadgen_cpu_s: NonNegativeFloat
    loadgen_cpu_share: NonNegativeFloat
    """Of the load generator's own CPU set."""
    shared_cpu_share: NonNegativeFloat | None
    """PostgreSQL + load generator over the CPUs they share (null when their sets are apart)."""
    bound_by: list[Bound]
    """Each role (or shared set) at >= 90% of its CPUs; empty: nothing was saturated."""


class EndpointFigures(Model):
    requests: NonNegativeInt
    latency_ms: Latency | None


class MemoryGrowth(Model):
    """The last quarter's peak against the second quarter's (the first is warm-up)."""

    second_quarter_peak_bytes: int
    last_quarter_peak_bytes: int
    growing: bool


class Stage(Model):
    """One stage: the load generator's figures and the app's cost measured around it."""

    vus: PositiveInt
    """VUs (k6) or connections (oha); the stage's name."""
    db_clients: PositiveInt | None = None
    """The database ceiling only: pgbench's clients, as many as a stack's pool."""
    requests: NonNegativeInt
    rps: NonNegativeFloat
    duration_s: float | None
    latency_ms: Latency | None
    errors: Annotated[dict[Status, PositiveInt], Field(json_schema_extra={"additionalProperties": False})]
    error_count: NonNegativeInt
    error_rate: Annotated[float, Field(ge=0, le=1)] | None
    bytes_received: int | None
    endpoints: dict[str, EndpointFigures] | None = None
    """k6 only: per endpoint of the mix."""
    memory_samples: list[tuple[float, int]]
    """[seconds into the stage, app memory bytes], every 2 s (with cgroups)."""
    memory_growth: MemoryGrowth | None
    sql_statements: NonNegativeInt | None
    """Null: the database was out of reach (a --target run)."""
    sql_per_request: float | None
    mean_response_bytes: float | None
    app_cpu_s: float | None
    cpu_ms_per_request: float | None
    app_peak_memory_bytes: int | None
    loadgen_cpu_share: float | None
    client_bound: bool | None
    """The load generator's CPU set (alone, or shared with PostgreSQL) was at >= 90%; files
    before the ladder used its CPU alone, which could not reach 90% of a set it shares."""
    oom_kills: int | None
    oom: bool
    cpu: RoleCpu | None = None
    """Every role's CPU and what bound the stage (absent in files before the ladder)."""


StopReason = Literal["delivered", "dropped", "errors", "p99", "no-latency", "failed"]


class LadderStep(Model):
    """One offered rate of the fixed-rate ladder (the open model)."""

    offered_rps: PositiveFloat
    duration_s: PositiveFloat
    vus: PositiveInt
    """k6: the VUs it had allocated (those pre-allocated, more if it needed them); oha: its connections."""
    requests: NonNegativeInt
    delivered_rps: NonNegativeFloat
    latency_ms: Latency | None
    """From each request's scheduled start (k6's arrival rate; oha with --latency-correction)."""
    errors: Annotated[dict[Status, PositiveInt], Field(json_schema_extra={"additionalProperties": False})]
    error_count: NonNegativeInt
    dropped_iterations: NonNegativeInt
    """k6: arrivals without a free VU; pgbench: transactions already late, skipped; oha: 0."""
    arrivals: NonNegativeInt | None = None
    """pgbench: the Poisson arrivals it drew, which `delivered` is judged against; else null."""
    endpoints: dict[str, EndpointFigures] | None = None
    sql_per_request: float | None
    mean_response_bytes: float | None
    cpu_ms_per_request: float | None
    """The app's CPU ms per request; numerically also its cores per 1,000 requests/s."""
    app_peak_memory_bytes: int | None
    cpu: RoleCpu | None
    loadgen_bound: bool = False
    """The load generator alone used >= half its CPUs (false in files before method v3)."""
    oom: bool
    held: bool
    stop_reasons: list[StopReason]
    """Why the step was not held (empty when it was): delivered < 97% of offered, dropped
    iterations > 1%, an unexpected status, p99 over the objective."""
    bisection: bool = False
    """A step of the bisection after the ladder's first step not held (method v3)."""


class Ladder(Model):
    objective_p99_ms: PositiveFloat
    rates: list[PositiveFloat]
    """The scenario's offered rates; the ladder stops at the first step not held."""
    bisect_ratio: PositiveFloat | None = None
    """Bisected to held and not held this ratio apart (null before method v3: no bisection)."""
    steps: list[LadderStep]
    """In the order run: the ladder's, then the bisection's."""
    capacity_rps: NonNegativeFloat | None
    """The highest offered rate held below every rate not held (null: not even the first)."""
    capacity_lower_bound: bool = False
    """Every rate held, or the lowest not held was load-generator-bound (method v3)."""


class SteadyState(Model):
    """The warm-up before measuring: a fixed rate in windows until the app's CPU ms
    per request has stopped getting cheaper (the last three windows within 25% of each other,
    their median no more than 5% under the median of the three before them, in windows the app
    kept up with: under 90% of its CPU set), or the cap. Records written before 2026-11-25 were
    judged by three windows within 5% of each other and of the mean of the three before. A
    --target run, which cannot see the app's CPU, settles by the windows' p50 latency instead
    (within 10%)."""

    rate_rps: PositiveFloat
    window_s: PositiveFloat
    cap_s: PositiveFloat
    settled_by: Literal["cpu-per-request", "p50-latency"] = "cpu-per-request"
    windows_cpu_ms_per_request: list[float | None]
    windows_app_cpu_share: list[float | None] | None = None
    """The app's share of its CPU set in each window; a window at 90% or more measured the core,
    not the request, and did not count. Absent in files written before the rule."""
    windows_rate_rps: list[PositiveFloat] | None = None
    """The rate offered in each window: the scenario's warm rate, then a lower rate of its ladder
    after every four windows in a row at 90% or more of the app's CPU set. Only the windows at the
    last rate (`rate_rps`) are judged. Absent in files written before 2026-11-25."""
    windows_p50_ms: list[float | None] | None = None
    """The windows' median latency (ms), when settled by it."""
    time_s: NonNegativeFloat
    """Time to steady state (or to the cap)."""
    reached: bool
    """False: the cap was hit before the CPU per request settled."""


class LostWrites(Model):
    """The lost-write check after a write scenario (bench.measure.writes): every 2xx write looked up by id."""

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


class Target(Model):
    """A --target run: the stack ran at `url`; neither its process nor its database were read."""

    url: str
    not_measured: dict[str, str]
    """Each figure left null because it cannot be measured from here, with the reason."""


class RunHeader(Model):
    """What every record of one `./bench run` shares: where and how it was measured."""

    schema_version: Literal[1]
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


# A record that did not fail has these, and at least one stage.
_COMPLETED = ("started_at", "startup_s", "idle_memory_bytes", "app_exit_code")


def _completed_runs_are_complete(schema: dict[str, Any]) -> None:
    schema["if"] = {"not": {"required": ["failed"]}}
    schema["then"] = {
        "required": list(_COMPLETED),
        "anyOf": [
            {"properties": {"stages": {"minItems": 1}}},
            # A ceiling measured by the open model runs its ladder only (bench.measure.ceiling_run).
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
    steady_state: SteadyState | None = None
    ladder: Ladder | None = None
    fault: Fault | None = None
    lost_writes: LostWrites | None
    sql_per_request_by_endpoint: dict[str, NonNegativeFloat]
    """Each endpoint's requests sent one by one after the load, SQL statements counted."""

    @model_validator(mode="after")
    def _complete_unless_failed(self) -> Self:
        if self.failed is None:
            missing = [name for name in _COMPLETED if name not in self.model_fields_set]
            # A ceiling measured by the open model runs its ladder only (bench.measure.ceiling_run).
            if missing or not (self.stages or (self.kind == "ceiling" and self.ladder is not None)):
                raise ValueError(f"a run that did not fail needs {', '.join(missing) or 'a stage'}")
        return self

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json", exclude_unset=True), indent=2) + "\n"

    @classmethod
    def read(cls, path: Path) -> RawResult:
        # Python's own float parsing, as the files were written with it: figures read back exact.
        return cls.model_validate(json.loads(path.read_text()))
