"""A write scenario's ladder steps each start from a vacuumed database, outside the step's meters,
for a stack and the database ceiling alike (bench.measure.phases.context.vacuum_before_step)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest
from test_warmup_class import _FakeMeter, _make_step_with_fake_latency, delivered_figures

from bench import postgres
from bench.measure.phases import ladder as ladder_phase
from bench.measure.phases.context import Context
from bench.scenarios import SCENARIOS


class _Cluster:
    def __init__(self, events: list[str]) -> None:
        self.events = events

    def vacuum(self) -> None:
        self.events.append("vacuum")


def _ladder_events(monkeypatch, scenario_name: str, *, with_cluster: bool = True) -> list[str]:
    """What happened around each step of a ladder whose stack holds a little over the scenario's
    third rate: "vacuum", "prepare TAG" (the step readied) and "measure" (the meters running)."""
    scenario = SCENARIOS[scenario_name]
    events: list[str] = []
    capacity = scenario.rates[2] * 1.2

    def prepare(rate: float, seconds: int, tag: str):
        events.append(f"prepare {tag}")
        figures = delivered_figures(rate, seconds, p99=scenario.objective_ms * (2 if rate > capacity else 0.1))
        return lambda: figures

    class _Meter(_FakeMeter):
        def __enter__(self) -> _Meter:
            events.append("measure")
            return self

    monkeypatch.setattr(ladder_phase, "StageMeter", _Meter)
    monkeypatch.setattr(ladder_phase, "make_step", _make_step_with_fake_latency)
    ctx = SimpleNamespace(
        plan=SimpleNamespace(profile="smoke"),
        display=SimpleNamespace(update=lambda *a: None),
        roles=None,
        cluster=_Cluster(events) if with_cluster else None,
    )
    ladder = ladder_phase.run_ladder(cast(Context, ctx), scenario, prepare, label="test", statements=None)
    assert len(ladder.steps) > 3, "the fake ladder climbs, bisects and runs full-length steps"
    return events


def test_every_step_of_a_write_scenario_starts_from_a_vacuumed_database_before_it_is_readied(monkeypatch):
    for scenario in ("mixed", "heavy-body"):
        events = _ladder_events(monkeypatch, scenario)
        steps = [i for i, event in enumerate(events) if event.startswith("prepare")]
        assert steps, scenario
        for index in steps:
            # Vacuumed, then readied (the rows its deletes take are made after the vacuum), then measured.
            assert events[index - 1] == "vacuum", (scenario, events[index - 1 : index + 2])
            assert events[index + 1] == "measure", (scenario, events[index - 1 : index + 2])
        assert events.count("vacuum") == len(steps), "one vacuum a step, the repeated step's too"
        assert any(event.startswith("prepare repeat") for event in events)


def test_a_read_scenario_and_a_target_run_vacuum_nothing(monkeypatch):
    for scenario in ("read-heavy", "join-filter", "avatar", "outbound"):
        assert "vacuum" not in _ladder_events(monkeypatch, scenario)
    # --target: the stack's database is elsewhere, and the runner has none of its own to vacuum.
    assert "vacuum" not in _ladder_events(monkeypatch, "mixed", with_cluster=False)


@pytest.mark.postgres
def test_the_clusters_vacuum_is_of_the_working_database(pg_cluster):
    pg_cluster.reset()
    with pg_cluster.connect(postgres.DB_NAME) as conn:
        conn.execute("UPDATE item SET stock = stock + 1 WHERE id <= 2000")
    pg_cluster.vacuum()
    with pg_cluster.connect(postgres.DB_NAME) as conn:
        # A fresh copy of the template starts with no vacuum on record, and autovacuum waits for
        # about 20,000 dead rows: this one is Cluster.vacuum's.
        row = conn.execute("SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'item'").fetchone()
    assert row == (1,)
