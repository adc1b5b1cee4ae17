"""What one stage or step of a run measured: the load generator's figures, every role's CPU and
what bound it, the app's memory and resources; the fixed-rate ladder made of steps, and the
steady-state warm-up before it. A raw result (bench.records.RawResult) holds them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt, StringConstraints

from bench.records.model import Model

# An unexpected status as k6 and oha report it: the code, 0 for a transport error, or "other".
Status = Annotated[str, StringConstraints(pattern=r"^([0-9]{1,3}|other)$")]


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


Bound = Literal["app", "postgres", "loadgen", "postgres+loadgen", "loadgen+upstream", "postgres+loadgen+upstream"]
"""What used >= 90% of its CPU set during a stage: the app's core; PostgreSQL's or the load
generator's own set; or the set they share (on two cores, CPU 1), by their CPU together. The
stock upstream (the outbound scenario) runs on the load generator's CPUs and counts with it,
named: loadgen+upstream, postgres+loadgen+upstream."""


class RoleCpu(Model):
    """The roles' CPU time over a stage or step, and the shares that bound it (bench.judgement.bounds)."""

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
    """PostgreSQL + load generator (+ the stock upstream, where it ran) over the CPUs they share
    (null when their sets are apart)."""
    upstream_cpu_s: NonNegativeFloat | None = None
    """The stock upstream's CPU time; absent where the scenario calls none (all but outbound)."""
    upstream_cpu_share: NonNegativeFloat | None = None
    """Of the load generator's CPU set, which it runs on."""
    upstream_ms_per_request: NonNegativeFloat | None = None
    """The upstream's CPU ms per request: what the harness pays for each call a stack makes."""
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


class JvmFigures(Model):
    """A JVM's own counters over a step, read from outside it: its hsperfdata file, the counters
    jstat reads (bench.measure.host.hsperf), without attaching to it."""

    gc_pause_ms_per_s: NonNegativeFloat
    """Stop-the-world pauses of all its collectors (sun.gc.collector.N.time: jstat's GCT), ms per
    second of the step. ZGC's and G1's concurrent work is not in them: it is in the app's CPU."""
    gc_pauses: NonNegativeInt
    heap_used_peak_bytes: NonNegativeInt
    """The highest sample of the heap's spaces in use (sun.gc.generation.N.space.M.used). G1 and
    ZGC keep these current as they allocate (a sample may miss the top of a saw-tooth); the serial
    collector, every standard JVM stack's, updates them at its collections only, so for it this is
    the heap left occupied after a collection (live objects and survivors)."""
    compilations: NonNegativeInt | None = None
    """Methods its JIT finished compiling during the step (sun.ci.totalCompiles); absent before
    method v4."""
    compiler_cpu_s: NonNegativeFloat | None = None
    """CPU seconds its C1 and C2 compiler threads spent during the step (/proc/PID/task); absent
    before method v4. A step measured while these are well above zero measured a JIT at work."""
    safepoints: NonNegativeInt | None = None
    """Safepoints it reached during the step (sun.rt.safepoints): its collections' and every other
    stop of all its Java threads (a deoptimisation's, a code cache sweep's); absent before
    2026-12-02."""
    safepoint_ms_per_s: NonNegativeFloat | None = None
    """The time its Java threads stood stopped at those safepoints (sun.rt.safepointTime), ms per
    second of the step; absent as above."""
    live_threads: NonNegativeInt | None = None
    """Its live Java threads at the step's end (java.threads.live); absent as above."""


class HostFigures(Model):
    """The machine around a step (method v4): the share of all its CPUs' time the hypervisor took
    (steal, /proc/stat), and the share of the step's wall time in which some task waited for a CPU
    (/proc/pressure/cpu's "some"; null without pressure stall information)."""

    steal_share: Annotated[float, Field(ge=0, le=1)]
    cpu_pressure_share: Annotated[float, Field(ge=0, le=1)] | None


class Resources(Model):
    """What the app held during a step, sampled from outside it every SAMPLE_INTERVAL_S
    (bench.measure.host.resources). Absent in files written before 2026-11-26."""

    samples: NonNegativeInt
    threads_peak: NonNegativeInt | None
    """The threads of the app's processes (/proc/PID/status), the highest sample; null without cgroups."""
    db_connections_held_peak: NonNegativeInt | None
    """The app's PostgreSQL sessions (pg_stat_activity: the bench user's client backends in the
    bench database), the highest sample; null: the database was out of reach."""
    db_connections_in_use_peak: NonNegativeInt | None
    """Of those, the most at once not idle: running a statement, or idle in a transaction."""
    working_set_peak_bytes: NonNegativeInt | None = None
    """The app's cgroup memory less its inactive file cache, the highest sample: the figure to
    compare across runtimes (absent before method v4)."""
    resident_peak_bytes: NonNegativeInt | None = None
    """The app's processes' peak resident memory since they started (VmHWM, summed), read at the
    step's end: what a claim about a process's "real memory" is judged on (absent before method
    v4)."""
    jvm: JvmFigures | None = None
    """A JVM's GC and heap; absent for other runtimes."""
    sampler_cpu_ms: NonNegativeFloat
    """The sampler's own CPU over the step, on the load generator's CPUs (docs/method.md)."""


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
    resources: Resources | None = None
    """Threads, database connections and a JVM's GC and heap, sampled during the stage."""
    host: HostFigures | None = None
    """The machine's steal and CPU pressure during the stage (absent before method v4)."""


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
    """The load generator used >= half its CPUs, with the stock upstream's CPU where it ran on them
    (false in files before method v3)."""
    oom: bool
    held: bool
    stop_reasons: list[StopReason]
    """Why the step was not held (empty when it was): delivered < 97% of offered, dropped
    iterations > 1%, an unexpected status, p99 over the objective."""
    bisection: bool = False
    """A step of the bisection after the ladder's first step not held (method v3)."""
    resources: Resources | None = None
    """Threads, database connections and a JVM's GC and heap, sampled during the step."""
    probe: bool = False
    """A short probe step, which only guides the ladder: capacity rests on the full-length steps
    (false in files before the probes, whose steps are all full-length)."""
    host: HostFigures | None = None
    """The machine's steal and CPU pressure during the step (absent before method v4)."""
    steal_reruns: list[Annotated[float, Field(ge=0, le=1)]] = Field(default_factory=list)
    """The steal shares of earlier tries of this step, each over 2% of the machine's CPU time and
    so run again; the step recorded is the last try (empty: the first try stood)."""


class Ladder(Model):
    objective_p99_ms: PositiveFloat
    rates: list[PositiveFloat]
    """The scenario's offered rates; the ladder stops at the first step not held."""
    bisect_ratio: PositiveFloat | None = None
    """Bisected to held and not held this ratio apart (null before method v3: no bisection)."""
    probe_s: PositiveFloat | None = None
    """A probe step's seconds (null before the probes)."""
    steps: list[LadderStep]
    """In the order run: the probes' ladder and bisection, then the full-length steps."""
    capacity_rps: NonNegativeFloat | None
    """The highest offered rate held at full length below every full-length rate not held (null:
    none held)."""
    capacity_lower_bound: bool = False
    """Every rate held, or the lowest not held was load-generator-bound (method v3)."""
    repeat: LadderStep | None = None
    """One full-length step run again after the ladder, on the same process at the same rate and
    length (`repeated_step`): its CPU per request against the first one's classes the record
    (WarmupClass). Absent before 2026-12-02 and where no full-length step ran."""


class JvmWindow(Model):
    """A JVM's own counters over one warm-up window (its hsperfdata, bench.measure.host.hsperf)."""

    gc_pauses: NonNegativeInt
    gc_pause_ms: NonNegativeFloat
    """Stop-the-world pauses of all its collectors in the window."""
    heap_used_bytes: NonNegativeInt
    """The heap's spaces in use at the window's end (for the serial collector: as its last
    collection left them)."""
    safepoints: NonNegativeInt
    safepoint_ms: NonNegativeFloat
    """Time its Java threads stood stopped at safepoints in the window, the collections' included."""
    live_threads: NonNegativeInt
    """At the window's end."""


class WindowReadings(Model):
    """What else one warm-up window read, beside its CPU per request: the machine's steal and CPU
    pressure, and a JVM's collections, safepoints, heap and threads. What a reader needs to say
    why a window cost what it did."""

    host: HostFigures | None
    """Null where /proc/stat could not be read."""
    jvm: JvmWindow | None = None
    """Absent for every runtime but a HotSpot JVM."""


WarmupClass = Literal["steady", "still-warming", "slowing", "not-settled"]
"""What the warm-up and the repeated step say of a record (bench.judgement.steady.warmup_class):
steady (warm-up settled, and the repeated step's CPU per request within 10% of the first's),
still-warming (the repeat cheaper by more), slowing (dearer by more), not-settled (the warm-up
reached its cap)."""


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
    settled_by: Literal["cpu-per-request", "cpu-per-request-and-jit", "p50-latency"] = "cpu-per-request"
    """cpu-per-request-and-jit (a HotSpot JVM, method v4): the CPU per request settled and, over
    the last two windows, its JIT finished no compilation and its compiler threads used under 5%
    of its CPU."""
    windows_cpu_ms_per_request: list[float | None]
    windows_app_cpu_share: list[float | None] | None = None
    """The app's share of its CPU set in each window; a window at 90% or more measured the core,
    not the request, and did not count. Absent in files written before the rule."""
    windows_rate_rps: list[PositiveFloat] | None = None
    """The rate offered in each window: the scenario's warm rate, then a lower rate of its ladder
    after every four windows in a row at 90% or more of the app's CPU set. Only the windows at the
    last rate (`rate_rps`) are judged. Absent in files written before 2026-11-25."""
    windows_compilations: list[int | None] | None = None
    """A JVM's compilations finished in each window (sun.ci.totalCompiles); absent for other
    runtimes and before method v4."""
    windows_compiler_cpu_share: list[float | None] | None = None
    """A JVM's compiler threads' CPU in each window, as a share of the app's CPU set over the
    window (before 2026-12-02: of the JVM's own CPU in the window); absent as above."""
    windows_p50_ms: list[float | None] | None = None
    """The windows' median latency (ms), when settled by it."""
    windows_readings: list[WindowReadings] | None = None
    """Each window's steal, CPU pressure and, for a JVM, collections, safepoints, heap and
    threads; absent before 2026-12-02 and for a --target run."""
    time_s: NonNegativeFloat
    """Time to steady state (or to the cap)."""
    reached: bool
    """False: the cap was hit before the CPU per request settled."""


class FirstMinuteWindow(Model):
    """One window of the first minute, at its rate: what the load generator and the app's cgroup read
    over it."""

    requests: NonNegativeInt
    """Requests answered in the window (any status)."""
    error_count: NonNegativeInt
    p99_ms: float | None
    """From each request's scheduled start (oha --latency-correction)."""
    app_cpu_s: NonNegativeFloat | None
    """The app's CPU seconds over the window (its cgroup); null without cgroups."""
    app_cpu_share: NonNegativeFloat | None
    """Of the app's CPU set, over the wall time of the window."""
    compilations: NonNegativeInt | None = None
    """A JVM's compilations finished in the window (sun.ci.totalCompiles); absent for other runtimes."""
    compiler_cpu_share: NonNegativeFloat | None = None
    """A JVM's compiler threads' CPU in the window, as a share of the app's CPU set over the window
    (before 2026-12-02: of the JVM's own CPU in the window); absent as above."""


class FirstMinuteBin(Model):
    """FIRST_MINUTE_BIN_S seconds of the first minute's load, by each request's scheduled start."""

    requests: NonNegativeInt
    """Requests that got an answer (oha logs those; transport errors are counted by window)."""
    p99_ms: float | None
    """Nearest rank over those requests; null when there were none."""


class FirstMinute(Model):
    """The first minute of a fresh process (docs/method.md, The first minute): windows at a rate
    common to every stack (the scenario's first_minute_rate), from the first request on, before
    the steady-state warm-up. Absent in scenarios without one and in records before it."""

    rate_rps: PositiveFloat
    window_s: PositiveFloat
    """Each window's seconds of load (the profile's steady-state window)."""
    started_after_s: NonNegativeFloat
    """From the launch of the process to the first window's start: its start-up, the second before
    its idle memory is read, and the runner's preparations."""
    seconds: NonNegativeFloat
    """The wall time of the windows, with the time between two of them (each a new oha run, and
    the app's cgroup read at its ends: about 0.5 s on the machine of the first such run), when
    no request is sent."""
    windows: list[FirstMinuteWindow]
    """In order; window i covers seconds i × window_s to (i + 1) × window_s of load."""
    bin_s: PositiveFloat
    bins: list[FirstMinuteBin]
    """Bin i covers seconds i × bin_s to (i + 1) × bin_s of load."""
    steady_windows: list[FirstMinuteWindow] = Field(default_factory=list)
    """Three windows at the same rate after the steady-state warm-up, before the ladder: what the
    same requests cost the process once warm (empty: the process was gone)."""
