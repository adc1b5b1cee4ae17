"""Shares the time budget between the tests and, for the runner, reports what each one found."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from hypothesis.errors import FlakyStrategyDefinition
from schemathesis.errors import FailureGroup

from harness import BUDGET, SETTINGS

_results: list[dict[str, Any]] = []


def pytest_report_header() -> str:
    seed = SETTINGS.seed if SETTINGS.seed is not None else "random"
    return (
        f"fuzzing {SETTINGS.base_url} from {SETTINGS.spec}: {SETTINGS.max_examples} examples per "
        f"operation, {SETTINGS.seconds:g} s in all, seed {seed}"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    # One seed for everything: schemathesis's per-operation tests take it from their config,
    # Hypothesis's stateful test from this option, which its plugin reads after this hook.
    if SETTINGS.seed is not None and config.getoption("hypothesis_seed") is None:
        config.option.hypothesis_seed = str(SETTINGS.seed)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Loading the spec and building the coverage cases came first: the budget starts now.
    BUDGET.started = time.monotonic()
    BUDGET.tests_left = len(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None]:
    BUDGET.start_test()
    try:
        return (yield)
    except FlakyStrategyDefinition:
        if BUDGET.failed:
            raise
        # The server's state (rows written by earlier cases) changed what a case replayed by
        # Hypothesis drew; schemathesis's own engine counts that as no failure either.
        pytest.skip(
            f"stopped after {BUDGET.requests} requests: Hypothesis could not replay a case the same way, "
            "the server's state had changed what it drew"
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    report = yield
    if report.when == "call" or report.failed:
        error = call.excinfo.value if call.excinfo and not report.skipped else None
        _results.append(
            {
                # test_operation[POST /items] is the operation's test; test_scenarios, the scenarios'.
                "test": item.name.partition("[")[2].removesuffix("]") or "stateful scenarios",
                "outcome": report.outcome,
                "requests": BUDGET.requests if report.when == "call" else 0,
                "ran_out": BUDGET.ran_out if report.when == "call" else False,
                "error": None if error is None else type(error).__name__,
                "message": describe(error) if error else str(call.excinfo.value) if call.excinfo else None,
            }
        )
    return report


def describe(error: BaseException) -> str:
    """What failed, as schemathesis reports it: each check, the answer, a curl command."""
    if isinstance(error, FailureGroup):
        text = error.message
    elif isinstance(error, BaseExceptionGroup):
        return "\n\n".join(describe(e) for e in error.exceptions)
    elif isinstance(error, AssertionError):
        text = str(error)
    else:
        text = f"{type(error).__name__}: {error}"
    notes = [note for note in getattr(error, "__notes__", []) if note.startswith("After these requests")]
    return "\n\n".join([text.rstrip(), *notes])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # FUZZ_REPORT is set by the runner, which reads the findings from it.
    path = os.environ.get("FUZZ_REPORT")
    if path:
        report = {"seed": SETTINGS.seed, "exit_status": int(exitstatus), "tests": _results}
        Path(path).write_text(json.dumps(report, indent=1), encoding="utf-8")
