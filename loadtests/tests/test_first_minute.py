"""The first minute of a fresh process (docs/method.md, The first minute): the runner's bins of
oha's per-request log, the figures of bench.report.first_minute against a synthetic record whose
p99 and CPU per request fall over known windows, and results.md's table and the page's chart data."""

import dataclasses
import math
import sqlite3

import pytest
from test_report import record, write

from bench import schema
from bench.measure.load.oha import oha_command, read_request_log
from bench.measure.phases.first_minute import latency_bins, nearest_rank_ms
from bench.measure.plan.estimate import OHA_RUN_S, estimate_seconds
from bench.records import RawResult
from bench.report.figures import group_cells
from bench.report.first_minute import first_minute_data, first_minute_rows, first_minute_section, run_figures
from bench.report.render import render
from bench.scenarios import SCENARIOS

WINDOW_S = 3.0
RATE = 100.0
REQUESTS = 300  # a window of 3 s at 100 req/s
# java-spring's first minute of join-filter (objective 100 ms), window by window: its CPU per request
# falls from 9 ms to 1 ms by window 9 and stays there; its JIT finishes compilations until window
# 14; its p99 comes under the objective at window 4 but goes over once more in window 8.
CPU_MS = [9.0, 6.0, 4.0, 3.0, 2.5, 2.0, 1.6, 1.2] + [1.0] * 12
P99_MS = [900.0, 500.0, 300.0, 90.0, 95.0, 80.0, 70.0, 110.0] + [50.0] * 12
COMPILATIONS = [400, 300, 200, 100, 80, 60, 40, 30, 20, 10, 5, 3, 2, 1] + [0] * 6
COMPILER_SHARE = [0.5, 0.4, 0.3, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1, 0.08, 0.06, 0.06, 0.05, 0.05] + [0.01] * 6
BINS_P99_MS = [800.0, 105.0, 60.0, 52.0, 51.0, 50.0]
STEADY_CPU_MS = 0.9


def window(cpu_ms, p99_ms, compilations=None, compiler_share=None, requests=REQUESTS):
    cpu_s = cpu_ms * requests / 1000
    found = {
        "requests": requests,
        "error_count": 0,
        "p99_ms": p99_ms,
        "app_cpu_s": cpu_s,
        "app_cpu_share": cpu_s / WINDOW_S,
    }
    if compilations is not None:
        found.update(compilations=compilations, compiler_cpu_share=compiler_share)
    return found


def first_minute(cpu_ms=CPU_MS, p99_ms=P99_MS, *, jvm=True, bins=BINS_P99_MS, steady_cpu_ms=STEADY_CPU_MS):
    windows = [
        window(c, p, *((COMPILATIONS[i], COMPILER_SHARE[i]) if jvm else ()))
        for i, (c, p) in enumerate(zip(cpu_ms, p99_ms, strict=True))
    ]
    return {
        "rate_rps": RATE,
        "window_s": WINDOW_S,
        "started_after_s": 31.2,
        "seconds": 70.5,
        "windows": windows,
        "bin_s": 10.0,
        "bins": [{"requests": 1000, "p99_ms": p} for p in bins],
        "steady_windows": [window(steady_cpu_ms, 40.0)] * 3,
    }


def steady_state(reached=True, time_s=33.0):
    return {
        "rate_rps": 400.0,
        "window_s": WINDOW_S,
        "cap_s": 120.0,
        "windows_cpu_ms_per_request": [0.8] * 6,
        "time_s": time_s,
        "reached": reached,
    }


def run(name="java-spring", number=1, scenario="join-filter", startup_s=30.0, **fields):
    found = record(name, scenario, number, [(60, 500.0)], startup_s=startup_s)
    found.update(method=4, first_minute=first_minute(), steady_state=steady_state())
    found.update(fields)
    return found


def test_a_record_with_a_first_minute_conforms_to_the_schema_and_the_model():
    r = run()
    assert schema.validate_raw(r) == []
    first = RawResult.model_validate(r).first_minute
    assert first is not None and first.windows[0].compilations == 400
    broken = run()
    broken["first_minute"]["bins"][0]["requests"] = -1
    assert any(p.startswith("first_minute") for p in schema.validate_raw(broken))


def test_the_figures_of_a_first_minute_whose_cost_and_p99_fall_over_known_windows():
    figures = run_figures(RawResult.model_validate(run()))
    assert figures is not None
    assert figures.startup_s == 30.0
    # Window 8 (21-24 s) was the last over 100 ms.
    assert figures.p99_under_s == 24.0
    # The CPU rule holds first at window 13 (its last three at 1.0 ms, the three before at
    # 1.2, 1.0, 1.0: median not more than 5% under), but the JIT finished compilations until
    # window 14: its last two windows are quiet at window 16, 48 s.
    assert figures.steady_within
    assert figures.steady_s == 48.0
    assert figures.requests == 20 * REQUESTS
    assert figures.app_cpu_s == pytest.approx(sum(CPU_MS) * REQUESTS / 1000)  # 12.39 s
    assert figures.cpu_ms_per_request == pytest.approx(41.3 / 20)
    assert figures.steady_cpu_ms_per_request == pytest.approx(STEADY_CPU_MS)
    assert figures.cpu_at_steady_s == pytest.approx(STEADY_CPU_MS * 20 * REQUESTS / 1000)  # 5.4 s
    assert figures.cost_ratio == pytest.approx((41.3 / 20) / STEADY_CPU_MS)
    assert figures.bins_p99_ms == tuple(BINS_P99_MS)
    assert figures.windows_p99_ms == tuple(P99_MS)
    assert figures.windows_cpu_ms_per_request == pytest.approx(CPU_MS)


def test_without_a_jit_the_cpu_rule_alone_decides():
    figures = run_figures(RawResult.model_validate(run("go-gin", first_minute=first_minute(jvm=False))))
    assert figures is not None and figures.steady_s == 39.0 and figures.steady_within


def test_a_first_minute_that_never_settles_and_ends_over_the_objective():
    falling = [9.0 - 0.4 * i for i in range(20)]  # 9.0 down to 1.4: still getting cheaper at its end
    late = [50.0] * 19 + [150.0]
    r = run(first_minute=first_minute(falling, late, jvm=False))
    figures = run_figures(RawResult.model_validate(r))
    assert figures is not None
    assert figures.p99_under_s is None
    # Not within the first minute: its 60 s, then the warm-up's 33 s at the warm rate.
    assert not figures.steady_within and figures.steady_s == 60.0 + 33.0
    r["steady_state"] = steady_state(reached=False, time_s=120.0)
    capped = run_figures(RawResult.model_validate(r))
    assert capped is not None and capped.steady_s is None


def test_a_record_without_a_first_minute_has_no_figures():
    r = run()
    del r["first_minute"]
    assert run_figures(RawResult.model_validate(r)) is None


def cells(records):
    return group_cells([RawResult.model_validate(r) for r in records])


def three_runs_and_a_variant():
    slower = first_minute([c * 1.5 for c in CPU_MS], P99_MS, bins=[b * 2 for b in BINS_P99_MS])
    faster = first_minute([c * 0.5 for c in CPU_MS], P99_MS, bins=[b / 2 for b in BINS_P99_MS])
    return [
        run(number=1, startup_s=30.0),
        run(number=2, startup_s=28.0, first_minute=slower),
        run(number=3, startup_s=33.0, first_minute=faster),
        run("java-spring@aot-cache", startup_s=12.0, first_minute=first_minute(jvm=False)),
        run("go-gin", startup_s=0.2, first_minute=first_minute([1.0] * 20, [5.0] * 20, jvm=False)),
    ]


def test_the_rows_are_the_stacks_by_name_each_variant_under_its_stack_and_the_median_over_runs():
    rows = first_minute_rows(cells(three_runs_and_a_variant())["join-filter"])
    assert [(r.label, r.variant, len(r.runs)) for r in rows] == [
        ("go-gin", False, 1),
        ("java-spring", False, 3),
        ("java-spring@aot-cache", True, 1),
    ]
    spring = rows[1].spread("cpu_ms_per_request")
    assert spring is not None
    assert (spring.median, spring.low, spring.high) == pytest.approx((2.065, 2.065 * 0.5, 2.065 * 1.5))
    bins = rows[1].at("bins_p99_ms", 0)
    assert bins is not None and (bins.median, bins.low, bins.high) == (800.0, 400.0, 1600.0)


def test_the_table_of_results_md(tmp_path):
    lines = first_minute_section(cells(three_runs_and_a_variant()))
    table = [line for line in lines if line.startswith("| ") and not line.startswith("| ---")]
    assert table[0] == (
        "| stack | start-up s | p99 kept after s | steady after s | requests | app CPU s (at steady cost) "
        "| CPU per request ÷ steady | p99 ms 0–10 s | p99 ms 10–20 s | p99 ms 20–30 s | p99 ms 30–40 s "
        "| p99 ms 40–50 s | p99 ms 50–60 s |"
    )
    # go-gin: p99 always kept, the CPU rule at window 6 (18 s), 6 s of CPU against 5.4 at steady.
    assert (
        table[1] == "| go-gin | 0.20 | 0 | 18 | 6,000 | 6.0 (5.4) | 1.11 | 800.0 | 105.0 | 60.0 | 52.0 | 51.0 | 50.0 |"
    )
    assert table[2] == (
        "| java-spring | 30.00 (28.00–33.00) | 24 | 48 | 6,000 | 12.4 (6.2–18.6) (5.4) | 2.29 (1.15–3.44) "
        "| 800.0 (400.0–1,600.0) | 105.0 (52.5–210.0) | 60.0 (30.0–120.0) | 52.0 (26.0–104.0) "
        "| 51.0 (25.5–102.0) | 50.0 (25.0–100.0) |"
    )
    assert table[3].startswith("| java-spring@aot-cache | 12.00 | 24 | 39 | 6,000 | 12.4 (5.4) | 2.29 |")
    # The avatar has no file with a first minute: the section says what it waits for.
    assert "### avatar" in lines
    assert "Not measured yet: no raw file of avatar has a first minute at 800 req/s." in lines
    # results.md carries the section, dated, and no invented figure where nothing was measured.
    write(tmp_path / "raw", [r for r in three_runs_and_a_variant() if "@" not in r["stack"]["name"]])
    out = render(tmp_path / "raw", tmp_path / "results.md", tmp_path)
    text = out.read_text()
    section = text[text.index("## The first minute") :]
    assert "_Measured at `000000000000` on 2026-11-21._" in section
    assert "| go-gin | 0.20 | 0 | 18 |" in section


def test_results_md_waits_for_a_publication_that_carries_the_first_minute(tmp_path):
    write(tmp_path / "raw", [record("go-gin", "avatar", 1, [(10, 9000.0)])])
    text = render(tmp_path / "raw", tmp_path / "results.md", tmp_path).read_text()
    start = text.index("## The first minute")
    section = text[start : text.index("\n## ", start)]
    assert "No figures yet" in section
    assert "Not measured yet: no raw file of join-filter has a first minute at 100 req/s." in section
    assert "Not measured yet: no raw file of avatar has a first minute at 800 req/s." in section
    assert "| go-gin" not in section


def test_the_chart_data_of_the_page():
    shown = first_minute_data(cells(three_runs_and_a_variant()))
    assert [s["scenario"] for s in shown] == ["join-filter"]
    chart = shown[0]
    assert (chart["rate"], chart["objective_ms"], chart["window_s"]) == (100.0, 100.0, 3.0)
    assert [(line["label"], line["variant"], line["runs"]) for line in chart["lines"]] == [
        ("go-gin", False, 1),
        ("java-spring", False, 3),
        ("java-spring@aot-cache", True, 1),
    ]
    spring = chart["lines"][1]["points"]
    assert [p["t"] for p in spring] == [3.0 * (i + 1) for i in range(20)]
    assert spring[0]["p99"] == [900.0, 900.0, 900.0]
    assert spring[0]["cpu"] == pytest.approx([9.0, 4.5, 13.5])
    assert spring[-1]["cpu"] == pytest.approx([1.0, 0.5, 1.5])


def test_each_request_counts_in_the_bin_of_its_scheduled_start_on_one_clock_of_load():
    # Three windows of 4 s, bins of 10 s over 12 s: the second window's request at 1.5 s is at
    # 5.5 s of load, the third's at 3.0 s at 11.0 s.
    logs = [
        [(0.0, 0.001), (2.0, 0.002), (3.9, 0.050)],
        [(1.5, 0.004), (3.0, 0.003)],
        [(0.5, 0.010), (3.0, 0.200)],
    ]
    bins = latency_bins(logs, 4.0, 10.0, 12.0)
    assert [b.requests for b in bins] == [6, 1]
    assert [b.p99_ms for b in bins] == [50.0, 200.0]
    assert latency_bins([[]], 3.0, 10.0, 10.0)[0].p99_ms is None


def test_the_p99_is_the_nearest_rank():
    values = [i / 1000 for i in range(1, 201)]  # 1 to 200 ms
    assert nearest_rank_ms(values, 0.99) == 198.0
    assert nearest_rank_ms([0.005], 0.99) == 5.0
    assert nearest_rank_ms([], 0.99) is None


def test_oha_logs_each_request_and_the_runner_reads_its_log(tmp_path):
    command = oha_command(
        tmp_path / "oha",
        "http://x/avatar",
        connections=16,
        output=tmp_path / "o.json",
        rate=800,
        duration_s=3,
        requests_db=tmp_path / "w.db",
    )
    assert f"--db-url '{tmp_path / 'w.db'}'" in command
    # oha 1.16's table: a start, and the start its latency correction schedules, in seconds.
    with sqlite3.connect(tmp_path / "w.db") as db:
        db.execute(
            "CREATE TABLE oha (url TEXT NOT NULL, start REAL NOT NULL, start_latency_correction REAL, "
            "end REAL NOT NULL, duration REAL NOT NULL, status INTEGER NOT NULL, len_bytes INTEGER NOT NULL, "
            "run INTEGER NOT NULL)"
        )
        db.executemany(
            "INSERT INTO oha VALUES ('/avatar', ?, ?, ?, ?, 302, 0, 1)",
            [(0.0052, 0.0050, 0.0080, 0.0030), (0.0012, 0.0010, 0.0030, 0.0020), (0.0105, None, 0.0115, 0.001)],
        )
    found = read_request_log(tmp_path / "w.db")
    assert [start for start, _ in found] == [0.0010, 0.0050, 0.0105]
    assert [latency for _, latency in found] == pytest.approx([0.0020, 0.0030, 0.0010])


@pytest.mark.parametrize("profile", ["smoke", "quick", "full"])
def test_the_estimate_counts_the_first_minute_and_its_steady_windows(profile):
    from bench.profiles import OPEN_TIMING

    timing = OPEN_TIMING[profile]
    avatar = SCENARIOS["avatar"]
    without = dataclasses.replace(avatar, first_minute_rate=0)
    windows = math.ceil(timing.first_minute_s / timing.window_s) + 3
    assert estimate_seconds(avatar, profile, open_model=True) - estimate_seconds(
        without, profile, open_model=True
    ) == pytest.approx(windows * (timing.window_s + OHA_RUN_S))


def test_every_stack_serves_the_first_minute_rate_below_its_warm_rate():
    measured = [s for s in SCENARIOS.values() if s.first_minute_rate]
    assert {s.name for s in measured} == {"join-filter", "avatar"}
    for scenario in measured:
        assert scenario.first_minute_rate <= scenario.warm_rate


def test_a_variants_first_minute_is_measured_in_join_filter_alone():
    """The publication's cut (docs/method.md, Profiles): a variant's job of the avatar starts
    without the first minute, and the estimate counts none there; a stack's keeps it."""
    join_filter, avatar = SCENARIOS["join-filter"], SCENARIOS["avatar"]
    assert join_filter.measures_first_minute(variant=True) and join_filter.measures_first_minute(variant=False)
    assert avatar.measures_first_minute(variant=False) and not avatar.measures_first_minute(variant=True)
    assert not SCENARIOS["mixed"].measures_first_minute(variant=False)
    without = dataclasses.replace(avatar, first_minute_rate=0)
    assert estimate_seconds(avatar, "quick", open_model=True, variant=True) == estimate_seconds(
        without, "quick", open_model=True
    )
    assert estimate_seconds(join_filter, "quick", open_model=True, variant=True) == estimate_seconds(
        join_filter, "quick", open_model=True
    )
