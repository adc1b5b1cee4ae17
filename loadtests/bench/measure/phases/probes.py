"""What the runner measures around the load: the app's CPU time and memory (from its cgroup),
the SQL statements PostgreSQL executed (pg_stat_statements), and memory sampled during a stage."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType

import httpx
import psycopg

from bench.judgement.bounds import CpuTimes, client_bound, role_cpu
from bench.measure.host import cgroups
from bench.measure.host.machine import HostReading, host_figures
from bench.measure.host.resources import ResourceSampler, Sessions
from bench.measure.host.roles import Roles
from bench.measure.load.dialects import prepare_probe
from bench.measure.load.figures import LoadFigures
from bench.postgres import Cluster
from bench.records import Dialect
from bench.records.steps import HostFigures, MemoryGrowth, Resources, RoleCpu, Stage

PROBE_REQUESTS = 20


class Statements:
    """SQL statements executed in the working database, from pg_stat_statements; and the app's
    sessions (`sessions`), which the resource sampler counts through a connection of its own."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.conn = cluster.connect()
        self.sessions: Sessions | None = Sessions(cluster)

    def total(self) -> int:
        try:
            return self._total()
        except psycopg.OperationalError:
            # PostgreSQL was restarted under us (the db-restart fault); its statistics survive it.
            self.conn.close()
            self.conn = self.cluster.connect()
            return self._total()

    def _total(self) -> int:
        row = self.conn.execute(
            "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid "
            "WHERE d.datname = 'bench'"
        ).fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        self.conn.close()
        if self.sessions is not None:
            self.sessions.close()


def sql_per_endpoint(
    base_url: str, endpoints: tuple[str, ...], statements: Statements, dialect: Dialect = "api"
) -> Iterator[tuple[str, float]]:
    """SQL statements per request (per operation, in a dialect that needs two requests for one) of
    each endpoint in turn: PROBE_REQUESTS sent one at a time, in the stack's `dialect`. A
    generator, so that the endpoints counted before a failure are kept."""
    with httpx.Client(base_url=base_url, timeout=30) as client:
        for endpoint in endpoints:
            requests = [prepare_probe(endpoint, client, dialect) for _ in range(PROBE_REQUESTS)]
            before = statements.total()
            for send in requests:
                send()
            yield endpoint, (statements.total() - before) / PROBE_REQUESTS


class MemorySampler:
    """The app's memory every few seconds while a stage runs, for the soak's growth check."""

    INTERVAL_S = 2.0

    def __init__(self, group: cgroups.Group, started: float) -> None:
        self.group, self.started = group, started
        self.samples: list[tuple[float, int]] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.wait(self.INTERVAL_S):
            try:
                self.samples.append((round(time.monotonic() - self.started, 1), self.group.memory_bytes()))
            except OSError:
                return

    def stop(self) -> list[tuple[float, int]]:
        self.done.set()
        self.thread.join()
        return self.samples


def memory_growth(samples: list[tuple[float, int]]) -> MemoryGrowth | None:
    """Whether memory keeps growing: the last quarter's peak against the second quarter's
    (the first is warm-up). Garbage-collected runtimes saw-tooth, so peaks, not means; a stack
    "keeps growing" when the later peak is over 10% and over 8 MiB higher."""
    if len(samples) < 8:
        return None
    quarter = len(samples) // 4
    second = max(b for _, b in samples[quarter : 2 * quarter])
    last = max(b for _, b in samples[3 * quarter :])
    return MemoryGrowth(
        second_quarter_peak_bytes=second,
        last_quarter_peak_bytes=last,
        growing=last > second * 1.10 and last - second > 8 << 20,
    )


def postgres_cpu_seconds(group: cgroups.Group | None) -> float | None:
    """PostgreSQL's cgroup CPU time; None without one (or while it is being restarted)."""
    if group is None:
        return None
    try:
        return group.cpu_seconds()
    except (OSError, ValueError):
        return None


@dataclass(frozen=True)
class AppReading:
    """The roles' counters at one moment (with cgroups), and that moment (time.monotonic)."""

    at: float
    app_cpu_s: float
    loadgen_cpu_s: float
    oom_kills: int
    peak_bytes: int | None = None
    postgres_cpu_s: float | None = None
    upstream_cpu_s: float | None = None

    @staticmethod
    def take(
        app: cgroups.Group,
        loadgen: cgroups.Group,
        postgres: cgroups.Group | None = None,
        upstream: cgroups.Group | None = None,
    ) -> AppReading:
        return AppReading(
            time.monotonic(),
            app.cpu_seconds(),
            loadgen.cpu_seconds(),
            app.oom_kills(),
            app.memory_peak_bytes(),
            postgres_cpu_seconds(postgres),
            upstream.cpu_seconds() if upstream is not None else None,
        )

    def times(self) -> CpuTimes:
        return CpuTimes(self.app_cpu_s, self.postgres_cpu_s, self.loadgen_cpu_s, self.upstream_cpu_s)


class StageMeter:
    """The app's CPU, memory and SQL deltas around one stage of load:

    with StageMeter(roles, statements) as meter:
        figures = run_the_load()
    stage = meter.stage(figures)
    """

    def __init__(self, roles: Roles, statements: Statements | None) -> None:
        """`statements` None: the database is out of reach (--target), its counts stay unknown."""
        self.roles, self.statements = roles, statements
        self.before: AppReading | None = None
        self.after: AppReading | None = None
        self.sql_before = 0
        self.sql: int | None = None
        self.started = self.wall = 0.0
        self.sampler: MemorySampler | None = None
        self.samples: list[tuple[float, int]] = []
        self.resource_sampler: ResourceSampler | None = None
        self.resources: Resources | None = None
        self.host_before: HostReading | None = None
        self.host: HostFigures | None = None

    def __enter__(self) -> StageMeter:
        app, loadgen = self.roles.app, self.roles.loadgen
        if app is not None and loadgen is not None:
            app.reset_peak()
            self.before = AppReading.take(app, loadgen, self.roles.postgres, self.roles.upstream)
        self.sql_before = self.statements.total() if self.statements is not None else 0
        self.host_before = HostReading.take()
        self.started = time.monotonic()
        self.sampler = MemorySampler(app, self.started) if app is not None else None
        sessions = self.statements.sessions if self.statements is not None else None
        if app is not None or sessions is not None:
            self.resource_sampler = ResourceSampler(app, sessions, self.roles.split.loadgen)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.samples = self.sampler.stop() if self.sampler else []
        self.resources = self.resource_sampler.stop() if self.resource_sampler else None
        self.wall = time.monotonic() - self.started
        if self.host_before is not None:
            self.host = host_figures(self.host_before, HostReading.take())
        if error is not None:
            return
        if self.statements is not None:
            self.sql = self.statements.total() - self.sql_before
        app, loadgen = self.roles.app, self.roles.loadgen
        if app is not None and loadgen is not None:
            self.after = AppReading.take(app, loadgen, self.roles.postgres, self.roles.upstream)

    def stage(self, figures: LoadFigures) -> Stage:
        """The stage's record: the load generator's figures and what was measured around them."""
        requests = figures.requests or 0
        # CPU and SQL are counted over the whole load-generator run, ramp included: divide by all
        # the requests it sent, not only the steady phase's.
        sent = figures.requests_sent or requests
        return Stage.model_validate(
            {
                **figures.model_dump(
                    exclude_unset=True,
                    exclude={"active_s", "requests_sent", "offered_rps", "dropped_iterations", "arrivals"},
                ),
                "memory_samples": self.samples,
                "memory_growth": memory_growth(self.samples),
                "sql_statements": self.sql,
                "sql_per_request": self.sql / sent if sent and self.sql is not None else None,
                "mean_response_bytes": figures.bytes_received / requests
                if requests and figures.bytes_received
                else None,
                **self._cost(figures, sent),
                "error_rate": figures.error_count / requests if requests else None,
                **({"resources": self.resources} if self.resources is not None else {}),
                **({"host": self.host} if self.host is not None else {}),
            }
        )

    def cpu(self, figures: LoadFigures, sent: int) -> RoleCpu | None:
        """Every role's CPU over the run and what bound it; None without cgroups."""
        if self.before is None or self.after is None:
            return None
        return role_cpu(
            self.roles.split,
            self.before.times(),
            self.after.times(),
            wall_s=self.after.at - self.before.at,
            requests=sent,
        )

    def _cost(self, figures: LoadFigures, sent: int) -> dict[str, object]:
        """The roles' CPU, the app's memory, and what bound the stage; unknown without cgroups."""
        cpu = self.cpu(figures, sent)
        if self.before is None or self.after is None or cpu is None:
            names = ("app_cpu_s", "cpu_ms_per_request", "app_peak_memory_bytes", "loadgen_cpu_share", "client_bound")
            return {**dict.fromkeys(names), "oom_kills": None, "oom": False}
        kills = self.after.oom_kills - self.before.oom_kills
        return {
            "app_cpu_s": cpu.app_cpu_s,
            "cpu_ms_per_request": cpu.app_cpu_s * 1000 / sent if sent else None,
            "app_peak_memory_bytes": self.after.peak_bytes,
            "loadgen_cpu_share": cpu.loadgen_cpu_share,
            "client_bound": client_bound(cpu),
            "oom_kills": kills,
            "oom": bool(kills),
            "cpu": cpu,
        }
