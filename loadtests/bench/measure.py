"""`./bench run`: every stack × scenario under the same caps and load, one raw JSON per run."""

from __future__ import annotations

import sys

import dataclasses
import functools
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import httpx
import psycopg
from rich.console import Console
from rich.live import Live
from rich.table import Table

from bench import ceilings, cgroups, environment, loadgen, paths, procs, stacks, tools, writes
from bench.errors import BenchError
from bench.manifest import Stack
from bench.postgres import Cluster
from bench.scenarios import OHA_REQUESTS, OHA_WARMUPS, TIMING, Scenario, estimate_seconds, prepare_probe

# A log (CI) is not a terminal: rich would wrap tables at 80 columns.
console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
SCHEMA_VERSION = 1
PROBE_REQUESTS = 20
# A load generator using this share of its CPU set or more is the bottleneck, not the stack.
CLIENT_BOUND_SHARE = 0.9


@dataclass
class CpuSplit:
    app: str
    postgres: str
    loadgen: str

    @staticmethod
    def default(cores: int) -> "CpuSplit":
        if cores >= 4:
            return CpuSplit(app="0", postgres="1", loadgen=f"2-{cores - 1}")
        if cores >= 2:
            return CpuSplit(app="0", postgres="1", loadgen="1")
        return CpuSplit(app="0", postgres="0", loadgen="0")


def cpu_count(cpus: str) -> int:
    total = 0
    for part in cpus.split(","):
        low, _, high = part.partition("-")
        total += (int(high) - int(low) + 1) if high else 1
    return total


@dataclass
class Plan:
    stacks: list[Stack]
    scenarios: list[Scenario]
    profile: str
    repeat: int
    split: CpuSplit
    output: Path
    fault: str | None = None
    ceilings: bool = True
    mem_ladder_mib: int | None = None
    warnings: list[str] = field(default_factory=list)

    def estimate_seconds(self) -> float:
        per_stack = sum(estimate_seconds(s, self.profile) for s in self.scenarios)
        return self.repeat * (len(self.stacks) + int(self.ceilings)) * per_stack


class Roles:
    """The cgroups of the app, PostgreSQL and the load generator, or plain taskset without them."""

    def __init__(self, split: CpuSplit, caps: dict, warnings: list[str]) -> None:
        self.split = split
        self.caps = caps
        self.cg = cgroups.Cgroups()
        self.app = self.postgres = self.loadgen = None
        if not self.cg.available:
            warnings.append("no writable cgroups: CPU sets applied with taskset, memory caps NOT applied, "
                            "CPU time and memory NOT measured")
            return
        self.app = self.cg.group("app", split.app, caps["app"]["mem_bytes"])
        self.postgres = self.cg.group("postgres", split.postgres, caps["postgres"]["mem_bytes"])
        self.loadgen = self.cg.group("loadgen", split.loadgen, None)

    def prefix(self, role: str) -> str:
        group = getattr(self, role)
        if group is not None:
            return group.shell_prefix()
        return f"exec taskset -c {getattr(self.split, role)} "

    def app_cap_mib(self) -> int:
        return self.caps["app"]["mem_bytes"] >> 20

    def fresh_app(self) -> None:
        if self.app is not None:
            self.app = self.cg.renew("app")

    def place_postgres(self, cluster: Cluster) -> None:
        if self.postgres is None:
            return
        pid_file = cluster.data / "postmaster.pid"
        postmaster = int(pid_file.read_text().splitlines()[0])
        for pid in [postmaster, *_children(postmaster)]:
            try:
                self.postgres.add(pid)
            except OSError:
                pass  # a backend that ended meanwhile

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


def _wrapped(prefix: str, command: str) -> str:
    # With cgroups the prefix is `echo $$ > …/cgroup.procs && `; without, `exec taskset -c N `.
    if prefix.startswith("exec taskset"):
        return f"{prefix}bash -c {json.dumps(command)}"
    return prefix + command


class Statements:
    """SQL statements executed in the working database, from pg_stat_statements."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.conn = cluster.connect()

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
            "WHERE d.datname = 'bench'").fetchone()
        return int(row[0])

    def close(self) -> None:
        self.conn.close()


class Display:
    """The live line: stack, scenario, stage, elapsed/remaining and the current request rate."""

    def __init__(self, plan: Plan) -> None:
        self.total = plan.estimate_seconds()
        self.started = time.monotonic()
        self.done_estimate = 0.0
        self.state = {"what": "starting", "rps": None}
        self.live = Live(self._render(), console=console, refresh_per_second=2, transient=True)

    def _render(self) -> Table:
        elapsed = time.monotonic() - self.started
        remaining = max(self.total - elapsed, 0)
        table = Table.grid(padding=(0, 2))
        rps = self.state["rps"]
        table.add_row(f"[bold]{self.state['what']}[/]", f"{rps:,.0f} req/s" if rps else "",
                      f"elapsed {_mmss(elapsed)}", f"about {_mmss(remaining)} left")
        return table

    def update(self, what: str | None = None, rps: float | None = None) -> None:
        if what is not None:
            self.state["what"] = what
            self.state["rps"] = None
        if rps is not None:
            self.state["rps"] = rps
        self.live.update(self._render())


def _mmss(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


def run_load(command: str, log: Path, display: Display, timeout_s: float) -> int:
    """Runs a load generator, feeding the live display from k6's progress lines."""
    proc = procs.spawn(command, cwd=paths.ROOT, env=dict(os.environ), log=log)
    deadline = time.monotonic() + timeout_s
    last = (time.monotonic(), 0)
    try:
        while proc.poll() is None:
            if time.monotonic() > deadline:
                procs.stop(proc)
                raise BenchError(f"the load generator did not finish within {timeout_s:.0f} s; log {log}")
            time.sleep(0.5)
            completed = loadgen.k6_completed(log.read_text(errors="replace")) if log.exists() else None
            now = time.monotonic()
            if completed is not None and completed >= last[1] and now > last[0]:
                display.update(rps=(completed - last[1]) / (now - last[0]))
                last = (now, completed)
    finally:
        procs.stop(proc)
    return proc.returncode


class MemorySampler:
    """The app's memory every few seconds while a stage runs, for the soak's growth check."""

    INTERVAL_S = 2.0

    def __init__(self, group: cgroups.Group, started: float) -> None:
        self.group, self.started = group, started
        self.samples: list[list[float]] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.wait(self.INTERVAL_S):
            try:
                self.samples.append([round(time.monotonic() - self.started, 1), self.group.memory_bytes()])
            except OSError:
                return

    def stop(self) -> list[list[float]]:
        self.done.set()
        self.thread.join()
        return self.samples


def memory_growth(samples: list[list[float]]) -> dict | None:
    """Whether memory keeps growing: the last quarter's peak against the second quarter's
    (the first is warm-up). Garbage-collected runtimes saw-tooth, so peaks, not means; a stack
    "keeps growing" when the later peak is over 10% and over 8 MiB higher."""
    if len(samples) < 8:
        return None
    quarter = len(samples) // 4
    second = max(b for _, b in samples[quarter:2 * quarter])
    last = max(b for _, b in samples[3 * quarter:])
    return {"second_quarter_peak_bytes": int(second), "last_quarter_peak_bytes": int(last),
            "growing": last > second * 1.10 and last - second > 8 << 20}


class DatabaseRestart:
    """The db-restart fault: stops PostgreSQL partway into a stage, starts it again after an
    outage, and times how long the stack takes to answer a data request again."""

    def __init__(self, cluster: Cluster, roles: Roles, base_url: str, *, at_s: float, outage_s: float) -> None:
        self.cluster, self.roles, self.base_url = cluster, roles, base_url
        self.at_s, self.outage_s = at_s, outage_s
        self.report: dict = {"stopped_at_s": at_s, "outage_s": outage_s, "recovered_within_s": None}
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        time.sleep(self.at_s)
        self.cluster.stop()
        time.sleep(self.outage_s)
        self.cluster.start()
        self.roles.place_postgres(self.cluster)
        back = time.monotonic()
        with httpx.Client(base_url=self.base_url, timeout=10) as client:
            while time.monotonic() - back < 60:
                try:
                    if client.get("/items/1").status_code == 200:
                        self.report["recovered_within_s"] = round(time.monotonic() - back, 2)
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)

    def finish(self) -> dict:
        self.thread.join()
        if not self.cluster.running():
            self.cluster.start()  # never leave the cluster down, whatever happened
        return self.report


def measure_stage(run_stage, roles: Roles, statements: Statements) -> dict:
    """Runs one stage (a callable returning its load-generator figures) and adds the app's
    CPU, memory and SQL deltas measured around it."""
    if roles.app is not None:
        roles.app.reset_peak()
        cpu_before, gen_before = roles.app.cpu_seconds(), roles.loadgen.cpu_seconds()
        oom_before = roles.app.oom_kills()
    sql_before = statements.total()
    started = time.monotonic()
    sampler = MemorySampler(roles.app, started) if roles.app is not None else None
    try:
        stage = run_stage()
    finally:
        samples = sampler.stop() if sampler else []
    wall = time.monotonic() - started
    # oha reports how long it was sending; its start-up would otherwise dilute the share of a
    # blast that lasts under a second.
    active = min(stage.pop("active_s", None) or wall, wall)
    stage["memory_samples"] = samples
    stage["memory_growth"] = memory_growth(samples)
    sql = statements.total() - sql_before
    requests = stage["requests"] or 0
    # CPU and SQL are counted over the whole load-generator run, ramp included: divide by all
    # the requests it sent, not only the steady phase's.
    sent = stage.pop("requests_sent", None) or requests
    stage["sql_statements"] = sql
    stage["sql_per_request"] = sql / sent if sent else None
    stage["mean_response_bytes"] = (stage["bytes_received"] / requests
                                    if requests and stage.get("bytes_received") else None)
    if roles.app is not None:
        app_cpu = roles.app.cpu_seconds() - cpu_before
        gen_share = min((roles.loadgen.cpu_seconds() - gen_before) / active / cpu_count(roles.split.loadgen), 1.0)
        stage["app_cpu_s"] = app_cpu
        stage["cpu_ms_per_request"] = app_cpu * 1000 / sent if sent else None
        stage["app_peak_memory_bytes"] = roles.app.memory_peak_bytes()
        stage["loadgen_cpu_share"] = gen_share
        stage["client_bound"] = gen_share >= CLIENT_BOUND_SHARE
        stage["oom_kills"] = roles.app.oom_kills() - oom_before
    else:
        stage.update(app_cpu_s=None, cpu_ms_per_request=None, app_peak_memory_bytes=None,
                     loadgen_cpu_share=None, client_bound=None, oom_kills=None)
    stage["oom"] = bool(stage["oom_kills"])
    stage["error_rate"] = stage["error_count"] / requests if requests else None
    return stage


def oha_stage(*, oha: Path, url: str, requests: int, connections: int, name: str, label: str,
              roles: Roles, display: Display) -> dict:
    """One oha run against `url` on the load generator's CPUs, as a stage of a result."""
    logs = paths.LOGS / "run"
    output = logs / f"{name}.json"
    log = logs / f"{name}.log"
    command = _wrapped(roles.prefix("loadgen"), loadgen.oha_command(
        oha, url, requests=requests, connections=connections, output=output))
    code = run_load(command, log, display, 900)
    if code != 0:
        raise BenchError(f"oha failed (exit {code}) on {label}; log {log}")
    figures = loadgen.parse_oha(output, expected_status=302)
    figures["vus"] = connections
    figures["active_s"] = figures["duration_s"]
    return figures


def avatar_stages(*, url: str, name: str, label: str, plan: Plan, scenario: Scenario, roles: Roles,
                  display: Display, tool_paths: dict[str, Path], statements: "Statements") -> list[dict]:
    """The avatar scenario against `url`: uncounted warm-up runs, then the measured one."""
    run = functools.partial(oha_stage, oha=tool_paths["oha"], url=url, connections=scenario.stages[0],
                            label=label, roles=roles, display=display)
    for i, n in enumerate(OHA_WARMUPS[plan.profile]):
        display.update(f"{label}: warm-up {i + 1} ({n:,} requests, not counted)")
        run(requests=n, name=f"{name}-warmup{i + 1}")
    requests = OHA_REQUESTS[plan.profile]
    display.update(f"{label}: {requests:,} requests at {scenario.stages[0]} connections")
    return [measure_stage(lambda: run(requests=requests, name=f"{name}-stage"), roles, statements)]


def run_one(*, plan: Plan, stack: Stack, scenario: Scenario, run_number: int, cluster: Cluster,
            roles: Roles, display: Display, tool_paths: dict[str, Path], base: dict) -> dict:
    """One stack × scenario × run: fresh database, start, warm up, stages, checks, stop."""
    label = f"{stack.name} · {scenario.name} · run {run_number}/{plan.repeat}"
    display.update(f"{label}: resetting the database")
    cluster.reset()
    rows_before = writes.baseline(cluster)
    write_log = writes.WriteLog()
    logs = paths.LOGS / "run"
    display.update(f"{label}: starting")
    roles.fresh_app()
    running = None
    statements = Statements(cluster)
    result = dict(base)
    try:
        running = stacks.start(stack, port=stacks.free_port(), database_url=cluster.url(),
                               command=_wrapped(roles.prefix("app"), stack.run_command),
                               log_name=f"run/{stack.name}-{scenario.name}-server.log")
        time.sleep(1.0)
        idle_memory = roles.app.memory_bytes() if roles.app is not None else None
        timing = TIMING[plan.profile]

        if scenario.tool == "k6":
            def k6_stage(stage: str) -> dict:
                summary = logs / f"{stack.name}-{scenario.name}-{stage}.json"
                summary.unlink(missing_ok=True)
                written = logs / f"{stack.name}-{scenario.name}-{stage}.writes.log" if scenario.writes else None
                if written is not None:
                    written.unlink(missing_ok=True)
                command = _wrapped(roles.prefix("loadgen"), loadgen.k6_command(
                    tool_paths["k6"], scenario.name, base_url=running.base_url, profile=plan.profile,
                    stage=stage, summary=summary, writes_log=written))
                limit = timing["warmup"] + timing["ramp"] + timing["stage"] + 120
                code = run_load(command, logs / f"{stack.name}-{scenario.name}-{stage}.log", display, limit)
                if code not in (0, 99) or not summary.exists():  # 99: a threshold failed, none can here
                    raise BenchError(f"k6 failed (exit {code}) on {label} stage {stage}; log "
                                     f"{logs / f'{stack.name}-{scenario.name}-{stage}.log'}")
                if written is not None:
                    write_log.read(written)
                return loadgen.parse_k6_summary(summary)

            display.update(f"{label}: warm-up ({timing['warmup']} s, not counted)")
            writes_counted = [k6_stage("warmup")["writes"]]
            stages = []
            fault = None
            for index, vus in enumerate(scenario.stages[:1] if plan.profile == "soak" else scenario.stages):
                display.update(f"{label}: {vus} VUs")
                if index == 0 and plan.fault == "db-restart" and scenario.writes:
                    fault = DatabaseRestart(cluster, roles, running.base_url,
                                            at_s=timing["ramp"] + timing["stage"] / 3,
                                            outage_s=min(10.0, timing["stage"] / 4))
                holder = {}

                def one(vus=vus):
                    data = k6_stage(str(vus))
                    holder["writes"] = data["writes"]
                    (figures,) = data["stages"]
                    figures["duration_s"] = data["stage_seconds"]
                    figures["requests_sent"] = data["total_requests"]
                    return figures

                stages.append(measure_stage(one, roles, statements))
                writes_counted.append(holder["writes"])
                if fault is not None and index == 0:
                    result["fault"] = fault.finish()
                    display.update(f"{label}: database restarted; "
                                   f"recovered in {result['fault']['recovered_within_s']} s")
        else:
            stages = avatar_stages(url=running.base_url + "/avatar", name=f"{stack.name}-{scenario.name}",
                                   label=label, plan=plan, scenario=scenario, roles=roles, display=display,
                                   tool_paths=tool_paths, statements=statements)
            writes_counted = []

        result.update(scenario=scenario.name, run=run_number,
                      started_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                      startup_s=running.startup_s, idle_memory_bytes=idle_memory, stages=stages,
                      lost_writes=None, sql_per_request_by_endpoint={})
        if not running.alive():
            # Crashed or OOM-killed under load: the stages it served are kept, the run is failed.
            last = (procs.tail(running.log, 1) or "no output").strip()
            result["failed"] = (f"{stack.name} exited with code {running.proc.returncode} under load"
                                f"{oom_note(roles)}: {last}")
            return result

        lost = None
        if scenario.writes:
            display.update(f"{label}: looking up every write that got a 2xx")
            counted = {name: sum(w[name] for w in writes_counted) for name in writes.COUNTED}
            lost = writes.check(cluster, rows_before, write_log, counted)

        display.update(f"{label}: counting SQL statements per endpoint")
        sql_by_endpoint = {}
        try:
            with httpx.Client(base_url=running.base_url, timeout=30) as client:
                for endpoint in scenario.endpoints:
                    requests = [prepare_probe(endpoint, client) for _ in range(PROBE_REQUESTS)]
                    before = statements.total()
                    for send in requests:
                        send()
                    sql_by_endpoint[endpoint] = (statements.total() - before) / PROBE_REQUESTS
        except (httpx.HTTPError, KeyError, ValueError) as error:
            result["failed"] = f"{stack.name} stopped answering while its SQL statements were counted: {error}"
        result.update(lost_writes=lost, sql_per_request_by_endpoint=sql_by_endpoint)
    finally:
        statements.close()
        if running is not None:
            exit_code = running.stop()
            result["app_exit_code"] = exit_code
    return result


CEILING_DB = {"name": "ceiling-db", "display": "database ceiling (pgbench, as many connections as DB_POOL_SIZE)", "language": "SQL",
              "language_version": "", "framework": "pgbench", "framework_version": "", "server": "PostgreSQL",
              "data_access": "the scenario's SQL, prepared"}
CEILING_HTTP = {"name": "ceiling-http", "display": "HTTP ceiling (nginx return 302)", "language": "C",
                "language_version": "", "framework": "nginx", "framework_version": "", "server": "nginx",
                "data_access": "none"}


def run_ceiling(*, plan: Plan, scenario: Scenario, run_number: int, cluster: Cluster, roles: Roles,
                display: Display, tool_paths: dict[str, Path], base: dict) -> dict:
    """The ceiling of one scenario, measured like a stack: same stages, same CPU sets."""
    label = f"ceiling · {scenario.name} · run {run_number}/{plan.repeat}"
    logs = paths.LOGS / "run"
    cluster.reset()
    statements = Statements(cluster)
    timing = TIMING[plan.profile]
    result = dict(base, scenario=scenario.name, run=run_number,
                  started_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  lost_writes=None, sql_per_request_by_endpoint={}, app_exit_code=None)
    nginx = None
    try:
        if scenario.tool == "k6":
            pgbench = cluster.bindir / "pgbench"

            def pgbench_run(clients: int, seconds: int, name: str) -> dict:
                log = logs / f"ceiling-{scenario.name}-{name}.log"
                command = _wrapped(roles.prefix("loadgen"), ceilings.pgbench_command(
                    pgbench, cluster.url(), scenario.name, clients, seconds))
                code = run_load(command, log, display, seconds + 120)
                if code != 0:
                    raise BenchError(f"pgbench failed (exit {code}) on {label}; log {log}")
                figures = ceilings.parse_pgbench(log.read_text())
                figures.update(vus=clients, duration_s=seconds, bytes_received=None,
                               errors={"other": figures["error_count"]} if figures["error_count"] else {})
                if figures["requests"] is None:
                    figures["requests"] = round(figures["rps"] * seconds)
                return figures

            # Every stack reaches PostgreSQL through at most DB_POOL_SIZE connections, whatever the
            # number of VUs: the ceiling is what the database does through as many.
            clients = int(stacks.DEFAULT_POOL_SIZE)
            display.update(f"{label}: warm-up")
            pgbench_run(clients, timing["warmup"], "warmup")
            stages = []
            for vus in scenario.stages:
                display.update(f"{label}: pgbench, {clients} clients (stage {vus})")
                stage = measure_stage(lambda vus=vus: pgbench_run(clients, timing["stage"], str(vus)),
                                      roles, statements)
                # The app's cgroup is idle during pgbench: its figures would read as zero cost.
                stage.update(vus=vus, db_clients=clients, app_cpu_s=None, cpu_ms_per_request=None,
                             app_peak_memory_bytes=None)
                stages.append(stage)
        else:
            roles.fresh_app()
            nginx, base_url = ceilings.start_nginx(roles.prefix("app"), stacks.free_port())
            result["startup_s"] = 0.0
            result["idle_memory_bytes"] = roles.app.memory_bytes() if roles.app is not None else None

            stages = avatar_stages(url=base_url + "/avatar", name=f"ceiling-{scenario.name}", label=label,
                                   plan=plan, scenario=scenario, roles=roles, display=display,
                                   tool_paths=tool_paths, statements=statements)
        result["stages"] = stages
        result.setdefault("startup_s", 0.0)
        result.setdefault("idle_memory_bytes", None)
    finally:
        statements.close()
        if nginx is not None:
            procs.stop(nginx)
    return result


def stack_info(stack: Stack) -> dict:
    return {"name": stack.name, "display": stack.display, "language": stack.language,
            "language_version": stack.language_version, "framework": stack.framework,
            "framework_version": stack.framework_version, "server": stack.server,
            "data_access": stack.data_access}


def write_raw(output: Path, result: dict) -> Path:
    """Writes atomically: a Ctrl-C never leaves half a result file behind."""
    ladder = result.get("mem_ladder_mib")
    suffix = "-mem-ladder" if ladder else "-fault" if result.get("fault_kind") else ""
    directory = output / "raw" / (result["profile"] + suffix)
    directory.mkdir(parents=True, exist_ok=True)
    step = f"--mem{ladder}" if ladder else ""
    target = directory / f"{result['stack']['name']}--{result['scenario']}{step}--run{result['run']}.json"
    partial = target.with_suffix(".json.partial")
    partial.write_text(json.dumps(result, indent=2) + "\n")
    partial.replace(target)
    return target


def _prepare(plan: Plan) -> tuple[dict[str, Path], dict]:
    """The load generators, the stacks' builds, and the caps of compose.yaml."""
    from bench.docker_checks import caps as compose_caps

    needed = {s.tool for s in plan.scenarios}
    tool_paths = {}
    for tool in tools.TOOLS:
        if tool.name in needed:
            with console.status(f"{tool.name} {tool.version}") as status:
                tool_paths[tool.name] = tools.ensure(tool, on_progress=status.update)
    for stack in plan.stacks:
        with console.status(f"building {stack.name}"):
            stacks.build(stack)
    return tool_paths, compose_caps(paths.ROOT)


def execute(plan: Plan, cluster: Cluster) -> list[dict]:
    tool_paths, caps = _prepare(plan)
    roles = Roles(plan.split, caps, plan.warnings)
    try:
        return _execute(plan, cluster, roles, caps, tool_paths)
    finally:
        roles.close()


MEM_LADDER_MIB = (512, 256, 128, 64, 32)
LADDER_SCENARIOS = ("avatar", "join-filter")


def step_failed(record: dict) -> bool:
    return bool(record.get("failed")) or any(s["error_count"] or s.get("oom") for s in record["stages"])


def execute_ladder(plan: Plan, cluster: Cluster) -> list[dict]:
    """Steps each stack's memory cap down the ladder until it no longer serves without errors."""
    if not cgroups.Cgroups().available:
        raise BenchError("the memory ladder needs writable cgroups (cgroup v1 or v2 with the memory "
                         "controller, as root); none here")
    tool_paths, caps = _prepare(plan)
    results = []
    for stack in plan.stacks:
        for mib in MEM_LADDER_MIB:
            step_caps = dict(caps, app=dict(caps["app"], mem_bytes=mib << 20))
            step = dataclasses.replace(plan, stacks=[stack], ceilings=False, mem_ladder_mib=mib)
            roles = Roles(plan.split, step_caps, plan.warnings)
            try:
                records = _execute(step, cluster, roles, step_caps, tool_paths)
            finally:
                roles.close()
            results += records
            if any(step_failed(r) for r in records):
                console.print(f"{stack.name}: stops serving cleanly at {mib} MiB; smaller caps not tried")
                break
    return results


def _execute(plan: Plan, cluster: Cluster, roles: Roles, caps: dict, tool_paths: dict[str, Path]) -> list[dict]:
    for warning in plan.warnings:
        console.print(f"[yellow]warning:[/] {warning}")
    base = {
        "schema_version": SCHEMA_VERSION,
        "profile": plan.profile,
        "machine": environment.machine(),
        "versions": environment.tool_versions(cluster.bindir, tool_paths),
        "git_commit": environment.git_commit(),
        "caps": caps,
        "cpu_split": {"app": plan.split.app, "postgres": plan.split.postgres, "loadgen": plan.split.loadgen},
        "cgroups": roles.cg.version,
        "warnings": list(plan.warnings),
    }
    if plan.mem_ladder_mib is not None:
        base["mem_ladder_mib"] = plan.mem_ladder_mib
    if plan.fault is not None:
        base["fault_kind"] = plan.fault
    results = []
    display = Display(plan)
    roles.place_postgres(cluster)
    with display.live:
        for run_number in range(1, plan.repeat + 1):
            jobs = []
            if plan.ceilings:
                jobs += [(dict(base, stack=CEILING_DB if sc.tool == "k6" else CEILING_HTTP, kind="ceiling"), sc,
                          run_ceiling) for sc in plan.scenarios]
            jobs += [(dict(base, stack=stack_info(st)), sc, functools.partial(run_one, stack=st))
                     for st in plan.stacks for sc in plan.scenarios]
            for record, scenario, job in jobs:
                try:
                    record = job(plan=plan, scenario=scenario, run_number=run_number, cluster=cluster,
                                 roles=roles, display=display, tool_paths=tool_paths, base=record)
                except BenchError as error:
                    # One stack failing to start or crashing does not end the run.
                    failed = with_note(str(error).splitlines()[0], oom_note(roles))
                    record.update(scenario=scenario.name, run=run_number, failed=failed,
                                  stages=[], lost_writes=None, sql_per_request_by_endpoint={})
                    console.print(f"[red]{record['stack']['name']} · {scenario.name}: {error}[/]")
                path = write_raw(plan.output, record)
                results.append(record)
                where = f"  [dim]{path.relative_to(paths.ROOT)}[/]" if path.is_relative_to(paths.ROOT) else ""
                console.print(summary_line(record) + where)
    return results


def oom_note(roles: Roles) -> str:
    """Says so when the kernel killed a process of the app's cgroup for its memory cap: the exit
    code alone (-9, or 1 from a parent whose worker was killed) does not."""
    kills = roles.app.oom_kills() if roles.app is not None else 0
    return f" (OOM-killed: {kills} kill(s) at its {roles.app_cap_mib()} MiB cap)" if kills else ""


def with_note(failure: str, note: str) -> str:
    """`note` right after "exited with code N" when the failure says so, else at the end."""
    if not note:
        return failure
    noted, found = re.subn(r"(exited with code -?\d+)", lambda m: m[1] + note, failure, count=1)
    return noted if found else failure + note


def summary_line(record: dict) -> str:
    name = f"{record['stack']['name']} · {record['scenario']} · run {record['run']}"
    if record.get("failed"):
        return f"[red]{name}: FAILED[/]"
    parts = []
    for stage in record["stages"]:
        p99 = (stage.get("latency_ms") or {}).get("p99")
        parts.append(f"{stage['vus']}: {stage['rps']:,.0f} req/s p99 {p99:.1f} ms" if p99 is not None
                     else f"{stage['vus']}: {stage['rps']:,.0f} req/s")
        if stage["error_count"]:
            parts[-1] += f" [red]{stage['error_count']} errors[/]"
    lost = record.get("lost_writes")
    if lost is not None:
        parts.append("[green]no lost writes[/]" if lost["lost_writes"] == 0 else f"[red]{lost['lost_writes']} lost writes[/]")
    return f"{name}: " + " · ".join(parts)



@dataclass
class Verdict:
    summary: str
    problems: list[str]


def verdict(results: list[dict], *, ladder: bool = False) -> Verdict:
    """What a run must not have: a stack that failed (outside the memory ladder, where failing
    is how the ladder ends), lost writes, memory that keeps growing, a fault not survived."""
    problems = []
    for r in results:
        name = f"{r['stack']['name']} · {r['scenario']}" + (f" · {r['mem_ladder_mib']} MiB" if ladder else "")
        if r.get("failed") and not ladder:
            problems.append(f"{name}: {r['failed']}")
        lost = (r.get("lost_writes") or {}).get("lost_writes", 0)
        if lost:
            problems.append(f"{name}: {lost} lost writes")
        for stage in r["stages"]:
            if (stage.get("memory_growth") or {}).get("growing") and r["profile"] == "soak":
                g = stage["memory_growth"]
                problems.append(f"{name}: memory keeps growing ({g['second_quarter_peak_bytes'] >> 20} MiB → "
                                f"{g['last_quarter_peak_bytes'] >> 20} MiB)")
        fault = r.get("fault")
        if fault is not None:
            recovered = fault["recovered_within_s"]
            if recovered is None or recovered > 5:
                problems.append(f"{name}: not serving again within 5 s of PostgreSQL's restart ({recovered})")
            other = {k: v for s in r["stages"] for k, v in s["errors"].items() if k != "503"}
            if other:
                problems.append(f"{name}: statuses other than 503 during the outage: {other}")
            slowest = max(((s.get("latency_ms") or {}).get("max") or 0) for s in r["stages"])
            if slowest > 10_000:
                problems.append(f"{name}: a request hung for {slowest / 1000:.1f} s during the outage")
    errors = sum(s["error_count"] for r in results for s in r["stages"])
    lost = sum((r.get("lost_writes") or {}).get("lost_writes", 0) for r in results)
    failed = sum(1 for r in results if r.get("failed"))
    summary = f"{len(results)} runs, {failed} failed, {errors} unexpected statuses, {lost} lost writes"
    return Verdict(summary, problems)
