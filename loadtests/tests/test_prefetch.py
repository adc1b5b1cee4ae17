"""The builds `./bench test` makes ahead: off the app's CPU, at the lowest priority, and never a
failure of their own."""

import os
import subprocess
import threading
from pathlib import Path

import pytest

from bench import paths, procs, tools
from bench.docker import session
from bench.judgement.bounds import cpu_set
from bench.measure.plan.plan import default_split
from bench.testing import prefetch
from bench.testing.prefetch import Prefetch


@pytest.fixture
def logs(monkeypatch, tmp_path: Path) -> Path:
    monkeypatch.setattr(paths, "HOME", tmp_path)
    monkeypatch.setattr(paths, "LOGS", tmp_path / "logs")
    monkeypatch.setattr(paths, "BIN", tmp_path / "bin")
    return tmp_path / "logs"


def niceness_of_a_child() -> int:
    """What a build started from the calling thread runs at."""
    return int(subprocess.run(["bash", "-c", "ps -o ni= -p $$"], capture_output=True, text=True).stdout)


def cpus_of_a_child() -> set[int]:
    """The CPUs a build started from the calling thread may run on."""
    done = subprocess.run(["bash", "-c", "grep Cpus_allowed_list /proc/$$/status"], capture_output=True, text=True)
    return cpu_set(done.stdout.split()[-1])


def test_what_it_builds_runs_on_the_load_generators_cpus_at_the_lowest_priority(monkeypatch, logs):
    seen: list[tuple[int, set[int]]] = []
    # The caller's own priority and CPUs, whatever the runner was started with (`nice -n 10 ./bench test`).
    callers = (niceness_of_a_child(), cpus_of_a_child())
    monkeypatch.setattr(
        tools, "ensure", lambda tool, on_progress=None: seen.append((niceness_of_a_child(), cpus_of_a_child()))
    )
    # Joined rather than waited for: wait() gives what is left of the builds the whole machine.
    Prefetch(smoke=True, docker_stacks=[]).start()._thread.join()
    loadgen = cpu_set(default_split(os.cpu_count() or 1).loadgen)
    assert seen == [(prefetch.NICENESS, loadgen)] * len(tools.TOOLS)
    assert (niceness_of_a_child(), cpus_of_a_child()) == callers
    if (os.cpu_count() or 1) > 1:
        assert 0 not in loadgen, "the app's CPU is not the builds'"
    assert f"at nice {prefetch.NICENESS}" in (logs / prefetch.LOG).read_text()


def test_a_failed_build_is_logged_and_the_next_one_still_made(monkeypatch, logs):
    def broken(tool, on_progress=None):
        raise RuntimeError(f"{tool.name} would not build")

    asked: list[str] = []
    monkeypatch.setattr(tools, "ensure", broken)

    def no_daemon() -> str:
        asked.append("docker")
        return "no daemon here"

    monkeypatch.setattr(session, "available", no_daemon)
    Prefetch(smoke=True, docker_stacks=[object()]).start().wait("the test")  # type: ignore[list-item]
    log = (logs / prefetch.LOG).read_text()
    assert "load generators failed" in log and "would not build" in log
    assert asked == ["docker"]


def test_nothing_asked_starts_no_thread(logs):
    ahead = Prefetch(smoke=False, docker_stacks=[]).start()
    ahead.wait("the test")
    assert not (logs / prefetch.LOG).exists()


def test_dockers_containers_get_the_lowest_cpu_weight_while_the_builds_run_and_the_default_after(tmp_path):
    group = tmp_path / "cpu" / "docker"
    group.parent.mkdir()
    seen: list[str] = []
    with prefetch._containers_at_the_lowest_weight(seen.append, group):
        assert (group / "cpu.shares").read_text() == prefetch.LOWEST_CPU_SHARES
    assert (group / "cpu.shares").read_text() == prefetch.DEFAULT_CPU_SHARES
    assert seen == []


def test_without_a_cgroup_v1_cpu_controller_nothing_is_written(tmp_path):
    group = tmp_path / "cpu" / "docker"
    with prefetch._containers_at_the_lowest_weight(print, group):
        pass
    assert not group.parent.exists()


def test_once_waited_for_the_builds_ahead_get_every_cpu_and_a_normal_priority(tmp_path):
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one CPU: the builds ahead were never confined")
    confined = prefetch.builds_cpus()
    started: list[subprocess.Popen[bytes]] = []

    def build_ahead() -> None:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, prefetch.NICENESS)
        os.sched_setaffinity(thread, confined)
        started.append(procs.spawn("sleep 30", cwd=tmp_path, env=dict(os.environ), log=tmp_path / "log"))

    builder = threading.Thread(target=build_ahead)
    builder.start()
    builder.join()
    child = started[0]
    try:
        assert os.sched_getaffinity(child.pid) == confined
        assert prefetch.unconfine(os.getpid(), confined) >= 1
        assert os.sched_getaffinity(child.pid) == set(range(os.cpu_count() or 1))
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == 0
        autogroup = Path(f"/proc/{child.pid}/autogroup")
        assert not autogroup.exists() or autogroup.read_text().split()[-1] == "0"
    finally:
        procs.stop(child, grace_s=1)
