"""The sections that other runs add to results.md: the memory ladder, the soak, the fault."""

from __future__ import annotations

from collections import defaultdict

from bench.records import RawResult
from bench.report.figures import MIB, fmt


def _ladder_cell(record: RawResult | None) -> tuple[str, bool]:
    """The cell of one step, and whether the stack served it cleanly."""
    if record is None:
        return "", False
    if record.failed:
        return ("OOM-killed" if "OOM-killed" in record.failed else "failed to serve"), False
    if any(s.oom for s in record.stages):
        return "OOM-killed", False
    if any(s.error_count for s in record.stages):
        return f"{sum(s.error_count for s in record.stages)} errors", False
    return fmt(record.stages[-1].rps), True


def ladder_section(records: list[RawResult]) -> list[str]:
    """The memory ladder: requests/s at each cap, and the smallest cap served with no error."""
    steps = sorted({r.mem_ladder_mib for r in records if r.mem_ladder_mib}, reverse=True)
    scenarios = sorted({r.scenario for r in records})
    by_key = {(r.stack.label, r.scenario, r.mem_ladder_mib): r for r in records}
    lines = [
        "## Memory ladder",
        "",
        "The app's memory cap stepped down; each cell is requests/s at the highest stage, or why it "
        "failed. A stack that fails a step is not tried below it.",
        "",
        "| stack | scenario | " + " | ".join(f"{m} MiB" for m in steps) + " | smallest clean cap |",
        "|" + " --- |" * (len(steps) + 3),
    ]
    for name in sorted({r.stack.label for r in records}):
        for scenario in scenarios:
            cells, smallest = [], None
            for mib in steps:
                cell, clean = _ladder_cell(by_key.get((name, scenario, mib)))
                cells.append(cell)
                if clean:
                    smallest = mib
            lines.append(
                f"| {name} | {scenario} | " + " | ".join(cells) + f" | {f'{smallest} MiB' if smallest else '–'} |"
            )
    return [*lines, ""]


def soak_section(records: list[RawResult]) -> list[str]:
    lines = [
        "## Soak",
        "",
        "The mixed scenario for 10 minutes at one concurrency; memory is sampled every 2 s. A stack "
        "keeps growing when its last quarter's peak exceeds its second quarter's by over 10% and 8 MiB.",
        "",
        "| stack | VUs | req/s | errors | 2xx writes lost | memory, 2nd quarter peak MiB "
        "| last quarter peak MiB | verdict |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in sorted(records, key=lambda r: r.stack.name):
        if r.failed:
            lines.append(f"| {r.stack.label} | | | | | | | failed: {r.failed} |")
            continue
        lost = r.lost_writes.lost_writes if r.lost_writes is not None else "–"
        for stage in r.stages:
            growth = stage.memory_growth
            verdict = "–" if growth is None else ("keeps growing" if growth.growing else "flat")
            second = growth.second_quarter_peak_bytes if growth else None
            last = growth.last_quarter_peak_bytes if growth else None
            lines.append(
                f"| {r.stack.label} | {stage.vus} | {fmt(stage.rps)} | {stage.error_count} | "
                f"{lost} | {fmt(second, 0, MIB)} | {fmt(last, 0, MIB)} | {verdict} |"
            )
    return [*lines, ""]


def unacknowledged_writes(record: RawResult) -> str:
    """Writes made by requests that got no 2xx, per table, as the fault table shows them."""
    writes = record.lost_writes
    if writes is None:
        return "–"
    counts = ((writes.items_unacknowledged, "items"), (writes.categories_unacknowledged, "categories"))
    return ", ".join(f"{n} {what}" for n, what in counts if n) or "0"


FAULT_INTRO = (
    "The mixed scenario with PostgreSQL stopped a third into its first stage and started again. "
    "Requests during the outage must be answered (503), the stack must serve again within 5 s "
    "without a restart, and no write that got a 2xx may be lost. Every create and delete that got a "
    "2xx is looked up by id after the run: a lost write is a 2xx create whose row is missing or a "
    "2xx delete whose row is still there. Writes made by a request that got no 2xx are not losses "
    "and are counted apart: a commit whose answer never reached the client (PostgreSQL stopped "
    "after the commit, the stack answered 503). A stack whose pool waits for a connection answers 503 "
    "after its 5 s wait; the slowest answer adds the time a request queued before it reached the pool "
    "(spec/README.md)."
)


def fault_section(records: list[RawResult]) -> list[str]:
    lines = [
        "## PostgreSQL restarted under load",
        "",
        FAULT_INTRO,
        "",
        "| stack | outage s | 503s | other errors | slowest ms | serving again after s | 2xx writes lost "
        "| writes made without a 2xx |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in sorted(records, key=lambda r: r.stack.name):
        if r.failed:
            lines.append(f"| {r.stack.label} | | | | | | | failed: {r.failed} |")
            continue
        errors: dict[str, int] = defaultdict(int)
        for stage in r.stages:
            for status, n in stage.errors.items():
                errors[status] += n
        other = sum(n for status, n in errors.items() if status != "503")
        slowest = max(((s.latency_ms.max if s.latency_ms else None) or 0) for s in r.stages) if r.stages else None
        outage = r.fault.outage_s if r.fault else "–"
        recovered = r.fault.recovered_within_s if r.fault else "–"
        lost = r.lost_writes.lost_writes if r.lost_writes is not None else "–"
        lines.append(
            f"| {r.stack.label} | {outage} | {fmt(errors.get('503', 0))} | {fmt(other)} | "
            f"{fmt(slowest)} | {recovered} | {lost} | {unacknowledged_writes(r)} |"
        )
    return [*lines, ""]
