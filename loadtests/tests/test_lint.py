"""ruff and mypy in ./bench test: a finding fails the runner's row like any other failure."""

from bench import paths, testing


def test_a_linter_finding_is_a_failed_step_named_by_its_last_line(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "LOGS", tmp_path)
    monkeypatch.setattr(
        testing,
        "LINTERS",
        {
            "ruff": ["-c", "print('bench/x.py:1:1: F401 unused'); print('Found 1 error.'); raise SystemExit(1)"],
            "mypy": ["-c", "print('Success: no issues found in 1 source file')"],
        },
    )
    result = testing.run_lint()
    assert not result.ok and (result.passed, result.failed) == (1, 1)
    assert result.steps["ruff"].summary == "Found 1 error." and result.steps["mypy"].summary == "clean"
    log = result.steps["ruff"].log
    assert log is not None and "F401" in log.read_text()


def test_the_runner_row_gathers_the_linters_and_the_tests():
    assert list(testing.LINTERS) == ["ruff", "ruff format", "mypy"]
    assert all(args[:2] in (["-m", "ruff"], ["-m", "mypy"]) for args in testing.LINTERS.values())
