"""CPU sets and memory caps for the benchmark's three roles, with cgroup v1 or v2.

The runner makes one group per role (app, postgres, loadgen) under a parent named after its
own PID, reads CPU time, memory peak and OOM kills from them, and removes them all when it
ends. The root is a parameter so that the tests can use a fake tree.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from bench.errors import BenchError

Version = Literal["v1", "v2"]

DEFAULT_ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("cpuset", "memory", "cpuacct")


def detect(root: Path = DEFAULT_ROOT) -> Version | None:
    """'v2', 'v1', or None when no writable hierarchy with the controllers we need exists."""
    if (root / "cgroup.controllers").exists():
        controllers = (root / "cgroup.controllers").read_text().split()
        if {"cpuset", "memory", "cpu"} <= set(controllers) and os.access(root, os.W_OK):
            return "v2"
        return None
    if all((root / c).is_dir() and os.access(root / c, os.W_OK) for c in V1_CONTROLLERS):
        return "v1"
    return None


@dataclass
class Group:
    """One role's cgroup: the same relative path under each controller (v1) or one directory (v2)."""

    version: Version
    root: Path
    relative: str
    cpus: str = ""
    mem_bytes: int | None = None

    def dirs(self) -> list[Path]:
        if self.version == "v2":
            return [self.root / self.relative]
        return [self.root / c / self.relative for c in V1_CONTROLLERS]

    def _file(self, controller: str, name: str) -> Path:
        if self.version == "v2":
            return self.root / self.relative / name
        return self.root / controller / self.relative / name

    def procs_files(self) -> list[Path]:
        return [d / "cgroup.procs" for d in self.dirs()]

    # -- setting up ----------------------------------------------------------------------------

    def create(self, cpus: str, mem_bytes: int | None) -> None:
        self.cpus, self.mem_bytes = cpus, mem_bytes
        for directory in self.dirs():
            directory.mkdir(parents=True, exist_ok=True)
        if self.version == "v2":
            self._file("", "cpuset.cpus").write_text(cpus)
            if mem_bytes:
                self._file("", "memory.max").write_text(str(mem_bytes))
                swap = self._file("", "memory.swap.max")
                if swap.exists():
                    swap.write_text("0")
        else:
            self._file("cpuset", "cpuset.cpus").write_text(cpus)
            mems = self.root / "cpuset" / "cpuset.mems"
            self._file("cpuset", "cpuset.mems").write_text(mems.read_text().strip() if mems.exists() else "0")
            if mem_bytes:
                self._file("memory", "memory.limit_in_bytes").write_text(str(mem_bytes))

    def set_cpus(self, cpus: str) -> None:
        """Moves the group, and what runs in it, onto `cpus`."""
        self.cpus = cpus
        self._file("" if self.version == "v2" else "cpuset", "cpuset.cpus").write_text(cpus)

    def add(self, pid: int) -> None:
        for procs in self.procs_files():
            procs.write_text(str(pid))

    def shell_prefix(self) -> str:
        """Shell lines that move the shell itself into the group before it execs the command,
        so that not even the command's first thread runs outside the caps."""
        return "".join(f"echo $$ > '{p}' && " for p in self.procs_files())

    def pids(self) -> list[int]:
        procs = self.procs_files()[0]
        try:
            return [int(line) for line in procs.read_text().split()]
        except FileNotFoundError:
            return []

    # -- reading -------------------------------------------------------------------------------

    def cpu_seconds(self) -> float:
        if self.version == "v2":
            for line in self._file("", "cpu.stat").read_text().splitlines():
                key, value = line.split()
                if key == "usage_usec":
                    return int(value) / 1e6
            return 0.0
        return int(self._file("cpuacct", "cpuacct.usage").read_text()) / 1e9

    def memory_bytes(self) -> int:
        name = "memory.current" if self.version == "v2" else "memory.usage_in_bytes"
        return int(self._file("memory", name).read_text())

    def working_set_bytes(self) -> int:
        """The group's memory less its inactive file cache: what the kernel could not reclaim
        without the processes missing it (what Kubernetes and `docker stats` show). The cgroup's
        own figure counts every page of the page cache the processes touched, log files
        included, which another runtime's reads would not have."""
        usage = self.memory_bytes()
        key = "inactive_file" if self.version == "v2" else "total_inactive_file"
        try:
            text = self._file("memory", "memory.stat").read_text()
        except FileNotFoundError:
            return usage
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == key:
                return max(usage - int(parts[1]), 0)
        return usage

    def memory_peak_bytes(self) -> int | None:
        name = "memory.peak" if self.version == "v2" else "memory.max_usage_in_bytes"
        peak = self._file("memory", name)
        return int(peak.read_text()) if peak.exists() else None

    def reset_peak(self) -> None:
        # v1 resets on any write; v2 (kernel 6.12+) resets per open file, which is no use to us:
        # there the peak is the whole run's.
        if self.version == "v1":
            self._file("memory", "memory.max_usage_in_bytes").write_text("0")

    def oom_kills(self) -> int:
        name = "memory.events" if self.version == "v2" else "memory.oom_control"
        try:
            text = self._file("memory", name).read_text()
        except FileNotFoundError:
            return 0
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "oom_kill":
                return int(parts[1])
        return 0

    # -- tearing down --------------------------------------------------------------------------

    def release(self) -> None:
        """Moves any process still inside to the root group, then removes the directories.
        Retried for a moment: a PostgreSQL backend whose client just left is still exiting."""
        for _ in range(30):
            for pid in self.pids():
                try:
                    for procs in self._root_procs():
                        procs.write_text(str(pid))
                except OSError:
                    pass
            for directory in self.dirs():
                try:
                    directory.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    continue
            if not any(d.exists() for d in self.dirs()):
                return
            time.sleep(0.1)

    def _root_procs(self) -> list[Path]:
        if self.version == "v2":
            return [self.root / "cgroup.procs"]
        return [self.root / c / "cgroup.procs" for c in V1_CONTROLLERS]


class Cgroups:
    """The runner's groups, one per role, created on demand and all released by close()."""

    def __init__(self, root: Path = DEFAULT_ROOT, name: str | None = None) -> None:
        self.root = root
        self.version = detect(root)
        self.parent = name or f"bench-{os.getpid()}"
        self.groups: dict[str, Group] = {}
        if self.version:
            self.sweep_stale()

    def _controller_roots(self) -> list[Path]:
        return [self.root] if self.version == "v2" else [self.root / c for c in V1_CONTROLLERS]

    def sweep_stale(self) -> list[str]:
        """Removes the groups of runners that were killed outright, killing what still runs in them."""
        swept = []
        for controller_root in self._controller_roots():
            for parent in controller_root.glob("bench-*"):
                pid = parent.name.removeprefix("bench-")
                if not pid.isdigit() or Path(f"/proc/{pid}").exists() or parent.name == self.parent:
                    continue
                for child in [p for p in parent.iterdir() if p.is_dir()] + [parent]:
                    try:
                        for line in (child / "cgroup.procs").read_text().split():
                            with contextlib.suppress(ProcessLookupError):
                                os.kill(int(line), 9)
                    except OSError:
                        pass
                for child in [p for p in parent.iterdir() if p.is_dir()] + [parent]:
                    with contextlib.suppress(OSError):
                        child.rmdir()
                swept.append(parent.name)
        return swept

    @property
    def available(self) -> bool:
        return self.version is not None

    def group(self, role: str, cpus: str, mem_bytes: int | None) -> Group:
        if self.version is None:
            raise BenchError("no writable cgroup hierarchy with cpuset and memory controllers")
        if self.version == "v2" and not self.groups:
            # Controllers must be enabled for the children of the root and of our parent.
            (self.root / self.parent).mkdir(exist_ok=True)
            for directory in (self.root, self.root / self.parent):
                control = directory / "cgroup.subtree_control"
                try:
                    control.write_text("+cpuset +memory +cpu")
                except OSError as error:
                    raise BenchError(f"cannot enable cgroup controllers in {directory}: {error}") from None
        if self.version == "v1" and not self.groups:
            # A new v1 cpuset starts with no CPUs and no memory nodes; its children need both.
            parent = self.root / "cpuset" / self.parent
            parent.mkdir(exist_ok=True)
            for name in ("cpuset.cpus", "cpuset.mems"):
                source = self.root / "cpuset" / name
                if source.exists():
                    (parent / name).write_text(source.read_text().strip())
        group = Group(self.version, self.root, f"{self.parent}/{role}")
        group.create(cpus, mem_bytes)
        self.groups[role] = group
        return group

    def renew(self, role: str) -> Group:
        """The role's group made anew: memory the last process left charged to the old one
        (page cache of the files it read and wrote) is not counted against the next."""
        group = self.groups[role]
        group.release()
        group.create(group.cpus, group.mem_bytes)
        return group

    def close(self) -> None:
        for group in self.groups.values():
            group.release()
        self.groups.clear()
        parents = (
            [self.root / self.parent] if self.version == "v2" else [self.root / c / self.parent for c in V1_CONTROLLERS]
        )
        for parent in parents:
            with contextlib.suppress(OSError):
                parent.rmdir()
