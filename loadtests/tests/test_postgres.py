"""The runner's private PostgreSQL cluster, for real: init, start, the seeded template, reset, stop."""

import shutil
import socket
import tempfile
from pathlib import Path

import pytest

from bench import ports, postgres
from bench.errors import BenchError

pytestmark = pytest.mark.postgres


def counts(cluster):
    with cluster.connect(postgres.DB_NAME) as conn:
        row = conn.execute("SELECT (SELECT count(*) FROM item), (SELECT count(*) FROM category)").fetchone()
    return tuple(row)


def test_the_template_is_seeded_once_and_reset_copies_it(pg_cluster):
    assert pg_cluster.initialised() and pg_cluster.running()
    assert postgres.TEMPLATE_NAME in pg_cluster.databases()
    assert pg_cluster.ensure_template() is False  # its fingerprint matches db/: not seeded again
    pg_cluster.reset()
    seeded = counts(pg_cluster)
    assert seeded == (100_000, 2_000)
    with pg_cluster.connect(postgres.DB_NAME) as conn:
        conn.execute("DELETE FROM item WHERE id <= 10")
    assert counts(pg_cluster)[0] == seeded[0] - 10
    pg_cluster.reset()
    assert counts(pg_cluster) == seeded


def test_the_working_database_counts_statements_and_takes_the_password(pg_cluster):
    pg_cluster.reset()
    with pg_cluster.connect(postgres.DB_NAME) as conn:
        extensions = {r[0] for r in conn.execute("SELECT extname FROM pg_extension")}
    assert "pg_stat_statements" in extensions
    assert pg_cluster.url().startswith(f"postgres://bench:bench@127.0.0.1:{pg_cluster.port}/")


def test_stop_and_start_keep_the_data(pg_cluster):
    pg_cluster.reset()
    pg_cluster.stop()
    assert not pg_cluster.running()
    with pytest.raises(Exception):  # noqa: B017 (psycopg's connection error, whatever its class)
        pg_cluster.connect()
    pg_cluster.start()
    assert pg_cluster.running() and counts(pg_cluster) == (100_000, 2_000)


def test_a_port_in_use_is_named(pg_cluster, monkeypatch):
    monkeypatch.setattr(postgres, "PORT_WAIT_S", 0.5)
    home = Path(tempfile.mkdtemp(prefix="bench-test-pg-", dir="/var/tmp"))
    try:
        with socket.socket() as busy:
            busy.bind(("127.0.0.1", 0))
            busy.listen()
            port = busy.getsockname()[1]
            other = postgres.Cluster(pg_cluster.bindir, home / "data", port, pg_cluster.os_user)
            with pytest.raises(BenchError, match=f"port {port} is in use"):
                other.start()
        assert other.initialised() and not other.running()
    finally:
        shutil.rmtree(home, ignore_errors=True)


def test_the_reason_postgres_did_not_start_is_read_from_its_log(tmp_path):
    log = tmp_path / "postgres.log"
    log.write_text("2026-11-22 LOG:  starting\n2026-11-22 FATAL:  could not create lock file: Permission denied\n")
    assert postgres.last_error_line(log) == "could not create lock file: Permission denied"
    assert postgres.last_error_line(tmp_path / "missing.log") is None


def test_a_free_port_is_free():
    assert not ports.port_in_use(ports.free_port())


def test_a_port_a_connection_holds_as_its_own_is_in_use():
    # What stopped a restart: an outgoing connection was given the cluster's port as its local one.
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.socket() as client:
            client.bind(("127.0.0.1", 0))
            client.connect(server.getsockname())
            assert ports.port_in_use(client.getsockname()[1])


def test_the_default_port_is_one_no_outgoing_connection_is_given():
    low, _ = (int(part) for part in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    assert low > postgres.DEFAULT_PORT
