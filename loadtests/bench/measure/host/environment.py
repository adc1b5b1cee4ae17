"""What a result was measured on: machine, kernel, tool and runtime versions, git commit."""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
from collections.abc import Sequence
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


def memory_bytes(proc: Path = Path("/proc")) -> int:
    try:
        for line in (proc / "meminfo").read_text().splitlines():
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


def git_commit(measured: Sequence[str] = (".",)) -> str | None:
    """HEAD, with "-dirty" if a tracked file of the pathspecs `measured` has changed, other than
    results.md and those under results/: what a run writes there (results.md, raw files, charts)
    is its output, not the code that measured it, so a run that goes on from an earlier one's
    uncommitted records (--resume) names the same commit. A run passes the inputs it measures
    from (bench.measure.plan.inputs.measured_pathspecs), so that docs edited beside it do not
    mark its records dirty."""
    commit = _first_line(["git", "-C", str(paths.ROOT), "rev-parse", "HEAD"])
    if commit is None or len(commit) != 40:
        return None
    # Where a published run writes (paths.result_paths), so that the two cannot drift apart again.
    published = paths.result_paths("quick")
    run_output = [f":(exclude){p.relative_to(paths.ROOT)}" for p in (published.output, published.target)]
    dirty = subprocess.run(
        ["git", "-C", str(paths.ROOT), "status", "--porcelain", "--untracked-files=no", "--", *measured, *run_output],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return commit + ("-dirty" if dirty else "")


def first_processor(cpuinfo: str) -> dict[str, str]:
    """The fields of /proc/cpuinfo's first processor: every processor of a machine is the same
    model, and the first block is the one every architecture prints."""
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        if not line.strip():
            if fields:
                break
            continue
        key, sep, value = line.partition(":")
        if sep:
            fields.setdefault(key.strip(), value.strip())
    return fields


def _number(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def flags_digest(flags: str) -> str:
    """16 hex digits that change when the CPU exposes another feature, in whatever order it lists them."""
    return hashlib.sha256(" ".join(sorted(flags.split())).encode()).hexdigest()[:16]


def hypervisor(flags: list[str], sysfs: Path = Path("/sys")) -> str | None:
    """The hypervisor's name where the CPU says it runs under one; None on bare metal."""
    if "hypervisor" not in flags:
        return None
    try:
        name = (sysfs / "hypervisor" / "type").read_text().strip()
    except OSError:
        name = ""
    # --vm: in a container it would name the container (docker), not the machine under it.
    name = name or _first_line(["systemd-detect-virt", "--vm"]) or ""
    return name if name and name != "none" else "unknown"


def machine(proc: Path = Path("/proc"), sysfs: Path = Path("/sys")) -> Machine:
    try:
        cpu = first_processor((proc / "cpuinfo").read_text())
    except OSError:
        cpu = {}
    # ARM's cpuinfo names its flags "Features" and has no model name, family or microcode.
    flags = cpu.get("flags", cpu.get("Features"))
    return Machine(
        cpu_model=cpu.get("model name") or platform.processor() or "unknown",
        cores=os.cpu_count() or 1,
        memory_bytes=memory_bytes(proc),
        kernel=platform.release(),
        os=os_name(),
        cpu_family=_number(cpu.get("cpu family")),
        cpu_model_number=_number(cpu.get("model")),
        stepping=_number(cpu.get("stepping")),
        microcode=cpu.get("microcode"),
        cache_size=cpu.get("cache size"),
        flags_sha256=flags_digest(flags) if flags is not None else None,
        hypervisor=hypervisor(flags.split() if flags else [], sysfs),
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
