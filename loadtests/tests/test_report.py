"""Rendering results.md from raw files, and the raw-result schema."""

import copy
import json

import pytest

from bench import report, schema
from bench.records import RawResult
from bench.report.sections import unacknowledged_writes
from bench.report.tables import commits

BASE = {
    "schema_version": 1,
    "profile": "quick",
    "machine": {"cpu_model": "Test CPU", "cores": 2, "memory_bytes": 24 << 30, "kernel": "6.1", "os": "Debian 12"},
    "versions": {"postgres": "postgres (PostgreSQL) 15.18", "python": "3.11.7", "k6": "k6 v1.8.1", "oha": "oha 1.16.0"},
    "git_commit": "0" * 40,
    "caps": {"app": {"cpus": 1.0, "mem_bytes": 512 << 20}, "postgres": {"cpus": 1.0, "mem_bytes": 1 << 30}},
    "cpu_split": {"app": "0", "postgres": "1", "loadgen": "1"},
    "cgroups": "v1",
    "warnings": [],
}


def stack(name):
    return {
        "name": name,
        "display": name,
        "language": "L",
        "language_version": "1",
        "framework": "F",
        "framework_version": "2",
        "server": "S",
        "data_access": "D",
    }


def stage(vus, rps, p99=10.0, errors=None):
    errors = errors or {}
    latency = {"avg": 1.0, "min": 0.1, "p50": 2.0, "p95": 5.0, "p99": p99, "max": 50.0}
    return {
        "vus": vus,
        "requests": int(rps * 12),
        "rps": rps,
        "duration_s": 12,
        "latency_ms": latency,
        "errors": errors,
        "error_count": sum(errors.values()),
        "error_rate": 0.0,
        "sql_statements": int(rps * 24),
        "sql_per_request": 2.0,
        "mean_response_bytes": 1500.0,
        "bytes_received": int(rps * 12 * 1500),
        "app_cpu_s": 10.0,
        "cpu_ms_per_request": 0.25,
        "app_peak_memory_bytes": 100 << 20,
        "loadgen_cpu_share": 0.5,
        "client_bound": False,
        "oom": False,
        "oom_kills": 0,
        "memory_samples": [],
        "memory_growth": None,
        "endpoints": {"item_by_id": {"requests": 10, "latency_ms": dict(latency, p99=3.0)}},
    }


def record(name, scenario, run, rps_by_stage, **extra):
    r = copy.deepcopy(BASE)
    r.update(
        stack=stack(name),
        scenario=scenario,
        run=run,
        started_at="2026-11-21T20:00:00+00:00",
        startup_s=1.5,
        idle_memory_bytes=20 << 20,
        app_exit_code=0,
        stages=[stage(v, rps) for v, rps in rps_by_stage],
        lost_writes=None,
        sql_per_request_by_endpoint={"item_by_id": 1.0},
    )
    r.update(extra)
    return r


def write(raw_dir, records):
    raw_dir.mkdir(parents=True)
    for r in records:
        (raw_dir / f"{r['stack']['name']}--{r['scenario']}--run{r['run']}.json").write_text(json.dumps(r))


def test_a_generated_record_conforms_to_the_schema():
    assert schema.validate_raw(record("go-gin", "join-filter", 1, [(60, 1000.0), (120, 1100.0)])) == []


@pytest.mark.parametrize(
    "mutate,expected",
    [
        (lambda r: r.pop("caps"), "'caps' is a required property"),
        (lambda r: r.update(scenario="nope"), "scenario"),
        (lambda r: r["stages"][0].update(rps=-1), "stages/0/rps"),
        (lambda r: r["stages"][0]["errors"].update({"abc": 1}), "stages/0/errors"),
        (lambda r: r.update(stages=[]), "stages"),
        (lambda r: r.update(lost_writes={"lost_writes": -1}), "lost_writes"),
    ],
)
def test_the_schema_catches_broken_records(mutate, expected):
    r = record("go-gin", "join-filter", 1, [(60, 1000.0)])
    mutate(r)
    problems = schema.validate_raw(r)
    assert problems and any(expected in p for p in problems), problems


def test_a_failed_record_needs_no_stages():
    r = record("go-gin", "avatar", 1, [])
    r["failed"] = "go-gin exited with code 1 before it was healthy"
    assert schema.validate_raw(r) == []


def test_render_sorts_by_throughput_and_shows_ceiling_efficiency_and_spread(tmp_path):
    raw = tmp_path / "raw"
    write(
        raw,
        [
            record("slow", "join-filter", 1, [(60, 500.0), (120, 600.0)]),
            record("slow", "join-filter", 2, [(60, 520.0), (120, 640.0)]),
            record("fast", "join-filter", 1, [(60, 900.0), (120, 1000.0)]),
            record("fast", "join-filter", 2, [(60, 950.0), (120, 1100.0)]),
            record("twin", "join-filter", 1, [(60, 900.0), (120, 1020.0)]),
            record("ceiling-db", "join-filter", 1, [(60, 2000.0), (120, 2000.0)], kind="ceiling"),
            record("broken", "join-filter", 1, [], failed="broken exited with code 1"),
        ],
    )
    md = report.render(raw, tmp_path / "results.md", tmp_path / "charts")
    text = md.read_text()
    assert "do not edit by hand" in text
    # The page is built, not committed: results.md says where `./bench report` puts it.
    assert "`./bench report` writes `charts/site/index.html`, which opens from disk" in text
    table = text[text.index("## join-filter") :]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "| 120 |" in line]
    assert [r.split("|")[1].strip() for r in rows] == ["ceiling-db", "fast", "twin", "slow"]
    fast = next(r for r in rows if r.startswith("| fast"))
    assert "1,050 (1,000–1,100)" in fast and "52%" in fast and "≈ next" in fast
    assert "failed: broken exited with code 1" in table
    for chart in ("throughput", "p99", "cpu", "memory"):
        assert (tmp_path / "charts" / f"{chart}.png").stat().st_size > 1000
        assert f"charts/{chart}.png" in text


def test_results_md_names_its_method_and_commits_and_links_to_reading_the_results(tmp_path):
    raw = tmp_path / "raw"
    newer = record("fast", "join-filter", 1, [(60, 900.0)])
    newer.update(method=4, git_commit="a" * 40)
    older = record("slow", "join-filter", 1, [(60, 500.0)])
    older.update(git_commit="b" * 40)
    write(raw, [newer, older])
    first = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text().split("## ")[0]
    assert (
        "Measured by method v4 and a method before v4 (its records name none: results/changelog.md, The methods)"
        in first
    )
    assert f"at `{'a' * 12}`, `{'b' * 12}`" in first
    assert "docs/reading-results.md)" in first


def test_render_reports_lost_writes(tmp_path):
    raw = tmp_path / "raw"
    lost = lost_writes(lost_writes=1, items_missing=1)
    write(raw, [record("go-gin", "mixed", 1, [(50, 800.0), (100, 900.0)], lost_writes=lost)])
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    assert "Lost writes" in text and "go-gin 1" in text


def test_a_variants_records_alone_render_with_their_commit(tmp_path):
    # `./bench run java-quarkus@reactive --output DIR` once ended on a traceback here.
    raw = tmp_path / "raw"
    alone = record("fast@variant", "join-filter", 1, [(60, 900.0)])
    alone.update(git_commit="c" * 40)
    write(raw, [alone])
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    assert f"`{'c' * 12}`" in text.split("## ")[0]


def test_render_without_raw_files_says_what_to_do(tmp_path):
    with pytest.raises(Exception, match=r"run `\./bench run` first"):
        report.render(tmp_path / "empty", tmp_path / "r.md", tmp_path)


def test_analysis_is_placed_above_the_tables(tmp_path):
    raw = tmp_path / "raw"
    write(raw, [record("go-gin", "avatar", 1, [(10, 30000.0)])])
    analysis = tmp_path / "analysis.md"
    analysis.write_text("## What bounds each scenario\n\nThe database.")
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts", analysis=analysis).read_text()
    assert text.index("What bounds each scenario") < text.index("## avatar")


def test_the_environment_names_each_machine_a_resumed_run_had_under_it():
    """A run resumed in a later session can have had another machine of the same kind under it:
    the environment says which kernel build measured which runs, not only the first record's."""
    from bench.records import RawResult
    from bench.report.tables import environment_table

    def on(kernel, run):
        r = record("go-gin", "join-filter", run, [(60, 1000.0)])
        r["machine"] = dict(r["machine"], kernel=kernel)
        return RawResult.model_validate(r)

    def rows(records, runs):
        table = environment_table(records, runs, "x")[4:-1]
        return {line.split("|")[1].strip(): line.split("|")[2].strip() for line in table}

    records = [on("6.1-a", 1), on("6.1-a", 1), on("6.1-b", 2), on("6.1-b", 3)]
    assert rows(records, 3)["machine"] == "Test CPU, 2 cores, 24.0 GiB"
    assert rows(records, 3)["system"] == (
        "Debian 12, kernel 6.1-a (2 records, run 1); Debian 12, kernel 6.1-b (2 records, runs 2, 3)"
    )
    assert rows(records[:2], 1)["system"] == "Debian 12, kernel 6.1-a"


def test_the_environment_names_vegeta_where_a_run_used_it():
    from bench.records import RawResult
    from bench.report.tables import environment_table

    def generators(versions):
        r = record("go-gin", "heavy-body", 1, [(30, 300.0)])
        r["versions"] = dict(r["versions"], **versions)
        (row,) = [line for line in environment_table([RawResult.model_validate(r)], 1, "x") if "load generator" in line]
        return row

    assert generators({}) == "| load generator | cpuset 1; k6 v1.8.1; oha 1.16.0 |"
    assert (
        generators({"vegeta": "vegeta v12.13.0"})
        == "| load generator | cpuset 1; k6 v1.8.1; oha 1.16.0; vegeta v12.13.0 |"
    )


def test_commits_name_what_a_partial_rerun_measured():
    records = [
        RawResult.model_validate(record(name, scenario, 1, [(10, 100.0)]))
        for name in ("a", "b")
        for scenario in ("join-filter", "mixed")
    ]
    assert commits(records) == f"`{'0' * 12}`"
    for r in records:
        if r.stack.name == "b" and r.scenario == "mixed":
            r.git_commit = "1" * 40
    assert commits(records) == f"`{'0' * 12}` for the rest; `{'1' * 12}` for b (mixed)"
    for r in records:
        if r.stack.name == "b":
            r.git_commit = "1" * 40
    assert commits(records) == f"`{'0' * 12}` for the rest; `{'1' * 12}` for b"


def lost_writes(**figures):
    counts = dict.fromkeys(
        (
            "items_created",
            "items_deleted",
            "categories_created",
            "item_rows_delta",
            "category_rows_delta",
            "items_missing",
            "items_deleted_present",
            "categories_missing",
            "seeded_rows_missing",
            "items_unacknowledged",
            "categories_unacknowledged",
            "lost_writes",
        ),
        0,
    )
    return {**counts, **figures}


def test_writes_made_without_a_2xx_are_named_per_table():
    def with_writes(writes):
        return RawResult.model_validate(record("go-gin", "mixed", 1, [(50, 10.0)], lost_writes=writes))

    both = lost_writes(items_unacknowledged=3, categories_unacknowledged=1)
    assert unacknowledged_writes(with_writes(both)) == "3 items, 1 categories"
    assert unacknowledged_writes(with_writes(lost_writes())) == "0"
    assert unacknowledged_writes(with_writes(None)) == "–"


def test_soak_section_and_its_memory_chart(tmp_path):
    raw = tmp_path / "raw" / "quick"
    write(raw, [record("go-gin", "join-filter", 1, [(60, 1000.0)])])
    soak = record(
        "go-gin",
        "mixed",
        1,
        [(50, 450.0)],
        profile="soak",
        lost_writes=lost_writes(
            items_created=9, items_deleted=3, categories_created=1, item_rows_delta=6, category_rows_delta=1
        ),
    )
    soak["stages"][0].update(
        memory_samples=[[2.0 * i, (30 + i % 3) << 20] for i in range(300)],
        memory_growth={"second_quarter_peak_bytes": 32 << 20, "last_quarter_peak_bytes": 32 << 20, "growing": False},
    )
    broken = record("node-express", "mixed", 1, [], profile="soak", failed="exited with code 1")
    write(tmp_path / "raw" / "soak", [soak, broken])
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    section = text[text.index("## Soak") :]
    header = next(line for line in section.splitlines() if line.startswith("| stack"))
    go = next(line for line in section.splitlines() if line.startswith("| go-gin"))
    failed = next(line for line in section.splitlines() if line.startswith("| node-express"))
    assert go.split(" | ")[1:] == ["50", "450", "0", "0", "32", "32", "flat |"]
    assert header.count("|") == go.count("|") == failed.count("|")
    assert (tmp_path / "charts" / "soak-memory.png").stat().st_size > 1000
    assert "charts/soak-memory.png" in text


def cpu(app_share, *, bound=(), shared=0.5):
    return {
        "app_cpu_s": app_share * 5,
        "app_cpu_share": app_share,
        "postgres_cpu_s": 1.0,
        "postgres_cpu_share": 0.2,
        "postgres_ms_per_request": 0.2,
        "loadgen_cpu_s": 1.5,
        "loadgen_cpu_share": 0.3,
        "shared_cpu_share": shared,
        "bound_by": list(bound),
    }


def ladder_step(rate, *, held=True, cpu_ms=0.3, p99=20.0, reasons=(), bound=()):
    latency = {"avg": 5.0, "p50": 4.0, "p95": 15.0, "p99": p99, "max": 80.0, "p90": 10.0, "p999": p99 * 2}
    return {
        "offered_rps": rate,
        "duration_s": 5,
        "vus": 40,
        "requests": int(rate * 5),
        "delivered_rps": rate,
        "latency_ms": latency,
        "errors": {},
        "error_count": 0,
        "dropped_iterations": 0,
        "sql_per_request": 1.7,
        "mean_response_bytes": 1000.0,
        "cpu_ms_per_request": cpu_ms,
        "app_peak_memory_bytes": 50 << 20,
        "cpu": cpu(0.95 if bound else 0.4, bound=bound),
        "oom": False,
        "held": held,
        "stop_reasons": list(reasons),
    }


def laddered(name, run, held_rates, failed_rate, *, cpu_ms=0.3, steady=12.0, reached=True):
    steps = [ladder_step(r, cpu_ms=cpu_ms) for r in held_rates]
    if failed_rate is not None:
        steps.append(ladder_step(failed_rate, held=False, p99=300.0, reasons=["p99"], bound=["app"]))
    return record(
        name,
        "join-filter",
        run,
        [(120, 900.0)],
        ladder={
            "objective_p99_ms": 100.0,
            "rates": [250.0, 400.0, 630.0, 1000.0],
            "steps": steps,
            "capacity_rps": held_rates[-1] if held_rates else None,
        },
        steady_state={
            "rate_rps": 250.0,
            "window_s": 4.0,
            "cap_s": 120.0,
            "windows_cpu_ms_per_request": [0.5, 0.31, 0.3, 0.3],
            "time_s": steady,
            "reached": reached,
        },
    )


def test_the_ladder_table_gives_capacity_and_the_figures_at_the_rate_every_stack_held(tmp_path):
    raw = tmp_path / "raw"
    records = [
        laddered("fast", 1, [250.0, 400.0, 630.0, 1000.0], None, cpu_ms=0.2),
        laddered("fast", 2, [250.0, 400.0, 630.0], 1000.0, cpu_ms=0.2),
        laddered("mid", 1, [250.0, 400.0, 630.0], 1000.0),
        laddered("mid", 2, [250.0, 400.0, 630.0], 1000.0),
        laddered("slow", 1, [250.0, 400.0], 630.0, cpu_ms=1.5, steady=120.0, reached=False),
        laddered("slow", 2, [250.0], 400.0, cpu_ms=1.5),
    ]
    for r in records:
        assert schema.validate_raw(r) == []
    write(raw, records)
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    table = text[text.index("### join-filter: fixed-rate ladder") : text.index("### join-filter: closed-model")]
    assert "p99 objective 100 ms" in table and "at 250 req/s, the highest rate every stack held" in table
    rows = {
        line.split("|")[1].strip(): line for line in table.splitlines() if line.startswith("| ") and "---" not in line
    }
    assert list(rows)[1:] == ["fast", "mid", "slow"]
    # Capacity over runs; pairs decided over all runs: fast (630–1,000) overlaps mid (630), not slow.
    assert "815 (630–1,000)" in rows["fast"] and "≈ next" in rows["fast"] and "≈" not in rows["mid"]
    assert "325 (250–400)" in rows["slow"] and "p99 over objective | app" in rows["slow"]
    assert "| 0.200 |" in rows["fast"] and "| 1.500 |" in rows["slow"] and "| 0.200 |" in rows["mid"]
    assert "held every rate, p99 over objective" in rows["fast"]
    assert "cap hit in 1 of 2" in rows["slow"]
    assert "## Memory, start-up and steady state" in text
    assert (tmp_path / "charts" / "capacity.png").stat().st_size > 1000 and "charts/capacity.png" in text


def test_no_difference_is_decided_for_every_pair_not_only_neighbours():
    from bench.report.figures import Spread, no_difference, noise_marks

    rows: list[tuple[str, Spread | None]] = [
        ("a", Spread(100, 90, 130)),
        ("b", Spread(95, 94, 96)),
        ("c", Spread(92, 88, 93)),
        ("d", Spread(50, 40, 60)),
    ]
    # a overlaps b and c (its range reaches 90), b and c do not overlap each other.
    assert no_difference(rows) == [("a", "b"), ("a", "c")]
    assert noise_marks(rows) == {"a": "≈ next, c"}
    # The rule results measured before the ladder were published with: neighbours only.
    assert noise_marks(rows, pairwise=False) == {"a": "≈ next"}


def test_efficiency_is_empty_against_a_ceiling_bound_by_its_load_generator(tmp_path):
    raw = tmp_path / "raw"
    ceiling = record("ceiling-http", "avatar", 1, [(10, 90000.0)], kind="ceiling")
    ceiling["stages"][0]["cpu"] = cpu(0.6, bound=["postgres+loadgen"], shared=0.95)
    write(raw, [ceiling, record("fast", "avatar", 1, [(10, 80000.0)])])
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    fast = next(line for line in text.splitlines() if line.startswith("| fast | 10 |"))
    assert "none: the ceiling was bound by its load generator" in fast
    limit = next(line for line in text.splitlines() if line.startswith("| ceiling-http | 10 |"))
    assert "bound: postgres+loadgen" in limit


def _ceiling_ladder(held_rates, failed_rate, *, bound):
    r = laddered("ceiling-db", 1, held_rates, None)
    r["kind"] = "ceiling"
    if failed_rate is not None:
        step = ladder_step(failed_rate, held=False, p99=300.0, reasons=["p99"])
        step["cpu"] = cpu(0.0, bound=bound, shared=0.95)
        r["ladder"]["steps"].append(step)
    return r


def _ladder_rows(tmp_path, records):
    raw = tmp_path / "raw"
    write(raw, records)
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    table = text[text.index("### join-filter: fixed-rate ladder") : text.index("### join-filter: closed-model")]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]
    return table, {line.split("|")[1].strip(): line.split("|")[3].strip() for line in rows}


def test_a_ceiling_run_through_the_ladder_comes_first_and_gives_each_stack_its_efficiency(tmp_path):
    # The database bound the ceiling (PostgreSQL did most of the shared CPU's work).
    ceiling = _ceiling_ladder([250.0, 400.0, 630.0], 1000.0, bound=["postgres+loadgen"])
    ceiling["ladder"]["steps"][-1]["cpu"]["postgres_cpu_s"] = 8.0
    stacks = [laddered("fast", 1, [250.0, 400.0, 630.0], 1000.0), laddered("slow", 1, [250.0], 400.0)]
    # The open model runs a ceiling's ladder only: a record with no closed-model stage.
    ceiling["stages"] = []
    assert schema.validate_raw(ceiling) == []
    stack_without_stages = dict(stacks[0], stages=[])
    assert schema.validate_raw(stack_without_stages) != []
    table, efficiency = _ladder_rows(tmp_path, [ceiling, *stacks])
    assert list(efficiency) == ["ceiling-db", "fast", "slow"]
    assert efficiency == {"ceiling-db": "the ceiling", "fast": "100%", "slow": "40%"}
    assert "efficiency is a stack's capacity divided by the ceiling's" in table
    # The common rate is every stack's, the ceiling's aside.
    assert "at 250 req/s" in table


def test_no_efficiency_against_a_ceiling_ladder_its_load_generator_stopped(tmp_path):
    ceiling = _ceiling_ladder([250.0, 400.0], 630.0, bound=["postgres+loadgen"])
    ceiling["ladder"]["steps"][-1]["cpu"]["loadgen_cpu_s"] = 9.0
    _, efficiency = _ladder_rows(tmp_path, [ceiling, laddered("fast", 1, [250.0, 400.0], 630.0)])
    assert efficiency["fast"] == "none: the ceiling was bound by its load generator"


def test_against_a_ceiling_that_held_every_rate_efficiency_is_an_upper_bound(tmp_path):
    ceiling = _ceiling_ladder([250.0, 400.0, 630.0, 1000.0], None, bound=[])
    _, efficiency = _ladder_rows(tmp_path, [ceiling, laddered("fast", 1, [250.0, 400.0], 630.0)])
    assert efficiency["fast"] == "≤ 40%"


def test_no_efficiency_for_a_stack_whose_ladder_its_load_generator_stopped(tmp_path):
    ceiling = _ceiling_ladder([250.0, 400.0, 630.0], 1000.0, bound=["postgres+loadgen"])
    ceiling["ladder"]["steps"][-1]["cpu"]["postgres_cpu_s"] = 8.0
    # k6 and PostgreSQL filled CPU 1, k6 doing more of it; the stack's core had room left.
    k6_bound = laddered("k6-bound", 1, [250.0, 400.0], 630.0)
    step = k6_bound["ladder"]["steps"][-1]
    step["cpu"] = cpu(0.6, bound=["postgres+loadgen"], shared=0.95)
    step["cpu"]["loadgen_cpu_s"] = 3.0
    _, efficiency = _ladder_rows(tmp_path, [ceiling, k6_bound, laddered("app-bound", 1, [250.0], 400.0)])
    assert (
        efficiency["k6-bound"] == "none: its ladder stopped where its load generator did most of the work on a full CPU"
    )
    assert efficiency["app-bound"] == "40%"


def test_start_up_idle_memory_and_the_cold_steady_state_come_from_the_scenario_that_started_the_process(tmp_path):
    """A repeat runs a stack's scenarios on one process: the later records carry its start-up
    and idle memory again, and their warm-ups start from a warm process."""
    first = laddered("jvm", 1, [250.0, 400.0], 630.0, steady=110.0)
    first.update(served_before=[], startup_s=4.0, idle_memory_bytes=200 << 20, app_exit_code=None)
    later = laddered("jvm", 1, [250.0, 400.0], 630.0, steady=16.0)
    later.update(scenario="read-heavy", served_before=["join-filter"], startup_s=4.0, idle_memory_bytes=200 << 20)
    fresh = laddered("go", 1, [250.0, 400.0], 630.0, steady=12.0)
    for r in (first, later, fresh):
        assert schema.validate_raw(r) == []
    write(tmp_path / "raw", [first, later, fresh])
    text = report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts").read_text()
    memory = text[text.index("## Memory, start-up and steady state") :]
    assert "| jvm | 200 | 100 | 4.00 | 110 (max 110) | 16 (max 16) | 0 |" in memory
    # Records from a fresh process per scenario (before one process per repeat) count as from start.
    assert "| go | 20 | 100 | 1.50 | 12 (max 12) | – | 0 |" in memory


def test_after_a_bisection_the_step_that_stopped_the_ladder_is_the_lowest_not_held(tmp_path):
    from bench.records import RawResult
    from bench.report.figures import group_cells
    from bench.report.ladder import last_steps, lower_bound

    record = laddered("bisected", 1, [250.0, 400.0], 630.0)
    # The bisection between 400 and 630: 502 held, 562 not held (it bounds capacity from above),
    # then 531 held last: the last step run is a held one.
    record["ladder"]["steps"] += [
        {**ladder_step(502.0), "bisection": True},
        {**ladder_step(562.0, held=False, p99=300.0, reasons=["p99"], bound=["app"]), "bisection": True},
        {**ladder_step(531.0), "bisection": True},
    ]
    record["ladder"]["capacity_rps"] = 531.0
    assert schema.validate_raw(record) == []
    (cell,) = group_cells([RawResult.model_validate(record)])["join-filter"]
    (stop,) = last_steps(cell)
    assert stop.offered_rps == 562.0 and not stop.held
    assert not lower_bound(cell)
    write(tmp_path / "raw", [record])
    table = report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts").read_text()
    row = next(line for line in table.splitlines() if line.startswith("| bisected |") and "p99 over objective" in line)
    assert row.split("|")[2].strip() == "531"


def test_a_capacity_that_is_a_lower_bound_is_printed_with_its_sign(tmp_path):
    record = laddered("unbounded", 1, [250.0, 400.0, 630.0, 1000.0], None)
    record["ladder"]["capacity_lower_bound"] = True
    write(tmp_path / "raw", [record])
    text = report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts").read_text()
    summary = text[text.index("## Summary") : text.index("At a rate every stack held")]
    assert "| unbounded | ≥ 1,000 (T1) |" in summary
    ladder = text[text.index("### join-filter: fixed-rate ladder") :]
    assert "| unbounded | ≥ 1,000 |" in ladder


def test_the_outbound_ladder_shows_what_each_call_costs_the_upstream_and_no_other_ladder_does(tmp_path):
    outbound = laddered("fast", 1, [250.0, 400.0], 630.0)
    outbound["scenario"] = "outbound"
    for step in outbound["ladder"]["steps"]:
        step["cpu"].update(upstream_cpu_s=0.5, upstream_cpu_share=0.1, upstream_ms_per_request=0.125)
    outbound["ladder"]["steps"][-1]["cpu"]["bound_by"] = ["postgres+loadgen+upstream"]
    records = [outbound, laddered("fast", 1, [250.0, 400.0], 630.0)]
    for r in records:
        assert schema.validate_raw(r) == []
    raw = tmp_path / "raw"
    write(raw, records)
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    table = text[text.index("### outbound: fixed-rate ladder") : text.index("### outbound: closed-model")]
    header, _, row = (line for line in table.splitlines() if line.startswith("|"))
    assert "| load generator CPU share | upstream CPU ms/req |" in header
    assert header.count("|") == row.count("|") and "| 0.125 |" in row
    assert "postgres+loadgen+upstream" in row and "runs on the load generator's CPUs" in table
    join = text[text.index("### join-filter: fixed-rate ladder") : text.index("### join-filter: closed-model")]
    assert "upstream" not in join


def test_a_lower_bound_above_the_median_leaves_the_median_unsigned():
    """go-gin's heavy-body of the publication, in small: runs of 400 (a lower bound), 378 and 302
    have the median 378, which no higher value of the first run can move; 400 as the median can."""
    from bench.report.figures import group_cells
    from bench.report.ladder import lower_bound

    above = laddered("a", 1, [250.0, 400.0], None)
    above["ladder"]["capacity_lower_bound"] = True
    runs = [above, laddered("a", 2, [250.0], 400.0), laddered("a", 3, [250.0], 400.0)]
    for other in runs[1:]:
        other["ladder"]["capacity_rps"] = 378.0 if other["run"] == 2 else 302.0
    (cell,) = group_cells([RawResult.model_validate(r) for r in runs])["join-filter"]
    assert not lower_bound(cell)
    runs[2]["ladder"]["capacity_rps"] = 420.0
    (cell,) = group_cells([RawResult.model_validate(r) for r in runs])["join-filter"]
    assert lower_bound(cell)
