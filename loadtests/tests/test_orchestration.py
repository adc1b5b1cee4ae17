"""`./bench run` end to end with stand-ins: a fake stack (tests/fakes/app.py), fake k6, oha and vegeta
that write the summaries the real ones write, and a fake cgroup v1 tree whose counters the
fakes charge. PostgreSQL is real (the lost-write check and the SQL counts need it)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import fake_cgroup_v1, release_like_the_kernel
from test_manifest import VALID, write_stack

from bench import manifest, paths, ports, schema, upstream
from bench.errors import BenchError
from bench.measure import Plan, kept_records, observed_runs
from bench.measure.host import cgroups, environment
from bench.measure.host.roles import Roles
from bench.measure.plan.ceilings import ceiling_of
from bench.measure.plan.estimate import CALIBRATION_S, Observed
from bench.measure.plan.inputs import Fingerprints
from bench.measure.plan.plan import Today
from bench.measure.run import orchestrate, stack_run
from bench.measure.run.orchestrate import run_plan
from bench.profiles import OPEN_TIMING
from bench.records import Cap, Caps, CpuSplit, RawResult
from bench.records.steps import LadderStep, Stage
from bench.scenarios import SCENARIOS

pytestmark = pytest.mark.postgres
FAKES = Path(__file__).with_name("fakes")
# cpuacct's directory among a v1 group's (bench.measure.host.cgroups.V1_CONTROLLERS).
V1_CPUACCT = cgroups.V1_CONTROLLERS.index("cpuacct")


def fake_tool(directory: Path, name: str) -> Path:
    path = directory / name
    path.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{FAKES / (name + '.py')}' \"$@\"\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def setting(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "LOGS", tmp_path / "logs")
    root = fake_cgroup_v1(tmp_path / "cgroup")
    monkeypatch.setenv("FAKE_CGROUP_ROOT", str(root))
    monkeypatch.setattr(cgroups.Group, "release", release_like_the_kernel)
    # The fake stack's idle memory is set before it answers its health check (fakes/cgroup.py,
    # start_app): nothing to wait for before reading it, in each scenario's fresh process.
    monkeypatch.setattr(stack_run, "IDLE_AFTER_S", 0.0)
    run = f'command = "exec {sys.executable} {FAKES / "app.py"}"'
    stack = manifest.load(write_stack(tmp_path, text=VALID.replace('command = "exec sleep 60"', run)))
    tools = {name: fake_tool(tmp_path, name) for name in ("k6", "oha", "vegeta")}
    return stack, root, tools


CAPS = Caps(app=Cap(cpus=1.0, mem_bytes=512 << 20), postgres=Cap(cpus=1.0, mem_bytes=1 << 30))


def test_a_run_of_every_load_tool_writes_records_that_match_the_schema(pg_cluster, setting, tmp_path):
    stack, root, tools = setting
    scenarios = [SCENARIOS["join-filter"], SCENARIOS["mixed"], SCENARIOS["avatar"]]
    split = CpuSplit(app="0", postgres="0", loadgen="0")
    plan = Plan([stack], scenarios, "smoke", 1, split, tmp_path / "out", ceilings=False, cgroup_root=root)

    records = run_plan(plan, pg_cluster, tools, CAPS)

    assert [(r.stack.name, r.scenario, r.failed) for r in records] == [
        ("demo", "join-filter", None),
        ("demo", "mixed", None),
        ("demo", "avatar", None),
    ]
    files = sorted((tmp_path / "out" / "raw" / "smoke").glob("*.json"))
    assert [f.name for f in files] == [
        "demo--avatar--run1.json",
        "demo--join-filter--run1.json",
        "demo--mixed--run1.json",
    ]
    for file in files:
        assert schema.validate_raw(json.loads(file.read_text())) == []
        assert RawResult.read(file) in records
    join, mixed, avatar = records
    # After the ladder, the smoke profile replicates the study's highest stage only.
    assert [s.vus for s in join.stages] == [120]
    for stage in join.stages + mixed.stages:
        # The fake k6 charges 0.1 ms of the app's CPU per request it sent, ramp included.
        assert stage.requests == 400 and stage.cpu_ms_per_request == pytest.approx(0.1)
        assert stage.duration_s == 4 and stage.mean_response_bytes == 100
        assert stage.app_peak_memory_bytes == 30 << 20 and stage.oom_kills == 0 and not stage.oom
        assert stage.sql_statements is not None and stage.sql_statements >= 0 and stage.client_bound is False
    assert join.idle_memory_bytes == 20 << 20 and join.cgroups == "v1"
    # Each scenario had a process of its own (method v4), stopped (exit 0) after it.
    assert [r.served_before for r in records] == [None, None, None]
    assert [r.app_exit_code for r in records] == [0, 0, 0]
    logs = sorted(p.name for p in (tmp_path / "logs" / "run").glob("demo-*-server.log"))
    assert logs == [f"demo-{name}-run1-server.log" for name in ("avatar", "join-filter", "mixed")]
    assert join.lost_writes is None and mixed.lost_writes is not None and mixed.lost_writes.lost_writes == 0
    assert set(mixed.sql_per_request_by_endpoint) == set(SCENARIOS["mixed"].endpoints)
    (blast,) = avatar.stages
    assert (blast.vus, blast.requests, blast.errors, blast.error_count) == (10, 2_000, {}, 0)
    assert blast.latency_ms is not None and blast.latency_ms.p99 == pytest.approx(1.5)


def test_a_stack_that_does_not_start_is_a_failed_record_not_a_failed_run(pg_cluster, setting, tmp_path):
    _, root, tools = setting
    broken = manifest.load(
        write_stack(
            tmp_path,
            name="broken",
            text=VALID.replace("demo", "broken").replace(
                'command = "exec sleep 60"', 'command = "echo no database; exit 3"'
            ),
        )
    )
    plan = Plan(
        [broken],
        [SCENARIOS["avatar"]],
        "smoke",
        1,
        CpuSplit(app="0", postgres="0", loadgen="0"),
        tmp_path / "out",
        ceilings=False,
        cgroup_root=root,
    )

    (record,) = run_plan(plan, pg_cluster, tools, CAPS)

    assert record.failed is not None and record.failed.startswith("broken exited with code 3 before it was healthy")
    assert record.stages == [] and "startup_s" not in json.loads(record.to_json())
    assert (tmp_path / "out" / "raw" / "smoke" / "broken--avatar--run1.json").exists()


@pytest.mark.parametrize(
    ("lost", "found_as"), [("item_create", "items_missing"), ("item_delete", "items_deleted_present")]
)
def test_a_stack_that_acknowledges_a_write_it_did_not_make_fails_the_lost_write_check(
    pg_cluster, setting, tmp_path, monkeypatch, lost, found_as
):
    """The fake stack answers its creates 201 (or its deletes 204) without making them: the
    writes vegeta's steps were told succeeded are looked up, by key and by id, and are lost."""
    stack, root, tools = setting
    monkeypatch.setenv("FAKE_APP_LOSES", lost)
    split = CpuSplit(app="0", postgres="0", loadgen="0")
    plan = Plan([stack], [SCENARIOS["mixed"]], "smoke", 1, split, tmp_path / "out", ceilings=False, cgroup_root=root)

    (mixed,) = run_plan(plan, pg_cluster, tools, CAPS)

    figures = mixed.lost_writes
    assert figures is not None and figures.lost_writes > 0
    assert getattr(figures, found_as) > 0 and figures.seeded_rows_missing == 0


def test_the_soak_runs_its_one_long_stage_without_the_open_models_warm_up(pg_cluster, setting, tmp_path):
    """The soak profile has no OPEN_TIMING: no steady state, no ladder, the mixed scenario's first
    stage with its lost-write check (it once failed on a KeyError before any load)."""
    stack, root, tools = setting
    split = CpuSplit(app="0", postgres="0", loadgen="0")
    plan = Plan([stack], [SCENARIOS["mixed"]], "soak", 1, split, tmp_path / "out", ceilings=False, cgroup_root=root)
    assert "soak" not in OPEN_TIMING and not plan.open_model

    (soak,) = run_plan(plan, pg_cluster, tools, CAPS)

    assert soak.failed is None and soak.profile == "soak"
    assert soak.steady_state is None and soak.ladder is None
    assert [s.vus for s in soak.stages] == [SCENARIOS["mixed"].stages[0]]
    assert soak.lost_writes is not None and soak.lost_writes.lost_writes == 0
    assert (tmp_path / "out" / "raw" / "soak" / "demo--mixed--run1.json").exists()


def test_a_whole_ladder_runs_after_steady_state_then_bisects_above_the_last_step_held(
    pg_cluster, setting, tmp_path, monkeypatch
):
    """The fake vegeta answers within 2 ms up to 300 requests/s, the fake oha delivers up to 700,
    then each answers with a p99 over any objective: knees between mixed's ladder rates 250 and
    400 (vegeta) and between join-filter's 630 and 1,000 (oha, from the URL list)."""
    stack, root, tools = setting
    monkeypatch.setenv("FAKE_LOAD_CAPACITY", "300")
    monkeypatch.setenv("FAKE_OHA_CAPACITY", "700")
    split = CpuSplit(app="0", postgres="0", loadgen="0")
    scenarios = [SCENARIOS["mixed"], SCENARIOS["join-filter"], SCENARIOS["avatar"]]
    plan = Plan([stack], scenarios, "smoke", 1, split, tmp_path / "out", ceilings=False, cgroup_root=root)

    mixed, join, avatar = run_plan(plan, pg_cluster, tools, CAPS)

    assert mixed.steady_state is not None and mixed.steady_state.reached
    # The fake vegeta's 0.1 ms of the app's CPU per request in every window, at half a core at
    # most: settled after the first six.
    assert mixed.steady_state.windows_cpu_ms_per_request == pytest.approx([0.1] * 6)
    shares = mixed.steady_state.windows_app_cpu_share
    assert shares is not None and all(share is not None and share <= 0.5 for share in shares)
    assert mixed.steady_state.rate_rps == SCENARIOS["mixed"].warm_rate
    # One vegeta run per window.
    assert mixed.steady_state.windows_rate_rps == [SCENARIOS["mixed"].warm_rate] * 6
    windows = sorted(p.name for p in (tmp_path / "logs" / "run").glob("demo-mixed-steady*[0-9].log"))
    assert windows == [f"demo-mixed-steady{n}.log" for n in range(1, 7)]
    ladder = mixed.ladder
    assert ladder is not None and ladder.objective_p99_ms == 250
    # Probes up the ladder to their first step not held and their bisection until within 10%,
    # then the bracket they found at full length.
    assert [s.offered_rps for s in ladder.steps] == [100, 160, 250, 400, 316, 281, 298, 298, 316]
    assert [s.held for s in ladder.steps] == [True] * 3 + [False, False, True, True, True, False]
    assert [s.bisection for s in ladder.steps] == [False] * 4 + [True] * 5
    assert [s.probe for s in ladder.steps] == [True] * 7 + [False] * 2
    assert [s.duration_s for s in ladder.steps] == pytest.approx([2] * 7 + [3] * 2, abs=0.5)
    assert ladder.steps[3].stop_reasons == ["p99"]
    assert ladder.capacity_rps == 298 and ladder.bisect_ratio == 1.10 and not ladder.capacity_lower_bound
    first = ladder.steps[0]
    assert first.delivered_rps == pytest.approx(100) and first.dropped_iterations == 0
    assert first.latency_ms is not None and first.latency_ms.p999 == pytest.approx(2.0)
    assert first.cpu_ms_per_request == pytest.approx(0.1)
    assert first.cpu is not None and first.cpu.postgres_ms_per_request == pytest.approx(0.05)
    # vegeta's workers at their busiest: each request answered before the next is due.
    assert first.vus == 1
    assert first.endpoints is not None and set(first.endpoints) == set(SCENARIOS["mixed"].endpoints)
    assert mixed.lost_writes is not None and mixed.lost_writes.lost_writes == 0
    assert mixed.lost_writes.items_created > 0 and mixed.lost_writes.items_deleted > 0
    # The closed-model stages still run after it, as the replication (its highest stage in smoke).
    assert [s.vus for s in mixed.stages] == [100]

    # join-filter's steady state and ladder are oha's, from the scenario's URL list.
    assert join.ladder is not None and join.ladder.capacity_rps == 667
    assert [s.offered_rps for s in join.ladder.steps] == [160, 250, 400, 630, 1000, 794, 707, 667, 667, 707]
    assert all(s.endpoints is None for s in join.ladder.steps)
    urls = (tmp_path / "logs" / "run" / "demo-join-filter-urls.txt").read_text().splitlines()
    assert len(urls) == 20_000 and all(u.startswith("http://127.0.0.1:") for u in urls)
    assert [s.vus for s in join.stages] == [120]  # the replication is still k6's
    assert avatar.ladder is not None and avatar.ladder.capacity_rps == SCENARIOS["avatar"].rates[-1]
    assert avatar.ladder.capacity_lower_bound
    assert all(s.held for s in avatar.ladder.steps) and avatar.steady_state is not None
    for file in (tmp_path / "out" / "raw" / "smoke").glob("*.json"):
        assert schema.validate_raw(json.loads(file.read_text())) == []
    # The next estimate follows what this run took.
    observed = observed_runs(tmp_path / "out" / "raw" / "smoke")
    assert observed[("demo", "mixed")] == Observed(
        steady_s=mixed.steady_state.time_s,
        probe_rates=tuple(s.offered_rps for s in ladder.steps if s.probe),
        full_rates=tuple(s.offered_rps for s in ladder.steps if not s.probe),
    )
    plan.observed = observed
    assert plan.estimate_seconds() != Plan([stack], scenarios, "smoke", 1, split, tmp_path).estimate_seconds()


def test_a_run_goes_block_by_block_each_scenarios_ceiling_then_its_stacks(pg_cluster, setting, tmp_path, monkeypatch):
    """Run 1's scenarios, then run 2's; in each, the ceiling and then every stack. The jobs fail at
    once here (their order is the point), each a record of its own."""
    stack, root, tools = setting
    text = (stack.directory / "impl.toml").read_text().replace("demo", "twin")
    twin = manifest.load(write_stack(tmp_path, name="twin", text=text))

    def not_measured(*args: object) -> RawResult:
        raise BenchError("not measured in this test")

    monkeypatch.setattr(orchestrate, "run_stack", not_measured)
    monkeypatch.setattr(orchestrate, "run_ceiling", not_measured)
    split = CpuSplit(app="0", postgres="0", loadgen="0")
    scenarios = [SCENARIOS["avatar"], SCENARIOS["join-filter"]]
    plan = Plan([stack, twin], scenarios, "smoke", 2, split, tmp_path / "out", cgroup_root=root)

    records = run_plan(plan, pg_cluster, tools, CAPS)

    expected = [
        (name, scenario.name, run)
        for run in (1, 2)
        for scenario in scenarios
        for name in (ceiling_of(scenario).name, "demo", "twin")
    ]
    assert [(r.stack.name, r.scenario, r.run) for r in records] == expected
    assert all(r.failed == "not measured in this test" for r in records)


def test_a_resumed_run_keeps_the_records_of_its_inputs_and_runs_only_the_rest(
    pg_cluster, setting, tmp_path, monkeypatch
):
    stack, root, tools = setting
    commit = "a" * 40
    monkeypatch.setattr(environment, "git_commit", lambda *measured: commit)
    split = CpuSplit(app="0", postgres="0", loadgen="0")
    fingerprints = Fingerprints("0" * 64, "1" * 64, "2" * 64, "3" * 64, stacks={"demo": "4" * 64})

    def plan() -> Plan:
        return Plan(
            [stack],
            [SCENARIOS["avatar"]],
            "smoke",
            2,
            split,
            tmp_path / "out",
            ceilings=False,
            cgroup_root=root,
            inputs=fingerprints,
        )

    def today(inputs: Fingerprints = fingerprints, at: str = commit) -> Today:
        versions = environment.tool_versions(pg_cluster.bindir, tools)
        return Today(profile="smoke", split=split, caps=CAPS, versions=versions, inputs=inputs, commit=at)

    first = run_plan(plan(), pg_cluster, tools, CAPS)
    raw = tmp_path / "out" / "raw" / "smoke"
    (raw / "demo--avatar--run2.json").unlink()  # the run was cut short before its second repeat

    resumed = plan()
    resumed.kept = kept_records(raw, today())
    assert set(resumed.kept) == {("demo", "avatar", 1)}
    # Half the jobs, and the machine's calibration again.
    once = CALIBRATION_S
    assert resumed.estimate_seconds() - once == pytest.approx((plan().estimate_seconds() - once) / 2)
    records = run_plan(resumed, pg_cluster, tools, CAPS)

    assert [r.run for r in records] == [1, 2]
    assert records[0].started_at == first[0].started_at  # kept, not measured again
    assert RawResult.read(raw / "demo--avatar--run2.json").started_at == records[1].started_at
    assert records[1].inputs == fingerprints.of(stack)
    # A later commit's run keeps them while their inputs are its own; not a failed one.
    assert set(kept_records(raw, today(at="b" * 40))) == {("demo", "avatar", 1), ("demo", "avatar", 2)}
    changed = Fingerprints("0" * 64, "1" * 64, "2" * 64, "3" * 64, stacks={"demo": "5" * 64})
    assert kept_records(raw, today(changed)) == {}
    failed = RawResult.read(raw / "demo--avatar--run1.json")
    failed.failed = "demo exited with code 1 under load"
    (raw / "demo--avatar--run1.json").write_text(failed.to_json())
    assert set(kept_records(raw, today())) == {("demo", "avatar", 2)}


def test_a_commit_is_dirty_for_changed_code_not_for_changed_results(tmp_path, monkeypatch):
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True)

    git("init", "-q")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "run1.json").write_text("old\n")
    (tmp_path / "results.md").write_text("old\n")
    (tmp_path / "app.py").write_text("old\n")
    git("add", ".")
    git("commit", "-qm", "first")
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    clean = environment.git_commit()
    assert clean is not None and len(clean) == 40
    # What a run writes: a raw file, and results.md beside results/ (paths.result_paths).
    (tmp_path / "results" / "run1.json").write_text("new\n")
    (tmp_path / "results.md").write_text("new\n")
    assert environment.git_commit() == clean
    (tmp_path / "app.py").write_text("new\n")
    assert environment.git_commit() == clean + "-dirty"


def test_the_outbound_scenario_runs_with_the_stock_upstream_started_for_it_alone(
    pg_cluster, setting, tmp_path, monkeypatch
):
    """The fake stack asks the real upstream at its STOCK_URL for every stock read; the fake oha
    charges the upstream's group 0.05 ms per request, as the kernel would charge its CPU."""
    stack, root, tools = setting
    placed = Roles.place_upstream

    def placed_like_the_kernel(self: Roles) -> None:
        placed(self)
        if self.upstream is not None:
            (self.upstream.dirs()[V1_CPUACCT] / "cpuacct.usage").write_text("0")

    monkeypatch.setattr(Roles, "place_upstream", placed_like_the_kernel)
    # A port of this test's own: a parallel test's upstream may take 8099 the moment this one
    # frees it, and the check at the end that the stop freed the port would see that one.
    monkeypatch.setattr(upstream, "DEFAULT_PORT", ports.free_port())
    split = CpuSplit(app="0", postgres="0", loadgen="0")
    scenarios = [SCENARIOS["join-filter"], SCENARIOS["outbound"]]
    plan = Plan([stack], scenarios, "smoke", 1, split, tmp_path / "out", ceilings=False, cgroup_root=root)

    join, outbound = run_plan(plan, pg_cluster, tools, CAPS)

    assert outbound.failed is None and join.failed is None
    for file in (tmp_path / "out" / "raw" / "smoke").glob("*.json"):
        assert schema.validate_raw(json.loads(file.read_text())) == []
    # Sent from the scenario's URL list by oha, and answered 200 through the upstream.
    assert outbound.ladder is not None and outbound.ladder.capacity_rps == SCENARIOS["outbound"].rates[-1]
    urls = (tmp_path / "logs" / "run" / "demo-outbound-urls.txt").read_text().splitlines()
    assert all(url.endswith("/stock") for url in urls)
    steps: list[LadderStep | Stage] = [*outbound.ladder.steps, *outbound.stages]
    assert all(s.cpu is not None and s.cpu.upstream_ms_per_request == pytest.approx(0.05) for s in steps)
    assert [s.vus for s in outbound.stages] == [200]
    # It reads nothing from PostgreSQL.
    assert outbound.sql_per_request_by_endpoint == {"item_stock": 0.0}
    # The scenario before it ran without the upstream, and its records say nothing of one.
    assert join.ladder is not None
    assert all(s.cpu is not None and s.cpu.upstream_cpu_s is None for s in join.ladder.steps)
    # Started for the outbound job on the port the stack was told, and stopped after it.
    log = (tmp_path / "logs" / "run" / "demo-outbound-upstream.log").read_text()
    port = int(log.split("stock service on http://127.0.0.1:")[1].split()[0])
    assert not ports.port_in_use(port)
