"""Reading what k6, oha and pgbench report, and what the runner hands them."""

import dataclasses
import json
from pathlib import Path

import pytest

from bench import manifest, paths, profiles, scenarios
from bench.judgement.ladder import bisection_rates
from bench.manifest import Stack
from bench.measure import Plan, cpu_count, default_split
from bench.measure.load import k6, oha, pgbench
from bench.measure.plan import estimate
from bench.records import CpuSplit

K6_SUMMARY = {
    "scenario": "mixed",
    "profile": "smoke",
    "base_url": "http://127.0.0.1:1",
    "stage_seconds": 4,
    "stages": [
        {
            "vus": 50,
            "requests": 100,
            "rps": 25,
            "errors": {"503": 2},
            "error_count": 2,
            "bytes_received": 9000,
            "latency_ms": {"avg": 1.5, "p50": 1, "p95": 2, "p99": 3, "max": 4, "min": 0.5},
            "endpoints": {"item_by_id": {"requests": 100, "latency_ms": None}},
        }
    ],
    "writes": {"items_created": 3, "items_deleted": 1, "categories_created": 0},
    "total_requests": 130,
    "run_seconds": 12.4,
}


def test_k6_summary_of_this_repository(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(K6_SUMMARY))
    summary = k6.parse_k6_summary(path)
    assert summary.writes.items_created == 3 and summary.total_requests == 130
    assert summary.run_seconds == 12.4
    (stage,) = summary.stages
    assert (stage.vus, stage.errors, stage.latency_ms.p99 if stage.latency_ms else None) == (50, {"503": 2}, 3)


def test_foreign_json_is_not_taken_for_a_k6_summary(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"metrics": {}}))
    with pytest.raises(ValueError, match="not a k6 summary"):
        k6.parse_k6_summary(path)


def test_k6_progress_lines_give_completed_iterations():
    log = (
        "running (0m01.0s), 050/050 VUs, 1200 complete and 0 interrupted iterations\n"
        "stage_50   [  10% ] 50 VUs  01.0s/12s\n"
        "running (0m02.0s), 050/050 VUs, 2450 complete and 0 interrupted iterations\n"
    )
    assert k6.k6_completed(log) == 2450
    assert k6.k6_completed("starting") is None


def test_k6_command_passes_stage_and_summary(tmp_path):
    command = k6.k6_command(
        tmp_path / "k6",
        scenarios.SCENARIOS["read-heavy"],
        base_url="http://127.0.0.1:1",
        profile="smoke",
        stage="100",
        summary=tmp_path / "out.json",
    )
    assert "-e STAGE=100" in command and "-e PROFILE=smoke" in command and command.endswith("read-heavy.js'")


PGBENCH_OUTPUT = """\
pgbench (15.18 (Debian 15.18-0+deb12u1))
transaction type: multiple scripts
scaling factor: 1
query mode: prepared
number of clients: 60
number of threads: 1
maximum number of tries: 1
duration: 4 s
number of transactions actually processed: 40960
number of failed transactions: 0 (0.000%)
latency average = 5.861 ms
initial connection time = 52.114 ms
tps = 10237.316 (without initial connection time)
"""


def test_parse_pgbench():
    assert pgbench.parse_pgbench(PGBENCH_OUTPUT) == pgbench.PgbenchReport(
        tps=10237.316, transactions=40960, latency_avg_ms=5.861, failed=0
    )
    with pytest.raises(ValueError):
        pgbench.parse_pgbench("connection refused")


def test_pgbench_mixes_name_existing_scripts_and_weigh_them_to_100():
    for scenario in scenarios.SCENARIOS.values():
        for script, _ in scenario.pgbench_mix:
            assert (pgbench.PGBENCH_DIR / script).is_file()
        assert sum(weight for _, weight in scenario.pgbench_mix) in (0, 100)


@pytest.mark.parametrize("cpus,count", [("0", 1), ("2-5", 4), ("0,2-3", 3)])
def test_cpu_count(cpus, count):
    assert cpu_count(cpus) == count


def test_default_cpu_split():
    assert default_split(2) == CpuSplit(app="0", postgres="1", loadgen="1")
    assert default_split(8) == CpuSplit(app="0", postgres="1", loadgen="2-7")


def _named(name: str) -> Stack:
    """One of the repository's stacks under another name: the estimate reads no more of it."""
    return manifest.load(paths.ROOT / "go-gin").model_copy(update={"name": name})


def _quick(stacks: int, repeat: int = 1, **kwargs) -> Plan:
    named = [_named(f"s{i}") for i in range(stacks)]
    return Plan(named, list(scenarios.SCENARIOS.values()), "quick", repeat, default_split(2), Path("results"), **kwargs)


def test_the_quick_suite_of_nine_stacks_is_estimated_before_any_run():
    # The model before any run (steady in twelve windows, probes up 80% of the rates, the last of
    # them not held, and their bisection, then four full-length steps of at least 2,000 requests),
    # the ceilings included: the nine stacks and the ceilings took 115 minutes of the first
    # repeat at 35f04db, twice the hour issue 31 aims at (docs/rationale.md, Profiles). What a run
    # really takes follows it (test_the_estimate_follows_earlier_runs). The first minute came after
    # that repeat: 20 windows of 3 s and 3 more after the warm-up, each an oha run, in join-filter
    # and the avatar (docs/method.md, The first minute), about 23 minutes for nine stacks.
    # The repeated step after each ladder and the calibration before the run came later still.
    timing = profiles.OPEN_TIMING["quick"]
    windows = timing.first_minute_s // timing.window_s + 3
    first_minutes = 9 * 2 * windows * (timing.window_s + estimate.OHA_RUN_S)
    repeats = 9 * sum(
        estimate._repeat_s(s, "quick", None, estimate.RUN_S[s.ladder_tool]) for s in scenarios.SCENARIOS.values()
    )
    later = first_minutes + repeats + estimate.CALIBRATION_S
    assert 105 * 60 + later < _quick(9).estimate_seconds() <= 130 * 60 + later


def test_the_estimate_counts_each_steps_least_requests_the_probes_and_the_bisection():
    join = scenarios.SCENARIOS["join-filter"]
    quick = profiles.OPEN_TIMING["quick"]
    # 2,000 requests at 60 req/s take 34 s; from 200 req/s up a full-length step lasts its least 10 s.
    assert profiles.step_seconds(quick, 60) == 34 and profiles.step_seconds(quick, 1000) == 10
    assert bisection_rates(630, 1000) == [794, 891, 944]
    climbed = tuple(float(r) for r in join.rates[:5])

    def seconds(observed: estimate.Observed) -> float:
        return estimate.estimate_seconds(join, "quick", open_model=True, observed=observed)

    probed = estimate.Observed(steady_s=20.0, probe_rates=(*climbed, 794.0, 891.0, 944.0), full_rates=(891.0, 944.0))
    # Each probe is its seconds and an oha run; each full-length step its least seconds and one.
    assert seconds(probed) == pytest.approx(
        seconds(estimate.Observed(steady_s=20.0, probe_rates=(), full_rates=()))
        + 8 * (quick.probe_s + estimate.OHA_RUN_S)
        + 2 * (10 + estimate.OHA_RUN_S)
    )


def test_repeats_multiply_the_estimate():
    # The machine is calibrated once a run, whatever its repeats.
    once = estimate.CALIBRATION_S
    assert _quick(9, repeat=3).estimate_seconds() - once == pytest.approx(3 * (_quick(9).estimate_seconds() - once))


def test_the_estimate_follows_earlier_runs():
    plan = _quick(1)
    first = plan.estimate_seconds()
    # A JVM that needed the whole cap in every scenario, probed every rate of every ladder, the
    # last not held, and the bisection below it, and ran as many full-length steps as the model.
    plan.observed = {
        ("s0", s.name): estimate.Observed(
            steady_s=float(profiles.OPEN_TIMING["quick"].cap_s),
            probe_rates=(*s.rates, *bisection_rates(s.rates[-2], s.rates[-1])),
            full_rates=(float(s.rates[-2]),) * 2 + (float(s.rates[-1]),) * 2,
        )
        for s in scenarios.SCENARIOS.values()
    }
    slower = plan.estimate_seconds()
    # The cap and a window against the model's twelve 3.4 s windows, in each of six scenarios.
    assert slower > first + 6 * 20
    # A stack that settled at once and held only the first step.
    plan.observed = {
        ("s0", s.name): estimate.Observed(steady_s=15.0, probe_rates=s.rates[:1], full_rates=s.rates[:1])
        for s in scenarios.SCENARIOS.values()
    }
    assert plan.estimate_seconds() < first


def test_the_estimate_reads_the_latest_earlier_run_from_any_raw_directory(tmp_path):
    import json

    from bench import paths
    from bench.measure import observed_runs

    assert observed_runs(tmp_path / "none") == {}
    measured = json.loads(
        (paths.EXPERIMENTS / "2026-11-24-ladder/raw/quick/go-gin--join-filter--run1.json").read_text()
    )
    older, newer = tmp_path / "published", tmp_path / "experiment"
    for directory, started, steady_s in (
        (older, "2026-11-20T10:00:00+00:00", 90.0),
        (newer, "2026-11-24T10:00:00+00:00", 18.1),
    ):
        directory.mkdir()
        record = dict(measured, started_at=started, steady_state=dict(measured["steady_state"], time_s=steady_s))
        (directory / "go-gin--join-filter--run1.json").write_text(json.dumps(record))
    # Measured before the probes and the bisection: its time to steady state is followed, its
    # steps are not (the model counts today's probes and full-length steps).
    assert not any(s.get("probe") for s in measured["ladder"]["steps"])
    expected = estimate.Observed(steady_s=18.1, probe_rates=None, full_rates=None)
    assert observed_runs(newer, older) == {("go-gin", "join-filter"): expected}
    assert observed_runs(older, newer) == {("go-gin", "join-filter"): expected}


def test_the_memory_ladder_is_estimated_cap_by_cap_as_far_as_the_latest_ladder_went(tmp_path):
    from bench.measure.plan.plan import LADDER_SCENARIOS, MEM_LADDER_MIB, ladder_rungs

    published = paths.ROOT / "results/raw/quick-mem-ladder"
    measured = json.loads((published / "go-gin--avatar--mem512--run1.json").read_text())
    # An older ladder went down every cap; a newer one, of another commit, stopped at 128 MiB
    # (its run there failed before it started), so the older one's 64 and 32 MiB records remain.
    for commit, started, caps in (("a" * 40, "2026-11-20", MEM_LADDER_MIB), ("b" * 40, "2026-11-24", (512, 256, 128))):
        for mib in caps:
            at = f"{started}T10:00:{mib % 60:02}+00:00"
            record = dict(measured, git_commit=commit, mem_ladder_mib=mib, started_at=at)
            if mib == 128 and commit.startswith("b"):
                del record["started_at"]
                record["failed"] = "go-gin exited with code -9 (OOM-killed) before it was healthy"
            (tmp_path / f"go-gin--avatar--mem{mib}--run1.json").write_text(json.dumps(record))
    assert ladder_rungs(tmp_path, tmp_path / "none") == {"go-gin": 3}

    ladder_scenarios = [scenarios.SCENARIOS[s] for s in LADDER_SCENARIOS]
    ladder = dataclasses.replace(_quick(2), scenarios=ladder_scenarios, ceilings=False)
    one_cap = dataclasses.replace(ladder, stacks=ladder.stacks[:1], mem_ladder_mib=256).estimate_seconds()
    # Each cap is one closed-model run of each scenario, not a capacity ladder; a stack without
    # an earlier ladder is counted down every cap.
    assert one_cap < dataclasses.replace(ladder, stacks=ladder.stacks[:1]).estimate_seconds() / 2
    # One calibration for the whole ladder.
    once = estimate.CALIBRATION_S
    assert ladder.ladder_estimate_seconds({"s0": 3}) == pytest.approx(
        (3 + len(MEM_LADDER_MIB)) * (one_cap - once) + once
    )
    # The published ladder of ten stacks (72fa9f4) took 43.9 minutes for its 70 runs; followed
    # cap by cap, its estimate is within 10% of that (counting a quick capacity ladder at every
    # cap, it was about four times as long).
    stacks = [_named(name) for name in ladder_rungs(published)]
    assert len(stacks) == 10
    estimated = dataclasses.replace(ladder, stacks=stacks).ladder_estimate_seconds(ladder_rungs(published))
    assert 0.9 * 43.9 * 60 <= estimated <= 1.1 * 43.9 * 60


def test_ceilings_fault_runs_and_the_memory_ladder_run_no_ladder():
    assert _quick(1).open_model
    assert not _quick(1, fault="db-restart").open_model
    assert not _quick(1, mem_ladder_mib=256).open_model


OHA_OUTPUT = {
    "summary": {
        "successRate": 1.0,
        "total": 0.0549,
        "slowest": 0.0025,
        "fastest": 1.4e-05,
        "average": 0.00026,
        "requestsPerSec": 36436.9,
        "totalData": 0,
        "sizePerRequest": 0,
    },
    "latencyPercentiles": {"p50": 0.000182, "p95": 0.000847, "p99": 0.001575, "p99.9": 0.0025},
    "statusCodeDistribution": {"302": 1995, "503": 2},
    "errorDistribution": {"connection closed before message completed": 3},
}


def test_parse_oha(tmp_path):
    path = tmp_path / "oha.json"
    path.write_text(json.dumps(OHA_OUTPUT))
    stage = oha.parse_oha(path, expected_status=302, connections=10)
    assert (stage.vus, stage.requests, stage.rps, stage.active_s) == (10, 2000, 36436.9, 0.0549)
    assert stage.errors == {"503": 2, "0": 3} and stage.error_count == 5
    assert stage.latency_ms is not None
    assert stage.latency_ms.p99 == pytest.approx(1.575) and stage.latency_ms.max == pytest.approx(2.5)


def test_oha_command_never_follows_redirects(tmp_path):
    command = oha.oha_command(
        tmp_path / "oha", "http://127.0.0.1:1/avatar", requests=10, connections=2, output=tmp_path / "o.json"
    )
    assert "--redirect 0" in command and "--output-format json" in command and "-q" not in command
    open_model = oha.oha_command(
        tmp_path / "oha", "http://x/avatar", duration_s=10, connections=2, output=tmp_path / "o.json", rate=500
    )
    assert "-q 500 --latency-correction" in open_model and "-z 10s -w" in open_model and " -n " not in open_model
    with pytest.raises(ValueError):
        oha.oha_command(tmp_path / "oha", "http://x/avatar", connections=2, output=tmp_path / "o.json")


def test_a_fixed_rate_run_has_enough_connections_for_its_rate_at_the_objective():
    from bench.measure.load.oha import rate_connections

    assert rate_connections(2_000, 10) == 30 and rate_connections(100, 10) == 16
    assert rate_connections(128_000, 10) == 1024


def test_the_soak_of_one_stack_is_estimated_at_its_one_stage():
    seconds = estimate.estimate_seconds(scenarios.SCENARIOS["mixed"], "soak")
    assert 600 < seconds < 12 * 60


def test_every_scenario_of_a_repeat_pays_its_own_start_up():
    """Method v4 starts a fresh process per stack × scenario × run: two scenarios together cost
    what each costs alone."""
    join, avatar = scenarios.SCENARIOS["join-filter"], scenarios.SCENARIOS["avatar"]

    def plan(*chosen: scenarios.Scenario) -> Plan:
        return Plan([_named("s0")], list(chosen), "quick", 1, default_split(2), Path("results"), ceilings=False)

    apart = plan(join).estimate_seconds() + plan(avatar).estimate_seconds() - estimate.CALIBRATION_S
    together = plan(join, avatar).estimate_seconds()
    assert together == pytest.approx(apart)
