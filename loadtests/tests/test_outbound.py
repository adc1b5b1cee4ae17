"""The outbound scenario: its definition, the stock upstream as a role of the run (its CPU set, its
CPU recorded, what it bounds), and `./bench serve` starting it beside the database for the stack.
Its URL list is tests/test_urls.py's, its end-to-end run tests/test_orchestration.py's."""

import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import fake_cgroup_v1, release_like_the_kernel
from test_manifest import VALID, write_stack

from bench import manifest, paths, ports, postgres, stacks, upstream
from bench.cli import stacks as serve_cli
from bench.judgement.bounds import CpuTimes, client_bound, limited_by_loadgen, role_cpu
from bench.judgement.ladder import loadgen_bound
from bench.measure.host import cgroups
from bench.measure.host.roles import Roles
from bench.measure.load.figures import LoadFigures
from bench.measure.phases.probes import StageMeter
from bench.measure.plan.ceilings import CEILING_PROXY, ceiling_of
from bench.measure.plan.estimate import estimate_seconds
from bench.records import Cap, Caps, CpuSplit
from bench.records.steps import RoleCpu
from bench.scenarios import SCENARIOS

FAKES = Path(__file__).with_name("fakes")
TWO_CORES = CpuSplit(app="0", postgres="1", loadgen="1")
CAPS = Caps(app=Cap(cpus=1.0, mem_bytes=512 << 20), postgres=Cap(cpus=1.0, mem_bytes=1 << 30))
# A stage of 120 requests sent.
FIGURES = LoadFigures(
    vus=200,
    requests=100,
    rps=50.0,
    duration_s=2.0,
    latency_ms=None,
    errors={},
    error_count=0,
    bytes_received=5_000,
    requests_sent=120,
)


# --------------------------------------------------------------------------- the scenario


def test_the_scenario_sends_random_stock_reads_at_fixed_rates_into_the_thousands():
    outbound = SCENARIOS["outbound"]
    assert outbound.upstream and not outbound.writes
    assert outbound.endpoints == ("item_stock",) and outbound.read_mix == (("item_stock", 100),)
    # oha from a URL list, the cheapest generator, for the steady state, the ladder and the stage.
    assert outbound.tool == outbound.ladder_tool == "oha"
    # Room for the upstream's own 50 ms, and rates at which hundreds of requests are in flight.
    assert outbound.objective_ms == 100.0
    assert outbound.rates[0] >= 100 and outbound.rates[-1] >= 8000
    assert list(outbound.rates) == sorted(outbound.rates)
    assert outbound.warm_rate in outbound.rates
    # The REST-client write-up's 200 users, as oha's connections.
    assert outbound.stages == (200,)
    # No other scenario starts the upstream.
    assert [s.name for s in SCENARIOS.values() if s.upstream] == ["outbound"]


def test_its_ceiling_is_nginx_passing_the_call_on_to_the_same_upstream():
    assert ceiling_of(SCENARIOS["outbound"]) is CEILING_PROXY
    assert CEILING_PROXY.name.startswith("ceiling-") and "proxy_pass" in CEILING_PROXY.display
    assert ceiling_of(SCENARIOS["avatar"]).name == "ceiling-http"
    assert estimate_seconds(SCENARIOS["outbound"], "quick", open_model=True, ceiling=True) > 0


# --------------------------------------------------------------------------- the upstream as a role


def test_without_cgroups_the_upstream_is_pinned_to_the_load_generators_cpus(tmp_path):
    roles = Roles(CpuSplit(app="0", postgres="1", loadgen="2-3"), CAPS, [], root=tmp_path / "no-cgroups")
    assert roles.wrap("upstream", "exec ./stock") == 'exec taskset -c 2-3 bash -c "exec ./stock"'
    roles.place_upstream()
    assert roles.upstream is None


def test_with_cgroups_its_cpu_is_measured_while_it_runs_and_only_then(tmp_path, monkeypatch):
    monkeypatch.setattr(cgroups.Group, "release", release_like_the_kernel)
    root = fake_cgroup_v1(tmp_path / "cgroup")
    roles = Roles(TWO_CORES, CAPS, [], root=root)
    group = root / "cpuacct" / roles.cg.parent
    for role in ("app", "loadgen"):
        (group / role / "cpuacct.usage").write_text("0")
    (root / "memory" / roles.cg.parent / "app" / "memory.oom_control").write_text("oom_kill 0\n")

    roles.place_upstream()
    assert roles.upstream is not None
    assert (root / "cpuset" / roles.cg.parent / "upstream" / "cpuset.cpus").read_text() == "1"
    assert roles.wrap("upstream", "exec ./stock").endswith("&& exec ./stock")
    (group / "upstream" / "cpuacct.usage").write_text("0")
    with StageMeter(roles, None) as meter:
        (group / "upstream" / "cpuacct.usage").write_text("300000000")
    cpu = meter.stage(FIGURES).cpu
    assert cpu is not None and cpu.upstream_cpu_s == pytest.approx(0.3)
    assert cpu.upstream_ms_per_request == pytest.approx(0.3 * 1000 / 120)

    roles.release_upstream()
    with StageMeter(roles, None) as meter:
        pass
    cpu = meter.stage(FIGURES).cpu
    # Another scenario's record carries no upstream at all, not a zero.
    assert cpu is not None and "upstream_cpu_s" not in cpu.model_dump(exclude_unset=True)
    roles.close()


def _cpu(*, app: float, postgres: float, loadgen: float, upstream: float | None) -> RoleCpu:
    """Ten seconds of a step of 1,000 requests on two cores (PostgreSQL, the load generator and
    the upstream on CPU 1)."""
    return role_cpu(
        TWO_CORES,
        CpuTimes(0.0, 0.0, 0.0, 0.0 if upstream is not None else None),
        CpuTimes(app, postgres, loadgen, upstream),
        wall_s=10.0,
        requests=1000,
    )


def test_the_upstream_counts_with_the_load_generator_on_the_cpu_they_share():
    # The outbound scenario reads no row: oha and the upstream fill CPU 1 between them.
    cpu = _cpu(app=5.0, postgres=0.1, loadgen=4.5, upstream=4.6)
    assert cpu.shared_cpu_share == pytest.approx(0.92)
    assert cpu.bound_by == ["postgres+loadgen+upstream"]
    assert client_bound(cpu) and limited_by_loadgen(cpu)
    assert cpu.upstream_cpu_share == pytest.approx(0.46) and cpu.upstream_ms_per_request == pytest.approx(4.6)
    # Half of CPU 1 for the harness marks the step, as the load generator alone would.
    assert loadgen_bound(_cpu(app=5.0, postgres=0.0, loadgen=2.5, upstream=2.6))
    assert not loadgen_bound(_cpu(app=5.0, postgres=0.0, loadgen=2.5, upstream=None))
    # A stack that fills its own core is bound by itself, whatever the harness used.
    assert not limited_by_loadgen(_cpu(app=9.5, postgres=0.0, loadgen=4.5, upstream=4.6))


def test_on_more_cores_the_upstream_shares_the_load_generators_own_set():
    split = CpuSplit(app="0", postgres="1", loadgen="2-3")
    cpu = role_cpu(split, CpuTimes(0, 0, 0, 0), CpuTimes(1.0, 0.1, 9.0, 9.5), wall_s=10.0, requests=1000)
    assert cpu.shared_cpu_share is None and cpu.bound_by == ["loadgen+upstream"]
    assert cpu.upstream_cpu_share == pytest.approx(0.475)


def test_without_the_upstream_the_bounds_are_as_before():
    cpu = _cpu(app=5.0, postgres=5.0, loadgen=4.5, upstream=None)
    assert cpu.bound_by == ["postgres+loadgen"] and cpu.upstream_cpu_s is None
    assert "upstream_cpu_s" not in cpu.model_dump(exclude_unset=True)


# --------------------------------------------------------------------------- ./bench serve


class FakeCluster(postgres.Cluster):
    """A cluster never started: the fake stack is given its URL and reads nothing from it."""

    def __init__(self) -> None:
        super().__init__(bindir=Path("/nonexistent/bin"), data=Path("/nonexistent/data"), port=1, os_user=None)

    def reset(self, database: str = postgres.DB_NAME) -> None:
        pass


@contextmanager
def fake_session() -> Iterator[postgres.Cluster]:
    yield FakeCluster()


def test_serve_starts_the_upstream_beside_the_database_names_it_to_the_stack_and_stops_both(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(paths, "HOME", tmp_path)
    monkeypatch.setattr(paths, "LOGS", tmp_path / "logs")
    run = f'command = "exec {sys.executable} {FAKES / "app.py"}"'
    stack = manifest.load(write_stack(tmp_path, text=VALID.replace('command = "exec sleep 60"', run)))
    monkeypatch.setattr(manifest, "select", lambda impls: [stack])
    monkeypatch.setattr(stacks, "build", lambda stack, **_: False)
    monkeypatch.setattr(postgres, "session", fake_session)
    # A port of this test's own: a parallel test's upstream may take 8099 the moment this one
    # frees it, and the check below that the stop freed the port would see that one.
    monkeypatch.setattr(upstream, "DEFAULT_PORT", ports.free_port())

    started: list[upstream.Upstream] = []
    real_upstream_start = upstream.start

    def upstream_start(port: int | None = None, **kwargs: Any) -> upstream.Upstream:
        started.append(real_upstream_start(port, **kwargs))
        return started[-1]

    monkeypatch.setattr(upstream, "start", upstream_start)
    answers: list[httpx.Response] = []
    real_stack_start = stacks.start

    def stack_start(stack: manifest.Stack, **kwargs: Any) -> stacks.Running:
        running = real_stack_start(stack, **kwargs)
        # The fake stack asks the upstream named by its STOCK_URL, as a stack does.
        answers.append(httpx.get(running.base_url + "/items/7/stock", timeout=5))
        waited = running.proc.wait

        def ctrl_c(timeout: float | None = None) -> int:
            if timeout is None:
                raise KeyboardInterrupt
            return waited(timeout)

        monkeypatch.setattr(running.proc, "wait", ctrl_c)
        return running

    monkeypatch.setattr(stacks, "start", stack_start)

    serve = serve_cli.serve.callback
    assert serve is not None
    serve("demo", ports.free_port())

    (stock,) = started
    assert stock.url.startswith("http://127.0.0.1:")
    port = int(stock.url.rsplit(":", 1)[1])
    assert port >= upstream.DEFAULT_PORT
    assert answers[0].status_code == 200 and answers[0].json()["itemId"] == 7
    printed = capsys.readouterr().out
    assert f"the stock upstream is serving at {stock.url}" in printed and f"STOCK_URL={stock.url}" in printed
    # Ctrl-C stopped the stack, then the upstream.
    assert stock.proc.poll() is not None and not ports.port_in_use(port)


def test_the_upstream_takes_8099_or_the_next_free_port():
    first = upstream.free_port()
    assert first >= upstream.DEFAULT_PORT == 8099
    with socket.socket() as busy:
        # As the upstream binds: a port left in TIME_WAIT is free.
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("127.0.0.1", first))
        busy.listen()
        assert upstream.free_port() > first
        # Given a port, it fails on it rather than move.
        with pytest.raises(upstream.PortTaken, match=f"port {first} is in use"):
            upstream.start(first)


@contextmanager
def listening() -> Iterator[int]:
    """A server's socket on a port of its own, as a second runner's upstream would hold one."""
    with socket.socket() as busy:
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield busy.getsockname()[1]


def test_an_upstream_without_a_port_passes_over_one_taken_before_it_looked(monkeypatch):
    with listening() as taken:
        found = iter([taken])
        real_free_port = upstream.free_port
        monkeypatch.setattr(upstream, "free_port", lambda first: next(found, None) or real_free_port(first))
        with upstream.running(delay_ms="0") as stock:
            assert stock.port > taken and stock.url == upstream.url_of(stock.port)
            assert httpx.get(f"{stock.url}/health", timeout=5).status_code == 200


def test_an_upstream_without_a_port_passes_over_one_taken_after_it_looked_free(monkeypatch):
    """The race the runner loses when a parallel test's or a second runner's upstream binds the
    port between the check and the bind: the service exits, and the next free port is tried."""
    with listening() as taken:
        checks: list[int] = []
        real_in_use = ports.port_in_use

        def free_when_first_asked(port: int) -> bool:
            checks.append(port)
            return False if checks == [taken] else real_in_use(port)

        real_free_port = upstream.free_port
        monkeypatch.setattr(upstream, "free_port", lambda first: taken if first <= taken else real_free_port(first))
        monkeypatch.setattr(ports, "port_in_use", free_when_first_asked)
        with upstream.running(delay_ms="0") as stock:
            assert stock.port > taken and checks[0] == taken
            assert httpx.get(f"{stock.url}/health", timeout=5).status_code == 200


# --------------------------------------------------------------------------- the database ceiling's client


def test_the_database_ceilings_client_runs_on_the_apps_cpus_and_is_judged_there(tmp_path, monkeypatch):
    monkeypatch.setattr(cgroups.Group, "release", release_like_the_kernel)
    root = fake_cgroup_v1(tmp_path / "cgroup")
    roles = Roles(TWO_CORES, CAPS, [], root=root)
    group = root / "cpuacct" / roles.cg.parent
    for role in ("app", "loadgen", "postgres"):
        (group / role / "cpuacct.usage").write_text("0")
    (root / "memory" / roles.cg.parent / "app" / "memory.oom_control").write_text("oom_kill 0\n")
    loadgen_cpus = root / "cpuset" / roles.cg.parent / "loadgen" / "cpuset.cpus"

    with roles.client_on_app_cpus() as split:
        assert split == CpuSplit(app="0", postgres="1", loadgen="0") and roles.split == split
        assert loadgen_cpus.read_text() == "0"
        with StageMeter(roles, None) as meter:
            # pgbench and PostgreSQL each busy far beyond the stage's wall time: both bound it.
            for role in ("loadgen", "postgres"):
                (group / role / "cpuacct.usage").write_text(str(60 * 10**9))
        cpu = meter.stage(FIGURES).cpu
    assert cpu is not None and cpu.shared_cpu_share is None, "PostgreSQL shares its CPUs with no client"
    assert cpu.bound_by == ["postgres", "loadgen"] and limited_by_loadgen(cpu)
    assert roles.split == TWO_CORES and loadgen_cpus.read_text() == "1"
    roles.close()


def test_without_cgroups_the_database_ceilings_client_is_pinned_to_the_apps_cpus(tmp_path):
    roles = Roles(CpuSplit(app="0", postgres="1", loadgen="2-3"), CAPS, [], root=tmp_path / "no-cgroups")
    with roles.client_on_app_cpus():
        assert roles.wrap("loadgen", "exec pgbench") == 'exec taskset -c 0 bash -c "exec pgbench"'
    assert roles.wrap("loadgen", "exec pgbench") == 'exec taskset -c 2-3 bash -c "exec pgbench"'
