"""k6: its command line, the VUs a fixed rate needs, and what it reports (its summary, its progress
lines). The parsers are pure, for the tests."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import BaseModel

from bench import paths
from bench.errors import BenchError
from bench.measure.load.figures import LoadFigures
from bench.scenarios import Scenario

K6_DIR = paths.ROOT / "loadtests" / "k6"

_K6_PROGRESS = re.compile(r"(\d+) complete and (\d+) interrupted iterations")


class K6Writes(BaseModel):
    """The writes k6 counted with a 2xx (bench.measure.phases.writes.COUNTED)."""

    items_created: int
    items_deleted: int
    categories_created: int


class K6Summary(BaseModel):
    """The JSON that loadtests/k6/lib/common.js's handleSummary writes."""

    scenario: str
    profile: str
    stage_seconds: float
    stages: list[LoadFigures]
    writes: K6Writes
    total_requests: int
    run_seconds: float | None = None
    """How long its scenarios ran (graceful stop included, start-up and summary not)."""


def k6_command(
    k6: Path,
    scenario: Scenario,
    *,
    base_url: str,
    profile: str,
    stage: str,
    summary: Path,
    writes_log: Path | None = None,
    env: dict[str, str] | None = None,
    api_port: int | None = None,
) -> str:
    """`scenario`'s k6 script. `writes_log`: where k6 logs the id of every write (see
    bench.measure.phases.writes); k6's own log messages go there too. `env`: more of the script's
    environment (RATE, DURATION, VUS and MAX_VUS for a fixed-rate step; STAGE_SECONDS and
    RAMP_SECONDS). `api_port`: k6's REST API on 127.0.0.1 at that port (read and stopped while it
    runs), else none."""
    if scenario.k6_script is None:
        raise BenchError(f"the {scenario.name} scenario names no k6 script (bench.scenarios)")
    record = f"-e RECORD_WRITES=1 --log-output 'file={writes_log}' --log-format raw " if writes_log is not None else ""
    more = "".join(f"-e {key}={value} " for key, value in (env or {}).items())
    address = f"--address 127.0.0.1:{api_port} " if api_port is not None else ""
    return (
        f"exec '{k6}' run --no-color --no-usage-report {address}{record}"
        f"-e BASE_URL={base_url} -e PROFILE={profile} -e STAGE={stage} -e SUMMARY='{summary}' {more}"
        f"'{K6_DIR / scenario.k6_script}'"
    )


def k6_completed(log_text: str) -> int | None:
    """Iterations completed so far, from k6's progress lines (one request per iteration here)."""
    matches = _K6_PROGRESS.findall(log_text[-4000:])
    return int(matches[-1][0]) if matches else None


def parse_k6_summary(path: Path) -> K6Summary:
    data = json.loads(path.read_text())
    for key in ("scenario", "stages", "writes"):
        if key not in data:
            raise ValueError(f"{path} is not a k6 summary of this repository (no {key!r})")
    return K6Summary.model_validate(data)
