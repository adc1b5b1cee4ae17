"""The k6 stages of one stack × scenario: an uncounted warm-up, then one k6 run per stage,
each stage's writes logged by id for the lost-write check (bench.writes)."""

from __future__ import annotations

import math
from pathlib import Path

from bench import loadgen, writes
from bench.errors import BenchError
from bench.loadgen import K6Summary, LoadFigures
from bench.measure.context import Context, logs
from bench.measure.load import run_load
from bench.records import Dialect
from bench.scenarios import TIMING, Scenario

# k6's exit code when a threshold failed; the scripts' thresholds always pass, so it means nothing here.
K6_THRESHOLD_FAILED = 99


def arrival_vus(rate: float, objective_ms: float) -> int:
    """Pre-allocated VUs of a fixed-rate run: the requests in flight at `rate` if each took the
    objective (Little's law), plus 10; k6 may use twice as many before it drops an arrival, so a
    stack that keeps its objective never sees one dropped."""
    return math.ceil(rate * objective_ms / 1000) + 10


class K6Stages:
    def __init__(
        self, ctx: Context, scenario: Scenario, *, name: str, label: str, base_url: str, dialect: Dialect = "api"
    ) -> None:
        """`dialect`: the stack's (manifest `dialect`), the paths and bodies the scripts send
        (loadtests/k6/lib/dialects.js)."""
        self.ctx, self.scenario = ctx, scenario
        self.name, self.label, self.base_url = name, label, base_url
        self.dialect = dialect
        self.write_log = writes.WriteLog()
        self.writes_counted: list[loadgen.K6Writes] = []

    def warm_up(self) -> None:
        self._run("warmup")

    def stage(self, vus: int, *, seconds: int | None = None) -> LoadFigures:
        """A closed-model stage; `seconds` shortens it and drops its ramp (the stack is warm)."""
        env = {"STAGE_SECONDS": str(seconds), "RAMP_SECONDS": "0"} if seconds is not None else {}
        summary = self._run(str(vus), env=env, seconds=seconds)
        (figures,) = summary.stages
        figures.duration_s = summary.stage_seconds
        figures.requests_sent = summary.total_requests
        # Shares over the whole k6 process's wall time took in its start-up and summary: 3.5 s
        # around a 3 s stage (2026-11-24-java), every role's share understated by a seventh,
        # which could hide what bound the stage.
        figures.active_s = summary.run_seconds
        return figures

    def rate(self, rate: float, seconds: int, *, objective_ms: float, tag: str) -> LoadFigures:
        """One fixed-rate run (k6's constant-arrival-rate): `rate` requests/s for `seconds`."""
        vus = arrival_vus(rate, objective_ms)
        env = {"RATE": f"{rate:g}", "DURATION": str(seconds), "VUS": str(vus), "MAX_VUS": str(2 * vus)}
        summary = self._run(tag, env=env, seconds=seconds)
        (figures,) = summary.stages
        figures.duration_s = summary.stage_seconds
        figures.requests_sent = summary.total_requests
        figures.offered_rps = rate
        return figures

    def counted(self) -> dict[str, int]:
        """The writes k6 counted with a 2xx over every run so far, the warm-up's included."""
        return {name: sum(getattr(w, name) for w in self.writes_counted) for name in writes.COUNTED}

    def _run(self, stage: str, *, env: dict[str, str] | None = None, seconds: int | None = None) -> K6Summary:
        prefix = f"{self.name}-{stage}"
        summary, log = logs() / f"{prefix}.json", logs() / f"{prefix}.log"
        summary.unlink(missing_ok=True)
        written: Path | None = None
        if self.scenario.writes:
            written = logs() / f"{prefix}.writes.log"
            written.unlink(missing_ok=True)
        command = self.ctx.roles.wrap(
            "loadgen",
            loadgen.k6_command(
                self.ctx.tools["k6"],
                self.scenario.name,
                base_url=self.base_url,
                profile=self.ctx.plan.profile,
                stage="rate" if env and "RATE" in env else stage,
                summary=summary,
                writes_log=written,
                env={"DIALECT": self.dialect, **(env or {})},
            ),
        )
        timing = TIMING[self.ctx.plan.profile]
        limit = (seconds if seconds is not None else timing["warmup"] + timing["ramp"] + timing["stage"]) + 120
        code = run_load(command, log, self.ctx.display, limit)
        if code not in (0, K6_THRESHOLD_FAILED) or not summary.exists():
            raise BenchError(f"k6 failed (exit {code}) on {self.label} stage {stage}; log {log}")
        if written is not None:
            self.write_log.read(written)
        parsed = loadgen.parse_k6_summary(summary)
        self.writes_counted.append(parsed.writes)
        return parsed
