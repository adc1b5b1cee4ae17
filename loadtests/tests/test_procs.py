import os
import threading
import time
from pathlib import Path

import pytest

from bench import procs


def test_stop_ends_the_whole_process_group(tmp_path):
    pidfile = tmp_path / "grandchild.pid"
    # The shell starts a grandchild that ignores nothing but also outlives a plain kill of the shell.
    proc = procs.spawn(
        f"sleep 60 & echo $! > {pidfile}; wait", cwd=tmp_path, env=dict(os.environ), log=tmp_path / "log"
    )
    deadline = time.monotonic() + 5
    while not pidfile.exists() or not pidfile.read_text().strip():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    grandchild = int(pidfile.read_text())
    procs.stop(proc, grace_s=2)
    assert proc.poll() is not None
    # SIGKILL is delivered when the process next runs: on a busy CI machine the grandchild was
    # still "R" 0.1 s after stop() returned, so it gets a few seconds to be gone or a zombie.
    stat = Path(f"/proc/{grandchild}/stat")
    deadline = time.monotonic() + 5
    while stat.exists() and _state(stat) != "Z" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not stat.exists() or _state(stat) == "Z"


def _state(stat: Path) -> str:
    try:
        # The field after the parenthesised command name; a name may itself hold spaces.
        return stat.read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return "Z"


def test_run_returns_the_exit_code_and_logs_output(tmp_path):
    log = tmp_path / "out.log"
    assert procs.run("echo hello; exit 3", cwd=tmp_path, env=dict(os.environ), log=log) == 3
    assert procs.tail(log) == "hello"


def test_run_times_out(tmp_path):
    started = time.monotonic()
    assert procs.run("sleep 30", cwd=tmp_path, env=dict(os.environ), log=tmp_path / "l", timeout_s=0.5) == 124
    assert time.monotonic() - started < 10


def test_tail_of_a_missing_log_is_empty(tmp_path):
    assert procs.tail(tmp_path / "missing.log") == ""


def test_a_child_of_a_low_priority_thread_keeps_that_priority_in_its_own_session(tmp_path):
    autogroup = Path("/proc/self/autogroup")
    if not autogroup.exists():
        pytest.skip("this kernel has no autogroup scheduling")
    seen: dict[str, str] = {}

    def spawn_niced() -> None:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        proc = procs.spawn("sleep 5", cwd=tmp_path, env=dict(os.environ), log=tmp_path / "log")
        try:
            seen["child"] = Path(f"/proc/{proc.pid}/autogroup").read_text()
        finally:
            procs.stop(proc, grace_s=1)

    thread = threading.Thread(target=spawn_niced)
    thread.start()
    thread.join()
    # "/autogroup-123 nice 19": the whole session's share, not only the nice value inside it.
    assert seen["child"].split()[-1] == "19"
