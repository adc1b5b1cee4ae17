"""The write generator's target (docs/method.md, The load generators): at the top held step of
every write ladder vegeta spends less CPU than PostgreSQL, and a step at which CPU 1 is 90% busy
or more is bound by that CPU, not by the stack; results.md says both for every write scenario."""

from __future__ import annotations

from typing import Any

from test_claims import cells, run

from bench.judgement.bounds import generator_below_postgres, shared_cpu_full
from bench.records.steps import RoleCpu
from bench.report.ladder import generator_sentence, ladder_table, top_held_step


def _cpu(loadgen_s: float, postgres_s: float, shared: float) -> RoleCpu:
    return RoleCpu(
        app_cpu_s=4.0,
        app_cpu_share=0.4,
        postgres_cpu_s=postgres_s,
        postgres_cpu_share=postgres_s / 10,
        postgres_ms_per_request=0.3,
        loadgen_cpu_s=loadgen_s,
        loadgen_cpu_share=loadgen_s / 10,
        shared_cpu_share=shared,
        bound_by=["postgres+loadgen"] if shared >= 0.9 else [],
    )


def test_the_generator_is_judged_against_postgres_in_cpu_seconds():
    assert generator_below_postgres(_cpu(2.0, 3.5, 0.55))
    assert not generator_below_postgres(_cpu(3.5, 3.5, 0.7)), "equal is not below"
    stock = _cpu(2.0, 3.5, 0.55).model_copy(update={"upstream_cpu_s": 2.0})
    assert not generator_below_postgres(stock), "the stock upstream is the harness too"
    assert generator_below_postgres(_cpu(2.0, 3.5, 0.55).model_copy(update={"postgres_cpu_s": None})) is None
    assert shared_cpu_full(_cpu(3.0, 6.0, 0.9)) and not shared_cpu_full(_cpu(3.0, 5.0, 0.8))


def _write_run(number: int, loadgen_s: float, postgres_s: float, shared: float, tool: str = "vegeta") -> dict[str, Any]:
    record: dict[str, Any] = run("go-gin", number, 630.0, scenario="mixed")
    record["versions"] = {**record["versions"], tool: f"{tool} 1"}
    for step in record["ladder"]["steps"]:
        step["cpu"] = _cpu(loadgen_s, postgres_s, shared).model_dump()
    return record


def test_results_md_says_in_how_many_write_runs_the_generator_met_its_target():
    records = [_write_run(1, 2.0, 3.5, 0.55), _write_run(2, 2.0, 3.0, 0.5), _write_run(3, 4.0, 5.0, 0.9)]
    mixed = list(cells(records)["mixed"].values())
    top = top_held_step(mixed[0].records[0])
    assert top is not None and top.offered_rps == 630.0
    said = generator_sentence("mixed", mixed)
    assert said is not None
    assert "below PostgreSQL's CPU in 3 of 3 runs" in said
    assert "at 20–40% of its CPUs" in said
    assert "at 90% or more in 1 of them" in said
    assert said in "\n".join(ladder_table("mixed", mixed))
    over = [_write_run(1, 4.0, 3.5, 0.75)]
    assert "in 0 of 1 runs" in (generator_sentence("mixed", list(cells(over)["mixed"].values())) or "")


def test_write_runs_that_k6_drove_have_no_such_sentence():
    """Before vegeta drove the writes (method v3), k6 did: its records name no vegeta."""
    records = [_write_run(n, 2.0, 3.5, 0.55, tool="k6") for n in (1, 2)]
    assert generator_sentence("mixed", list(cells(records)["mixed"].values())) is None


def test_a_read_scenario_has_no_such_sentence():
    reads = list(cells([run("go-gin", 1, 630.0)])["join-filter"].values())
    assert generator_sentence("join-filter", reads) is None
