"""The builds `./bench test` makes ahead: at the lowest priority, and never a failure of their own."""

import subprocess
from pathlib import Path

import pytest

from bench import paths, tools
from bench.docker import session
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


def test_what_it_builds_runs_at_the_lowest_priority_and_the_caller_does_not(monkeypatch, logs):
    seen: list[int] = []
    # The caller's own priority, whatever the runner was started at (`nice -n 10 ./bench test`).
    callers = niceness_of_a_child()
    monkeypatch.setattr(tools, "ensure", lambda tool, on_progress=None: seen.append(niceness_of_a_child()))
    Prefetch(smoke=True, docker_stacks=[]).start().wait("the test")
    assert seen == [prefetch.NICENESS] * len(tools.TOOLS)
    assert niceness_of_a_child() == callers


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
