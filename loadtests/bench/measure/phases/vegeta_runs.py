"""The vegeta steps of a scenario without a URL list (the write scenarios, mixed and heavy-body):
the steady-state windows and the fixed-rate ladder's steps. Each step's requests are prepared
before its measurement begins (`VegetaSteps.prepare`: the rows its deletes remove are made
through the stack's API, then its list is drawn and written), then sent (`PreparedStep.send`);
every write's answer joins the lost-write check (bench.measure.phases.writes)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench import paths, procs
from bench.errors import BenchError
from bench.measure.load import step_requests, vegeta
from bench.measure.load.dialects import created_id
from bench.measure.load.figures import LoadFigures
from bench.measure.load.process import run_load
from bench.measure.phases import writes
from bench.measure.phases.context import Context, logs
from bench.records import Dialect
from bench.scenarios import Scenario

# Seconds one vegeta run may take beyond its duration (its 30 s request timeout, then the encode).
VEGETA_GRACE_S = 120
# Connections that make the rows a step deletes: a few, so that a step of 1,000 deletes waits
# about a second for them.
ROW_MAKERS = 8
# A stack still working off the step before (or a cold JVM's first window) may answer a create
# 503, its overload answer (spec/API.md): java-quarkus@reactive did so on 2026-12-03, right after
# its first steady-state window, and the whole run failed. Such a create is sent again after a
# pause, for this long at most.
BUSY_RETRY_S = 30.0
BUSY_PAUSE_S = 0.5


def make_rows(base_url: str, creates: Sequence[step_requests.Request], dialect: Dialect) -> list[int]:
    """Sends `creates` to the stack: the ids of the rows they made, each answered 201."""
    if not creates:
        return []
    with httpx.Client(base_url=base_url, timeout=30, limits=httpx.Limits(max_connections=ROW_MAKERS)) as client:

        def create(request: step_requests.Request) -> int:
            deadline = time.monotonic() + BUSY_RETRY_S
            while True:
                response = client.post(
                    request.path, content=request.body, headers={"Content-Type": request.content_type}
                )
                if response.status_code != 503 or time.monotonic() >= deadline:
                    break
                time.sleep(BUSY_PAUSE_S)
            if response.status_code != step_requests.EXPECTED_STATUS[request.endpoint]:
                still = f" for {BUSY_RETRY_S:g} s" if response.status_code == 503 else ""
                raise BenchError(
                    f"the stack answered {response.status_code}{still} to a create of a row a step deletes "
                    f"(POST {request.path}: {_detail(response)}); the step cannot be prepared"
                )
            return created_id(response, dialect)

        try:
            with ThreadPoolExecutor(ROW_MAKERS) as pool:
                return list(pool.map(create, creates))
        except httpx.HTTPError as error:
            raise BenchError(f"the rows a step deletes could not be made: {error}") from error


def _detail(response: httpx.Response) -> str:
    """The problem's detail (spec/API.md's error shape), else the start of the body."""
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        detail = None
    return str(detail) if detail else (response.text[:120] or "no body")


@dataclass(frozen=True)
class PreparedStep:
    """A step whose requests are written and whose rows to delete exist: `send` runs it."""

    steps: VegetaSteps
    rate: float
    seconds: int
    tag: str
    requests: list[step_requests.Request]
    targets: Path

    def send(self) -> LoadFigures:
        return self.steps.send(self)


class VegetaSteps:
    """The vegeta steps of one stack × scenario run, their requests from one seeded source
    (step_requests.RequestMix), and the writes they made, for the lost-write check."""

    def __init__(
        self, ctx: Context, scenario: Scenario, *, name: str, label: str, base_url: str, dialect: Dialect
    ) -> None:
        self.ctx, self.scenario = ctx, scenario
        self.name, self.label, self.base_url, self.dialect = name, label, base_url, dialect
        try:
            self.mix = step_requests.RequestMix(scenario, dialect)
        except ValueError as error:
            raise BenchError(f"vegeta cannot send the {scenario.name} scenario: {error}") from error
        self.write_log = writes.WriteLog()
        self.counted = dict.fromkeys(writes.COUNTED, 0)

    def prepare(self, rate: float, seconds: int, tag: str) -> PreparedStep:
        count = self.mix.request_count(rate, seconds)
        rows = [self.mix.item_to_delete() for _ in range(self.mix.deletes(count))]
        if rows:
            self.ctx.display.update(f"{self.label}: making the {len(rows):,} rows the step deletes")
        ids = make_rows(self.base_url, rows, self.dialect)
        # Rows made with a 201: acknowledged creates, looked up like any.
        self.write_log.items_created.update(ids)
        self.counted["items_created"] += len(ids)
        requests = self.mix.requests(count, ids)
        targets = step_requests.write_targets(logs() / f"{self.name}-{tag}.targets", requests, self.base_url)
        return PreparedStep(self, rate, seconds, tag, requests, targets)

    def send(self, step: PreparedStep) -> LoadFigures:
        """Runs a prepared step on the load generator's CPUs: its figures. Its requests and
        results are removed after it, whatever happened (a heavy-body list is tens of MB); its
        logs stay."""
        prefix = logs() / f"{self.name}-{step.tag}"
        results, table, log, encode_log = (
            Path(f"{prefix}{suffix}") for suffix in (".bin", ".csv", ".log", ".encode.log")
        )
        try:
            parsed = self._attack(step, results, table, log, encode_log)
        finally:
            for path in (step.targets, results, table):
                path.unlink(missing_ok=True)
        self._record(parsed.acknowledged)
        return parsed.figures

    def _attack(self, step: PreparedStep, results: Path, table: Path, log: Path, encode_log: Path) -> vegeta.Step:
        request_rate = step_requests.request_rate(step.rate, step.requests)
        tool = self.ctx.tools["vegeta"]
        command = self.ctx.roles.wrap(
            "loadgen",
            vegeta.vegeta_command(tool, targets=step.targets, rate=request_rate, seconds=step.seconds, output=results),
        )
        code = run_load(command, log, self.ctx.display.show_rate, step.seconds + VEGETA_GRACE_S)
        if code != 0 or not results.exists():
            raise BenchError(f"vegeta failed (exit {code}) on {self.label} at {step.rate:g} req/s; log {log}")
        # Read back outside the load generator's cgroup: after the step, not part of sending it.
        encode = vegeta.encode_command(tool, results=results, output=table)
        if procs.run(encode, cwd=paths.ROOT, env=dict(os.environ), log=encode_log) != 0:
            raise BenchError(f"vegeta could not read back its results of {self.label}; log {encode_log}")
        try:
            return vegeta.parse_results(
                vegeta.read_results(table),
                step.requests,
                rate=step.rate,
                request_rate=request_rate,
                seconds=step.seconds,
            )
        except (ValueError, IndexError) as error:
            raise BenchError(f"vegeta's results of {self.label} could not be read: {error}; log {log}") from error

    def _record(self, acknowledged: vegeta.Acknowledged) -> None:
        log = self.write_log
        log.item_keys |= acknowledged.item_keys
        log.category_keys |= acknowledged.category_keys
        log.items_deleted |= acknowledged.items_deleted
        log.items_delete_sent |= acknowledged.items_deleted | acknowledged.items_delete_unconfirmed
        self.counted["items_created"] += len(acknowledged.item_keys)
        self.counted["categories_created"] += len(acknowledged.category_keys)
        self.counted["items_deleted"] += len(acknowledged.items_deleted)
