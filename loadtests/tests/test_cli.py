import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench import cli, paths, postgres
from bench.errors import BenchError
from bench.lock import Lock

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "args", [[], ["db"], ["build"], ["serve"], ["test"], ["setup"], ["db", "reset"], ["run"], ["fuzz"], ["report"]]
)
def test_every_command_explains_itself(args):
    result = CliRunner().invoke(cli.cli, [*args, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage: " in result.output and len(result.output) > 120


def test_unknown_stack_is_a_one_line_error():
    # The runner's own state directory: its prepared Python environment is reused, nothing else.
    env = {"PATH": "/usr/bin:/bin:/usr/local/bin", "BENCH_HOME": str(paths.HOME)}
    result = subprocess.run(
        [str(ROOT / "bench"), "build", "no-such-stack"], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 1
    assert result.stderr.strip().startswith("bench: unknown stack no-such-stack: choose from")
    assert "Traceback" not in result.stderr


def test_second_runner_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "HOME", tmp_path)
    monkeypatch.setattr(paths, "LOGS", tmp_path / "logs")
    monkeypatch.setattr(paths, "BIN", tmp_path / "bin")
    with Lock(), pytest.raises(BenchError, match="already running"), Lock():
        pass
    with Lock():
        pass


def test_bad_pg_port_is_refused(monkeypatch):
    monkeypatch.setenv("BENCH_PG_PORT", "80")
    with pytest.raises(BenchError, match="BENCH_PG_PORT"):
        postgres.port()


def test_seed_fingerprint_follows_the_db_files():
    assert postgres.seed_fingerprint().startswith("seed:")
    assert postgres.seed_fingerprint() == postgres.seed_fingerprint()


def test_a_cpu_list_that_is_none_is_refused_with_its_flag():
    result = CliRunner().invoke(cli.cli, ["run", "--db-cpus", "one"])
    assert isinstance(result.exception, BenchError)
    assert str(result.exception) == "--db-cpus 'one' is not a CPU list like 0 or 2-3"


def test_the_estimate_alone_runs_nothing(tmp_path, monkeypatch):
    from bench.measure.run import request

    def must_not_run(*args, **kwargs):
        raise AssertionError("--estimate started a run")

    monkeypatch.setattr(request, "execute", must_not_run)
    monkeypatch.setattr(postgres, "session", must_not_run)
    result = CliRunner().invoke(
        cli.cli, ["run", "go-gin", "--scenario", "avatar", "--estimate", "--output", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    assert "1 stack(s) × 1 scenario(s) × 1 run(s), profile quick: about" in result.output
    assert not (tmp_path / "out").exists()
