"""The tables of results.md: environment, stacks, one per scenario, memory and start-up."""

from __future__ import annotations

from collections import defaultdict

from bench.judgement.bounds import limited_by_loadgen
from bench.records import RawResult, StackInfo
from bench.records.machines import describe_calibration, describe_identity, machines
from bench.report.figures import MIB, Cell, fmt, fmt_spread, median, noise_marks
from bench.report.ladder import has_ladder, ladder_table


def commits(records: list[RawResult]) -> str:
    """Which commit measured what: a partial re-run (one stack after a fix) adds a commit."""
    scenarios_of: dict[str, set[str]] = defaultdict(set)
    measured: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for record in records:
        stack, scenario = record.stack.name, record.scenario
        scenarios_of[stack].add(scenario)
        measured[str(record.git_commit)[:12]][stack].add(scenario)
    if len(measured) == 1:
        return f"`{next(iter(measured))}`"

    def what(stacks: dict[str, set[str]]) -> str:
        return ", ".join(
            name if scenarios == scenarios_of[name] else f"{name} ({', '.join(sorted(scenarios))})"
            for name, scenarios in sorted(stacks.items())
        )

    main, *others = sorted(measured.items(), key=lambda item: -sum(len(v) for v in item[1].values()))
    return "; ".join([f"`{main[0]}` for the rest"] + [f"`{commit}` for {what(stacks)}" for commit, stacks in others])


def commit_counts(records: list[RawResult]) -> str:
    """Each commit `records` were measured at, with how many: `--resume` keeps records across
    commits that left their inputs alone, so a publication's sittings can name several."""
    counts: dict[str, int] = defaultdict(int)
    for record in records:
        counts[str(record.git_commit)[:12]] += 1
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return "; ".join(f"`{commit}` ({n} record{'s' if n != 1 else ''})" for commit, n in ordered)


def measured_at(records: list[RawResult]) -> str:
    """The commit(s) and UTC dates of `records`' runs, as each table names them."""
    dates = sorted({r.started_at.date().isoformat() for r in records if r.started_at is not None})
    when = f" on {dates[0]}" if len(dates) == 1 else f" from {dates[0]} to {dates[-1]}" if dates else ""
    return f"at {commits(records)}{when}"


def _machine_of(record: RawResult) -> tuple[str, str]:
    machine = record.machine
    gib = fmt(machine.memory_bytes, 1, 1 << 30)
    identity = describe_identity(machine)
    return (
        f"{machine.cpu_model}{f' ({identity})' if identity else ''}, {machine.cores} cores, {gib} GiB",
        f"{machine.os}, kernel {machine.kernel}",
    )


def _calibration_rows(records: list[RawResult]) -> list[tuple[str, str]]:
    """The calibration of the records' machine; where they come from more than one (another
    identity, or calibrations over 5% apart), a row that says so, with each one's figures."""
    groups = machines(records)
    if len(groups) == 1:
        calibration = groups[0][0].calibration
        return [("calibration", describe_calibration(calibration))] if calibration is not None else []
    said = [
        f"{_machine_of(group[0])[0]}: "
        + (describe_calibration(group[0].calibration) if group[0].calibration is not None else "not calibrated")
        + f" ({len(group)} record{'s' if len(group) > 1 else ''})"
        for group in groups
    ]
    return [("machines", f"these records come from {len(groups)} machines: " + " · ".join(said))]


def _machines(records: list[RawResult]) -> tuple[str, str]:
    """The machine and system rows: one value when every record names the same, else each value
    with what it measured. A run that went on in a later session (--resume) can have had another
    machine of the same kind under it, and the kernel's build is what tells two such apart."""
    runs_of: dict[tuple[str, str], list[int]] = defaultdict(list)
    for record in records:
        runs_of[_machine_of(record)].append(record.run)

    def row(part: int) -> str:
        if len({key[part] for key in runs_of}) == 1:
            return next(iter(runs_of))[part]
        said = []
        for key, runs in runs_of.items():
            distinct = sorted(set(runs))
            numbers = ", ".join(str(n) for n in distinct)
            said.append(f"{key[part]} ({len(runs)} records, run{'s' if len(distinct) > 1 else ''} {numbers})")
        return "; ".join(said)

    return row(0), row(1)


def _client_on_app_cpus(record: RawResult) -> bool:
    return record.kind == "ceiling" and record.cpu_split.loadgen == record.cpu_split.app != record.cpu_split.postgres


def environment_table(records: list[RawResult], runs: int, commit: str) -> list[str]:
    # A stack's record: the database ceiling's says its client ran on the app's CPUs (below).
    record = next((r for r in records if r.kind != "ceiling"), records[0])
    versions, caps, split = record.versions, record.caps, record.cpu_split
    machine_row, system_row = _machines(records)
    rows = [
        ("machine", machine_row),
        ("system", system_row),
        *_calibration_rows(records),
        ("profile", f"{record.profile}, {runs} run(s) per stack × scenario"),
    ]
    if caps is None or record.target is not None:
        # A --target run: the stack and its database are elsewhere, their caps unknown here.
        where = record.target.url if record.target is not None else "elsewhere"
        rows += [("app", f"– (runs at {where}; caps unknown here)"), ("PostgreSQL", "– (runs elsewhere)")]
    else:
        rows += [
            ("app", f"{caps.app.cpus:g} CPU (cpuset {split.app}), {fmt(caps.app.mem_bytes, 0, MIB)} MiB"),
            (
                "PostgreSQL",
                f"{versions.postgres}; {caps.postgres.cpus:g} CPU (cpuset {split.postgres}), "
                f"{fmt(caps.postgres.mem_bytes, 0, MIB)} MiB",
            ),
        ]
    rows += [
        (
            "load generator",
            f"cpuset {split.loadgen}; {versions.k6 or '–'}; {versions.oha or '–'}"
            + (f"; {versions.vegeta}" if versions.vegeta else ""),
        ),
        *[
            ("database ceiling's client", f"pgbench on cpuset {client}, the app's")
            for client in sorted({r.cpu_split.loadgen for r in records if _client_on_app_cpus(r)})
        ],
        ("cgroups", record.cgroups or "none (caps not applied)"),
        ("git commits", commit),
    ]
    rows += [("warning", warning) for warning in record.warnings]
    return ["## Environment", "", "| | |", "| --- | --- |", *[f"| {k} | {v} |" for k, v in rows], ""]


def not_measured_section(records: list[RawResult]) -> list[str]:
    """For --target runs: which figures show "–" because they cannot be measured from here, and why."""
    reasons: dict[str, str] = {}
    for record in records:
        if record.target is not None:
            reasons.update(record.target.not_measured)
    if not reasons:
        return []
    lines = [
        "## Not measured",
        "",
        "The stack ran elsewhere (`./bench run --target`); these figures are absent from the raw files "
        "and show as – in the tables above. Steady state was settled by p50 latency instead of CPU per request.",
        "",
        "| figures | why |",
        "| --- | --- |",
    ]
    return [*lines, *[f"| {fields} | {why} |" for fields, why in reasons.items()], ""]


def stacks_table(records: list[RawResult], hal_spec: str = "spec/hal.md") -> list[str]:
    """`hal_spec`: the link to spec/hal.md from where results.md is written."""
    seen: dict[str, StackInfo] = {}
    ceilings = {r.stack.name for r in records if r.kind == "ceiling"}
    for r in records:
        seen.setdefault(r.stack.name, r.stack)
    # The dialect column only where stacks differ in it: a ceiling has none.
    dialects = any(s.dialect != "api" for s in seen.values())
    lines = [
        "## Stacks",
        "",
        "| stack | language | framework | server | data access |" + (" dialect |" if dialects else ""),
        "| --- | --- | --- | --- | --- |" + (" --- |" if dialects else ""),
    ]
    for s in seen.values():
        dialect = ("–" if s.name in ceilings else DIALECT_NAMES[s.dialect]) if dialects else None
        lines.append(
            f"| {s.label} | {s.language} {s.language_version} | {s.framework} "
            f"{s.framework_version} | {s.server} | {s.data_access} |" + (f" {dialect} |" if dialect else "")
        )
    lines.append("")
    if dialects:
        lines += [dialect_note(hal_spec), ""]
    return lines


DIALECT_NAMES = {"api": "API", "hal": "HAL"}


def dialect_note(hal_spec: str) -> str:
    """What a stack marked (HAL) is, and how it is compared with the others."""
    return (
        f"A stack marked (HAL) serves the same resources in Spring Data REST's HAL dialect ([{hal_spec}]"
        f"({hal_spec}): `_embedded`/`_links` documents, its own paths and statuses) and is sent the same "
        "operations on the same data as every other stack; the operation is the unit of every figure, so "
        "a replace that moves an item to another category, two requests in HAL, counts once (its second "
        "request is shown as the endpoint item_replace_category), and bytes/resp is per operation: HAL's "
        "bodies are bigger."
    )


def _efficiency(cell: Cell, vus: int, ceiling: Cell | None) -> str:
    """Requests/s as a share of the ceiling's at the same stage; none against a ceiling stage
    that measured its load generator rather than the ceiling (bounds.limited_by_loadgen)."""
    if ceiling is None or cell is ceiling or not ceiling.records:
        return ""
    if any(s.cpu is not None and limited_by_loadgen(s.cpu) for s in ceiling.stage_values(vus, lambda s: s)):
        return "none: the ceiling was bound by its load generator"
    mine, limit = cell.rps(vus), ceiling.rps(vus)
    if not mine or not limit or not limit.median:
        return "–"
    return f"{mine.median / limit.median:.0%}"


def _stage_row(cell: Cell, vus: int, ceiling: Cell | None, marks: dict[str, str]) -> str:
    errors = [e for e in cell.stage_values(vus, lambda s: s.error_count) if e is not None]
    notes = []
    measured = [s.cpu for s in cell.stage_values(vus, lambda s: s) if s.cpu is not None]
    if measured:
        bounds = dict.fromkeys(b for cpu in measured for b in cpu.bound_by)
        if bounds:
            notes.append("bound: " + ", ".join(bounds))
    elif any(cell.stage_values(vus, lambda s: s.client_bound)):
        notes.append("client-bound")
    clients = {s.db_clients for s in cell.stage_values(vus, lambda s: s) if s.db_clients and s.cpu is not None}
    if clients:
        notes.append(f"{', '.join(map(str, sorted(clients)))} pgbench clients")
    if any(cell.stage_values(vus, lambda s: s.oom)):
        notes.append("OOM")
    if vus == cell.top() and cell.stack.label in marks:
        notes.append(marks[cell.stack.label])
    columns = [
        cell.stack.label,
        str(vus),
        fmt_spread(cell.rps(vus)),
        _efficiency(cell, vus, ceiling),
        fmt(median(cell.latency(vus, "p50")), 1),
        fmt(median(cell.latency(vus, "p95")), 1),
        fmt(median(cell.latency(vus, "p99")), 1),
        fmt(median(cell.latency(vus, "max")), 1),
        fmt(sum(errors)) if errors else "–",
        fmt(median(cell.stage_values(vus, lambda s: s.cpu_ms_per_request)), 3),
        fmt(median(cell.stage_values(vus, lambda s: s.app_peak_memory_bytes)), 0, MIB),
        fmt(median(cell.stage_values(vus, lambda s: s.sql_per_request)), 2),
        fmt(median(cell.stage_values(vus, lambda s: s.mean_response_bytes)), 0),
        ", ".join(notes),
    ]
    return "| " + " | ".join(columns) + " |"


def _top_stage_p99(record: RawResult, endpoint: str) -> float | None:
    if not record.stages:
        return None
    figures = (record.stages[-1].endpoints or {}).get(endpoint)
    return figures.latency_ms.p99 if figures is not None and figures.latency_ms is not None else None


def _endpoint_table(cells: list[Cell]) -> list[str]:
    # The requests an operation needs beyond its first (HAL's item_replace_category) have a p99
    # of their own but no SQL count: theirs is in their operation's.
    endpoints = sorted(
        {e for c in cells for r in c.records for e in r.sql_per_request_by_endpoint}
        | {e for c in cells for r in c.records if r.stages for e in r.stages[-1].endpoints or {}}
    )
    if not endpoints:
        return []
    lines = [
        f"Per endpoint at {cells[0].top()} VUs: p99 ms / SQL statements per request",
        "",
        "| stack | " + " | ".join(endpoints) + " |",
        "|" + " --- |" * (len(endpoints) + 1),
    ]
    for cell in cells:
        if not cell.records:
            continue
        row = [cell.stack.label]
        for endpoint in endpoints:
            p99 = [_top_stage_p99(record, endpoint) for record in cell.records]
            sql = [r.sql_per_request_by_endpoint.get(endpoint) for r in cell.records]
            row.append(f"{fmt(median(p99), 1)} / {fmt(median(sql), 1)}")
        lines.append("| " + " | ".join(row) + " |")
    return [*lines, ""]


def scenario_section(scenario: str, cells: list[Cell], ceiling: Cell | None = None) -> list[str]:
    lines = [f"## {scenario}", ""]
    if has_ladder(cells):
        lines += ladder_table(scenario, cells, ceiling)
        lines += [
            f"### {scenario}: closed-model stages (the original study's, as its replication)",
            "",
            "Each VU sends its next request as soon as the last is answered: at saturation latency is "
            "VUs ÷ throughput by construction. Notes say what bound each stage (≥ 90% of its CPUs).",
            "",
        ]
    if ceiling is not None:
        lines += [
            f"The first row is the {ceiling.stack.display}; efficiency is a stack's requests/s "
            "divided by it at the same stage.",
            "",
        ]
    header = (
        "| stack | VUs | req/s | efficiency | p50 ms | p95 ms | p99 ms | max ms | errors | CPU ms/req "
        "| peak MiB | SQL/req | bytes/resp | notes |"
    )
    lines += [header, "|" + " --- |" * 14]
    marks = noise_marks([(c.stack.label, c.rps()) for c in cells], pairwise=has_ladder(cells))
    for cell in ([ceiling] if ceiling is not None else []) + cells:
        if not cell.records:
            lines.append(f"| {cell.stack.label} | | | | | | | | | | | | | failed: {cell.failures[0]} |")
            continue
        lines += [_stage_row(cell, vus, ceiling, marks) for vus in cell.stages()]
    lines.append("")
    lost = [(c.stack.label, [r.lost_writes for r in c.records if r.lost_writes is not None]) for c in cells]
    if any(entries for _, entries in lost):
        lines += [
            "Lost writes (2xx creates whose row is missing, 2xx deletes whose row is still there; must be 0): "
            + ", ".join(f"{name} {sum(e.lost_writes for e in entries)}" for name, entries in lost if entries),
            "",
        ]
    return lines + _endpoint_table(cells)


def memory_section(cells_by_scenario: dict[str, list[Cell]]) -> list[str]:
    idle: dict[str, list[float | None]] = defaultdict(list)
    peak: dict[str, list[int | None]] = defaultdict(list)
    startup: dict[str, list[float | None]] = defaultdict(list)
    steady: dict[str, list[float | None]] = defaultdict(list)
    steady_after: dict[str, list[float | None]] = defaultdict(list)
    capped: dict[str, int] = defaultdict(int)
    for cells in cells_by_scenario.values():
        for cell in cells:
            for r in cell.records:
                name = cell.stack.label
                peak[name] += [s.app_peak_memory_bytes for s in r.stages]
                peak[name] += [s.app_peak_memory_bytes for s in (r.ladder.steps if r.ladder else [])]
                # A process kept up across scenarios started once: its start-up, its idle memory
                # and its time to steady state from cold are its first scenario's.
                cold = not r.served_before
                if cold:
                    idle[name].append(r.idle_memory_bytes)
                    startup[name].append(r.startup_s)
                if r.steady_state is not None:
                    (steady if cold else steady_after)[name].append(r.steady_state.time_s)
                    capped[name] += not r.steady_state.reached
    if steady:
        return _memory_table_with_steady_state(idle, peak, startup, steady, steady_after, capped)
    lines = ["## Memory and start-up", "", "| stack | idle MiB | highest peak MiB | start-up to healthy, s |"]
    lines.append("| --- | --- | --- | --- |")
    for name in sorted(idle):
        peaks = [p for p in peak[name] if p is not None]
        lines.append(
            f"| {name} | {fmt(median(idle[name]), 0, MIB)} | {fmt(max(peaks) if peaks else None, 0, MIB)} "
            f"| {fmt(median(startup[name]), 2)} |"
        )
    return [*lines, ""]


def _memory_table_with_steady_state(
    idle: dict[str, list[float | None]],
    peak: dict[str, list[int | None]],
    startup: dict[str, list[float | None]],
    steady: dict[str, list[float | None]],
    steady_after: dict[str, list[float | None]],
    capped: dict[str, int],
) -> list[str]:
    def median_and_longest(values: list[float | None]) -> str:
        times = [t for t in values if t is not None]
        return f"{fmt(median(times), 0)} (max {fmt(max(times), 0)})" if times else "–"

    lines = [
        "## Memory, start-up and steady state",
        "",
        "Time to steady state: the warm-up at each scenario's warm rate until the app's CPU ms per "
        "request stopped getting cheaper (and, for a HotSpot JVM, its compiler threads fell under 5% of "
        "the core), as [the method](docs/method.md#steady-state) says: the median over runs, the longest "
        "beside it; a run that hit the profile's cap is counted. *From start* is the warm-up of a "
        "freshly started process, *after another scenario* that of a process that had served one before "
        "(records measured when a repeat ran a stack's scenarios on one process). *Highest peak*: the "
        "most memory any step or stage of any run reached, where the summary's *peak* is the median over "
        "runs of each run's highest.",
        "",
        "| stack | idle MiB | highest peak MiB | start-up to healthy, s "
        "| time to steady state from start, s | after another scenario, s | cap hit |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name in sorted(set(idle) | set(steady) | set(steady_after)):
        peaks = [p for p in peak[name] if p is not None]
        lines.append(
            f"| {name} | {fmt(median(idle[name]), 0, MIB)} | {fmt(max(peaks) if peaks else None, 0, MIB)} "
            f"| {fmt(median(startup[name]), 2)} | {median_and_longest(steady[name])} "
            f"| {median_and_longest(steady_after[name])} | {capped.get(name, 0)} |"
        )
    return [*lines, ""]
