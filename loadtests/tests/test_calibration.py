"""The machine's calibration at the start of a run (bench.measure.run.calibration), how records
tell their machines apart by it and by their identity (bench.records.machines), and what the
report says when they come from more than one."""

from __future__ import annotations

import copy
import os

import pytest
from test_report import record

from bench import ports, postgres, schema
from bench.measure.host.roles import Roles
from bench.measure.run import calibration
from bench.records import Calibration, CpuCalibration, CpuSplit, PostgresCalibration, RawResult
from bench.records.machines import calibration_ratio, machines, same_machine
from bench.report.tables import environment_table

IDENTITY = {"cpu_family": 6, "cpu_model_number": 207, "stepping": 2, "microcode": "0x1", "flags_sha256": "ab" * 8}


def calibrated(speed: float = 1.0, pgbench: float | None = 40_000.0) -> Calibration:
    """A calibration of a machine `speed` times as fast as the first."""
    cpu = CpuCalibration(
        cpus="0",
        sha256_mib=2048,
        sha256_mib_per_s=1400.0 * speed,
        python_loops=16_000_000,
        python_mloops_per_s=10.0 * speed,
        seconds=3.0 / speed,
        cpu_seconds=3.0 / speed,
    )
    calibration = Calibration(cpu=cpu, postgres=None)
    if pgbench is None:
        calibration.postgres_failed = "pgbench failed (exit 1)"
    else:
        calibration.postgres = PostgresCalibration(clients=4, seconds=5, tps=pgbench * speed)
        calibration.postgres.transactions_per_cpu_s = pgbench * speed
    return calibration


def on(calibration: Calibration | None, run: int = 1, **machine: object) -> RawResult:
    r = record("go-gin", "join-filter", run, [(60, 1000.0)])
    r["machine"] = {**r["machine"], **IDENTITY, **machine}
    if calibration is not None:
        r["calibration"] = calibration.model_dump(exclude_unset=True)
    return RawResult.model_validate(r)


def one_cpu() -> str:
    return str(min(os.sched_getaffinity(0)))


def test_the_cpu_workload_gives_positive_rates_and_times():
    figures = calibration.cpu_workload(sha256_mib=1, python_loops=20_000, slices=4)
    assert set(figures) == {"sha256_mib_per_s", "python_mloops_per_s", "cpu_s", "wall_s"}
    assert figures["sha256_mib_per_s"] > 0 and figures["python_mloops_per_s"] > 0
    assert figures["cpu_s"] >= 0 and 0 < figures["wall_s"] < 30


def test_the_cpu_calibration_runs_pinned_in_a_process_of_its_own():
    cpu = calibration.cpu_calibration(one_cpu(), sha256_mib=2, python_loops=50_000)
    assert cpu.cpus == one_cpu() and (cpu.sha256_mib, cpu.python_loops) == (2, 50_000)
    assert cpu.sha256_mib_per_s > 0 and cpu.python_mloops_per_s > 0
    assert 0 < cpu.seconds < 30 and cpu.cpu_seconds >= 0


def test_a_cpu_set_the_process_may_not_use_is_a_reason_not_a_crash(tmp_path):
    roles = Roles(CpuSplit(app="4095", postgres="0", loadgen="0"), None, [])
    unreachable = postgres.Cluster(
        bindir=tmp_path / "bin", data=tmp_path / "data", port=ports.free_port(), os_user=None
    )
    result = calibration.calibrate(unreachable, roles)
    assert result.cpu is None and result.cpu_failed is not None and "CPU workload failed" in result.cpu_failed
    # No PostgreSQL answers there: the part is null, with why.
    assert result.postgres is None and result.postgres_failed
    assert Calibration.model_validate_json(result.model_dump_json(exclude_unset=True)) == result


def test_without_a_cluster_the_cpu_is_calibrated_alone():
    result = calibration.calibrate(None, Roles(CpuSplit(app=one_cpu(), postgres="0", loadgen="0"), None, []))
    assert result.cpu is not None and result.postgres is None
    assert result.postgres_failed == "no local PostgreSQL"


@pytest.mark.postgres
def test_pgbench_reads_the_seeded_items_from_the_apps_cpus(pg_cluster, monkeypatch, tmp_path):
    monkeypatch.setattr(calibration, "logs", lambda: tmp_path)
    roles = Roles(CpuSplit(app=one_cpu(), postgres=one_cpu(), loadgen=one_cpu()), None, [])
    result = calibration.postgres_calibration(pg_cluster, roles, seconds=1, warmup_s=0)
    assert result.tps > 0 and (result.clients, result.seconds) == (calibration.PGBENCH_CLIENTS, 1)
    # No cgroups: PostgreSQL's CPU time is unknown.
    assert result.transactions_per_cpu_s is None
    assert "random(1, 100000)" in (tmp_path / "calibration.sql").read_text()


def test_a_calibration_round_trips_through_a_record_and_matches_the_schema():
    record_ = on(calibrated(pgbench=None))
    data = record_.model_dump(mode="json", exclude_unset=True)
    assert schema.validate_raw(data) == []
    assert RawResult.model_validate_json(record_.to_json()) == record_
    assert data["calibration"]["postgres_failed"] == "pgbench failed (exit 1)"
    # An older record has none, and reads as it did.
    assert "calibration" not in on(None).model_dump(exclude_unset=True)


def test_calibrations_within_five_percent_are_one_machine():
    assert calibration_ratio(calibrated(), calibrated(1.03)) == pytest.approx(1.03)
    assert same_machine(on(calibrated()), on(calibrated(1.04)))
    assert not same_machine(on(calibrated()), on(calibrated(1.10)))
    assert not same_machine(on(calibrated(1.10)), on(calibrated()))


def test_the_figure_that_differs_most_decides():
    slower_database = calibrated()
    assert slower_database.postgres is not None
    slower_database.postgres.transactions_per_cpu_s = 30_000.0
    assert calibration_ratio(calibrated(), slower_database) == pytest.approx(0.75)
    # tps moves with whatever else ran meanwhile: where both have PostgreSQL's CPU time, it decides.
    busy = calibrated()
    assert busy.postgres is not None
    busy.postgres.tps = 20_000.0
    assert calibration_ratio(calibrated(), busy) == pytest.approx(1.0)


def test_another_identity_is_another_machine_whatever_its_calibration():
    assert not same_machine(on(calibrated()), on(calibrated(), stepping=3))
    assert not same_machine(on(calibrated()), on(calibrated(), flags_sha256="cd" * 8))
    # An older record names the model only: what it lacks is not compared.
    old = copy.deepcopy(record("go-gin", "join-filter", 1, [(60, 1000.0)]))
    assert same_machine(RawResult.model_validate(old), on(calibrated()))


def rows(records: list[RawResult]) -> dict[str, str]:
    table = environment_table(records, 1, "x")[4:-1]
    return {line.split("|")[1].strip(): line.split("|")[2].strip() for line in table}


def test_the_environment_names_the_machine_and_its_calibration():
    table = rows([on(calibrated()), on(calibrated(1.01))])
    assert table["machine"] == (
        "Test CPU (family 6, model 207, stepping 2, microcode 0x1, flags abababababababab), 2 cores, 24.0 GiB"
    )
    assert table["calibration"] == (
        "app's CPUs (cpuset 0): SHA-256 1400 MiB, Python 10.00 M loops per CPU second (3.0 s); "
        "PostgreSQL: 40000 tps, 40000 per CPU second (pgbench, 4 clients, 5 s)"
    )
    assert "machines" not in table


def test_the_environment_says_when_records_come_from_two_machines():
    records = [on(calibrated(), 1), on(calibrated(), 2), on(calibrated(0.5), 3)]
    assert [len(group) for group in machines(records)] == [2, 1]
    table = rows(records)
    assert "calibration" not in table
    assert table["machines"].startswith("these records come from 2 machines: ")
    assert "SHA-256 1400 MiB," in table["machines"] and "SHA-256 700 MiB," in table["machines"]
    assert "(2 records)" in table["machines"] and "(1 record)" in table["machines"]
