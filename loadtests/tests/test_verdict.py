"""The checks of a run: memory growth in a soak, a fault survived, lost writes."""

from bench import measure


def samples(values_mib):
    return [[i * 2.0, v << 20] for i, v in enumerate(values_mib)]


def test_flat_sawtooth_memory_is_not_growth():
    growth = measure.memory_growth(samples([50, 80, 60, 90, 55, 85, 60, 90, 58, 88, 61, 89]))
    assert growth is not None and not growth["growing"]


def test_steadily_growing_memory_is_growth():
    growth = measure.memory_growth(samples(list(range(50, 170, 10))))
    assert growth["growing"] and growth["last_quarter_peak_bytes"] > growth["second_quarter_peak_bytes"]


def test_small_absolute_growth_is_tolerated():
    assert not measure.memory_growth(samples([10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15]))["growing"]


def test_too_few_samples_say_nothing():
    assert measure.memory_growth(samples([10, 20, 30])) is None


def record(**extra):
    base = {"stack": {"name": "go-gin"}, "scenario": "mixed", "profile": "quick", "stages": [
        {"vus": 50, "error_count": 0, "errors": {}, "latency_ms": {"max": 100.0}}], "lost_writes": None}
    base.update(extra)
    return base


def test_clean_results_have_no_problems():
    assert measure.verdict([record()]).problems == []


def test_lost_writes_and_failures_are_problems():
    lost = {"lost_writes": 2}
    problems = measure.verdict([record(lost_writes=lost), record(failed="exited with code 1")]).problems
    assert any("2 lost writes" in p for p in problems) and any("exited with code 1" in p for p in problems)


def test_a_failed_ladder_step_is_how_the_ladder_ends_not_a_problem():
    assert measure.verdict([record(failed="OOM", mem_ladder_mib=32)], ladder=True).problems == []


def test_fault_must_be_recovered_quickly_with_only_503s_and_no_hang():
    ok = record(fault={"recovered_within_s": 0.4}, stages=[
        {"vus": 50, "error_count": 30, "errors": {"503": 30}, "latency_ms": {"max": 5100.0}}])
    assert measure.verdict([ok]).problems == []
    bad = record(fault={"recovered_within_s": None}, stages=[
        {"vus": 50, "error_count": 31, "errors": {"503": 30, "500": 1}, "latency_ms": {"max": 30000.0}}])
    problems = measure.verdict([bad]).problems
    assert len(problems) == 3


def test_soak_growth_is_a_problem_only_in_the_soak_profile():
    growing = {"growing": True, "second_quarter_peak_bytes": 50 << 20, "last_quarter_peak_bytes": 90 << 20}
    stage = {"vus": 50, "error_count": 0, "errors": {}, "latency_ms": {"max": 1.0}, "memory_growth": growing}
    assert measure.verdict([record(profile="soak", stages=[stage])]).problems == [
        "go-gin · mixed: memory keeps growing (50 MiB → 90 MiB)"]
    assert measure.verdict([record(stages=[stage])]).problems == []


def test_an_oom_note_follows_the_exit_code():
    note = " (OOM-killed: 1 kill(s) at its 128 MiB cap)"
    assert measure.with_note("app exited with code -9 before it was healthy; log x.log:", note) == (
        "app exited with code -9" + note + " before it was healthy; log x.log:")
    assert measure.with_note("k6 failed (exit 1)", note) == "k6 failed (exit 1)" + note
    assert measure.with_note("app exited with code 1 under load", "") == "app exited with code 1 under load"
