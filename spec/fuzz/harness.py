"""What the fuzz pass takes from its environment, and the time budget it keeps.

`./bench fuzz` and `./bench test` set these; by hand, only BASE_URL is needed:

    BASE_URL=http://127.0.0.1:8080 .bench/venv/bin/python -m pytest spec/fuzz

FUZZ_SPEC names the description to generate from: spec/openapi.yaml by default, and
spec/hal-openapi.yaml for a stack of the HAL dialect (bench.fuzz.spec_for chooses by the
stack's `dialect`). The same checks hold for both.

Hypothesis has no wall-clock limit, so the budget is kept here: each test gets an equal share
of what is left of FUZZ_SECONDS when it starts, and once its share is spent it ends as skipped
(Hypothesis lets a skip through at once, where any other way out would be a failure). A test
that has failed ignores its share, so that Hypothesis can replay the failing example and
report it.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import reject
from hypothesis.errors import UnsatisfiedAssumption

# The checks a fuzz pass makes: no 5xx, and every answer as the spec documents it.
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
)


@dataclass(frozen=True)
class Settings:
    base_url: str
    spec: Path
    max_examples: int
    seconds: float
    request_timeout_s: float
    seed: int | None

    @classmethod
    def from_environment(cls) -> Settings:
        seed = os.environ.get("FUZZ_SEED")
        return cls(
            base_url=os.environ.get("BASE_URL", "http://127.0.0.1:8080").rstrip("/"),
            spec=Path(os.environ.get("FUZZ_SPEC") or Path(__file__).resolve().parents[1] / "openapi.yaml"),
            max_examples=int(os.environ.get("FUZZ_MAX_EXAMPLES", "100")),
            seconds=float(os.environ.get("FUZZ_SECONDS", "300")),
            request_timeout_s=float(os.environ.get("FUZZ_REQUEST_TIMEOUT", "10")),
            seed=int(seed) if seed else None,
        )

    def config(self) -> schemathesis.Config:
        data: dict[str, Any] = {
            "base-url": self.base_url,
            "request-timeout": self.request_timeout_s,
            # Never follow a redirect: /avatar points at a host outside this machine.
            "max-redirects": 0,
            "suppress-health-check": ["all"],
            "warnings": False,
            "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
            # No shrinking: each shrink step is another request, and the budget would not hold.
            # No example database: one run carries nothing over to the next.
            "generation": {"max-examples": self.max_examples, "no-shrink": True, "database": "none"},
        }
        if self.seed is not None:
            data["seed"] = self.seed
        return schemathesis.Config.from_dict(data)


# RFC 9110 (section 4.1) asks every recipient to take URIs of at least 8,000 octets, and
# spec/API.md makes that the longest request target (path and query) a stack must serve. Past
# it, a refusal is the framework's own (a 4xx of its choosing, or a closed connection), as for
# the other inputs only a fuzzer sends; a 5xx or a hang still fails.
LONGEST_TARGET_SERVED = 8000


def request_target(case: schemathesis.Case[Any]) -> str:
    """The path and query `case` sends, percent-encoded as on the wire."""
    sent = case.as_transport_kwargs(base_url=SETTINGS.base_url)
    target: str = requests.Request(sent["method"], sent["url"], params=sent.get("params")).prepare().path_url
    return target


def past_longest_target(case: schemathesis.Case[Any]) -> bool:
    return len(request_target(case)) > LONGEST_TARGET_SERVED


# Encoded in a path, these are inputs only a fuzzer sends (spec/API.md): no id holds one, and a
# servlet container refuses the path with its own 4xx before the application runs.
FUZZER_ONLY_PATH_ESCAPES = re.compile(r"%(2F|5C|00)", re.IGNORECASE)


def fuzzer_only_path(case: schemathesis.Case[Any]) -> bool:
    path = request_target(case).split("?", 1)[0]
    return FUZZER_ONLY_PATH_ESCAPES.search(path) is not None


class NoResponse(AssertionError):
    """A request that got no answer: a hang (past the request timeout) or a dropped connection."""


@dataclass
class Budget:
    seconds: float
    started: float = field(default_factory=time.monotonic)
    tests_left: int = 0
    # Of the test running now.
    share_ends: float = 0.0
    requests: int = 0
    failed: bool = False
    ran_out: bool = False

    def start_test(self) -> None:
        left = max(0.0, self.started + self.seconds - time.monotonic())
        self.share_ends = time.monotonic() + left / max(1, self.tests_left)
        self.tests_left -= 1
        self.requests = 0
        self.failed = False
        self.ran_out = False

    def check(self) -> None:
        """Ends the test as skipped once its share is spent, unless it has failed."""
        if not self.failed and time.monotonic() >= self.share_ends:
            self.ran_out = True
            pytest.skip(f"its share of the time budget is spent, after {self.requests} requests")

    @contextmanager
    def watching(self) -> Iterator[None]:
        """Notes a failure, so that the test keeps sending to replay it whatever its share."""
        try:
            yield
        except UnsatisfiedAssumption:
            raise
        except BaseException:
            self.failed = True
            raise

    @contextmanager
    def sending(self, case: schemathesis.Case[Any]) -> Iterator[None]:
        """Counts the request; a missing answer becomes a failure that says how to send it again."""
        self.requests += 1
        with self.watching():
            try:
                yield
            except requests.Timeout:
                raise NoResponse(
                    f"no response within {SETTINGS.request_timeout_s:g} s (a hang)" + _reproduce(case)
                ) from None
            # A connection dropped while sending, or while the answer was read.
            except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as error:
                if past_longest_target(case):
                    # A closed connection is a refusal the contract allows; Hypothesis counts
                    # the example as one it could not use, and no step after it runs.
                    reject()
                raise NoResponse(
                    f"the connection failed or was dropped ({type(error).__name__})" + _reproduce(case)
                ) from None


def _reproduce(case: schemathesis.Case[Any]) -> str:
    return "\n\nReproduce with:\n\n    " + case.as_curl_command()


SETTINGS = Settings.from_environment()
BUDGET = Budget(SETTINGS.seconds)
