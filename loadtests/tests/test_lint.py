"""ruff, mypy, ESLint and actionlint in ./bench test: a finding fails the runner's row like any
other failure."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from bench import paths, tools
from bench.checks import scripts
from bench.errors import BenchError
from bench.testing import StackResult, runner


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
    assert list(scripts.CHECKS) == ["eslint", "actionlint"]
    commands = [args for step in runner.LINTERS.values() for args in step]
    assert all(args[:2] in (["-m", "ruff"], ["-m", "mypy"]) for args in commands)
    # The conformance suite and the fuzz pass are checked one at a time (each has its conftest).
    assert [args[-1] for args in runner.LINTERS["mypy spec"]] == [
        str(paths.SPEC_DIR / "conformance"),
        str(paths.SPEC_DIR / "fuzz"),
    ]


def test_eslint_and_actionlint_are_steps_of_the_runner_row(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "LOGS", tmp_path)

    def finding(on_progress):
        return [
            sys.executable,
            "-c",
            "print('k6/lib/common.js 3:1 error no-undef'); print('1 problem'); exit(1)",
        ], tmp_path

    def missing(on_progress):
        raise BenchError("ESLint needs Node.js and npm: install Node.js 20.19 or newer with npm\nmore")

    def clean(on_progress):
        return [sys.executable, "-c", "pass"], tmp_path

    result = StackResult("runner")
    monkeypatch.setattr(scripts, "CHECKS", {"eslint": finding, "actionlint": clean})
    runner.check_scripts(result)
    assert (result.passed, result.failed) == (1, 1) and result.steps["actionlint"].summary == "clean"
    assert result.steps["eslint"].summary == "1 problem"
    monkeypatch.setattr(scripts, "CHECKS", {"eslint": missing})
    runner.check_scripts(result)
    assert result.steps["eslint"].summary == "ESLint needs Node.js and npm: install Node.js 20.19 or newer with npm"


def test_the_eslint_lock_is_node_expresss_eslint():
    ours = json.loads((scripts.ESLINT_DIR / "package.json").read_text())["devDependencies"]
    theirs = json.loads((paths.ROOT / "node-express" / "package.json").read_text())["devDependencies"]
    assert ours == {name: theirs[name] for name in ("@eslint/js", "eslint", "globals")}
    locked = json.loads((scripts.ESLINT_DIR / "package-lock.json").read_text())["packages"]
    node_express = json.loads((paths.ROOT / "node-express" / "package-lock.json").read_text())["packages"]
    differ = [name for name, entry in locked.items() if name and node_express[name]["version"] != entry["version"]]
    assert differ == []
    # Registry addresses stay out of the lock, as node-express's .npmrc keeps them out of its own.
    assert "omit-lockfile-registry-resolved=true" in (scripts.ESLINT_DIR / ".npmrc").read_text()
    assert all("resolved" not in entry for entry in locked.values())


def fake_node(bin_dir, version="v20.20.2"):
    """`node` that prints `version` and `npm` that logs its arguments and makes node_modules/."""
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "node").write_text(f"#!/bin/sh\necho {version}\n")
    (bin_dir / "npm").write_text('#!/bin/sh\necho "$@" >> npm-calls\nmkdir -p node_modules\n')
    for name in ("node", "npm"):
        (bin_dir / name).chmod(0o755)


def test_eslint_is_installed_again_only_when_its_lock_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "HOME", tmp_path / "state")
    monkeypatch.setattr(paths, "LOGS", tmp_path / "state" / "logs")
    monkeypatch.setattr(paths, "BIN", tmp_path / "state" / "bin")
    fake_node(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    lock_dir = tmp_path / "eslint"
    lock_dir.mkdir()
    (lock_dir / "package-lock.json").write_text('{"lockfileVersion": 3}\n')
    monkeypatch.setattr(scripts, "ESLINT_DIR", lock_dir)
    command, cwd = scripts.eslint(lambda text: None)
    assert command[1:4] == [
        str(lock_dir / "node_modules/eslint/bin/eslint.js"),
        "--config",
        str(lock_dir / "eslint.config.js"),
    ]
    assert command[-2:] == list(scripts.ESLINT_TARGETS) and cwd == scripts.RUNNER_DIR
    scripts.eslint(lambda text: None)
    calls = (lock_dir / "npm-calls").read_text().splitlines()
    assert calls == ["ci --include=dev --no-audit --no-fund"]
    (lock_dir / "package-lock.json").write_text('{"lockfileVersion": 3, "packages": {}}\n')
    scripts.eslint(lambda text: None)
    assert len((lock_dir / "npm-calls").read_text().splitlines()) == 2


def test_eslint_without_a_recent_enough_node_says_what_to_install(tmp_path, monkeypatch):
    fake_node(tmp_path / "bin", version="v18.19.1")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    with pytest.raises(BenchError, match=r"newer Node.js than v18.19.1: install Node.js 20.19 or newer"):
        scripts.eslint(lambda text: None)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(BenchError, match=r"ESLint needs Node\.js and npm"):
        scripts.eslint(lambda text: None)


def installed_eslint() -> list[str]:
    """The ESLint that the runner's row installed before these tests; skipped where it did not."""
    binary = scripts.ESLINT_DIR / "node_modules" / "eslint" / "bin" / "eslint.js"
    node = shutil.which("node")
    if node is None or not binary.is_file():
        pytest.skip("ESLint is not installed in loadtests/eslint (./bench test installs it before these tests)")
    return [node, str(binary), "--config", str(scripts.ESLINT_DIR / "eslint.config.js"), "--format", "json"]


@pytest.mark.parametrize(
    ("filename", "source", "undefined"),
    [
        # k6's globals in a scenario; a browser's are not there.
        ("k6/sample.js", "export default function () { console.log(__ENV.X, __VU, __ITER); }\n", []),
        ("k6/lib/sample.js", "export const width = window.innerWidth;\n", ["window"]),
        # The page: a browser's globals and Chart.js's; k6's are not there.
        ("bench/report/site_assets/site.js", "'use strict';\nnew Chart(document.body, {});\n", []),
        ("bench/report/site_assets/site.js", "'use strict';\ndocument.title = __ENV.X;\n", ["__ENV"]),
    ],
)
def test_eslint_gives_each_script_the_globals_of_where_it_runs(filename, source, undefined):
    result = subprocess.run(
        [*installed_eslint(), "--stdin", "--stdin-filename", filename],
        input=source,
        capture_output=True,
        text=True,
        cwd=scripts.RUNNER_DIR,
    )
    (report,) = json.loads(result.stdout)
    found = [m["message"].split("'")[1] for m in report["messages"] if m.get("ruleId") == "no-undef"]
    assert found == undefined and result.returncode == (1 if undefined else 0), report["messages"]


def test_actionlint_finds_a_broken_workflow(tmp_path, monkeypatch):
    if not tools.ACTIONLINT.cached.exists():
        pytest.skip("actionlint is not built on this machine (./bench test builds it before these tests)")
    monkeypatch.setattr(paths, "HOME", tmp_path / "state")
    monkeypatch.setattr(paths, "LOGS", tmp_path / "state" / "logs")
    monkeypatch.setattr(paths, "BIN", tmp_path / "state" / "bin")
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "ci.yml").write_text(
        "on: pull_request\njobs:\n  test:\n    runs-on: ubuntu-24.04\n    steps:\n"
        "      - run: echo ${{ github.event.pull_request.nope.sha }}\n      - uses: actions/checkout@v5\n"
        "        with:\n          fetch-depht: 0\n"
    )
    monkeypatch.setattr(scripts, "WORKFLOWS", workflows)
    command, cwd = scripts.actionlint(lambda text: None)
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 1 and "fetch-depht" in result.stdout, result.stdout
