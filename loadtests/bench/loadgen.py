"""Running k6 and oha, and reading what they report. The parsers are pure, for the tests."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench import paths

K6_DIR = paths.ROOT / "loadtests" / "k6"
OHA_DIR = paths.ROOT / "loadtests" / "oha"

_K6_PROGRESS = re.compile(r"(\d+) complete and (\d+) interrupted iterations")


def k6_command(k6: Path, scenario: str, *, base_url: str, profile: str, stage: str, summary: Path,
               writes_log: Path | None = None) -> str:
    """`writes_log`: where k6 logs the id of every write (see bench.writes); k6's own log
    messages go there too."""
    record = (f"-e RECORD_WRITES=1 --log-output 'file={writes_log}' --log-format raw "
              if writes_log is not None else "")
    return (f"exec '{k6}' run --no-color --no-usage-report {record}"
            f"-e BASE_URL={base_url} -e PROFILE={profile} -e STAGE={stage} -e SUMMARY='{summary}' "
            f"'{K6_DIR / (scenario + '.js')}'")


def k6_completed(log_text: str) -> int | None:
    """Iterations completed so far, from k6's progress lines (one request per iteration here)."""
    matches = _K6_PROGRESS.findall(log_text[-4000:])
    return int(matches[-1][0]) if matches else None


def parse_k6_summary(path: Path) -> dict:
    """The JSON that loadtests/k6/lib/common.js's handleSummary writes."""
    data = json.loads(path.read_text())
    for key in ("scenario", "stages", "writes"):
        if key not in data:
            raise ValueError(f"{path} is not a k6 summary of this repository (no {key!r})")
    return data


def oha_command(oha: Path, url: str, *, requests: int, connections: int, output: Path,
                rate: float | None = None) -> str:
    rate_flags = f"-q {rate} --latency-correction " if rate else ""
    return (f"exec '{oha}' -n {requests} -c {connections} {rate_flags}--no-tui --redirect 0 "
            f"--output-format json '{url}' > '{output}'")


def parse_oha(path: Path, expected_status: int) -> dict:
    """oha's JSON output as one stage of a result: rps, latency in ms, errors by status."""
    data = json.loads(path.read_text())
    summary = data["summary"]
    percentiles = data.get("latencyPercentiles", {})
    statuses = {str(k): int(v) for k, v in (data.get("statusCodeDistribution") or {}).items()}
    transport_errors = sum(int(v) for v in (data.get("errorDistribution") or {}).values())
    requests = sum(statuses.values()) + transport_errors
    errors = {k: v for k, v in statuses.items() if k != str(expected_status)}
    if transport_errors:
        errors["0"] = transport_errors

    def ms(value):
        return None if value is None else value * 1000

    return {
        "requests": requests,
        "rps": summary.get("requestsPerSec"),
        "duration_s": summary.get("total"),
        "latency_ms": {"avg": ms(summary.get("average")), "min": ms(summary.get("fastest")),
                       "p50": ms(percentiles.get("p50")), "p95": ms(percentiles.get("p95")),
                       "p99": ms(percentiles.get("p99")), "max": ms(summary.get("slowest"))},
        "errors": errors,
        "error_count": sum(errors.values()),
        "bytes_received": summary.get("totalData"),
    }
