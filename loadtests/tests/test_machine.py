"""The machine's steal and CPU pressure around a step (bench.measure.host.machine), and the ladder's
rule that runs a step again when the hypervisor took over 2% of the machine during it; what names
the machine in a record (bench.measure.host.environment.machine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.measure.host import environment
from bench.measure.host.machine import HostReading, host_figures
from bench.measure.phases.ladder import STEAL_RETRIES, without_steal
from bench.records.steps import HostFigures, LadderStep


def fake_proc(proc: Path, *, steal: int, idle: int, pressure_us: int | None) -> None:
    proc.mkdir(parents=True, exist_ok=True)
    # user nice system idle iowait irq softirq steal guest guest_nice, summed over the CPUs.
    (proc / "stat").write_text(f"cpu  1000 0 200 {idle} 0 0 0 {steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n")
    if pressure_us is not None:
        (proc / "pressure").mkdir(exist_ok=True)
        (proc / "pressure" / "cpu").write_text(
            f"some avg10=1.00 avg60=0.50 avg300=0.10 total={pressure_us}\n"
            "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
        )


def test_steal_is_a_share_of_all_the_cpu_time_and_pressure_a_share_of_the_wall_time(tmp_path):
    proc = tmp_path / "proc"
    fake_proc(proc, steal=100, idle=8_700, pressure_us=1_000_000)
    before = HostReading.take(proc)
    fake_proc(proc, steal=130, idle=9_670, pressure_us=1_500_000)
    after = HostReading.take(proc)
    # 30 of the 1,000 ticks that passed were stolen.
    figures = host_figures(before, after)
    assert figures.steal_share == pytest.approx(0.03)
    # Half a second of pressure over however long the two readings were apart, at most all of it.
    assert figures.cpu_pressure_share is not None and 0 < figures.cpu_pressure_share <= 1.0


def test_without_pressure_stall_information_the_pressure_is_unknown(tmp_path):
    proc = tmp_path / "proc"
    fake_proc(proc, steal=0, idle=100, pressure_us=None)
    reading = HostReading.take(proc)
    assert reading.cpu_pressure_us is None
    assert host_figures(reading, HostReading.take(proc)).cpu_pressure_share is None


def _step(steal: float) -> LadderStep:
    return LadderStep(
        offered_rps=100.0,
        duration_s=10.0,
        vus=10,
        requests=1000,
        delivered_rps=100.0,
        latency_ms=None,
        errors={},
        error_count=0,
        dropped_iterations=0,
        sql_per_request=None,
        mean_response_bytes=None,
        cpu_ms_per_request=1.0,
        app_peak_memory_bytes=None,
        cpu=None,
        oom=False,
        held=True,
        stop_reasons=[],
        host=HostFigures(steal_share=steal, cpu_pressure_share=None),
    )


def test_a_step_the_host_stole_from_is_run_again_and_says_so():
    tries = iter([_step(0.05), _step(0.01)])
    step = without_steal(lambda: next(tries), alive=lambda: True)
    assert step.host is not None and step.host.steal_share == 0.01
    assert step.steal_reruns == [0.05]


def test_a_host_that_keeps_stealing_gets_its_retries_then_the_last_try_stands():
    runs = []

    def measure_once() -> LadderStep:
        runs.append(1)
        return _step(0.10)

    step = without_steal(measure_once, alive=lambda: True)
    assert len(runs) == STEAL_RETRIES + 1 and step.steal_reruns == [0.10] * STEAL_RETRIES


def test_a_quiet_step_stands_as_it_is():
    step = without_steal(lambda: _step(0.0), alive=lambda: True)
    assert step.steal_reruns == [] and "steal_reruns" not in step.model_dump(exclude_unset=True)


CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 207
model name\t: Intel(R) Xeon(R) Processor
stepping\t: 2
microcode\t: 0x1
cache size\t: 307200 KB
flags\t\t: fpu sse2 hypervisor avx512f sha_ni
bogomips\t: 4200.00

processor\t: 1
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 143
model name\t: Another CPU
stepping\t: 8
flags\t\t: fpu
"""


def fake_machine(tmp_path: Path, cpuinfo: str = CPUINFO, hypervisor: str | None = "xen") -> Path:
    proc, sysfs = tmp_path / "proc", tmp_path / "sys"
    proc.mkdir(parents=True, exist_ok=True)
    (proc / "cpuinfo").write_text(cpuinfo)
    (proc / "meminfo").write_text("MemTotal:       24731184 kB\nMemFree:         1000 kB\n")
    if hypervisor is not None:
        (sysfs / "hypervisor").mkdir(parents=True, exist_ok=True)
        (sysfs / "hypervisor" / "type").write_text(hypervisor + "\n")
    return tmp_path


def test_the_machine_is_named_by_its_first_processor_as_cpuinfo_prints_it(tmp_path):
    root = fake_machine(tmp_path)
    machine = environment.machine(root / "proc", root / "sys")
    assert (machine.cpu_model, machine.cpu_family, machine.cpu_model_number, machine.stepping) == (
        "Intel(R) Xeon(R) Processor",
        6,
        207,
        2,
    )
    assert (machine.microcode, machine.cache_size, machine.hypervisor) == ("0x1", "307200 KB", "xen")
    assert machine.memory_bytes == 24731184 * 1024
    # The flags' digest does not depend on the order cpuinfo lists them in.
    assert machine.flags_sha256 == environment.flags_digest("sha_ni avx512f hypervisor sse2 fpu")
    assert len(machine.flags_sha256) == 16
    assert machine.identity() == (
        "Intel(R) Xeon(R) Processor",
        6,
        207,
        2,
        "0x1",
        machine.flags_sha256,
        machine.cores,
        24,
    )


def test_a_cpu_without_the_hypervisor_flag_is_bare_metal_and_one_without_a_family_says_none(tmp_path):
    # ARM's cpuinfo: no model name, family or microcode, its flags named Features.
    root = fake_machine(
        tmp_path, "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd aes sha2\n", hypervisor="kvm"
    )
    machine = environment.machine(root / "proc", root / "sys")
    assert machine.hypervisor is None
    assert (machine.cpu_family, machine.cpu_model_number, machine.stepping, machine.microcode) == (None,) * 4
    assert machine.flags_sha256 == environment.flags_digest("fp asimd aes sha2")


def test_machines_that_differ_only_in_stepping_microcode_or_features_have_other_identities(tmp_path):
    base = environment.machine(fake_machine(tmp_path) / "proc", tmp_path / "sys")
    for change in ({"stepping": 3}, {"microcode": "0x2b000590"}, {"flags_sha256": "0" * 16}):
        assert base.model_copy(update=change).identity() != base.identity()
    # A few MiB more or less of the same memory is the same machine.
    assert base.model_copy(update={"memory_bytes": base.memory_bytes + (8 << 20)}).identity() == base.identity()
