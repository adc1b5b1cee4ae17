import ast
import textwrap
import typing
from pathlib import Path

import pytest

from bench import fuzz, manifest, paths, postgres, procs, stacks, testing
from bench.errors import BenchError
from bench.testing import fuzzing, pipeline, smoke, table


def test_junit_counts(tmp_path):
    report = tmp_path / "r.xml"
    report.write_text(
        textwrap.dedent("""\
        <?xml version="1.0" encoding="utf-8"?>
        <testsuites><testsuite name="pytest" errors="1" failures="2" skipped="3" tests="20"></testsuite></testsuites>
    """)
    )
    assert testing.junit_counts(report) == (14, 3, 3)


def test_junit_counts_of_a_missing_or_broken_report(tmp_path):
    assert testing.junit_counts(tmp_path / "missing.xml") == (0, 0, 0)
    broken = tmp_path / "broken.xml"
    broken.write_text("<testsuite")
    assert testing.junit_counts(broken) == (0, 0, 0)


@pytest.mark.parametrize(
    ("exit_code", "seconds", "clean"),
    [(0, 0.4, True), (143, 2.0, True), (143, 10.6, False), (1, 0.4, False), (137, 0.4, False), (None, 0.4, False)],
)
def test_a_clean_stop_is_0_or_143_within_the_limit(exit_code, seconds, clean):
    assert pipeline.stopped_cleanly(exit_code, seconds) is clean


def test_free_port_is_bindable():
    import socket

    from bench import stacks

    port = stacks.free_port()
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
    return type("Stack", (), {"name": "tiny", "dialect": dialect})()


class _Cluster(postgres.Cluster):
    """A cluster never started: it counts its resets."""

    def __init__(self):
        super().__init__(bindir=Path("/nonexistent/bin"), data=Path("/nonexistent/data"), port=1, os_user=None)
        self.resets = 0

    def reset(self, database=postgres.DB_NAME):
        self.resets += 1

    def url(self, database=postgres.DB_NAME):
        return f"postgresql://127.0.0.1:1/{database}"


@pytest.mark.parametrize("crashes, attempts, ok", [(0, 1, True), (1, 2, True), (2, 2, False)])
def test_fuzz_runs_again_only_when_the_fuzzer_itself_crashed(monkeypatch, tmp_path, crashes, attempts, ok):
    crash = fuzz.Finding("stateful scenarios", "SystemError", "SystemError: AST constructor recursion")
    outcomes = [fuzz.FuzzResult(ok=False, cases=5, failures=[crash])] * crashes
    outcomes.append(fuzz.FuzzResult(ok=True, cases=5, failures=[]))
    calls = []

    def fuzz_stack(url, **kwargs):
        calls.append(url)
        return outcomes[len(calls) - 1]

    monkeypatch.setattr(stacks, "build", lambda stack: None)
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

    monkeypatch.setattr(stacks, "build", lambda stack: None)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running())
    monkeypatch.setattr(fuzz, "fuzz_stack", fuzz_stack)
    result = fuzzing.run_fuzz(_stack(), _Cluster(), max_examples=1, seconds=10)
    assert len(calls) == 1 and not result.steps["fuzz"].ok and result.failed == 2


# -- the dialect of a stack chooses its conformance profile and its fuzz description ------------

DIALECTS = typing.get_args(manifest.Manifest.model_fields["dialect"].annotation)


def test_the_one_suite_knows_every_dialect_of_the_manifest():
    assert set(DIALECTS) == {"api", "hal"}
    assert (testing.CONFORMANCE_SUITE / "conftest.py").is_file()
    # The suite's own list of dialects (spec/conformance/dialect.py) is the manifest's.
    module = ast.parse((testing.CONFORMANCE_SUITE / "dialect.py").read_text())
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

    class Cluster(_Cluster):
        def stop_command(self):
            return "stop-pg"

        def start_command(self):
            return "start-pg"

        def start(self):
            pass

    monkeypatch.setattr(paths, "LOGS", tmp_path)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running())
    monkeypatch.setattr(procs, "run", run)
    monkeypatch.setattr(pipeline, "junit_counts", lambda report: (12, 0, 0))
    result = testing.StackResult("tiny")
    pipeline.run_conformance(_stack(dialect), Cluster(), result)
    [(command, env)] = commands
    assert [part for part in command if part.startswith(str(paths.SPEC_DIR))] == [str(paths.SPEC_DIR / "conformance")]
    # The same environment for every dialect but its name: the stack, the database's stop and start, strict.
    assert (env["BENCH_DB_STOP"], env["BENCH_DB_START"], env["CONFORMANCE_STRICT"]) == ("stop-pg", "start-pg", "1")
    assert env["BASE_URL"] == _Running.base_url and env["CONFORMANCE_DIALECT"] == dialect
    step = result.steps["conformance"]
    assert step.ok and step.summary == "conformance: 12 passed, 0 failed"


@pytest.mark.parametrize("dialect, spec", [("api", "openapi.yaml"), ("hal", "hal-openapi.yaml")])
def test_the_fuzz_step_generates_from_the_description_of_the_dialect(monkeypatch, dialect, spec):
    specs = []

    def fuzz_stack(url, **kwargs):
        specs.append(kwargs["spec"])
        return fuzz.FuzzResult(ok=True, cases=5, failures=[])

    monkeypatch.setattr(stacks, "build", lambda stack: None)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running())
    monkeypatch.setattr(fuzz, "fuzz_stack", fuzz_stack)
    result = fuzzing.run_fuzz(_stack(dialect), _Cluster(), max_examples=1, seconds=10)
    assert specs == [paths.SPEC_DIR / spec]
    assert result.steps["fuzz"].ok and result.steps["fuzz"].summary.startswith(f"{spec}: ")


def test_a_stack_that_exits_while_fuzzed_fails_the_step(monkeypatch):
    monkeypatch.setattr(stacks, "build", lambda stack: None)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running(exits=True))
    monkeypatch.setattr(fuzz, "fuzz_stack", lambda url, **kwargs: fuzz.FuzzResult(ok=True, cases=5, failures=[]))
    result = fuzzing.run_fuzz(_stack("hal"), _Cluster(), max_examples=1, seconds=10)
    step = result.steps["fuzz"]
    assert not step.ok and result.failed == 1
    assert "1 failure(s)" in step.summary


def test_failed_steps_are_repeated_after_the_table_with_their_logs_tail(tmp_path, capsys):
    log = tmp_path / "go-gin-conformance.log"
    log.write_text("".join(f"line {n}\n" for n in range(40)) + "FAILED test_items.py::test_replace - 500\n")
    results = [
        testing.StackResult(
            "go-gin", {"build": testing.Step(True, "built"), "conformance": testing.Step(False, "1 failed", log)}
        ),
        testing.StackResult("runner", {"mypy": testing.Step(True, "clean")}),
    ]
    table.print_failures(results)
    out = capsys.readouterr().out
    assert "FAILED go-gin · conformance: 1 failed" in out
    assert "test_replace - 500" in out
    assert "line 39" in out and "line 10\n" not in out
    assert "built" not in out and "mypy" not in out


def _smoke_record(errors=None, *, failed=None, lost=0):
    from types import SimpleNamespace

    return SimpleNamespace(
        failed=failed,
        stages=[SimpleNamespace(errors=errors or {})],
        lost_writes=SimpleNamespace(lost_writes=lost),
    )


def test_a_smoke_run_allows_the_contracts_503_and_nothing_else_unexpected():
    clean = [_smoke_record(), _smoke_record()]
    assert smoke.smoke_verdict(clean, [], expected_runs=2) == (
        True,
        "2 runs, 0 failed, 0 unexpected statuses, 0 lost writes, 0 schema problems",
    )
    ok, summary = smoke.smoke_verdict([_smoke_record({"503": 14}), _smoke_record()], [], expected_runs=2)
    assert ok and "0 unexpected statuses (14 × 503 from the pool's wait, allowed)" in summary
    for records, problems in (
        ([_smoke_record({"503": 3, "500": 1}), _smoke_record()], []),
        ([_smoke_record({"0": 2}), _smoke_record()], []),
        ([_smoke_record(lost=1), _smoke_record()], []),
        ([_smoke_record(failed="exit 1"), _smoke_record()], []),
        ([_smoke_record()], []),
        (clean, ["x.json: 'stages' is a required property"]),
    ):
        assert not smoke.smoke_verdict(records, problems, expected_runs=2)[0]


def test_a_variant_is_built_and_held_to_the_conformance_suite_as_a_row_of_its_own(monkeypatch):
    built, checked = [], []

    def build(stack):
        built.append(stack.name)
        return False

    monkeypatch.setattr(stacks, "build", build)

    def conformance(stack, cluster, result):
        checked.append((stack.name, stack.environment(run=True).get("VIRTUAL_THREADS")))
        result.steps["conformance"] = testing.Step(True, "conformance: 3 passed, 0 failed")
        result.steps["shutdown"] = testing.Step(True, "exit 143 in 0.4 s")

    monkeypatch.setattr(pipeline, "run_conformance", conformance)
    base = manifest.load(paths.ROOT / "java-spring").model_copy(
        update={
            "variants": {
                "platform-threads": manifest.Variant(
                    description="platform threads", scenarios=["read-heavy"], env={"VIRTUAL_THREADS": "false"}
                )
            }
        }
    )
    base._directory = paths.ROOT / "java-spring"
    (variant,) = base.variant_stacks()
    result = pipeline.run_variant(variant, _Cluster())
    assert result.stack == "java-spring@platform-threads" and result.ok
    assert result.steps["build"].summary == "java-spring's build"
    assert built == ["java-spring@platform-threads"] and checked == [("java-spring@platform-threads", "false")]


def test_a_database_that_cannot_be_restarted_fails_the_row_not_the_run(monkeypatch):
    class DeadCluster(_Cluster):
        def start(self):
            raise BenchError("PostgreSQL did not start (could not create any TCP/IP sockets)")

    stack = manifest.load(paths.ROOT / "go-gin")
    result = pipeline.run_stack_or_say_why(stack, DeadCluster())
    assert not result.ok and result.failed == 1
    assert result.steps["build"].summary == "PostgreSQL did not start (could not create any TCP/IP sockets)"
