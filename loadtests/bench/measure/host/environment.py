"""What a result was measured on: machine, kernel, tool and runtime versions, git commit."""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path

from bench import paths
from bench.records import Machine, Versions


def _first_line(argv: list[str]) -> str | None:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or out.stderr).strip()
    return text.splitlines()[0] if text else None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory_bytes() -> int:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def os_name() -> str:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip('"')
    except OSError:
        pass
    return platform.system()


def git_commit() -> str | None:
    """HEAD, with "-dirty" if a tracked file other than results.md and those under results/ has
    changed: what a run writes there (results.md, raw files, charts) is its output, not the code
    that measured it, so a run that goes on from an earlier one's uncommitted records (--resume)
    names the same commit, even after a run that wrote results.md with a record failed."""
    commit = _first_line(["git", "-C", str(paths.ROOT), "rev-parse", "HEAD"])
    if commit is None or len(commit) != 40:
        return None
    # Where a published run writes (paths.result_paths), so that the two cannot drift apart again.
    published = paths.result_paths("quick")
    run_output = [f":(exclude){p.relative_to(paths.ROOT)}" for p in (published.output, published.target)]
    dirty = subprocess.run(
        ["git", "-C", str(paths.ROOT), "status", "--porcelain", "--untracked-files=no", "--", ".", *run_output],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return commit + ("-dirty" if dirty else "")


def machine() -> Machine:
    return Machine(
        cpu_model=cpu_model(),
        cores=os.cpu_count() or 1,
        memory_bytes=memory_bytes(),
        kernel=platform.release(),
        os=os_name(),
    )


# How each load generator is asked its version where `--version` is not the way.
VERSION_ARGUMENT = {"k6": "version", "vegeta": "-version"}


def _named(name: str, line: str | None) -> str | None:
    """A version line that does not name its tool (vegeta's "Version: v12.13.0") as one that does."""
    if line is None or line.lower().startswith(name):
        return line
    return f"{name} {line.removeprefix('Version:').strip()}"


def tool_versions(pg_bindir: Path | None, tools: dict[str, Path]) -> Versions:
    """PostgreSQL's (None without a local cluster: --target), Python's and those of the load
    generators in `tools` (k6, oha, vegeta)."""
    loadgens = {
        name: _named(name, _first_line([str(path), VERSION_ARGUMENT.get(name, "--version")]))
        for name, path in tools.items()
    }
    return Versions.model_validate(
        {
            "postgres": _first_line([str(pg_bindir / "postgres"), "--version"]) if pg_bindir else None,
            "python": platform.python_version(),
            **loadgens,
        }
    )
