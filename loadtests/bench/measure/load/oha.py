"""oha: its command line, the connections a fixed rate needs, and what it reports. The parser is
pure, for the tests."""

from __future__ import annotations

import contextlib
import json
import math
import sqlite3
from pathlib import Path
from typing import Any

from bench import paths
from bench.measure.load.figures import LoadFigures
from bench.records.steps import Latency

OHA_DIR = paths.ROOT / "loadtests" / "oha"
# Connections of a fixed-rate run: enough for the rate at the objective's latency, within bounds.
# The upper one lets outbound's 20,000 req/s step keep its ~520 requests in flight.
MIN_CONNECTIONS, MAX_CONNECTIONS = 16, 1024


def rate_connections(rate: float, objective_ms: float) -> int:
    """As many connections as requests in flight at `rate` if each took the objective (Little's
    law), so that a stack that keeps its objective never waits for a free connection."""
    return max(MIN_CONNECTIONS, min(MAX_CONNECTIONS, math.ceil(rate * objective_ms / 1000) + 10))


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
    requests_db: Path | None = None,
) -> str:
    """A run of `requests` requests, or of `duration_s` seconds (requests still in flight at the
    end are waited for, not counted as errors); at a fixed `rate` with latency measured from each
    request's scheduled start (--latency-correction: no coordinated omission). With `url_file`,
    each request goes to a URL drawn from that file's lines instead of to `url`. With
    `requests_db`, oha also writes every request that got an answer to that SQLite file
    (`read_request_log`)."""
    if (requests is None) == (duration_s is None):
        raise ValueError("an oha run is either a number of requests or a duration")
    amount = f"-n {requests}" if requests is not None else f"-z {duration_s:g}s -w"
    rate_flags = f"-q {rate:g} --latency-correction " if rate else ""
    target = f"--urls-from-file '{url_file}'" if url_file is not None else f"'{url}'"
    log_flag = f"--db-url '{requests_db}' " if requests_db is not None else ""
    return (
        f"exec '{oha}' {amount} -c {connections} {rate_flags}{log_flag}--no-tui --redirect 0 "
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


def read_request_log(path: Path) -> list[tuple[float, float]]:
    """oha's per-request log (`--db-url`): each answered request's scheduled start, in seconds from
    oha's own start, and its latency from that start (--latency-correction's), in order of start.
    oha logs requests that got an answer of any status, not transport errors."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT COALESCE(start_latency_correction, start), end FROM oha ORDER BY 1").fetchall()
    return [(float(start), float(end) - float(start)) for start, end in rows]


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000
