"""Running one load generator (k6, oha or pgbench) to completion, its request rate reported as it
runs (to the live line of `./bench run`)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from bench import paths, procs
from bench.errors import BenchError
from bench.measure.load.k6 import k6_completed


def run_load(command: str, log: Path, on_rate: Callable[[float], object], timeout_s: float) -> int | None:
    """Runs `command` with its output in `log`; the request rate comes from k6's progress lines
    (oha and pgbench print none while they run). Returns the exit code."""
    proc = procs.spawn(command, cwd=paths.ROOT, env=dict(os.environ), log=log)
    deadline = time.monotonic() + timeout_s
    last_time, last_count = time.monotonic(), 0
    try:
        while proc.poll() is None:
            if time.monotonic() > deadline:
                procs.stop(proc)
                raise BenchError(f"the load generator did not finish within {timeout_s:.0f} s; log {log}")
            # Back at once when the run ends (a smoke run has hundreds of a few seconds each: a
            # plain half-second sleep kept each up to 0.5 s longer), else to read its progress.
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.5)
            completed = k6_completed(log.read_text(errors="replace")) if log.exists() else None
            now = time.monotonic()
            if completed is not None and completed >= last_count and now > last_time:
                on_rate((completed - last_count) / (now - last_time))
                last_time, last_count = now, completed
    finally:
        procs.stop(proc)
    return proc.returncode
