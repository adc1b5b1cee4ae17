"""Fixtures shared by the runner's tests: a private PostgreSQL cluster, a fake cgroup tree."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from bench import ports, postgres
from bench.measure.host import cgroups


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
    try:
        cluster.start()
        cluster.ensure_template()
        yield cluster
    finally:
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
