"""The ceilings: pgbench replaying each scenario's SQL on the seeded database, and nginx
answering the avatar's 302 as cheaply as anything can."""

import shutil
from pathlib import Path

import httpx
import pytest

from bench import paths, ports, postgres, procs, scenarios, upstream
from bench.measure.load import pgbench
from bench.measure.load.figures import latency_of
from bench.measure.plan.ceilings import CEILING_DB, ceiling_of
from bench.measure.run import nginx


def test_the_pgbench_command_weights_every_script_of_the_mix():
    join_filter = scenarios.SCENARIOS["join-filter"]
    command = pgbench.pgbench_command(Path("/pg/pgbench"), "postgres://u@h/db", join_filter, 10, 12)
    assert command.startswith("exec '/pg/pgbench' -n -M prepared -c 10 -j 1 -T 12 ")
    assert join_filter.pgbench_mix == (("items_by_category.sql", 70), ("item_by_id.sql", 30))
    for script, weight in join_filter.pgbench_mix:
        assert f"-f '{pgbench.PGBENCH_DIR / script}@{weight}'" in command
    assert command.endswith("'postgres://u@h/db'")


def test_every_k6_scenario_has_a_database_ceiling():
    k6_scenarios = {name for name, s in scenarios.SCENARIOS.items() if s.tool == "k6"}
    database = {name for name, s in scenarios.SCENARIOS.items() if ceiling_of(s) is CEILING_DB}
    assert database == k6_scenarios


@pytest.mark.postgres
@pytest.mark.parametrize(
    "scenario", [s for s in scenarios.SCENARIOS.values() if s.pgbench_scripts], ids=lambda s: s.name
)
def test_each_mix_runs_on_the_seeded_database_without_a_failed_transaction(pg_cluster, scenario, tmp_path):
    pg_cluster.reset()
    command = pgbench.pgbench_command(pg_cluster.bindir / "pgbench", pg_cluster.url(), scenario, 2, 1)
    log = tmp_path / "pgbench.log"
    assert procs.run(command, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"}, log=log, timeout_s=60) == 0
    report = pgbench.parse_pgbench(log.read_text())
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

    proc, base_url = nginx.start_nginx(wrap, ports.free_port())
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


@pytest.mark.skipif(
    shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists(), reason="nginx is not installed"
)
def test_the_proxy_ceiling_passes_the_stock_call_to_the_upstream_and_its_answer_back(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "HOME", tmp_path)
    with upstream.running(ports.free_port(), delay_ms="0") as stock:
        stock_port = int(stock.url.rsplit(":", 1)[1])
        proc, base_url = nginx.start_nginx(lambda command: command, ports.free_port(), stock_port=stock_port)
        try:
            with httpx.Client(base_url=base_url) as client:
                answer = client.get("/items/12345/stock")
                assert answer.status_code == 200 and answer.json() == {"itemId": 12345, "quantity": 55}
                assert answer.headers["content-type"] == "application/json"
                assert client.get("/items/100001/stock").status_code == 404
                # The avatar's ceiling is still there, and nothing else is passed on.
                assert client.get("/avatar").status_code == 302
                assert client.get("/items/x/stock").status_code >= 400
        finally:
            procs.stop(proc)


@pytest.mark.postgres
def test_the_delete_of_the_mixed_ceiling_removes_an_item_its_creates_made(pg_cluster, tmp_path):
    """As k6 deletes the oldest item its VU created: the table grows by creates minus deletes."""
    pg_cluster.reset()
    binary = pg_cluster.bindir / "pgbench"
    log = tmp_path / "pgbench.log"
    made = "SELECT id FROM item WHERE sku LIKE 'PGB-%' ORDER BY id"
    kept = []
    for script, times in (("item_create", 5), ("item_delete", 3)):
        command = f"'{binary}' -n -c 1 -t {times} -f '{pgbench.PGBENCH_DIR / script}.sql' '{pg_cluster.url()}'"
        assert procs.run(command, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"}, log=log, timeout_s=60) == 0
        with pg_cluster.connect(postgres.DB_NAME) as conn:
            kept.append([row[0] for row in conn.execute(made).fetchall()])
            seeded = conn.execute("SELECT count(*) FROM item WHERE id <= 100000").fetchone()
        assert seeded == (100_000,)
    created, left = kept
    assert len(created) == 5 and left == created[3:]


def test_a_fixed_rate_pgbench_skips_late_transactions_and_logs_each_one():
    command = pgbench.pgbench_command(
        Path("/pg/pgbench"),
        "postgres://u@h/db",
        scenarios.SCENARIOS["join-filter"],
        10,
        12,
        rate=630,
        latency_limit_ms=100,
        log_prefix=Path("/logs/tx"),
    )
    assert command.startswith(
        "exec '/pg/pgbench' -n -M prepared -c 10 -j 1 -T 12 -R 630 -L 100 -l --log-prefix='/logs/tx' "
    )


def test_the_transaction_log_gives_each_latency_and_the_skipped(tmp_path):
    # client transaction time(µs, from the scheduled start) script epoch µs lag(µs)
    (tmp_path / "tx.4242").write_text(
        "0 1 1500 1 1795502233 140624 72\n1 1 2500 0 1795502233 140654 594\nskipped-looking garbage\n"
    )
    (tmp_path / "tx.4242.1").write_text("2 1 skipped 1 1795502233 142274 961\n3 1 500 0 1795502233 142275 3\n")
    (tmp_path / "other.4242").write_text("0 1 999999 1 1795502233 140624 72\n")
    found = pgbench.read_transaction_logs(tmp_path / "tx")
    assert sorted(found.latencies_ms) == [0.5, 1.5, 2.5]
    assert found.skipped == 1


def test_percentiles_are_latencies_some_transaction_had():
    latency = latency_of([float(ms) for ms in range(1, 1001)])
    assert latency is not None
    assert (latency.min, latency.p50, latency.p90, latency.p99, latency.p999, latency.max) == (
        1,
        500,
        900,
        990,
        999,
        1000,
    )
    assert latency.avg == 500.5
    assert latency_of([]) is None


@pytest.mark.postgres
def test_a_fixed_rate_run_logs_every_transaction_with_its_latency(pg_cluster, tmp_path):
    pg_cluster.reset()
    prefix = tmp_path / "transactions"
    command = pgbench.pgbench_command(
        pg_cluster.bindir / "pgbench",
        pg_cluster.url(),
        scenarios.SCENARIOS["join-filter"],
        2,
        2,
        rate=100,
        latency_limit_ms=1000,
        log_prefix=prefix,
    )
    log = tmp_path / "pgbench.log"
    assert procs.run(command, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"}, log=log, timeout_s=60) == 0
    report = pgbench.parse_pgbench(log.read_text())
    found = pgbench.read_transaction_logs(prefix)
    assert report.transactions == len(found.latencies_ms) > 100
    assert found.skipped == 0
    assert all(0 < ms < 1000 for ms in found.latencies_ms)


PUBLISHED = paths.ROOT / "results" / "raw" / "quick"


def _client_on_app_cpus(ceiling: list) -> bool:
    """A database ceiling measured as the runner measures it now: pgbench on the app's CPUs
    (bench.measure.host.roles.client_on_app_cpus). Before that its client ran on the load
    generator's CPU beside PostgreSQL, and stacks beat it (docs/method.md, The ceilings)."""
    return all(r.stack.name != CEILING_DB.name or r.cpu_split.loadgen == r.cpu_split.app for r in ceiling)


def _a_lower_bound(ceiling: list) -> bool:
    """A ceiling whose ladder held every rate offered, or stopped where its load generator used its
    CPU (heavy-body's top rate, the avatar's and the outbound's load generator on a fast machine):
    its capacity lies somewhere above the figure, so it bounds no stack (docs/method.md, The
    ceilings) and the report gives no efficiency against it."""
    return any(r.ladder.capacity_lower_bound for r in ceiling if r.ladder is not None)


def test_no_stack_of_the_published_raw_files_beats_its_scenarios_ceiling():
    from bench.records import RawResult
    from bench.report.figures import Cell
    from bench.report.ladder import capacities, median_capacity

    records = [RawResult.read(path) for path in sorted(PUBLISHED.glob("*.json"))]
    by_scenario: dict[str, dict[str, list[RawResult]]] = {}
    for record in records:
        if record.ladder is not None and not record.failed:
            by_scenario.setdefault(record.scenario, {}).setdefault(record.stack.name, []).append(record)
    judged = 0
    for scenario, rows in by_scenario.items():
        ceiling = rows.get(ceiling_of(scenarios.SCENARIOS[scenario]).name)
        if not ceiling or not _client_on_app_cpus(ceiling) or _a_lower_bound(ceiling):
            continue
        limit = max(capacities(Cell(ceiling)))
        for name, runs in rows.items():
            if name == ceiling[0].stack.name:
                continue
            judged += 1
            held = median_capacity(Cell(runs))
            said = f"{name} holds {held} req/s of {scenario}, above its ceiling's {limit}"
            assert held is None or held <= limit, said
    if not judged:
        pytest.skip("no published ceiling was measured the way the runner measures them now")
