"""pgbench, the database ceiling's load generator: its command line replaying a scenario's SQL
(loadtests/pgbench/), and what it reports: its summary, and each transaction's latency from its
log. The parsers are pure, for the tests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bench import paths
from bench.errors import BenchError
from bench.scenarios import Scenario

PGBENCH_DIR = paths.ROOT / "loadtests" / "pgbench"

_TPS = re.compile(r"^tps = ([0-9.]+)", re.MULTILINE)
_LATENCY = re.compile(r"^latency average = ([0-9.]+) ms", re.MULTILINE)
_FAILED = re.compile(r"^number of failed transactions: (\d+)", re.MULTILINE)
_DONE = re.compile(r"^number of transactions actually processed: (\d+)", re.MULTILINE)


def pgbench_command(
    pgbench: Path,
    url: str,
    scenario: Scenario,
    clients: int,
    seconds: int,
    *,
    rate: float | None = None,
    latency_limit_ms: float | None = None,
    log_prefix: Path | None = None,
) -> str:
    """pgbench replaying `scenario`'s mix (its SQL files with its weights); at a fixed `rate`
    (transactions/s over all clients, latency then counted from each transaction's scheduled
    start, as k6's arrival rate does), skipping those already later than `latency_limit_ms` when
    their turn comes (k6's dropped iterations), and logging every transaction under `log_prefix`
    for the percentiles."""
    if not scenario.pgbench_scripts:
        raise BenchError(f"the {scenario.name} scenario names no SQL for pgbench (bench.scenarios)")
    scripts = " ".join(f"-f '{PGBENCH_DIR / script}@{weight}'" for script, weight in scenario.pgbench_mix)
    options = f"-n -M prepared -c {clients} -j 1 -T {seconds}"
    if rate is not None:
        options += f" -R {rate:g}"
    if latency_limit_ms is not None:
        options += f" -L {latency_limit_ms:g}"
    if log_prefix is not None:
        options += f" -l --log-prefix='{log_prefix}'"
    return f"exec '{pgbench}' {options} {scripts} '{url}'"


@dataclass(frozen=True)
class PgbenchReport:
    """What pgbench prints at its end. It reports the mean latency only."""

    tps: float
    transactions: int | None
    latency_avg_ms: float | None
    failed: int


def parse_pgbench(text: str) -> PgbenchReport:
    tps = _TPS.search(text)
    if tps is None:
        raise ValueError("pgbench printed no tps line")
    latency = _LATENCY.search(text)
    failed = _FAILED.search(text)
    done = _DONE.search(text)
    return PgbenchReport(
        tps=float(tps.group(1)),
        transactions=int(done.group(1)) if done else None,
        latency_avg_ms=float(latency.group(1)) if latency else None,
        failed=int(failed.group(1)) if failed else 0,
    )


@dataclass(frozen=True)
class TransactionLog:
    """pgbench's per-transaction log (-l): each latency, and the transactions it skipped (-L)."""

    latencies_ms: list[float]
    skipped: int


def read_transaction_logs(prefix: Path) -> TransactionLog:
    """Every file pgbench wrote under `prefix` (one per thread: PREFIX.PID, PREFIX.PID.N). A line
    is `client transaction time script epoch microseconds [lag]`; with a rate, `time` is counted
    from the scheduled start (lag included), and is `skipped` for a transaction -L skipped."""
    latencies: list[float] = []
    skipped = 0
    for path in sorted(prefix.parent.glob(prefix.name + ".*")):
        for line in path.read_text().splitlines():
            fields = line.split()
            if len(fields) < 3:
                continue
            if fields[2] == "skipped":
                skipped += 1
            else:
                latencies.append(int(fields[2]) / 1000)
    return TransactionLog(latencies, skipped)
