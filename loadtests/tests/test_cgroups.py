"""The cgroup handling, on a fake tree of plain files shaped like cgroup v1 and v2."""

import pytest

from bench.measure.host import cgroups


def fake_v1(root):
    for controller in cgroups.V1_CONTROLLERS:
        (root / controller).mkdir(parents=True)
        (root / controller / "cgroup.procs").write_text("")
    (root / "cpuset" / "cpuset.cpus").write_text("0-1\n")
    (root / "cpuset" / "cpuset.mems").write_text("0\n")
    return root


def fake_v2(root):
    root.mkdir(parents=True, exist_ok=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (root / "cgroup.subtree_control").write_text("")
    (root / "cgroup.procs").write_text("")
    return root


def test_detect(tmp_path):
    assert cgroups.detect(fake_v1(tmp_path / "v1")) == "v1"
    assert cgroups.detect(fake_v2(tmp_path / "v2")) == "v2"
    assert cgroups.detect(tmp_path / "nothing") is None
    partial = tmp_path / "partial"
    (partial / "memory").mkdir(parents=True)
    assert cgroups.detect(partial) is None


def test_v1_group_sets_cpus_memory_and_copies_the_parent_cpuset(tmp_path):
    root = fake_v1(tmp_path)
    cg = cgroups.Cgroups(root, name="bench-test")
    group = cg.group("app", "0", 512 << 20)
    assert (root / "cpuset" / "bench-test" / "cpuset.cpus").read_text() == "0-1"
    assert (root / "cpuset" / "bench-test" / "cpuset.mems").read_text() == "0"
    assert (root / "cpuset" / "bench-test" / "app" / "cpuset.cpus").read_text() == "0"
    assert (root / "memory" / "bench-test" / "app" / "memory.limit_in_bytes").read_text() == str(512 << 20)
    assert group.shell_prefix().count("cgroup.procs") == 3


def test_v1_readings(tmp_path):
    root = fake_v1(tmp_path)
    group = cgroups.Cgroups(root, name="b").group("app", "0", None)
    app = "b/app"
    (root / "cpuacct" / app / "cpuacct.usage").write_text("2500000000\n")
    (root / "memory" / app / "memory.usage_in_bytes").write_text("1048576\n")
    (root / "memory" / app / "memory.max_usage_in_bytes").write_text("4194304\n")
    (root / "memory" / app / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
    assert group.cpu_seconds() == 2.5
    assert group.memory_bytes() == 1 << 20
    assert group.memory_peak_bytes() == 4 << 20
    assert group.oom_kills() == 2
    group.reset_peak()
    assert (root / "memory" / app / "memory.max_usage_in_bytes").read_text() == "0"


def test_v2_group_and_readings(tmp_path):
    root = fake_v2(tmp_path)
    cg = cgroups.Cgroups(root, name="b")
    group = cg.group("app", "0", 256 << 20)
    directory = root / "b" / "app"
    assert (root / "cgroup.subtree_control").read_text() == "+cpuset +memory +cpu"
    assert (directory / "cpuset.cpus").read_text() == "0"
    assert (directory / "memory.max").read_text() == str(256 << 20)
    (directory / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n")
    (directory / "memory.current").write_text("2097152\n")
    (directory / "memory.peak").write_text("8388608\n")
    (directory / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    assert group.cpu_seconds() == 1.5
    assert group.memory_bytes() == 2 << 20
    assert group.memory_peak_bytes() == 8 << 20
    assert group.oom_kills() == 1
    assert group.shell_prefix() == f"echo $$ > '{directory / 'cgroup.procs'}' && "


def test_close_moves_processes_out_and_removes_the_groups(tmp_path):
    root = fake_v1(tmp_path)
    cg = cgroups.Cgroups(root, name="b")
    group = cg.group("db", "1", None)
    (root / "cpuset" / "b" / "db" / "cgroup.procs").write_text("4242\n")
    # rmdir of a real cgroup succeeds with its control files inside; here they must go first.
    for directory in group.dirs():
        for f in directory.iterdir():
            if f.name != "cgroup.procs":
                f.unlink()
    cg.close()
    assert (root / "cpuset" / "cgroup.procs").read_text() == "4242"
    assert not cg.groups


def test_no_hierarchy_is_an_error_only_when_used(tmp_path):
    cg = cgroups.Cgroups(tmp_path / "none")
    assert not cg.available
    with pytest.raises(Exception, match="no writable cgroup"):
        cg.group("app", "0", None)
    cg.close()


def test_groups_of_a_killed_runner_are_swept(tmp_path):
    root = fake_v1(tmp_path)
    dead = "bench-999999999"
    for controller in cgroups.V1_CONTROLLERS:
        (root / controller / dead / "app").mkdir(parents=True)
    alive = f"bench-{__import__('os').getpid()}"
    (root / "memory" / alive).mkdir()
    cg = cgroups.Cgroups(root, name="bench-1")
    assert not (root / "memory" / dead).exists() and not (root / "cpuset" / dead).exists()
    assert (root / "memory" / alive).exists()
    cg.close()


def test_renew_gives_a_role_a_fresh_group_with_the_same_caps(tmp_path):
    root = fake_v1(tmp_path)
    cg = cgroups.Cgroups(root, name="b")
    cg.group("app", "0", 256 << 20)
    limit = root / "memory" / "b" / "app" / "memory.limit_in_bytes"
    limit.write_text("1")
    # A fake tree keeps its files; a real cgroup directory is removed with them.
    for directory in cg.groups["app"].dirs():
        for f in directory.iterdir():
            f.unlink()
    renewed = cg.renew("app")
    assert limit.read_text() == str(256 << 20) and renewed.cpus == "0"
