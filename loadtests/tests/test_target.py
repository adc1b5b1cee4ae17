"""`./bench run --target URL` with stand-ins: a fake stack (tests/fakes/app.py) started apart
from the runner, as a stack on Kubernetes would be, and the fake k6 and oha. No cgroups and no
database: what only the stack's machine could measure must come out absent, never made up."""

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_orchestration import FAKES, fake_tool

from bench import cli, paths, ports, schema
from bench.errors import BenchError
from bench.judgement.verdict import verdict
from bench.measure import Plan
from bench.measure.run.target_run import NOT_MEASURED, check_health, run_target, unnamed_target
from bench.records import CpuSplit
from bench.report import render
from bench.scenarios import SCENARIOS


@pytest.fixture
def remote_stack(tmp_path, monkeypatch):
    """The fake stack on a port of its own, charging no cgroup: the runner cannot see it."""
    monkeypatch.delenv("FAKE_CGROUP_ROOT", raising=False)
    monkeypatch.setattr(paths, "LOGS", tmp_path / "logs")
    port = ports.free_port()
    env = {k: v for k, v in os.environ.items() if k != "FAKE_CGROUP_ROOT"}
    proc = subprocess.Popen(
        [sys.executable, str(FAKES / "app.py")], env={**env, "HOST": "127.0.0.1", "PORT": str(port)}
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url + "/health", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_target_run_records_the_load_and_leaves_what_it_cannot_see_absent(remote_stack, tmp_path):
    tools = {name: fake_tool(tmp_path, name) for name in ("k6", "oha", "vegeta")}
    scenarios = [SCENARIOS["join-filter"], SCENARIOS["avatar"]]
    split = CpuSplit(app="0", postgres="0", loadgen="0")
    plan = Plan([], scenarios, "smoke", 1, split, tmp_path / "out", ceilings=False)

    join, avatar = run_target(plan, remote_stack, unnamed_target(remote_stack), tools)

    for record in (join, avatar):
        assert record.failed is None and record.stack.name == "target"
        assert record.target is not None and record.target.url == remote_stack
        assert record.target.not_measured == NOT_MEASURED
        assert record.caps is None and record.cgroups is None and record.versions.postgres is None
        assert (record.startup_s, record.idle_memory_bytes, record.app_exit_code, record.lost_writes) == (
            None,
            None,
            None,
            None,
        )
        assert record.sql_per_request_by_endpoint == {}
        assert any("not reset" in warning for warning in record.warnings)
    # The load generator's figures are all there.
    (stage,) = join.stages
    assert stage.vus == 120 and stage.requests == 400 and stage.latency_ms is not None
    assert stage.latency_ms.p99 == 6.0 and stage.mean_response_bytes == 100
    # The app's and the database's are absent.
    assert (stage.app_cpu_s, stage.cpu_ms_per_request, stage.app_peak_memory_bytes, stage.cpu) == (
        None,
        None,
        None,
        None,
    )
    assert (stage.sql_statements, stage.sql_per_request, stage.memory_samples, stage.client_bound) == (
        None,
        None,
        [],
        None,
    )
    # Steady by p50 latency: join-filter's windows are oha's, from its URL list, and the fake oha
    # answers 0.2 ms every window, settled after six.
    steady = join.steady_state
    assert steady is not None and steady.settled_by == "p50-latency" and steady.reached
    assert steady.windows_p50_ms == [0.2] * 6 and steady.windows_cpu_ms_per_request == [None] * 6
    assert join.ladder is not None and join.ladder.steps
    assert all(step.cpu is None and step.cpu_ms_per_request is None for step in join.ladder.steps)
    assert avatar.ladder is not None and avatar.stages[0].latency_ms is not None
    # The files match the schema, and the report marks the absent figures and says why.
    raw = tmp_path / "out" / "raw" / "smoke"
    files = sorted(raw.glob("*.json"))
    assert [f.name for f in files] == ["target--avatar--run1.json", "target--join-filter--run1.json"]
    for file in files:
        assert schema.validate_raw(json.loads(file.read_text())) == []
    report = render(raw, tmp_path / "out" / "results.md", tmp_path / "out").read_text()
    assert f"| app | – (runs at {remote_stack}; caps unknown here) |" in report
    assert "## Not measured" in report
    for fields, why in NOT_MEASURED.items():
        assert f"| {fields} | {why} |" in report
    assert "none at 90%" not in report and "–%" not in report
    summary = verdict([join, avatar]).summary
    assert summary.endswith("lost writes not checked (the database is elsewhere)")


def test_a_target_that_does_not_answer_is_a_clear_error():
    url = f"http://127.0.0.1:{ports.free_port()}"
    with pytest.raises(BenchError, match=f"nothing answers at {url}/health"):
        check_health(url)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["go-gin", "java-spring"], "--target measures one stack"),
        (["--mem-ladder"], "--mem-ladder needs the stack's memory or its database here"),
        (["--profile", "soak"], "--profile soak needs"),
        (["--fault", "db-restart"], "--fault needs"),
        (["--app-cpus", "0"], "--app-cpus and --db-cpus place processes of this machine"),
    ],
)
def test_what_a_target_run_cannot_do_is_refused(args, message):
    result = CliRunner().invoke(cli.cli, ["run", "--target", "http://127.0.0.1:1", *args])
    assert isinstance(result.exception, BenchError)
    assert str(result.exception).startswith(message)


def test_an_unnamed_target_claims_nothing_about_its_stack():
    info = unnamed_target("http://example.invalid:8080")
    assert info.name == "target" and info.display == "http://example.invalid:8080"
    assert {info.language, info.framework, info.server, info.data_access} == {"unknown"}


def test_the_cli_help_explains_target():
    result = CliRunner().invoke(cli.cli, ["run", "--help"])
    words = " ".join(result.output.split())
    assert "--target URL" in words and "recorded as not measured" in words


def test_paths_of_a_target_run_are_never_published(tmp_path):
    where = paths.result_paths("quick", tmp_path / "target")
    assert where.analysis is None and where.output == Path(tmp_path / "target").resolve()
