"""Running k6 and oha, and reading what they report. The parsers are pure, for the tests."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from bench import paths
from bench.records.steps import EndpointFigures, Latency

K6_DIR = paths.ROOT / "loadtests" / "k6"
OHA_DIR = paths.ROOT / "loadtests" / "oha"

_K6_PROGRESS = re.compile(r"(\d+) complete and (\d+) interrupted iterations")


class LoadFigures(BaseModel):
    """What a load generator reports for one stage, before the app's cost is added (bench.records.steps.Stage)."""

    model_config = ConfigDict(extra="forbid")

    vus: int
    requests: int
    rps: float
    duration_s: float | None = None
    latency_ms: Latency | None
    errors: dict[str, int]
    error_count: int
    bytes_received: int | None
    endpoints: dict[str, EndpointFigures] | None = None
    db_clients: int | None = None
    active_s: float | None = None
    """oha: how long it was sending, shorter than its run for a blast under a second."""
    requests_sent: int | None = None
    """k6: every request of its run, the ramp's included (what CPU and SQL are counted over)."""
    offered_rps: float | None = None
    """The open model: the fixed arrival rate of the run."""
    dropped_iterations: int | None = None
    """k6's arrival-rate executor: arrivals it could not start for want of a free VU."""
    arrivals: int | None = None
    """pgbench -R: the arrivals it drew (processed + skipped). Its arrivals are a Poisson process,
    so a short step draws a few percent more or fewer than rate × seconds."""


class K6Writes(BaseModel):
    """The writes k6 counted with a 2xx (bench.measure.writes.COUNTED)."""

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
    scenario: str,
    *,
    base_url: str,
    profile: str,
    stage: str,
    summary: Path,
    writes_log: Path | None = None,
    env: dict[str, str] | None = None,
    api_port: int | None = None,
) -> str:
    """`writes_log`: where k6 logs the id of every write (see bench.measure.writes); k6's own log
    messages go there too. `env`: more of the script's environment (RATE, DURATION, VUS and
    MAX_VUS for a fixed-rate step; STAGE_SECONDS and RAMP_SECONDS). `api_port`: k6's REST API
    on 127.0.0.1 at that port (read and stopped while it runs), else none."""
    record = f"-e RECORD_WRITES=1 --log-output 'file={writes_log}' --log-format raw " if writes_log is not None else ""
    more = "".join(f"-e {key}={value} " for key, value in (env or {}).items())
    address = f"--address 127.0.0.1:{api_port} " if api_port is not None else ""
    return (
        f"exec '{k6}' run --no-color --no-usage-report {address}{record}"
        f"-e BASE_URL={base_url} -e PROFILE={profile} -e STAGE={stage} -e SUMMARY='{summary}' {more}"
        f"'{K6_DIR / (scenario + '.js')}'"
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


def oha_command(
    oha: Path,
    url: str,
    *,
    requests: int | None = None,
    connections: int,
    output: Path,
    rate: float | None = None,
    duration_s: float | None = None,
    url_file: Path | None = None,
) -> str:
    """A run of `requests` requests, or of `duration_s` seconds (requests still in flight at the
    end are waited for, not counted as errors); at a fixed `rate` with latency measured from each
    request's scheduled start (--latency-correction: no coordinated omission). With `url_file`,
    each request goes to a URL drawn from that file's lines instead of to `url`."""
    if (requests is None) == (duration_s is None):
        raise ValueError("an oha run is either a number of requests or a duration")
    amount = f"-n {requests}" if requests is not None else f"-z {duration_s:g}s -w"
    rate_flags = f"-q {rate:g} --latency-correction " if rate else ""
    target = f"--urls-from-file '{url_file}'" if url_file is not None else f"'{url}'"
    return (
        f"exec '{oha}' {amount} -c {connections} {rate_flags}--no-tui --redirect 0 "
        f"--output-format json {target} > '{output}'"
    )


def parse_oha(path: Path, *, expected_status: int, connections: int) -> LoadFigures:
    """oha's JSON output as one stage: rps, latency in ms, errors by status."""
    data = json.loads(path.read_text())
    summary: dict[str, Any] = data["summary"]
    percentiles: dict[str, float | None] = data.get("latencyPercentiles", {})
    statuses = {str(k): int(v) for k, v in (data.get("statusCodeDistribution") or {}).items()}
    transport_errors = sum(int(v) for v in (data.get("errorDistribution") or {}).values())
    requests = sum(statuses.values()) + transport_errors
    errors = {k: v for k, v in statuses.items() if k != str(expected_status)}
    if transport_errors:
        errors["0"] = transport_errors
    duration = summary.get("total")
    return LoadFigures(
        vus=connections,
        requests=requests,
        rps=summary.get("requestsPerSec") or 0.0,
        duration_s=duration,
        latency_ms=Latency(
            avg=_ms(summary.get("average")),
            min=_ms(summary.get("fastest")),
            p50=_ms(percentiles.get("p50")),
            p95=_ms(percentiles.get("p95")),
            p99=_ms(percentiles.get("p99")),
            max=_ms(summary.get("slowest")),
            p90=_ms(percentiles.get("p90")),
            p999=_ms(percentiles.get("p99.9")),
        ),
        errors=errors,
        error_count=sum(errors.values()),
        bytes_received=summary.get("totalData"),
        active_s=duration,
    )


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000
