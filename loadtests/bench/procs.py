"""Child processes of the runner: each in its own process group, all stopped on any exit."""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
from pathlib import Path
from types import FrameType
from typing import NoReturn

_children: list[subprocess.Popen[bytes]] = []


def spawn(command: str, *, cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Starts a shell command in a new session so that the whole tree can be signalled at once.
    The child runs at its caller's priority, its session included (_keep_priority)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    niceness = os.getpriority(os.PRIO_PROCESS, 0)
    with log.open("wb") as log_file:
        proc = subprocess.Popen(
            ["bash", "-c", command],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
    _children.append(proc)
    if niceness > 0:
        _keep_priority(proc.pid, niceness)
    return proc


def _keep_priority(pid: int, niceness: int) -> None:
    """A new session is a scheduling group of its own (the kernel's autogroup, on by default),
    and groups share the CPU by their own nice value, 0 unless set: a nice value inside one
    orders its processes against each other only. So a child of a low-priority caller gets the
    caller's nice value on its whole session too (what the builds ahead run at)."""
    with contextlib.suppress(OSError):
        Path(f"/proc/{pid}/autogroup").write_text(str(niceness))


_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Runs in the child before exec: if the runner is killed outright (SIGKILL, no chance to
    clean up), the kernel sends the child SIGTERM, so no stack or load generator outlives it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except OSError:
        pass


def stop(proc: subprocess.Popen[bytes], grace_s: float = 10.0) -> int | None:
    """SIGTERM to the process group, then SIGKILL after the grace period. Returns the exit code."""
    if proc.poll() is None:
        _signal_group(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            _signal_group(proc, signal.SIGKILL)
            proc.wait()
    # Children that outlived their parent (a shell wrapper, a forked worker) go too.
    _signal_group(proc, signal.SIGKILL)
    if proc in _children:
        _children.remove(proc)
    return proc.returncode


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def stop_all() -> None:
    for proc in list(_children):
        stop(proc, grace_s=5.0)


def run(command: str | list[str], *, cwd: Path, env: dict[str, str], log: Path, timeout_s: float | None = None) -> int:
    """Runs a command to completion with its output in a log file; stopped with the runner."""
    if isinstance(command, list):
        import shlex

        command = shlex.join(command)
    proc = spawn(command, cwd=cwd, env=env, log=log)
    try:
        # Back as soon as it ends: a vegeta step's read-back is one of these, hundreds in a run.
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        stop(proc)
        return 124
    stop(proc)
    return proc.returncode


def tail(log: Path, lines: int = 40) -> str:
    try:
        text = log.read_text(errors="replace")
    except FileNotFoundError:
        return ""
    return "\n".join(text.rstrip().splitlines()[-lines:])


def _on_signal(signum: int, _frame: FrameType | None) -> NoReturn:
    # Turn SIGTERM into the same unwinding as Ctrl-C so every `finally` runs.
    raise KeyboardInterrupt


def install_handlers() -> None:
    atexit.register(stop_all)
    # A runner started in the background by a script inherits SIGINT ignored, and Python then
    # leaves it ignored: Ctrl-C (or kill -INT) must stop it all the same.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGHUP, _on_signal)
