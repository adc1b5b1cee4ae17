"""Fixtures shared by the runner's tests: a private PostgreSQL cluster, a fake cgroup tree; and
an interrupted run that cleans up after itself."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

import pytest

from bench import ports, postgres
from bench.measure.host import cgroups
from bench.measure.run import calibration

# Stops a test cluster once the process that made it is gone without stopping it (killed
# outright), then removes its directory. It runs in a session of its own, so Ctrl-C on the
# test run does not reach it, and it waits on the owner's pidfd, so it costs nothing meanwhile.
CLUSTER_GUARD = """
import os, select, shutil, subprocess, sys
owner, stop, home = int(sys.argv[1]), sys.argv[2], sys.argv[3]
try:
    select.select([os.pidfd_open(owner)], [], [])
except ProcessLookupError:
    pass
subprocess.run(stop, shell=True, capture_output=True)
shutil.rmtree(home, ignore_errors=True)
"""


def _interrupted(signum: int, _frame: object) -> NoReturn:
    raise KeyboardInterrupt


def pytest_configure(config: pytest.Config) -> None:
    # SIGTERM (a timeout's, procs.stop's on the whole process group, xdist's workers included)
    # would end the process without a `finally`: as Ctrl-C, it tears the fixtures down instead,
    # so no cluster, stack or fake app outlives the run.
    signal.signal(signal.SIGTERM, _interrupted)
    signal.signal(signal.SIGHUP, _interrupted)


@pytest.fixture(autouse=True)
def brief_calibration(monkeypatch):
    """Every run_plan calibrates the machine: in the tests, with workloads too small to measure
    anything but long enough to run each part (a few seconds each would add up)."""
    monkeypatch.setattr(calibration, "SHA256_MIB", 1)
    monkeypatch.setattr(calibration, "PYTHON_LOOPS", 10_000)
    monkeypatch.setattr(calibration, "PGBENCH_WARMUP_S", 0)
    monkeypatch.setattr(calibration, "PGBENCH_SECONDS", 1)


@pytest.fixture(scope="session")
def pg_cluster():
    """A real cluster of the runner's kind, in a temporary directory on a free port, with the
    seeded template: what `./bench` makes in .bench/postgres. Skipped without PostgreSQL."""
    bindir = postgres.find_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL's server binaries are not installed")
    os_user = postgres._server_user()
    # /tmp/pytest-of-root is private to root; the server user must reach its data directory.
    home = Path(tempfile.mkdtemp(prefix="bench-test-pg-", dir="/var/tmp"))
    cluster = postgres.Cluster(bindir=bindir, data=home / "data", port=ports.free_port(), os_user=os_user)
    guard = subprocess.Popen(
        [sys.executable, "-c", CLUSTER_GUARD, str(os.getpid()), cluster.stop_command(), str(home)],
        start_new_session=True,
    )
    try:
        cluster.start()
        cluster.ensure_template()
        yield cluster
    finally:
        guard.kill()
        guard.wait()
        cluster.stop()
        shutil.rmtree(home, ignore_errors=True)


def fake_cgroup_v1(root: Path) -> Path:
    """Plain directories and files laid out like a cgroup v1 hierarchy."""
    for controller in cgroups.V1_CONTROLLERS:
        (root / controller).mkdir(parents=True)
        (root / controller / "cgroup.procs").write_text("")
    (root / "cpuset" / "cpuset.cpus").write_text(f"0-{(os.cpu_count() or 1) - 1}\n")
    (root / "cpuset" / "cpuset.mems").write_text("0\n")
    return root


def release_like_the_kernel(group: cgroups.Group) -> None:
    """cgroups.Group.release on a fake tree: a real cgroup directory goes with its control files,
    a fake one's are plain files, which rmdir would retry for 3 s a group before leaving them."""
    for directory in group.dirs():
        shutil.rmtree(directory, ignore_errors=True)
