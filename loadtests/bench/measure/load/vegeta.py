"""vegeta: the fixed-rate steps of the scenarios without a URL list (the write scenarios, mixed
and heavy-body), from requests drawn ahead (bench.measure.load.step_requests): its command line,
and what it reports, read back per request. All but the commands is pure, for the tests.

vegeta sends at a fixed rate whatever the answers' latency: each arrival is handed to an idle
worker, or to a new one when every worker waits on an answer (no maximum is set), so a slow
stack does not delay the next arrival. It times a request from when a worker takes it up, which
is its scheduled time unless vegeta itself fell behind; `parse_results` adds that lag back, so the
latency is measured from each request's scheduled start (no coordinated omission).
"""

from __future__ import annotations

import base64
import csv
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.measure.load.figures import LoadFigures, latency_of
from bench.measure.load.step_requests import EXPECTED_STATUS, EXTRA_ENDPOINTS, Request
from bench.records.steps import EndpointFigures


def vegeta_command(vegeta: Path, *, targets: Path, rate: float, seconds: float, output: Path) -> str:
    """An attack of `seconds` at `rate` requests/s (to the nearest whole one) from `targets`,
    every answer's status kept and no body (-max-body=0): creates are known by their request's
    key, not by their answer. No -max-workers: a worker for every request in flight."""
    return (
        f"exec '{vegeta}' attack -format=json -targets='{targets}' -rate={max(1, round(rate))}/1s "
        f"-duration={seconds:g}s -max-body=0 -redirects=-1 -output='{output}'"
    )


def encode_command(vegeta: Path, *, results: Path, output: Path) -> str:
    """vegeta's binary results as CSV: one line a request, its timestamp in nanoseconds."""
    return f"exec '{vegeta}' encode -to=csv -output='{output}' '{results}'"


@dataclass
class Acknowledged:
    """What a step's writes got back: the keys of the creates answered 201, the rows whose
    delete was answered 204, and those whose delete was sent and answered otherwise or not at all."""

    item_keys: set[str] = field(default_factory=set)
    category_keys: set[str] = field(default_factory=set)
    items_deleted: set[int] = field(default_factory=set)
    items_delete_unconfirmed: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Result:
    """One line of vegeta's CSV results."""

    timestamp_ns: int
    code: int
    latency_ns: int
    seq: int
    index: int
    """The request's place in the step's list (its URL's fragment)."""
    content_length: int | None


def read_results(path: Path) -> list[Result]:
    results = []
    with path.open(newline="") as lines:
        for row in csv.reader(lines):
            if len(row) < 12:
                raise ValueError(f"{path}: not a vegeta CSV result line: {row!r}")
            url = row[10]
            if "#" not in url:
                raise ValueError(f"{path}: a result without its request's index: {url}")
            results.append(
                Result(
                    timestamp_ns=int(row[0]),
                    code=int(row[1]),
                    latency_ns=int(row[2]),
                    seq=int(row[8]),
                    index=int(url.rsplit("#", 1)[1]),
                    content_length=_content_length(row[11]),
                )
            )
    return results


def _content_length(headers: str) -> int | None:
    for line in base64.b64decode(headers).decode("latin-1").split("\r\n"):
        name, _, value = line.partition(":")
        if name.lower() == "content-length":
            return int(value.strip())
    return None


def scheduled_latencies_ns(results: Sequence[Result], rate: float) -> list[int]:
    """Each result's latency from its scheduled start. vegeta schedules its n-th request (seq n)
    at (n + 1) intervals after the attack began and stamps it when a worker takes it up; the
    attack's start is the earliest that any stamp allows, so a request taken up late gets its lag
    added and one on time none."""
    if not results:
        return []
    interval = 1_000_000_000 // max(1, round(rate))
    began = min(r.timestamp_ns - (r.seq + 1) * interval for r in results)
    return [r.latency_ns + r.timestamp_ns - (began + (r.seq + 1) * interval) for r in results]


@dataclass(frozen=True)
class Step:
    """What a step's results say: the load generator's figures and the writes' answers."""

    figures: LoadFigures
    acknowledged: Acknowledged
    requests_sent: int
    """HTTP requests, HAL's second request of a replace included."""


def parse_results(
    results: Sequence[Result], requests: Sequence[Request], *, rate: float, request_rate: float, seconds: float
) -> Step:
    """The step as one stage, per operation (k6's unit: an operation of two requests is one, its
    latency theirs added up): rps, latency from the scheduled start, errors by status, each
    endpoint's figures; and which writes were acknowledged."""
    latencies = scheduled_latencies_ns(results, request_rate)
    by_index = {r.index: (r, ns / 1e6) for r, ns in zip(results, latencies, strict=True)}
    if len(by_index) != len(results):
        # The list ran out and vegeta started it again: creates sent twice, answered 409.
        raise ValueError(f"{len(results)} results for {len(by_index)} requests: the step's list was too short")
    errors: dict[str, int] = {}
    acknowledged = Acknowledged()
    operations: list[float] = []
    per_endpoint: dict[str, list[float]] = {}
    for index, (result, ms) in by_index.items():
        request = requests[index]
        per_endpoint.setdefault(request.endpoint, []).append(ms)
        ok = result.code == EXPECTED_STATUS[request.endpoint]
        if not ok:
            status = str(result.code)
            errors[status] = errors.get(status, 0) + 1
        _acknowledge(acknowledged, request, ok)
        if request.endpoint in EXTRA_ENDPOINTS.values():
            continue
        extra = EXTRA_ENDPOINTS.get(request.endpoint)
        follow = by_index.get(index + 1) if extra is not None else None
        operations.append(ms + (follow[1] if follow is not None and requests[index + 1].endpoint == extra else 0.0))
    lengths = [r.content_length for r in results]
    starts = [r.timestamp_ns for r in results]
    ends = [r.timestamp_ns + r.latency_ns for r in results]
    # In one order whatever the answers' (EXPECTED_STATUS's), as the scripts list them.
    endpoints = {
        endpoint: EndpointFigures(requests=len(per_endpoint[endpoint]), latency_ms=latency_of(per_endpoint[endpoint]))
        for endpoint in EXPECTED_STATUS
        if endpoint in per_endpoint
    }
    figures = LoadFigures(
        vus=_most_in_flight(starts, ends),
        requests=len(operations),
        rps=len(operations) / seconds,
        duration_s=seconds,
        latency_ms=latency_of(operations),
        errors=errors,
        error_count=sum(errors.values()),
        bytes_received=sum(n for n in lengths if n is not None) if None not in lengths else None,
        endpoints=endpoints,
        active_s=(max(ends) - min(starts)) / 1e9 if results else None,
        # Every operation sent is in `requests` (vegeta waits for the last answer): CPU and SQL
        # per request are per operation, as k6's.
        requests_sent=len(operations),
        offered_rps=rate,
        # vegeta starts every arrival (a worker for each): none is dropped, a late one is timed
        # from its schedule.
        dropped_iterations=0,
    )
    return Step(figures, acknowledged, len(results))


def _acknowledge(acknowledged: Acknowledged, request: Request, ok: bool) -> None:
    if request.endpoint == "item_create" and ok and request.key is not None:
        acknowledged.item_keys.add(request.key)
    elif request.endpoint == "category_create" and ok and request.key is not None:
        acknowledged.category_keys.add(request.key)
    elif request.endpoint == "item_delete" and request.item_id is not None:
        (acknowledged.items_deleted if ok else acknowledged.items_delete_unconfirmed).add(request.item_id)


def _most_in_flight(starts: Sequence[int], ends: Sequence[int]) -> int:
    """The most requests in flight at once: vegeta's busy workers at their peak."""
    events = sorted([(t, 1) for t in starts] + [(t, -1) for t in ends], key=lambda e: (e[0], e[1]))
    busy = most = 0
    for _, change in events:
        busy += change
        most = max(most, busy)
    return most
