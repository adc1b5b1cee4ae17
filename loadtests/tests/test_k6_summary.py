"""A k6 script run by hand, as the README says, leaves its JSON summary where the runner keeps its
state and says so, never in the checkout; the runner's own runs name their file themselves."""

import os
import subprocess

from test_dialects import K6, needs_k6, recorder  # noqa: F401 (a fixture)

from bench import paths

SCRIPT = paths.ROOT / "loadtests" / "k6" / "read-heavy.js"


def run_by_hand(base_url, cwd, **environ):
    # ./bench exports BENCH_HOME to these tests; a person's shell has neither it nor SUMMARY.
    env = {k: v for k, v in os.environ.items() if k not in ("BENCH_HOME", "SUMMARY")} | environ
    command = [str(K6), "run", "--no-color", "--no-usage-report", "-e", f"BASE_URL={base_url}"]
    command += ["-e", "RATE=50", "-e", "DURATION=1", "-e", "VUS=5", str(SCRIPT)]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


@needs_k6
def test_a_script_run_by_hand_writes_its_summary_under_bench(recorder, tmp_path):  # noqa: F811
    (tmp_path / ".bench").mkdir()
    result = run_by_hand(recorder[0], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "summary written to .bench/k6-read-heavy.json" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [".bench"]
    assert (tmp_path / ".bench" / "k6-read-heavy.json").is_file()


@needs_k6
def test_bench_home_and_summary_move_it(recorder, tmp_path):  # noqa: F811
    state = tmp_path / "state"
    state.mkdir()
    result = run_by_hand(recorder[0], tmp_path, BENCH_HOME=f"{state}/")
    assert f"summary written to {state}/k6-read-heavy.json" in result.stdout
    assert (state / "k6-read-heavy.json").is_file()
    result = run_by_hand(recorder[0], tmp_path, BENCH_HOME=str(state), SUMMARY=str(tmp_path / "mine.json"))
    assert f"summary written to {tmp_path / 'mine.json'}" in result.stdout and (tmp_path / "mine.json").is_file()
