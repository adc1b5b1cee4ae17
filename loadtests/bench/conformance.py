"""The conformance suite (spec/conformance) run against one stack, and the step it makes of a row:
`./bench test` runs it against the stack started here (bench.testing.pipeline), the Docker path
against the stack's container (bench.docker.cycle). One pytest run for both, its JUnit report
read the same way; what differs between them is a parameter: where the stack answers, how its
PostgreSQL is stopped and started, the environment their commands need, and the cases run.
bench.testing.runner reads the runner's own tests' report with the same functions."""

from __future__ import annotations

import secrets
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bench import paths, procs
from bench.manifest import Stack

# One conformance suite for every dialect; CONFORMANCE_DIALECT tells it the representation the
# stack serves (manifest.Manifest.dialect), and the cases of the other dialect are left out.
CONFORMANCE_SUITE = paths.SPEC_DIR / "conformance"
# The suite fakes the stock upstream of GET /items/{id}/stock in its own process
# (spec/conformance/stock_upstream.py), on a port chosen by the caller: the stack's STOCK_URL
# names it, and the suite is told the port (and, where the stack runs elsewhere, the address to
# listen on).
UPSTREAM_PORT_VARIABLE = "CONFORMANCE_UPSTREAM_PORT"
UPSTREAM_HOST_VARIABLE = "CONFORMANCE_UPSTREAM_HOST"
# The cases that judge a request or the upstream's answer in the code alone (spec/conformance/
# conftest.py): how parameters and bodies are parsed, which field a 422 names, which status an
# upstream's answer comes to. A run without them (`whole_suite=False`) keeps every case that
# touches what the stack runs on: its database, its upstream, its memory and its CPU.
CODE_ONLY_MARKER = "code_only"
# spec/conformance/test_logs.py sends rows that PostgreSQL rejects (a taken code or sku, an
# unknown category) with this marker in their values; the stack's log must not hold it afterwards
# (spec/API.md: a stack never logs SQL parameters, nor PostgreSQL's DETAIL, which repeats a key).
LOG_MARKER_VARIABLE = "CONFORMANCE_LOG_MARKER"
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
SUITE_TIMEOUT_S = 900


@dataclass
class Step:
    """One step of a row of `./bench test`'s table, or of the Docker path's: whether it passed,
    what it says, and its log."""

    ok: bool
    summary: str
    log: Path | None = None


@dataclass(frozen=True)
class SuiteRun:
    step: Step
    passed: int
    failed: int
    """The cases that failed, and one more where pytest failed without a failed case (it did not
    collect, or it timed out): a row that counts it fails."""


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


def run_suite(
    stack: Stack,
    *,
    base_url: str,
    upstream_port: int,
    db_stop: str,
    db_start: str,
    logs: Path,
    env: Mapping[str, str] | None = None,
    whole_suite: bool = True,
) -> SuiteRun:
    """The suite in `stack`'s dialect against `base_url`, its resilience cases stopping and
    starting PostgreSQL with `db_stop` and `db_start`, its fake stock upstream on
    `upstream_port`; its log and report in `logs`. `env` adds to (or replaces) what the suite's
    process is given; without the code-only cases unless `whole_suite`."""
    log = logs / f"{stack.name}-conformance.log"
    report = logs / f"{stack.name}-conformance.xml"
    report.unlink(missing_ok=True)
    suite_env = {
        "PATH": DEFAULT_PATH,
        "BASE_URL": base_url,
        "BENCH_DB_STOP": db_stop,
        "BENCH_DB_START": db_start,
        "CONFORMANCE_STRICT": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "CONFORMANCE_DIALECT": stack.dialect,
        UPSTREAM_PORT_VARIABLE: str(upstream_port),
        **(env or {}),
    }
    left_out = () if whole_suite else ("-m", f"not {CODE_ONLY_MARKER}")
    command = pytest_command(str(CONFORMANCE_SUITE), report, *left_out)
    code = procs.run(command, cwd=paths.ROOT, env=suite_env, log=log, timeout_s=SUITE_TIMEOUT_S)
    passed, failed, skipped = junit_counts(report)
    ok = code == 0 and failed == 0 and skipped == 0 and passed > 0
    scope = "" if whole_suite else " (without the code-only cases)"
    summary = f"{CONFORMANCE_SUITE.name}{scope}: {passed} passed, {failed} failed" + (
        f", {skipped} skipped" if skipped else ""
    )
    return SuiteRun(Step(ok, summary, log), passed, failed + (1 if code != 0 and failed == 0 else 0))


def new_log_marker() -> str:
    """A marker no stack's log holds by chance, short enough to be a category's code."""
    return f"logmarker-{secrets.token_hex(6)}"


def rows_kept_out_of(log: Path, marker: str) -> Step:
    """The log step of a row: whether the stack's log holds `marker`, the values of the rows
    the suite had PostgreSQL reject."""
    try:
        text = log.read_text(errors="replace")
    except OSError as error:
        return Step(False, f"the stack's log could not be read: {error.strerror}", log)
    found = [number for number, line in enumerate(text.splitlines(), 1) if marker in line]
    if not found:
        return Step(True, "no row values", log)
    lines = "line" if len(found) == 1 else f"{len(found)} lines, from line"
    return Step(False, f"a rejected row's values in the log ({lines} {found[0]})", log)
