"""The k6 runs of one stack × scenario: an uncounted warm-up, then one k6 run per stage, each
stage's writes logged by id for the lost-write check (bench.measure.phases.writes); and the live
fixed-rate run that the steady-state windows read while it runs."""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench import paths, ports, procs
from bench.errors import BenchError
from bench.measure.load import k6
from bench.measure.load.figures import LoadFigures
from bench.measure.load.k6 import K6Summary, arrival_vus
from bench.measure.load.process import run_load
from bench.measure.phases import writes
from bench.measure.phases.context import Context, logs
from bench.profiles import TIMING
from bench.records import Dialect
from bench.scenarios import Scenario

# k6's exit code when a threshold failed; the scripts' thresholds always pass, so it means nothing here.
K6_THRESHOLD_FAILED = 99
# k6's exit code after a stop through its REST API (what a live run ends with).
K6_STOPPED = 103
# How long a live run's k6 may take to start iterating, and to write its summary once stopped.
LIVE_START_S = 30.0
LIVE_STOP_S = 30.0


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

    def live_rate(self, rate: float, seconds: int, *, objective_ms: float, tag: str) -> LiveRun:
        """A fixed-rate run of at most `seconds`, read while it runs and stopped by the caller
        (`LiveRun.stop`); its writes join the lost-write check like any run's."""
        vus = arrival_vus(rate, objective_ms)
        env = {"RATE": f"{rate:g}", "DURATION": str(seconds), "VUS": str(vus), "MAX_VUS": str(2 * vus)}
        port = ports.free_port()
        files = self._files(tag)
        command = self._command("rate", files, env, api_port=port)
        proc = procs.spawn(command, cwd=paths.ROOT, env=dict(os.environ), log=files.log)
        return LiveRun(self, proc, port, files, tag)

    def counted(self) -> dict[str, int]:
        """The writes k6 counted with a 2xx over every run so far, the warm-up's included."""
        return {name: sum(getattr(w, name) for w in self.writes_counted) for name in writes.COUNTED}

    def _run(self, stage: str, *, env: dict[str, str] | None = None, seconds: int | None = None) -> K6Summary:
        files = self._files(stage)
        command = self._command("rate" if env and "RATE" in env else stage, files, env)
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

    def _command(self, stage: str, files: _RunFiles, env: dict[str, str] | None, api_port: int | None = None) -> str:
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
                api_port=api_port,
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


class LiveRun:
    """A fixed-rate k6 run read while it runs: how many iterations (one operation each) it has
    completed, from k6's REST API on 127.0.0.1. The steady-state windows are read from one such
    run rather than one run each, so that no window pays k6's start-up (about half a second
    around a 3 s window) or has the stack open its connections afresh."""

    def __init__(self, stages: K6Stages, proc: subprocess.Popen[bytes], port: int, files: _RunFiles, tag: str):
        self.stages, self.proc, self.files, self.tag = stages, proc, files, tag
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5.0)

    def completed(self) -> int | None:
        """Iterations completed so far; None while k6's API is not up yet."""
        try:
            response = self.client.get("/v1/metrics/iterations")
        except httpx.TransportError:
            return None
        if response.status_code == 404:
            return 0  # k6 has the metric only once an iteration has completed
        response.raise_for_status()
        return int(response.json()["data"]["attributes"]["sample"]["count"])

    def started(self) -> int:
        """Waits until k6 iterates: its first completed iterations."""
        deadline = time.monotonic() + LIVE_START_S
        while time.monotonic() < deadline:
            self.check_running()
            count = self.completed()
            if count:
                return count
            time.sleep(0.1)
        raise BenchError(
            f"k6 did not start iterating within {LIVE_START_S:.0f} s on {self.stages.label}; log {self.files.log}"
        )

    def check_running(self) -> None:
        if self.proc.poll() is not None:
            raise BenchError(
                f"k6 ended (exit {self.proc.returncode}) before it was stopped on {self.stages.label}; "
                f"log {self.files.log}"
            )

    def abort(self) -> None:
        self.client.close()
        procs.stop(self.proc)

    def stop(self) -> K6Summary:
        """Stops the run, waits for its summary and reads its writes."""
        try:
            if self.proc.poll() is None:
                self.client.patch(
                    "/v1/status", json={"data": {"type": "status", "id": "default", "attributes": {"stopped": True}}}
                )
                self.proc.wait(timeout=LIVE_STOP_S)
        except (httpx.HTTPError, subprocess.TimeoutExpired):
            pass  # stopped below all the same; no summary then, which finish() says
        finally:
            self.abort()
        return self.stages.finish(self.files, self.proc.returncode, self.tag, expected=(0, K6_STOPPED))
