import textwrap

import pytest

from bench import fuzz, stacks, testing


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


def test_free_port_is_bindable():
    import socket

    from bench import stacks

    port = stacks.free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


class _Running:
    base_url = "http://127.0.0.1:1"

    def stop(self):
        pass


class _Cluster:
    resets = 0

    def reset(self):
        self.resets += 1

    def url(self):
        return "postgresql://127.0.0.1:1/bench"


@pytest.mark.parametrize("crashes, attempts, ok", [(0, 1, True), (1, 2, True), (2, 2, False)])
def test_fuzz_runs_again_only_when_the_fuzzer_itself_crashed(monkeypatch, tmp_path, crashes, attempts, ok):
    crash = fuzz.Finding("stateful scenarios", "SystemError", "SystemError: AST constructor recursion")
    outcomes = [fuzz.FuzzResult(ok=False, cases=5, failures=[crash])] * crashes
    outcomes.append(fuzz.FuzzResult(ok=True, cases=5, failures=[]))
    calls = []
    monkeypatch.setattr(stacks, "build", lambda stack: None)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running())
    monkeypatch.setattr(fuzz, "fuzz_stack", lambda url, **kwargs: calls.append(url) or outcomes[len(calls) - 1])
    cluster = _Cluster()
    stack = type("Stack", (), {"name": "tiny"})()
    result = testing.run_fuzz(stack, cluster, max_examples=1, seconds=10)
    assert (len(calls), cluster.resets, result.steps["fuzz"].ok) == (attempts, attempts, ok)


def test_a_real_finding_is_not_fuzzed_again(monkeypatch):
    crash = fuzz.Finding("stateful scenarios", "SystemError", "SystemError: AST constructor recursion")
    server_error = fuzz.Finding("GET /items", "FailureGroup", "Schemathesis found 1 distinct failure")
    calls = []
    monkeypatch.setattr(stacks, "build", lambda stack: None)
    monkeypatch.setattr(stacks, "start", lambda stack, **kwargs: _Running())
    monkeypatch.setattr(
        fuzz,
        "fuzz_stack",
        lambda url, **kwargs: calls.append(url) or fuzz.FuzzResult(ok=False, cases=5, failures=[crash, server_error]),
    )
    result = testing.run_fuzz(type("Stack", (), {"name": "tiny"})(), _Cluster(), max_examples=1, seconds=10)
    assert len(calls) == 1 and not result.steps["fuzz"].ok and result.failed == 2
