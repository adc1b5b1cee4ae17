"""Every operation of the spec fuzzed with schemathesis, then chains of operations along its links.

One test per operation (its examples, coverage cases and generated cases) and one for the
stateful scenarios. A failure names each check that failed, the answer, and a curl command that
sends the request again (for a scenario, also the requests that came before it).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import schemathesis
from hypothesis import settings
from schemathesis.core.failures import Failure

from harness import BUDGET, SETTINGS, fuzzer_only_path, past_longest_target

schema = schemathesis.openapi.from_path(SETTINGS.spec, config=SETTINGS.config())


@schema.hook
def filter_failure(
    context: schemathesis.HookContext,
    failure: Failure,
    case: schemathesis.Case[Any],
    response: schemathesis.Response,
) -> bool:
    """Keeps every failure but those of a framework's 4xx to an input only a fuzzer sends (a
    request target past the longest one the contract asks a stack to serve, a path with an
    encoded slash, backslash or NUL): its status and shape are the framework's own."""
    fuzzer_only = past_longest_target(case) or fuzzer_only_path(case)
    return not (400 <= response.status_code < 500 and fuzzer_only)


@schema.parametrize()
def test_operation(case: schemathesis.Case[Any]) -> None:
    BUDGET.check()
    with BUDGET.sending(case):
        case.call_and_validate()


class Scenarios(schema.as_state_machine()):  # type: ignore[misc]
    def setup(self) -> None:
        self.sent: list[str] = []

    def call(self, case: schemathesis.Case[Any], **kwargs: Any) -> schemathesis.Response:
        BUDGET.check()
        with self.after_earlier_steps(), BUDGET.sending(case):
            response: schemathesis.Response = super().call(case, **kwargs)
        self.sent.append(case.as_curl_command())
        return response

    def validate_response(
        self,
        response: schemathesis.Response,
        case: schemathesis.Case[Any],
        additional_checks: Any = None,
        **kwargs: Any,
    ) -> None:
        with self.after_earlier_steps(self.sent[:-1]), BUDGET.watching():
            super().validate_response(response, case, additional_checks, **kwargs)

    @contextmanager
    def after_earlier_steps(self, earlier: list[str] | None = None) -> Iterator[None]:
        try:
            yield
        # schemathesis's FailureGroup is a BaseExceptionGroup, not an Exception.
        except (Exception, BaseExceptionGroup) as error:
            steps = self.sent if earlier is None else earlier
            if steps:
                error.add_note(
                    "After these requests of the same scenario:\n\n" + "\n".join(f"    {step}" for step in steps)
                )
            raise


def test_scenarios() -> None:
    # A plain test rather than Scenarios.TestCase, a unittest case: pytest hands its errors to
    # unittest's result object, past the hooks of conftest.py.
    Scenarios.run(settings=settings(Scenarios.TestCase.settings, max_examples=SETTINGS.max_examples))
