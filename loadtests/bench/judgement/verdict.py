"""What a run must not have, and the one line printed per record."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bench.judgement.ladder import stopping_step
from bench.records import RawResult

# Seconds: how soon a stack must serve again after PostgreSQL's restart, and the longest a
# request may hang during the outage.
RECOVERY_LIMIT_S = 5
HANG_LIMIT_MS = 10_000
# What a stack answers while PostgreSQL is down: in a fault run, the answer the run asks for.
OUTAGE_STATUS = "503"


@dataclass
class Verdict:
    summary: str
    problems: list[str]


def _lost(record: RawResult) -> int:
    return record.lost_writes.lost_writes if record.lost_writes is not None else 0


def verdict(results: list[RawResult], *, ladder: bool = False) -> Verdict:
    """A stack that failed (outside the memory ladder, where failing is how the ladder ends),
    lost writes, memory that keeps growing, a fault not survived."""
    problems = []
    for r in results:
        name = f"{r.stack.label} · {r.scenario}" + (f" · {r.mem_ladder_mib} MiB" if ladder else "")
        if r.failed and not ladder:
            problems.append(f"{name}: {r.failed}")
        if _lost(r):
            problems.append(f"{name}: {_lost(r)} lost writes")
        for stage in r.stages:
            growth = stage.memory_growth
            if growth is not None and growth.growing and r.profile == "soak":
                problems.append(
                    f"{name}: memory keeps growing ({growth.second_quarter_peak_bytes >> 20} MiB → "
                    f"{growth.last_quarter_peak_bytes >> 20} MiB)"
                )
        if r.fault is not None:
            recovered = r.fault.recovered_within_s
            if recovered is None or recovered > RECOVERY_LIMIT_S:
                problems.append(
                    f"{name}: not serving again within {RECOVERY_LIMIT_S} s of PostgreSQL's restart ({recovered})"
                )
            other = {k: v for s in r.stages for k, v in s.errors.items() if k != OUTAGE_STATUS}
            if other:
                problems.append(f"{name}: statuses other than 503 during the outage: {other}")
            slowest = max(((s.latency_ms.max if s.latency_ms else None) or 0) for s in r.stages)
            if slowest > HANG_LIMIT_MS:
                problems.append(f"{name}: a request hung for {slowest / 1000:.1f} s during the outage")
    faults = [r for r in results if r.fault is not None]
    outage_503s = sum(s.errors.get(OUTAGE_STATUS, 0) for r in faults for s in r.stages)
    errors = sum(s.error_count for r in results for s in r.stages) - outage_503s
    lost = sum(_lost(r) for r in results)
    failed = sum(1 for r in results if r.failed)
    # A --target run cannot look its writes up: it says so rather than count none lost.
    checked = any(r.target is None for r in results) or not results
    lost_part = f"{lost} lost writes" if checked else "lost writes not checked (the database is elsewhere)"
    outage_part = f", {outage_503s} 503s during the outage" if faults else ""
    summary = f"{len(results)} runs, {failed} failed, {errors} unexpected statuses{outage_part}, {lost_part}"
    return Verdict(summary, problems)


def step_failed(record: RawResult) -> bool:
    """A step of the memory ladder that did not serve cleanly: the ladder stops there."""
    return bool(record.failed) or any(s.error_count or s.oom for s in record.stages)


def with_note(failure: str, note: str) -> str:
    """`note` right after "exited with code N" when the failure says so, else at the end."""
    if not note:
        return failure
    noted, found = re.subn(r"(exited with code -?\d+)", lambda m: m[1] + note, failure, count=1)
    return noted if found else failure + note


def summary_line(record: RawResult) -> str:
    name = f"{record.stack.label} · {record.scenario} · run {record.run}"
    if record.failed:
        return f"[red]{name}: FAILED[/]"
    parts = []
    if record.steady_state is not None:
        steady = record.steady_state
        parts.append(
            f"steady in {steady.time_s:.0f} s" if steady.reached else f"[yellow]not steady at {steady.time_s:.0f} s[/]"
        )
        if record.warmup_class not in (None, "not-settled"):
            # What the repeated step said of it after the ladder (bench.judgement.steady.warmup_class).
            parts[-1] += f", {record.warmup_class.replace('-', ' ')} by its repeated step"
    if record.ladder is not None:
        ladder = record.ladder
        held = f"{ladder.capacity_rps:,.0f} req/s" if ladder.capacity_rps is not None else "no rate"
        stop = stopping_step(ladder.steps)
        why = f" (then {', '.join(stop.stop_reasons)})" if stop is not None else " (every rate)"
        if stop is not None and stop.loadgen_bound:
            why = f"{why[:-1]}, the load generator at half its CPU or more: a lower bound)"
        parts.append(f"held {held} at p99 ≤ {ladder.objective_p99_ms:g} ms{why}")
    for stage in record.stages:
        p99 = stage.latency_ms.p99 if stage.latency_ms else None
        part = f"{stage.vus}: {stage.rps:,.0f} req/s" + (f" p99 {p99:.1f} ms" if p99 is not None else "")
        if stage.error_count:
            part += f" [red]{stage.error_count} errors[/]"
        parts.append(part)
    if record.lost_writes is not None:
        lost = record.lost_writes.lost_writes
        parts.append("[green]no lost writes[/]" if lost == 0 else f"[red]{lost} lost writes[/]")
    return f"{name}: " + " · ".join(parts)
