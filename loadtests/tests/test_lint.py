"""ruff and mypy in ./bench test: a finding fails the runner's row like any other failure."""

from bench import paths
from bench.testing import runner


def test_a_linter_finding_is_a_failed_step_named_by_its_last_line(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "LOGS", tmp_path)
    monkeypatch.setattr(
        runner,
        "LINTERS",
        {
            "ruff": [["-c", "print('bench/x.py:1:1: F401 unused'); print('Found 1 error.'); raise SystemExit(1)"]],
            "mypy": [
                ["-c", "print('Success: no issues found in 1 source file')"],
                ["-c", "print('Success: no issues found in 2 source files')"],
            ],
        },
    )
    result = runner.run_lint()
    assert not result.ok and (result.passed, result.failed) == (1, 1)
    assert result.steps["ruff"].summary == "Found 1 error." and result.steps["mypy"].summary == "clean"
    log = result.steps["ruff"].log
    assert log is not None and "F401" in log.read_text()


def test_a_step_of_several_commands_fails_at_the_first_that_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "LOGS", tmp_path)
    monkeypatch.setattr(
        runner,
        "LINTERS",
        {
            "mypy spec": [
                ["-c", "print('conformance: Found 2 errors'); raise SystemExit(1)"],
                ["-c", "raise SystemExit(9)"],
            ]
        },
    )
    result = runner.run_lint()
    assert result.steps["mypy spec"].summary == "conformance: Found 2 errors" and result.failed == 1


def test_the_runner_row_gathers_the_linters_and_the_tests():
    assert list(runner.LINTERS) == ["ruff", "ruff format", "mypy", "mypy spec"]
    commands = [args for step in runner.LINTERS.values() for args in step]
    assert all(args[:2] in (["-m", "ruff"], ["-m", "mypy"]) for args in commands)
    # The conformance suite and the fuzz pass are checked one at a time (each has its conftest).
    assert [args[-1] for args in runner.LINTERS["mypy spec"]] == [
        str(paths.SPEC_DIR / "conformance"),
        str(paths.SPEC_DIR / "fuzz"),
    ]
