"""A run of the runner's tests stopped part-way (Ctrl-C, a timeout's SIGTERM, or SIGKILL) leaves
no PostgreSQL test cluster and no fake app running."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench import postgres

TESTS = Path(__file__).parent
# What each test of the run that is interrupted does: a cluster from the shared fixture, a fake
# app started as the runner starts a stack (procs.spawn), and a line saying where both are, then
# a wait that only the interruption ends.
HELD = """
import os
import sys
import time
from pathlib import Path

from bench import paths, ports, procs


def _hold(pg_cluster, tmp_path, name):
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(ports.free_port()))
    command = f"exec {sys.executable} {os.environ['FAKES']}/app.py"
    app = procs.spawn(command, cwd=tmp_path, env=env, log=tmp_path / "app.log")
    postmaster = (pg_cluster.data / "postmaster.pid").read_text().split()[0]
    with open(os.environ["HELD_OUT"], "a") as out:
        print(name, postmaster, app.pid, flush=True, file=out)
    time.sleep(120)


def test_one(pg_cluster, tmp_path):
    _hold(pg_cluster, tmp_path, "one")


def test_two(pg_cluster, tmp_path):
    _hold(pg_cluster, tmp_path, "two")
"""


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _held(out: Path, count: int, deadline_s: float) -> list[tuple[int, int]]:
    """The postmaster's and the fake app's pids of each test once `count` tests hold them."""
    deadline = time.monotonic() + deadline_s
    while True:
        lines = out.read_text().splitlines() if out.exists() else []
        if len(lines) >= count:
            return [(int(line.split()[1]), int(line.split()[2])) for line in lines]
        assert time.monotonic() < deadline, f"the tests did not start: {lines}"
        time.sleep(0.2)


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("sig", "workers"),
    # Two workers once, as ./bench test runs the tests (each worker has its own cluster); one
    # process otherwise: a cluster seeded per worker is most of this test's time.
    [(signal.SIGTERM, 2), (signal.SIGINT, 0), (signal.SIGKILL, 0)],
    ids=["SIGTERM to the group, two workers", "Ctrl-C", "SIGKILL to the group"],
)
def test_an_interrupted_test_run_leaves_no_cluster_and_no_fake_app(tmp_path, sig, workers):
    if postgres.find_bindir() is None:
        pytest.skip("PostgreSQL's server binaries are not installed")
    shutil.copy(TESTS / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_held.py").write_text(HELD)
    out = tmp_path / "held.txt"
    env = dict(os.environ, HELD_OUT=str(out), FAKES=str(TESTS / "fakes"), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)]
    if workers:
        command += ["-n", str(workers)]
    else:
        command += ["-k", "test_one"]
    # A process group of its own, signalled whole: what procs.stop does to a run it times out,
    # and what a terminal does on Ctrl-C.
    run = subprocess.Popen(command, cwd=tmp_path, env=env, start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        held = _held(out, max(workers, 1), deadline_s=120)
        os.killpg(run.pid, sig)
        run.wait(timeout=60)
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pids in held for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [postmaster for postmaster, _ in held if _alive(postmaster)] == [], "clusters left running"
        assert [app for _, app in held if _alive(app)] == [], "fake apps left running"
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
