"""Fuzzing a running stack: the schemathesis suite of spec/fuzz, run by pytest against it.

The suite uses schemathesis's pytest integration (`@schema.parametrize()` for each operation,
`schema.as_state_machine()` for chains along the spec's links) and writes what each test found
to a JSON report, read here. What counts as a failure:
- a check fails: `not_a_server_error` (any 5xx), `status_code_conformance` (a status the
  operation does not document), `content_type_conformance`, `response_schema_conformance`,
  `response_headers_conformance` (e.g. `Location` on a 201);
- a request gets no response within `request_timeout_s` (a hang) or its connection drops;
- the stack's process is no longer running when the pass ends (testing.fuzzing.run_fuzz checks it);
- a test cannot run (schemathesis or Hypothesis raise), or the pass sends no request at all.
Each failure is printed as schemathesis reports it, with a curl command that sends the request
again. Reaching the time budget is not a failure: the suite stops sending and reports.

Each dialect is fuzzed from its own description (`spec_for`): spec/openapi.yaml for the API's,
spec/hal-openapi.yaml for the HAL of spec/hal.md, with the same checks.
"""

from __future__ import annotations

import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError

from bench import paths, procs

SUITE = paths.SPEC_DIR / "fuzz"
SPEC = paths.SPEC_DIR / "openapi.yaml"
# The description each dialect (manifest.Manifest.dialect) is fuzzed from: spec/API.md's, and
# spec/hal.md's for the stacks that serve Spring Data REST's HAL.
SPECS: dict[str, Path] = {"api": SPEC, "hal": paths.SPEC_DIR / "hal-openapi.yaml"}
REQUEST_TIMEOUT_S = 10.0
# On top of the budget: loading the spec, building the coverage cases, the last request.
STARTUP_ALLOWANCE_S = 90.0

# Errors raised inside the fuzzer's own Python, whatever the stack answered: CI once saw
# "SystemError: AST constructor recursion depth mismatch" from Python 3.11's ast module, which
# python/cpython#106905 describes as spurious, seen rarely and in threaded programs. That was
# schemathesis's command line, which runs its phases in threads; the suite runs in one thread,
# so it should not recur, but if it does it says nothing about the stack: testing.fuzzing.run_fuzz
# fuzzes once more.
FUZZER_CRASHES = frozenset({"SystemError"})
# Lines of a failure printed on the console before its answer and curl command; all of it is
# in the `.failures.txt` file beside the log.
CONSOLE_LINES = 20


class Outcome(BaseModel):
    """One test of the suite, as spec/fuzz/conftest.py reports it."""

    test: str  # "POST /items", or "stateful scenarios"
    outcome: Literal["passed", "failed", "skipped"]
    requests: int = 0
    ran_out: bool = False  # its share of the time budget ended before its examples did
    error: str | None = None  # the exception's type
    message: str | None = None


class SuiteReport(BaseModel):
    seed: int | None = None
    exit_status: int
    tests: list[Outcome]


@dataclass
class Finding:
    """One failed test: what failed, and how to send it again."""

    operation: str
    error: str
    message: str

    @property
    def title(self) -> str:
        return self.message.strip().splitlines()[0] if self.message.strip() else self.error

    @property
    def crash(self) -> bool:
        return self.error in FUZZER_CRASHES

    def render(self, limit: int | None = None) -> str:
        lines = _abridge(self.message.strip().splitlines(), limit) if limit else self.message.strip().splitlines()
        return "\n".join([f"{self.operation} · {self.error}", *(f"    {line}" if line else "" for line in lines)])


@dataclass
class FuzzResult:
    ok: bool
    cases: int  # requests sent
    failures: list[Finding]
    passed: int = 0  # tests of the suite
    seed: int | None = None
    elapsed_s: float = 0.0
    log: Path | None = None
    report: Path | None = None
    ran_out: list[str] = field(default_factory=list)  # tests stopped by the time budget
    stopped: list[tuple[str, str]] = field(default_factory=list)  # (test, why) stopped for another reason
    exit_code: int | None = None

    @property
    def failed(self) -> int:
        return len(self.failures)

    @property
    def fuzzer_crashed(self) -> bool:
        """Failed only because the fuzzer crashed: it says nothing about the stack either way."""
        return bool(self.failures) and all(f.crash for f in self.failures)

    def summary(self) -> str:
        verdict = "ok" if self.ok else f"{self.failed} failure(s)"
        budget = f", time budget reached in {len(self.ran_out)} test(s)" if self.ran_out else ""
        stopped = f", {len(self.stopped)} stopped early" if self.stopped else ""
        return f"{verdict}: {self.cases} requests in {self.elapsed_s:.0f} s{budget}{stopped}"

    def render(self, limit: int | None = CONSOLE_LINES) -> str:
        seed = f" (seed {self.seed}: FUZZ_SEED={self.seed} makes spec/fuzz draw the same cases)"
        head = self.summary() + (seed if self.seed is not None else "")
        notes = [f"{test} · stopped early: {why}" for test, why in self.stopped]
        return "\n".join([head, *notes, *(f.render(limit) for f in self.failures)])


def _abridge(lines: list[str], limit: int) -> list[str]:
    """The head of a long report, then its answer and curl command, which always show."""
    tail = next(
        (i for i in range(len(lines) - 1, -1, -1) if lines[i].startswith("[") and lines[i].rstrip().endswith(":")), None
    )
    if tail is None:
        tail = next((i for i, line in enumerate(lines) if line.startswith("Reproduce with")), len(lines))
    if tail <= limit:
        return lines
    return [*lines[:limit], f"… {tail - limit} more lines in the .failures.txt file beside the log", *lines[tail:]]


def spec_for(dialect: str) -> Path:
    """The OpenAPI description that a stack of `dialect` is fuzzed from."""
    return SPECS[dialect]


def suite_command(seed: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pytest",
        str(SUITE),
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "console_output_style=classic",
        f"--hypothesis-seed={seed}",
    ]


def fuzz_stack(
    base_url: str,
    *,
    max_examples: int,
    seconds: float,
    log: Path,
    spec: Path = SPEC,
    request_timeout_s: float = REQUEST_TIMEOUT_S,
    seed: int | None = None,
) -> FuzzResult:
    """Fuzzes the stack at `base_url` with every operation of `spec` and returns what failed.

    Bounds: at most `max_examples` generated cases per operation (plus its examples and
    coverage cases) and as many stateful scenarios, and `seconds` of sending, shared between the
    tests. Loading the spec comes on top; past `seconds` + STARTUP_ALLOWANCE_S the suite is
    stopped regardless. Writes pytest's output to `log`, the suite's report beside it (`.report.json`)
    and every failure in full to `.failures.txt`.
    """
    seed = random.randrange(1 << 32) if seed is None else seed
    log.parent.mkdir(parents=True, exist_ok=True)
    report = log.with_suffix(".report.json")
    report.unlink(missing_ok=True)
    env = dict(
        os.environ,
        BASE_URL=base_url,
        FUZZ_SPEC=str(spec),
        FUZZ_MAX_EXAMPLES=str(max_examples),
        FUZZ_SECONDS=f"{seconds:g}",
        FUZZ_REQUEST_TIMEOUT=f"{request_timeout_s:g}",
        FUZZ_SEED=str(seed),
        FUZZ_REPORT=str(report),
        PYTHONDONTWRITEBYTECODE="1",
        # Loopback only: no proxy between the fuzzer and the stack.
        NO_PROXY="*",
        no_proxy="*",
        # Hypothesis caches its Unicode tables there (seconds to rebuild on every run).
        HYPOTHESIS_STORAGE_DIRECTORY=str(paths.HOME / "hypothesis"),
    )
    started = time.monotonic()
    code = procs.run(
        suite_command(seed), cwd=SUITE, env=env, log=log, timeout_s=seconds + request_timeout_s + STARTUP_ALLOWANCE_S
    )
    result = read_report(report, log, code)
    result.seed, result.elapsed_s, result.log, result.report = seed, time.monotonic() - started, log, report
    log.with_suffix(".failures.txt").write_text(result.render(limit=None) + "\n")
    return result


def note_exit(result: FuzzResult, exit_code: int | None, server_log: Path) -> None:
    """Makes a stack that exited during the pass a failure of `result` (the process must stay up)."""
    result.failures.append(
        Finding(
            "(process)",
            "exited",
            f"the stack exited during the fuzz pass (exit code {exit_code}); its log {server_log}:\n"
            f"{procs.tail(server_log, 15)}",
        )
    )
    result.ok = False


def read_report(report: Path, log: Path, code: int) -> FuzzResult:
    """The suite's report as a result; a suite that could not report is a failure that says why."""
    try:
        suite = SuiteReport.model_validate_json(report.read_text())
    except (OSError, ValidationError) as error:
        why = "did not finish in time" if code == 124 else f"exited with code {code} without a report"
        detail = f"{error}\n" if isinstance(error, ValidationError) else ""
        return FuzzResult(
            ok=False,
            cases=0,
            exit_code=code,
            failures=[Finding("(suite)", "error", f"the fuzz suite {why}\n{detail}{procs.tail(log, 15)}")],
        )
    failures = [
        Finding(t.test, t.error or "error", t.message or "failed") for t in suite.tests if t.outcome == "failed"
    ]
    cases = sum(t.requests for t in suite.tests)
    if not suite.tests or (code not in (0, 1) and not failures):
        failures.append(Finding("(suite)", "error", f"pytest exited with code {code}\n{procs.tail(log, 15)}"))
    elif cases == 0 and not failures:
        failures.append(
            Finding("(suite)", "error", f"no request was sent: a pass that sends nothing proves nothing; see {log}")
        )
    return FuzzResult(
        ok=not failures,
        cases=cases,
        failures=failures,
        exit_code=code,
        passed=sum(t.outcome != "failed" for t in suite.tests),
        ran_out=[t.test for t in suite.tests if t.ran_out],
        stopped=[(t.test, t.message or "skipped") for t in suite.tests if t.outcome == "skipped" and not t.ran_out],
    )
