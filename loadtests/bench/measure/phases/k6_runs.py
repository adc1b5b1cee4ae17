"""The k6 runs of one stack × scenario, its closed-model stages: an uncounted warm-up, then one k6
run per stage, each stage's writes logged by id for the lost-write check
(bench.measure.phases.writes). The fixed-rate steps are oha's and vegeta's."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bench.errors import BenchError
from bench.measure.load import k6
from bench.measure.load.figures import LoadFigures
from bench.measure.load.k6 import K6Summary
from bench.measure.load.process import run_load
from bench.measure.phases import writes
from bench.measure.phases.context import Context, logs
from bench.profiles import TIMING
from bench.records import Dialect
from bench.scenarios import Scenario

# k6's exit code when a threshold failed; the scripts' thresholds always pass, so it means nothing here.
K6_THRESHOLD_FAILED = 99


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
        self.writes_counted: list[k6.K6Writes] = []

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

    def counted(self) -> dict[str, int]:
        """The writes k6 counted with a 2xx over every run so far, the warm-up's included."""
        return {name: sum(getattr(w, name) for w in self.writes_counted) for name in writes.COUNTED}

    def _run(self, stage: str, *, env: dict[str, str] | None = None, seconds: int | None = None) -> K6Summary:
        files = self._files(stage)
        command = self._command(stage, files, env)
        timing = TIMING[self.ctx.plan.profile]
        limit = (seconds if seconds is not None else timing["warmup"] + timing["ramp"] + timing["stage"]) + 120
        code = run_load(command, files.log, self.ctx.display.show_rate, limit)
        return self.finish(files, code, stage, expected=(0, K6_THRESHOLD_FAILED))

    def _files(self, stage: str) -> _RunFiles:
        prefix = f"{self.name}-{stage}"
        files = _RunFiles(
            summary=logs() / f"{prefix}.json",
            log=logs() / f"{prefix}.log",
            written=logs() / f"{prefix}.writes.log" if self.scenario.writes else None,
        )
        for path in (files.summary, files.written):
            if path is not None:
                path.unlink(missing_ok=True)
        return files

    def _command(self, stage: str, files: _RunFiles, env: dict[str, str] | None) -> str:
        return self.ctx.roles.wrap(
            "loadgen",
            k6.k6_command(
                self.ctx.tools["k6"],
                self.scenario,
                base_url=self.base_url,
                profile=self.ctx.plan.profile,
                stage=stage,
                summary=files.summary,
                writes_log=files.written,
                env={"DIALECT": self.dialect, **(env or {})},
            ),
        )

    def finish(self, files: _RunFiles, code: int | None, stage: str, *, expected: tuple[int, ...]) -> K6Summary:
        """A run that has ended: its exit code checked, its summary parsed, its writes read."""
        if code not in expected or not files.summary.exists():
            raise BenchError(f"k6 failed (exit {code}) on {self.label} stage {stage}; log {files.log}")
        if files.written is not None:
            self.write_log.read(files.written)
        parsed = k6.parse_k6_summary(files.summary)
        self.writes_counted.append(parsed.writes)
        return parsed


@dataclass(frozen=True)
class _RunFiles:
    summary: Path
    log: Path
    written: Path | None
