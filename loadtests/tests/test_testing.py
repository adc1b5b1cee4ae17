import ast
import contextlib
import dataclasses
import textwrap
import typing
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench import conformance, fuzz, manifest, paths, ports, postgres, procs, scenarios, stacks, testing, upstream
from bench.testing import fuzzing, pipeline, smoke


@pytest.fixture(autouse=True)
def stock_services(monkeypatch):
    """run_fuzz starts the stock service for the stack it fuzzes: here one that records how it was
    asked for, and no process."""
    started = []

    @contextlib.contextmanager
    def running(port, **kwargs):
        started.append(kwargs)
        yield SimpleNamespace(url=f"http://127.0.0.1:{port}")

    monkeypatch.setattr(upstream, "running", running)
    return started


def test_junit_counts(tmp_path):
    report = tmp_path / "r.xml"
    report.write_text(
        textwrap.dedent("""\
        <?xml version="1.0" encoding="utf-8"?>
        <testsuites><testsuite name="pytest" errors="1" failures="2" skipped="3" tests="20"></testsuite></testsuites>
    """)
    )
    assert conformance.junit_counts(report) == (14, 3, 3)


def test_junit_counts_of_a_missing_or_broken_report(tmp_path):
    assert conformance.junit_counts(tmp_path / "missing.xml") == (0, 0, 0)
    broken = tmp_path / "broken.xml"
    broken.write_text("<testsuite")
    assert conformance.junit_counts(broken) == (0, 0, 0)


@pytest.mark.parametrize(
    ("exit_code", "seconds", "clean"),
    [(0, 0.4, True), (143, 2.0, True), (143, 10.6, False), (1, 0.4, False), (137, 0.4, False), (None, 0.4, False)],
)
def test_a_clean_stop_is_0_or_143_within_the_limit(exit_code, seconds, clean):
    assert pipeline.stopped_cleanly(exit_code, seconds) is clean


def test_free_port_is_bindable():
    import socket

    port = ports.free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


class _Running:
    base_url = "http://127.0.0.1:1"
    log = paths.LOGS / "tiny-server.log"

    def __init__(self, exits=False):
        self.exits = exits
        self.proc = type("Proc", (), {"returncode": 137 if exits else None})()

    def stop(self):
        return 0

    def alive(self):
        return not self.exits


def _stack(dialect="api"):
    return type("Stack", (), {"name": "tiny", "dialect": dialect, "training": None})()


class _Cluster(postgres.Cluster):
    """A cluster never started (start() does nothing): it counts its resets, and its commands to
    stop and start are names a test can look for."""

    def __init__(self):
        super().__init__(bindir=Path("/nonexistent/bin"), data=Path("/nonexistent/data"), port=1, os_user=None)
        self.resets = 0

    def reset(self, database=postgres.DB_NAME):
        self.resets += 1

    def url(self, database=postgres.DB_NAME):
        return f"postgresql://127.0.0.1:1/{database}"

    def start(self):
        pass

    def stop_command(self):
        return "stop-pg"

    def start_command(self):
        return "start-pg"


@pytest.mark.parametrize("crashes, attempts, ok", [(0, 1, True), (1, 2, True), (2, 2, False)])
def test_fuzz_runs_again_only_when_the_fuzzer_itself_crashed(monkeypatch, tmp_path, crashes, attempts, ok):
    crash = fuzz.Finding("stateful scenarios", "SystemError", "SystemError: AST constructor recursion")
    outcomes = [fuzz.FuzzResult(ok=False, cases=5, failures=[crash])] * crashes
    outcomes.append(fuzz.FuzzResult(ok=True, cases=5, failures=[]))
    calls = []

    def fuzz_stack(url, **kwargs):
        calls.append(url)
        return outcomes[len(calls) - 1]

    monkeypatch.setattr(stacks, "build", lambda stack, **_: None)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running())
    monkeypatch.setattr(fuzz, "fuzz_stack", fuzz_stack)
    cluster = _Cluster()
    result = fuzzing.run_fuzz(_stack(), cluster, max_examples=1, seconds=10)
    assert (len(calls), cluster.resets, result.steps["fuzz"].ok) == (attempts, attempts, ok)


def test_a_real_finding_is_not_fuzzed_again(monkeypatch):
    crash = fuzz.Finding("stateful scenarios", "SystemError", "SystemError: AST constructor recursion")
    server_error = fuzz.Finding("GET /items", "FailureGroup", "Schemathesis found 1 distinct failure")
    calls = []

    def fuzz_stack(url, **kwargs):
        calls.append(url)
        return fuzz.FuzzResult(ok=False, cases=5, failures=[crash, server_error])

    monkeypatch.setattr(stacks, "build", lambda stack, **_: None)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running())
    monkeypatch.setattr(fuzz, "fuzz_stack", fuzz_stack)
    result = fuzzing.run_fuzz(_stack(), _Cluster(), max_examples=1, seconds=10)
    assert len(calls) == 1 and not result.steps["fuzz"].ok and result.failed == 2


# -- the dialect of a stack chooses its conformance profile and its fuzz description ------------

DIALECTS = typing.get_args(manifest.Manifest.model_fields["dialect"].annotation)


def test_the_one_suite_knows_every_dialect_of_the_manifest():
    assert set(DIALECTS) == {"api", "hal"}
    assert (conformance.CONFORMANCE_SUITE / "conftest.py").is_file()
    # The suite's own list of dialects (spec/conformance/dialect.py) is the manifest's.
    module = ast.parse((conformance.CONFORMANCE_SUITE / "dialect.py").read_text())
    (names,) = [
        ast.literal_eval(node.value)
        for node in module.body
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["NAMES"]
    ]
    assert names == tuple(DIALECTS)


@pytest.mark.parametrize("dialect", ["api", "hal"])
def test_the_conformance_step_runs_the_suite_in_the_dialect_of_the_stack(monkeypatch, tmp_path, dialect):
    commands = []

    def run(command, **kwargs):
        commands.append((command, kwargs["env"]))
        return 0

    monkeypatch.setattr(paths, "LOGS", tmp_path)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running())
    monkeypatch.setattr(procs, "run", run)
    monkeypatch.setattr(conformance, "junit_counts", lambda report: (12, 0, 0))
    result = testing.StackResult("tiny")
    pipeline.run_conformance(_stack(dialect), _Cluster(), result)
    [(command, env)] = commands
    assert [part for part in command if part.startswith(str(paths.SPEC_DIR))] == [str(paths.SPEC_DIR / "conformance")]
    # The same environment for every dialect but its name: the stack, the database's stop and start, strict.
    assert (env["BENCH_DB_STOP"], env["BENCH_DB_START"], env["CONFORMANCE_STRICT"]) == ("stop-pg", "start-pg", "1")
    assert env["BASE_URL"] == _Running.base_url and env["CONFORMANCE_DIALECT"] == dialect
    step = result.steps["conformance"]
    assert step.ok and step.summary == "conformance: 12 passed, 0 failed"


@pytest.mark.parametrize(
    "what_the_stack_logs, ok",
    [
        ("ERROR duplicate key value violates unique constraint; DETAIL: Key (code)=({marker}) already exists", False),
        ("INFO 409 Conflict: the code is taken", True),
    ],
)
def test_the_log_step_fails_a_stack_that_logs_a_rejected_rows_values(monkeypatch, tmp_path, what_the_stack_logs, ok):
    server_log = tmp_path / "tiny-conformance-server.log"
    server_log.write_text("tiny 1.0 listening on 8080, pool 10\n")

    class Running(_Running):
        log = server_log

    def suite(command, **kwargs):
        # A fake stack that logs what PostgreSQL told it, with the values the suite sent.
        marker = kwargs["env"][conformance.LOG_MARKER_VARIABLE]
        with server_log.open("a") as log:
            print(what_the_stack_logs.format(marker=marker), file=log)
        return 0

    monkeypatch.setattr(paths, "LOGS", tmp_path)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: Running())
    monkeypatch.setattr(procs, "run", suite)
    monkeypatch.setattr(conformance, "junit_counts", lambda report: (12, 0, 0))
    result = testing.StackResult("tiny")
    pipeline.run_conformance(_stack(), _Cluster(), result)
    step = result.steps["log"]
    assert step.ok is ok and result.ok is ok and step.log == server_log
    assert step.summary == ("no row values" if ok else "a rejected row's values in the log (line 2)")


def test_a_fresh_marker_for_every_run_that_fits_a_categorys_code():
    markers = {conformance.new_log_marker() for _ in range(100)}
    assert len(markers) == 100 and all(len(marker) <= 24 for marker in markers)


def test_an_unreadable_log_fails_the_log_step(tmp_path):
    step = conformance.rows_kept_out_of(tmp_path / "absent.log", "logmarker-1")
    assert not step.ok and "could not be read" in step.summary


@pytest.mark.parametrize("dialect, spec", [("api", "openapi.yaml"), ("hal", "hal-openapi.yaml")])
def test_the_fuzz_step_generates_from_the_description_of_the_dialect(monkeypatch, dialect, spec):
    specs = []

    def fuzz_stack(url, **kwargs):
        specs.append(kwargs["spec"])
        return fuzz.FuzzResult(ok=True, cases=5, failures=[])

    monkeypatch.setattr(stacks, "build", lambda stack, **_: None)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running())
    monkeypatch.setattr(fuzz, "fuzz_stack", fuzz_stack)
    result = fuzzing.run_fuzz(_stack(dialect), _Cluster(), max_examples=1, seconds=10)
    assert specs == [paths.SPEC_DIR / spec]
    assert result.steps["fuzz"].ok and result.steps["fuzz"].summary.startswith(f"{spec}: ")


def test_the_conformance_suite_fakes_the_upstream_the_stack_is_told(monkeypatch, tmp_path):
    started: list[dict[str, object]] = []
    commands: list[dict[str, str]] = []

    def start(stack, **kwargs):
        started.append(kwargs)
        return _Running()

    def run(command, **kwargs):
        commands.append(kwargs["env"])
        return 0

    monkeypatch.setattr(paths, "LOGS", tmp_path)
    monkeypatch.setattr(stacks, "start", start)
    monkeypatch.setattr(procs, "run", run)
    monkeypatch.setattr(conformance, "junit_counts", lambda report: (12, 0, 0))
    pipeline.run_conformance(_stack(), _Cluster(), testing.StackResult("tiny"))
    [kwargs], [env] = started, commands
    port = int(env["CONFORMANCE_UPSTREAM_PORT"])
    assert kwargs["stock_url"] == f"http://127.0.0.1:{port}" and port != kwargs["port"]
    # The suite's fake listens on loopback, where the stack is, unless told otherwise.
    assert "CONFORMANCE_UPSTREAM_HOST" not in env


def test_a_stack_under_fuzzing_asks_the_stock_service_without_its_delay(monkeypatch, stock_services):
    started: list[dict[str, object]] = []

    def start(stack, **kwargs):
        started.append(kwargs)
        return _Running()

    monkeypatch.setattr(stacks, "build", lambda stack, **_: None)
    monkeypatch.setattr(stacks, "start", start)
    monkeypatch.setattr(fuzz, "fuzz_stack", lambda url, **kwargs: fuzz.FuzzResult(ok=True, cases=5, failures=[]))
    fuzzing.run_fuzz(_stack(), _Cluster(), max_examples=1, seconds=10)
    [kwargs] = started
    assert stock_services == [{"delay_ms": "0"}]
    assert str(kwargs["stock_url"]).startswith("http://127.0.0.1:")


def test_the_smoke_climbs_the_first_rungs_of_every_scenario() -> None:
    cut = {s.name: s for s in smoke.smoke_scenarios()}
    assert cut.keys() == scenarios.SCENARIOS.keys()
    for name, whole in scenarios.SCENARIOS.items():
        assert cut[name].rates == whole.rates[: smoke.SMOKE_RUNGS]
        # Everything but the rates is the scenario's own: the script, the objective, the warm rate.
        assert dataclasses.replace(cut[name], rates=whole.rates) == whole
