"""Whether two records were measured on the same machine: the same identity (bench.records.Machine)
and calibrations (bench.records.Calibration) within 5% of each other. Machines of one cloud kind
can share every identity field and still differ in speed (a busier host, another generation
behind the same CPUID): the calibration is what tells those apart."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from bench.records import Calibration, Machine, RawResult, RunHeader

H = TypeVar("H", bound=RunHeader)

# Two runs of the calibration on one idle machine agree within this (docs/method.md).
TOLERANCE = 0.05


def calibration_figures(calibration: Calibration) -> dict[str, float]:
    """Each figure of a calibration, higher meaning faster."""
    figures = {}
    if calibration.cpu is not None:
        figures["sha256"] = calibration.cpu.sha256_mib_per_s
        figures["python"] = calibration.cpu.python_mloops_per_s
    if calibration.postgres is not None:
        figures["pgbench_tps"] = calibration.postgres.tps
        if calibration.postgres.transactions_per_cpu_s is not None:
            figures["pgbench_per_cpu_s"] = calibration.postgres.transactions_per_cpu_s
    return figures


def calibration_ratio(a: Calibration, b: Calibration) -> float | None:
    """How much faster `b` ran than `a` (below 1: slower), by the figure the two differ most in:
    a machine whose CPUs hash as fast but whose PostgreSQL is slower is another machine. None
    where the two have no figure in common."""
    ours, theirs = calibration_figures(a), calibration_figures(b)
    common = ours.keys() & theirs.keys()
    if "pgbench_per_cpu_s" in common:
        # Per CPU second where both have it: the rate moves with whatever else ran meanwhile.
        common.discard("pgbench_tps")
    ratios = [theirs[name] / ours[name] for name in common]
    return max(ratios, key=lambda r: abs(math.log(r))) if ratios else None


def same_machine(a: RunHeader, b: RunHeader, tolerance: float = TOLERANCE) -> bool:
    """The same identity, comparing only the fields both records have (an older record has
    fewer), and calibrations, where both have one, within `tolerance` of each other."""
    if any(x != y for x, y in zip(a.machine.identity(), b.machine.identity(), strict=True) if None not in (x, y)):
        return False
    if a.calibration is None or b.calibration is None:
        return True
    ratio = calibration_ratio(a.calibration, b.calibration)
    return ratio is None or max(ratio, 1 / ratio) - 1 <= tolerance


def machines(records: Sequence[H]) -> list[list[H]]:
    """`records` grouped by machine: each joins the first group whose first record is on the same
    machine, in the order they come."""
    groups: list[list[H]] = []
    for record in records:
        group = next((g for g in groups if same_machine(g[0], record)), None)
        if group is None:
            groups.append([record])
        else:
            group.append(record)
    return groups


def blocks_across_machines(records: Sequence[RawResult]) -> list[tuple[str, int]]:
    """The blocks (scenario, run) of a publication's records that are not all one machine's: their
    figures cannot be compared with each other. Memory-ladder, fault and --target records are no
    block's."""
    blocks: dict[tuple[str, int], list[RawResult]] = {}
    for record in records:
        if record.mem_ladder_mib is None and record.fault_kind is None and record.target is None:
            blocks.setdefault((record.scenario, record.run), []).append(record)
    return [block for block, members in blocks.items() if len(machines(members)) > 1]


def describe_identity(machine: Machine) -> str:
    """What identifies the CPU beyond its model name, in a few words; empty for a record that
    has none of it."""
    cpu = [
        f"{name} {value}"
        for name, value in (
            ("family", machine.cpu_family),
            ("model", machine.cpu_model_number),
            ("stepping", machine.stepping),
            ("microcode", machine.microcode),
            ("flags", machine.flags_sha256),
        )
        if value is not None
    ]
    if machine.hypervisor is not None:
        cpu.append(f"under {machine.hypervisor}")
    return ", ".join(cpu)


def describe_calibration(calibration: Calibration) -> str:
    """The figures of a calibration in one line, or why a part has none."""
    cpu, postgres = calibration.cpu, calibration.postgres
    parts = [
        f"app's CPUs (cpuset {cpu.cpus}): SHA-256 {cpu.sha256_mib_per_s:.0f} MiB, "
        f"Python {cpu.python_mloops_per_s:.2f} M loops per CPU second ({cpu.seconds:.1f} s)"
        if cpu is not None
        else f"app's CPUs: not calibrated ({calibration.cpu_failed or 'unknown'})",
        f"PostgreSQL: {postgres.tps:.0f} tps"
        + (
            f", {postgres.transactions_per_cpu_s:.0f} per CPU second"
            if postgres.transactions_per_cpu_s is not None
            else ""
        )
        + f" (pgbench, {postgres.clients} clients, {postgres.seconds} s)"
        if postgres is not None
        else f"PostgreSQL: not calibrated ({calibration.postgres_failed or 'unknown'})",
    ]
    return "; ".join(parts)
