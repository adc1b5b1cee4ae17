"""Where the repository, the runner's state and the results are."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parents[2])
HOME = Path(os.environ.get("BENCH_HOME") or ROOT / ".bench")
LOGS = HOME / "logs"
BIN = HOME / "bin"
DB_DIR = ROOT / "db"
SPEC_DIR = ROOT / "spec"
# Where `--output` experiments that are kept go (results/experiments/DATE-NAME/), by convention.
EXPERIMENTS = ROOT / "results" / "experiments"


def ensure_dirs() -> None:
    for directory in (HOME, LOGS, BIN):
        directory.mkdir(parents=True, exist_ok=True)


@dataclass(frozen=True)
class ResultPaths:
    output: Path  # raw/ and the charts
    target: Path  # results.md
    analysis: Path | None  # the hand-written text placed above the tables


def result_paths(profile: str, output: Path | None = None) -> ResultPaths:
    """Published profiles write results/ and results.md; smoke runs (.bench/results/) and
    experiments (--output) are never published, and carry no analysis."""
    if profile != "smoke" and output is None:
        return ResultPaths(ROOT / "results", ROOT / "results.md", ROOT / "results" / "analysis.md")
    directory = output.resolve() if output else HOME / "results"
    return ResultPaths(directory, directory / "results.md", None)
