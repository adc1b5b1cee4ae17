"""What is measured around a stage, and where each role runs: with cgroups, and without."""

import time

import pytest
from conftest import fake_cgroup_v1

from bench.measure.host.roles import Roles
from bench.measure.load.figures import LoadFigures
from bench.measure.phases import probes
from bench.measure.phases.probes import StageMeter
from bench.records import Cap, Caps, CpuSplit

CAPS = Caps(app=Cap(cpus=1.0, mem_bytes=256 << 20), postgres=Cap(cpus=1.0, mem_bytes=1 << 30))
SPLIT = CpuSplit(app="0", postgres="1", loadgen="1")


class Statements(probes.Statements):
    """pg_stat_statements' total, as if the stage made 3 statements per request."""

    sessions = None  # the app's sessions are counted by tests/test_resources.py

    def __init__(self, per_call: int) -> None:
        """No database to connect to: the total is made up."""
        self.calls, self.per_call = 0, per_call

    def total(self) -> int:
        self.calls += 1
        return (self.calls - 1) * self.per_call


FIGURES = LoadFigures(
    vus=10,
    requests=100,
    rps=50.0,
    duration_s=2.0,
    latency_ms=None,
    errors={"503": 1},
    error_count=1,
    bytes_received=5_000,
    requests_sent=120,
)


def test_without_cgroups_roles_are_pinned_with_taskset_and_the_app_cost_is_unknown(tmp_path):
    warnings: list[str] = []
    roles = Roles(SPLIT, CAPS, warnings, root=tmp_path / "no-cgroups")
    assert roles.app is None and "memory caps NOT applied" in warnings[0]
    assert roles.wrap("loadgen", "exec k6 run 'x.js'") == "exec taskset -c 1 bash -c \"exec k6 run 'x.js'\""
    with StageMeter(roles, Statements(per_call=360)) as meter:
        pass
    stage = meter.stage(FIGURES)
    # SQL and CPU are per request sent (the ramp's too): 360 / 120.
    assert (stage.sql_statements, stage.sql_per_request) == (360, 3.0)
    assert (stage.mean_response_bytes, stage.error_rate) == (50.0, 0.01)
    assert stage.app_cpu_s is None and stage.cpu_ms_per_request is None and stage.client_bound is None
    assert stage.oom_kills is None and stage.oom is False and stage.memory_samples == []
    # Nothing to sample: no app group to list, no database to ask.
    assert stage.resources is None


def test_with_cgroups_the_app_cost_comes_from_its_group(tmp_path):
    root = fake_cgroup_v1(tmp_path / "cgroup")
    roles = Roles(SPLIT, CAPS, [], root=root)
    assert roles.app is not None and roles.wrap("app", "exec ./server").endswith("&& exec ./server")
    app, loadgen = (root / "cpuacct" / roles.cg.parent / role for role in ("app", "loadgen"))
    memory = root / "memory" / roles.cg.parent / "app"
    assert (memory / "memory.limit_in_bytes").read_text() == str(256 << 20)
    (app / "cpuacct.usage").write_text("1000000000")
    (loadgen / "cpuacct.usage").write_text("0")
    (memory / "memory.oom_control").write_text("oom_kill 0\n")
    with StageMeter(roles, Statements(per_call=0)) as meter:
        # What the kernel would count during the stage: 0.24 s of the app, a peak, one OOM kill.
        (app / "cpuacct.usage").write_text("1240000000")
        (memory / "memory.max_usage_in_bytes").write_text(str(90 << 20))
        (memory / "memory.oom_control").write_text("oom_kill 1\n")
    stage = meter.stage(FIGURES)
    assert stage.app_cpu_s is not None and round(stage.app_cpu_s, 6) == 0.24
    assert stage.cpu_ms_per_request is not None and round(stage.cpu_ms_per_request, 6) == 2.0
    assert stage.app_peak_memory_bytes == 90 << 20 and stage.oom_kills == 1 and stage.oom
    assert stage.loadgen_cpu_share == 0.0 and stage.client_bound is False
    assert "1 kill(s) at its 256 MiB cap" in roles.oom_note()
    # The app's group was sampled (empty here: no thread to count).
    assert stage.resources is not None and stage.resources.samples >= 1 and stage.resources.threads_peak is None


def test_a_share_is_the_cpu_over_the_wall_time_between_its_two_readings(tmp_path):
    """However short the load generator says it was sending, the app's CPU is divided by the
    time between the readings around it, so that no share exceeds the CPU set (method v4)."""
    root = fake_cgroup_v1(tmp_path / "cgroup")
    roles = Roles(SPLIT, CAPS, [], root=root)
    app, loadgen = (root / "cpuacct" / roles.cg.parent / role for role in ("app", "loadgen"))
    for group in (app, loadgen):
        (group / "cpuacct.usage").write_text("0")
    with StageMeter(roles, Statements(per_call=0)) as meter:
        time.sleep(0.3)
        # 0.25 s of the app's core in the 0.3 s or so between the readings.
        (app / "cpuacct.usage").write_text("250000000")
    assert meter.before is not None and meter.after is not None
    wall = meter.after.at - meter.before.at
    stage = meter.stage(FIGURES.model_copy(update={"active_s": 0.1}))
    assert stage.cpu is not None and stage.cpu.app_cpu_share == pytest.approx(0.25 / wall)
    assert stage.cpu.app_cpu_share <= 1.0
