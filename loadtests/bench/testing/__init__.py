"""`./bench test`: the rows of its table and the steps in them, and how a pytest run is read.

pipeline      each stack's row: build, own tests, conformance suite, SIGTERM check, fuzz pass
fuzzing       the fuzz pass of one stack (bench.fuzz), bounded in ./bench test
runner        the runner's row: ruff and mypy, the deploy/k8s check, ESLint and actionlint, its own tests
changed       the stacks a change since a git revision touches (./bench test --changed)
smoke         `./bench run go-gin --profile smoke`, its raw JSON validated
prefetch      the load generators and the Docker images built ahead, beside the stacks' rows
docker_path   `./bench docker` and the checks of compose.yaml and the Dockerfiles
table         the pass/fail table and each failed step again after it
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from bench import paths
from bench.manifest import Stack


@dataclass
class Step:
    ok: bool
    summary: str
    log: Path | None = None


@dataclass
class StackResult:
    stack: str
    steps: dict[str, Step] = field(default_factory=dict)
    passed: int = 0
    failed: int = 0

    @property
    def ok(self) -> bool:
        return bool(self.steps) and all(s.ok for s in self.steps.values())


def junit_counts(report: Path) -> tuple[int, int, int]:
    """(passed, failed, skipped) from a pytest JUnit XML report."""
    try:
        root = ET.parse(report).getroot()
    except (FileNotFoundError, ET.ParseError):
        return 0, 0, 0
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    total = failed = skipped = 0
    for suite in suites:
        total += int(suite.get("tests", 0))
        failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    return total - failed - skipped, failed, skipped


def pytest_command(target: str, report: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pytest",
        target,
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "console_output_style=classic",
        f"--junitxml={report}",
        *extra,
    ]


# One conformance suite for every dialect; CONFORMANCE_DIALECT tells it the representation the
# stack serves (manifest.Manifest.dialect), and the cases of the other dialect are left out.
CONFORMANCE_SUITE = paths.SPEC_DIR / "conformance"
# The suite fakes the stock upstream of GET /items/{id}/stock in its own process
# (spec/conformance/stock_upstream.py), on a port chosen here: the stack's STOCK_URL names it, and
# the suite is told the port (and, where the stack runs elsewhere, the address to listen on).
UPSTREAM_PORT_VARIABLE = "CONFORMANCE_UPSTREAM_PORT"
UPSTREAM_HOST_VARIABLE = "CONFORMANCE_UPSTREAM_HOST"


def conformance_env(stack: Stack, upstream_port: int) -> dict[str, str]:
    return {"CONFORMANCE_DIALECT": stack.dialect, UPSTREAM_PORT_VARIABLE: str(upstream_port)}
