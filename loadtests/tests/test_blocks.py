"""Blocks (bench.measure.plan.plan.Plan.blocks): one scenario × one run, its ceiling and every stack
and variant measured in it, run together and kept by --resume only whole and from one machine; and
the published raw files, whose every block is one machine's."""

from pathlib import Path

from test_calibration import IDENTITY, calibrated
from test_manifest import VALID, write_stack
from test_report import record

from bench import manifest, paths
from bench.measure.plan.ceilings import ceiling_of
from bench.measure.plan.plan import Plan, whole_blocks
from bench.records import CpuSplit, RawResult
from bench.records.machines import blocks_across_machines
from bench.report.render import load
from bench.scenarios import SCENARIOS

SPLIT = CpuSplit(app="0", postgres="1", loadgen="1")
PUBLISHED = paths.ROOT / "results" / "raw" / "quick"
JOIN, AVATAR = SCENARIOS["join-filter"], SCENARIOS["avatar"]


def stacks(tmp_path: Path) -> list[manifest.Stack]:
    """Two stacks, the second with a variant measured in the avatar alone."""
    demo = manifest.load(write_stack(tmp_path))
    variant = '\n[variants.zgc]\ndescription = "ZGC"\nscenarios = ["avatar"]\nenv = { JAVA_OPTS = "-XX:+UseZGC" }\n'
    twin = manifest.load(write_stack(tmp_path, name="twin", text=VALID.replace("demo", "twin") + variant))
    return [demo, twin, *twin.variant_stacks()]


def plan(tmp_path: Path, ceilings: bool = True) -> Plan:
    return Plan(stacks(tmp_path), [JOIN, AVATAR], "quick", 2, SPLIT, tmp_path / "out", ceilings=ceilings)


def record_of(name: str, scenario: str, run: int, speed: float = 1.0, **machine: object) -> RawResult:
    """A record of `name` measured on the machine of test_calibration, `speed` times as fast."""
    r = record(name, scenario, run, [(60, 1000.0)])
    r["machine"] = {**r["machine"], **IDENTITY, **machine}
    r["calibration"] = calibrated(speed).model_dump(exclude_unset=True)
    return RawResult.model_validate(r)


def test_a_plan_runs_block_by_block_each_ceiling_first_and_a_variant_only_in_its_scenarios(tmp_path):
    found = plan(tmp_path)
    assert [(n, s.name) for n, s in found.blocks()] == [
        (1, "join-filter"),
        (1, "avatar"),
        (2, "join-filter"),
        (2, "avatar"),
    ]
    assert found.block_jobs(1, JOIN) == [
        (ceiling_of(JOIN).name, "join-filter", 1),
        ("demo", "join-filter", 1),
        ("twin", "join-filter", 1),
    ]
    assert [name for name, _, _ in found.block_jobs(2, AVATAR)] == [
        ceiling_of(AVATAR).name,
        "demo",
        "twin",
        "twin@zgc",
    ]


def test_resume_keeps_a_block_only_whole_and_from_one_machine(tmp_path):
    found = plan(tmp_path)
    every = {job: record_of(*job) for block in found.blocks() for job in found.block_jobs(*block)}
    assert whole_blocks(found, every) == every
    # A block cut short (run 1 of the avatar lost its variant's record) is measured again whole;
    # the others stay.
    cut = {job: r for job, r in every.items() if job != ("twin@zgc", "avatar", 1)}
    kept = whole_blocks(found, cut)
    assert {job for job in every if job not in kept} == set(found.block_jobs(1, AVATAR))
    # A block finished on another machine: one record's calibration 30% faster, or another stepping.
    for other in (record_of("twin", "join-filter", 2, speed=1.3), record_of("twin", "join-filter", 2, stepping=9)):
        mixed = {**every, ("twin", "join-filter", 2): other}
        assert {job for job in every if job not in whole_blocks(found, mixed)} == set(found.block_jobs(2, JOIN))
    # Within the calibration's 5%: the same machine, a run resumed after Ctrl-C.
    near = {**every, ("twin", "join-filter", 2): record_of("twin", "join-filter", 2, speed=1.03)}
    assert whole_blocks(found, near) == near


def test_blocks_across_machines_are_named_by_scenario_and_run():
    same = [record_of("demo", "avatar", 1), record_of("twin", "avatar", 1, speed=1.02)]
    other = [record_of("demo", "join-filter", 1), record_of("twin", "join-filter", 1, speed=2.0)]
    assert blocks_across_machines(same + other) == [("join-filter", 1)]
    # The same stack's other runs are other blocks: machines may differ from block to block.
    assert blocks_across_machines([record_of("demo", "avatar", 1), record_of("demo", "avatar", 2, speed=2.0)]) == []


def test_every_published_block_is_one_machines():
    records = load(PUBLISHED)
    assert records
    assert blocks_across_machines(records) == []
