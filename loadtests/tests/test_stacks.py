"""Starting a stack: failures are reported with the tail of its log, never silently."""

import pytest
from test_manifest import VALID, write_stack

from bench import manifest, paths, ports, stacks
from bench.errors import BenchError


@pytest.fixture
def logs(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "LOGS", tmp_path / "logs")
    return tmp_path / "logs"


def stack_with_run(tmp_path, command, timeout=60):
    text = VALID.replace('command = "exec sleep 60"', f'command = "{command}"\nready_timeout_s = {timeout}')
    return manifest.load(write_stack(tmp_path, text=text))


def test_a_stack_that_exits_is_reported_with_its_log(tmp_path, logs):
    stack = stack_with_run(tmp_path, "echo cannot reach the database; exit 3")
    with pytest.raises(BenchError) as error:
        stacks.start(stack, port=ports.free_port(), database_url="postgres://x")
    assert "exited with code 3" in str(error.value) and "cannot reach the database" in str(error.value)


def test_a_stack_that_never_gets_healthy_is_stopped_at_its_timeout(tmp_path, logs):
    stack = stack_with_run(tmp_path, "echo starting slowly; exec sleep 60", timeout=1)
    with pytest.raises(BenchError, match="not healthy within 1 s") as error:
        stacks.start(stack, port=ports.free_port(), database_url="postgres://x")
    assert "starting slowly" in str(error.value)


def test_a_port_in_use_is_refused_before_starting(tmp_path, logs):
    import socket

    stack = stack_with_run(tmp_path, "exec sleep 60")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        with pytest.raises(BenchError, match=r"port .* is in use"):
            stacks.start(stack, port=busy.getsockname()[1], database_url="postgres://x")


def test_a_missing_toolchain_says_what_to_install(tmp_path):
    text = VALID.replace('check = "true"', 'check = "false"').replace(
        'hint = "nothing to install"', 'hint = "install the demo compiler"'
    )
    stack = manifest.load(write_stack(tmp_path, text=text))
    with pytest.raises(BenchError, match=r"toolchain missing .* install the demo compiler"):
        stacks.check_toolchain(stack)
