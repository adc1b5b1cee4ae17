"""The ceilings: pgbench replaying each scenario's SQL on the seeded database, and nginx
answering the avatar's 302 as cheaply as anything can."""

import shutil
from pathlib import Path

import httpx
import pytest

from bench import ceilings, paths, postgres, procs, scenarios, stacks


def test_the_pgbench_command_weights_every_script_of_the_mix():
    command = ceilings.pgbench_command(Path("/pg/pgbench"), "postgres://u@h/db", "join-filter", 10, 12)
    assert command.startswith("exec '/pg/pgbench' -n -M prepared -c 10 -j 1 -T 12 ")
    for name, weight in ceilings.PGBENCH_MIXES["join-filter"].items():
        assert f"-f '{ceilings.PGBENCH_DIR / (name + '.sql')}@{weight}'" in command
    assert command.endswith("'postgres://u@h/db'")


def test_every_k6_scenario_has_a_database_ceiling():
    k6_scenarios = {name for name, s in scenarios.SCENARIOS.items() if s.tool == "k6"}
    assert set(ceilings.PGBENCH_MIXES) == k6_scenarios


@pytest.mark.postgres
@pytest.mark.parametrize("scenario", sorted(ceilings.PGBENCH_MIXES))
def test_each_mix_runs_on_the_seeded_database_without_a_failed_transaction(pg_cluster, scenario, tmp_path):
    pg_cluster.reset()
    command = ceilings.pgbench_command(pg_cluster.bindir / "pgbench", pg_cluster.url(), scenario, 2, 1)
    log = tmp_path / "pgbench.log"
    assert procs.run(command, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"}, log=log, timeout_s=60) == 0
    report = ceilings.parse_pgbench(log.read_text())
    assert report.tps > 0 and report.failed == 0 and report.transactions and report.latency_avg_ms


@pytest.mark.skipif(
    shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists(), reason="nginx is not installed"
)
def test_nginx_answers_the_avatar_302_inside_the_wrapper_it_is_given(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "HOME", tmp_path)
    wrapped = []

    def wrap(command):
        wrapped.append(command)
        return command

    proc, base_url = ceilings.start_nginx(wrap, stacks.free_port())
    try:
        answer = httpx.get(base_url + "/avatar")
        assert answer.status_code == 302
        assert answer.headers["location"] == "https://avatar.example.com/Renard-1.png"
        # Exactly what the stacks answer: no body (nginx's own 302 page would be 145 bytes).
        assert answer.content == b"" and answer.headers["content-length"] == "0"
        assert "content-type" not in answer.headers
        assert len(wrapped) == 1 and "nginx" in wrapped[0]
    finally:
        procs.stop(proc)


@pytest.mark.postgres
def test_the_delete_of_the_mixed_ceiling_removes_an_item_its_creates_made(pg_cluster, tmp_path):
    """As k6 deletes the oldest item its VU created: the table grows by creates minus deletes."""
    pg_cluster.reset()
    pgbench = pg_cluster.bindir / "pgbench"
    log = tmp_path / "pgbench.log"
    made = "SELECT id FROM item WHERE sku LIKE 'PGB-%' ORDER BY id"
    kept = []
    for script, times in (("item_create", 5), ("item_delete", 3)):
        command = f"'{pgbench}' -n -c 1 -t {times} -f '{ceilings.PGBENCH_DIR / script}.sql' '{pg_cluster.url()}'"
        assert procs.run(command, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"}, log=log, timeout_s=60) == 0
        with pg_cluster.connect(postgres.DB_NAME) as conn:
            kept.append([row[0] for row in conn.execute(made).fetchall()])
            seeded = conn.execute("SELECT count(*) FROM item WHERE id <= 100000").fetchone()
        assert seeded == (100_000,)
    created, left = kept
    assert len(created) == 5 and left == created[3:]
