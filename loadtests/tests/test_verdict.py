"""The checks of a run: memory growth in a soak, a fault survived, lost writes."""

from test_report import lost_writes
from test_report import record as raw_record

from bench.judgement.verdict import verdict, with_note
from bench.measure.phases.probes import memory_growth
from bench.records import RawResult


def samples(values_mib):
    return [(i * 2.0, v << 20) for i, v in enumerate(values_mib)]


def test_flat_sawtooth_memory_is_not_growth():
    growth = memory_growth(samples([50, 80, 60, 90, 55, 85, 60, 90, 58, 88, 61, 89]))
    assert growth is not None and not growth.growing


def test_steadily_growing_memory_is_growth():
    growth = memory_growth(samples(list(range(50, 170, 10))))
    assert growth is not None and growth.growing
    assert growth.last_quarter_peak_bytes > growth.second_quarter_peak_bytes


def test_small_absolute_growth_is_tolerated():
    growth = memory_growth(samples([10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15]))
    assert growth is not None and not growth.growing


def test_too_few_samples_say_nothing():
    assert memory_growth(samples([10, 20, 30])) is None


def record(stage_changes=None, **extra):
    r = raw_record("go-gin", "mixed", 1, [(50, 100.0)], **extra)
    r["stages"][0]["latency_ms"]["max"] = 100.0
    r["stages"][0].update(stage_changes or {})
    return RawResult.model_validate(r)


def test_clean_results_have_no_problems():
    assert verdict([record()]).problems == []


def test_lost_writes_and_failures_are_problems():
    problems = verdict([record(lost_writes=lost_writes(lost_writes=2)), record(failed="exited with code 1")]).problems
    assert any("2 lost writes" in p for p in problems) and any("exited with code 1" in p for p in problems)


def test_a_failed_ladder_step_is_how_the_ladder_ends_not_a_problem():
    assert verdict([record(failed="OOM", mem_ladder_mib=32)], ladder=True).problems == []


def test_fault_must_be_recovered_quickly_with_only_503s_and_no_hang():
    outage = {"stopped_at_s": 6.0, "outage_s": 3.0}
    latency = {"avg": 1.0, "p50": 1.0, "p95": 1.0, "p99": 1.0}
    ok = record(
        {"error_count": 30, "errors": {"503": 30}, "latency_ms": dict(latency, max=5100.0)},
        fault=dict(outage, recovered_within_s=0.4),
    )
    assert verdict([ok]).problems == []
    bad = record(
        {"error_count": 31, "errors": {"503": 30, "500": 1}, "latency_ms": dict(latency, max=30000.0)},
        fault=dict(outage, recovered_within_s=None),
    )
    assert len(verdict([bad]).problems) == 3
    assert verdict([ok, bad]).summary == (
        "2 runs, 0 failed, 1 unexpected statuses, 60 503s during the outage, 0 lost writes"
    )


def test_soak_growth_is_a_problem_only_in_the_soak_profile():
    growing = {"growing": True, "second_quarter_peak_bytes": 50 << 20, "last_quarter_peak_bytes": 90 << 20}
    assert verdict([record({"memory_growth": growing}, profile="soak")]).problems == [
        "go-gin · mixed: memory keeps growing (50 MiB → 90 MiB)"
    ]
    assert verdict([record({"memory_growth": growing})]).problems == []


def test_an_oom_note_follows_the_exit_code():
    note = " (OOM-killed: 1 kill(s) at its 128 MiB cap)"
    assert with_note("app exited with code -9 before it was healthy; log x.log:", note) == (
        "app exited with code -9" + note + " before it was healthy; log x.log:"
    )
    assert with_note("k6 failed (exit 1)", note) == "k6 failed (exit 1)" + note
    assert with_note("app exited with code 1 under load", "") == "app exited with code 1 under load"
