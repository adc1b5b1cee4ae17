"""`./bench test`: the rows of its table and the steps in them.

pipeline      each stack's row: build, own tests, conformance suite (bench.conformance), SIGTERM
              check, resilience case, fuzz pass
resilience    the resilience case of one stack under its cap: an oversized body, bursts, slow clients
fuzzing       the fuzz pass of one stack (bench.fuzz), bounded in ./bench test
runner        the runner's row: ruff and mypy, the deploy/k8s check, ESLint and actionlint, its own tests
changed       the stacks a change since a git revision touches (./bench test --changed)
smoke         `./bench run go-gin --profile smoke`, its raw JSON validated
prefetch      the load generators and the Docker images built ahead, beside the stacks' rows
docker_path   `./bench docker` and the checks of compose.yaml and the Dockerfiles
table         the pass/fail table and each failed step again after it
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bench.conformance import Step


@dataclass
class StackResult:
    """A row of the table: a stack's (or the runner's, or the Docker path's) steps, by column."""

    stack: str
    steps: dict[str, Step] = field(default_factory=dict)
    passed: int = 0
    failed: int = 0

    @property
    def ok(self) -> bool:
        return bool(self.steps) and all(s.ok for s in self.steps.values())
