"""What `./bench test` builds ahead, beside the stacks' rows: the load generators for the smoke
benchmark and the Docker path's engine, stand-ins and images.

A stack's row (its build, its tests, the conformance suite) keeps about one of the machine's two
cores busy, and on a fresh machine the builds done here took 27 minutes after those rows, one after
another (k6 and oha 7, the Docker path's engine, stand-ins and ten images about 20, of the cold
run's 110). Here they run on the load generator's CPUs only (CPU 1 of two), at the lowest priority,
so that a row's timing-bound cases (a 1 s upstream timeout, racing creates, the resilience case's
stack on CPU 0) keep the core they had. Both are set on the thread that starts every build, and
everything it starts inherits them: the toolchains, apt-get, dockerd, containerd and the containers
of each image build (Debian's runc keeps the affinity it is started with). A priority alone did not
do it: each child runs in a session of its own, which the kernel schedules as a group of its own
(autogroup), and a build container in a cgroup of its own, both at a normal weight whatever their
nice value; so `mvn` in an image build took 144% of the two cores at nice 19 beside the rows
(procs.spawn now gives a child's session its caller's priority too). Nothing is skipped: the smoke
benchmark and the Docker path run every step as before and find the result ready (an image build
then hits its cache). A failure here is only logged; the phase that needs the result does the same
step again and reports it as its own."""

from __future__ import annotations

import contextlib
import os
import threading
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from bench import paths, tools
from bench.console import console
from bench.docker import cycle, engine, session
from bench.errors import BenchError
from bench.judgement.bounds import cpu_set
from bench.manifest import Stack
from bench.measure.plan.plan import default_split

LOG = "prefetch.log"
# The lowest priority: the rows in front get their core whenever they want it.
NICENESS = 19


class Prefetch:
    """Builds ahead in a thread of its own; `wait()` before anything that measures."""

    def __init__(self, *, smoke: bool, docker_stacks: list[Stack]) -> None:
        self.smoke = smoke
        self.docker_stacks = docker_stacks
        self._thread = threading.Thread(target=self._run, name="prefetch", daemon=True)

    def start(self) -> Prefetch:
        if self.smoke or self.docker_stacks:
            self._thread.start()
        return self

    def wait(self, why: str) -> None:
        """Blocks until the builds are done, so that nothing builds while `why` runs. Nothing
        else runs meanwhile: what is left of the builds gets the whole machine."""
        if self._thread.is_alive():
            with console.status(f"waiting for the builds ahead to finish before {why} (.bench/logs/{LOG})"):
                # The thread that starts the rest first, so that what it starts next runs unconfined.
                if (builder := self._thread.native_id) is not None:
                    _unconfine_thread(builder)
                unconfine(os.getpid(), builds_cpus())
                self._thread.join()

    def _run(self) -> None:
        # Linux gives each thread its own nice value and CPU affinity, and what it starts
        # inherits both: the toolchains, apt-get, dockerd and every build dockerd runs.
        thread = threading.get_native_id()
        cpus = builds_cpus()
        os.sched_setaffinity(thread, cpus)
        paths.ensure_dirs()
        with (paths.LOGS / LOG).open("a") as log:
            say = _writer(log)
            os.setpriority(os.PRIO_PROCESS, thread, max(NICENESS, os.getpriority(os.PRIO_PROCESS, thread)))
            say(f"builds ahead on CPU {','.join(map(str, sorted(cpus)))} at nice {NICENESS}")
            _logged("load generators", self._tools, say)
            _logged("docker images", self._docker, say)

    def _tools(self, say: Callable[[str], object]) -> None:
        for tool in tools.TOOLS if self.smoke else ():
            tools.ensure(tool, on_progress=say)

    def _docker(self, say: Callable[[str], object]) -> None:
        if not self.docker_stacks or session.available() is not None:
            return
        docker = engine.Engine()
        with _containers_at_the_lowest_weight(say), session.ready(docker, self.docker_stacks, say):
            for stack in self.docker_stacks:
                say(f"{stack.name}: docker compose build")
                try:
                    cycle.build(docker, stack, log_name=f"{stack.name}-prebuild")
                except BenchError as error:  # the next stack's image is still worth building
                    say(str(error))


# Where Docker (with its cgroupfs driver, on cgroup v1) puts each container, an image build's
# steps included, and the weight its CPU controller gives that parent: the CPU is shared among
# cgroups by weight, whatever the nice values inside, so each build step took the share of a
# normal process. The lowest weight while the builds ahead run, the default back afterwards (the
# Docker path's own containers are what it measures).
DOCKER_CPU_GROUP = Path("/sys/fs/cgroup/cpu/docker")
LOWEST_CPU_SHARES, DEFAULT_CPU_SHARES = "2", "1024"


@contextlib.contextmanager
def _containers_at_the_lowest_weight(say: Callable[[str], object], group: Path = DOCKER_CPU_GROUP) -> Iterator[None]:
    if not group.parent.is_dir():
        yield  # no cgroup v1 CPU controller: the CPU affinity alone keeps the builds off CPU 0
        return
    try:
        group.mkdir(exist_ok=True)
        (group / "cpu.shares").write_text(LOWEST_CPU_SHARES)
    except OSError as error:
        say(f"Docker's containers keep their CPU weight ({error})")
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            (group / "cpu.shares").write_text(DEFAULT_CPU_SHARES)


def unconfine(root: int, confined: set[int]) -> int:
    """Every thread of `root`'s descendants that runs on `confined` alone gets every CPU and a
    normal priority, its session too: once no row runs, the builds ahead (dockerd, containerd,
    each build's container) no longer keep off the cores the rows needed. Returns how many.
    Docker's container group gets its default weight back as well."""
    if confined == _every_cpu():
        return 0
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    widened = 0
    pending = list(children.get(root, []))
    while pending:
        pid = pending.pop()
        pending += children.get(pid, [])
        for task in Path(f"/proc/{pid}/task").glob("*"):
            with contextlib.suppress(OSError, ValueError):
                tid = int(task.name)
                if os.sched_getaffinity(tid) == confined and _unconfine_thread(tid):
                    widened += 1
        with contextlib.suppress(OSError):
            Path(f"/proc/{pid}/autogroup").write_text("0")
    with contextlib.suppress(OSError):
        (DOCKER_CPU_GROUP / "cpu.shares").write_text(DEFAULT_CPU_SHARES)
    return widened


def _every_cpu() -> set[int]:
    return set(range(os.cpu_count() or 1))


def _unconfine_thread(tid: int) -> bool:
    """Thread `tid` on every CPU at a normal priority; False when it is gone or may not be moved."""
    try:
        os.sched_setaffinity(tid, _every_cpu())
        os.setpriority(os.PRIO_PROCESS, tid, 0)
    except OSError:
        return False
    return True


def builds_cpus() -> set[int]:
    """The load generator's CPUs of the default split: never the app's (CPU 0), which the rows'
    stacks run on; all of them on a machine of one CPU."""
    return cpu_set(default_split(os.cpu_count() or 1).loadgen)


def _logged(step: str, work: Callable[[Callable[[str], object]], None], say: Callable[[str], object]) -> None:
    # A failure is logged: the phase that needs the result does the step again and reports it
    # as its own.
    try:
        work(say)
    except Exception:
        say(f"{step} failed:\n{traceback.format_exc()}")


def _writer(log: TextIO) -> Callable[[str], object]:
    def say(text: str) -> None:
        print(text, file=log, flush=True)

    return say
