"""`./bench run STACK@VARIANT` measures a variant in the scenarios its impl.toml lists and no
other; a plan of stacks and variants runs each row's own, and the estimate counts them. The run
end to end uses the stand-ins of test_orchestration.py (a fake stack, k6 and oha, a fake cgroup
tree), with PostgreSQL real; its records carry the threads and sessions sampled per step."""

import pytest
from click.testing import CliRunner
from test_manifest import VALID, write_stack
from test_orchestration import CAPS, setting  # noqa: F401  (the fixture, used by name)

from bench import cli, manifest, postgres
from bench.errors import BenchError
from bench.measure import Plan
from bench.measure.plan.estimate import CALIBRATION_S
from bench.measure.plan.plan import measured_in
from bench.measure.run.orchestrate import run_plan
from bench.records import CpuSplit
from bench.scenarios import SCENARIOS

SPLIT = CpuSplit(app="0", postgres="0", loadgen="0")
VARIANT = '\n[variants.lazy]\ndescription = "one knob"\nscenarios = ["avatar"]\nenv = { KNOB = "on" }\n'


def estimate(tmp_path, monkeypatch, *args: str) -> str:
    from bench import measure

    def must_not_run(*_args, **_kwargs):
        raise AssertionError("--estimate started a run")

    monkeypatch.setattr(measure, "execute", must_not_run)
    monkeypatch.setattr(postgres, "session", must_not_run)
    result = CliRunner().invoke(cli.cli, ["run", *args, "--estimate", "--output", str(tmp_path / "out")])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.output


def test_a_variant_is_measured_in_its_own_scenarios_only(tmp_path):
    stack = manifest.load(write_stack(tmp_path, text=VALID + VARIANT))
    variant = stack.with_variant("lazy")
    assert measured_in(stack) is None and measured_in(variant) == ("avatar",)
    plan = Plan(
        [stack, variant], [SCENARIOS["join-filter"], SCENARIOS["avatar"]], "smoke", 1, SPLIT, tmp_path, ceilings=False
    )
    assert [s.name for s in plan.remaining("demo", 1)] == ["join-filter", "avatar"]
    assert [s.name for s in plan.remaining("demo@lazy", 1)] == ["avatar"]
    # The estimate counts the variant's one job, not two, and that job without the avatar's first
    # minute, which is a stack's alone.
    alone = Plan([stack], plan.scenarios, "smoke", 1, SPLIT, tmp_path, ceilings=False)
    just_avatar = Plan([variant], [SCENARIOS["avatar"]], "smoke", 1, SPLIT, tmp_path, ceilings=False)
    as_a_stack = Plan([stack], [SCENARIOS["avatar"]], "smoke", 1, SPLIT, tmp_path, ceilings=False)
    assert just_avatar.estimate_seconds() < as_a_stack.estimate_seconds()
    # (The machine's calibration once, before all of them.)
    once = CALIBRATION_S
    assert plan.estimate_seconds() == pytest.approx(alone.estimate_seconds() + just_avatar.estimate_seconds() - once)


def test_the_estimate_of_a_variant_counts_its_scenarios(tmp_path, monkeypatch):
    # java-spring@n-plus-one is measured in read-heavy and join-filter (java-spring/impl.toml).
    said = estimate(tmp_path, monkeypatch, "java-spring@n-plus-one")
    assert "1 stack(s) × 2 scenario(s) × 1 run(s), profile quick: about" in said
    said = estimate(
        tmp_path,
        monkeypatch,
        "java-spring",
        "java-spring@n-plus-one",
        "--scenario",
        "join-filter",
        "--scenario",
        "avatar",
    )
    assert "2 stack(s), 3 stack × scenario job(s) (a variant in its own scenarios only) × 1 run(s)" in said


def test_variants_follow_their_stacks_in_their_own_scenarios(tmp_path, monkeypatch):
    said = estimate(tmp_path, monkeypatch, "java-spring", "go-gin", "--variants", "--scenario", "join-filter")
    # java-spring's variants measured in join-filter follow it (platform-threads, n-plus-one,
    # aot-cache); those measured elsewhere only (the outbound clients) drop out of a join-filter run.
    assert "5 stack(s) × 1 scenario(s)" in said
    from bench.measure import RunRequest, plan_run

    planned = plan_run(RunRequest(impls=("java-spring", "go-gin"), variants=True, output=tmp_path / "out"))
    names = [stack.name for stack in planned.plan.stacks]
    assert names[0] == "java-spring" and names[-1] == "go-gin"
    assert {"java-spring@n-plus-one", "java-spring@platform-threads", "java-spring@rest-template"} <= set(names)
    assert names.index("go-gin") == len(names) - 1 and "go-gin@" not in " ".join(names)


def test_a_variant_named_with_none_of_its_scenarios_is_an_error_that_names_them(tmp_path, monkeypatch):
    with pytest.raises(BenchError, match=r"java-spring@n-plus-one is measured in read-heavy, join-filter only"):
        estimate(tmp_path, monkeypatch, "java-spring@n-plus-one", "--scenario", "avatar")


@pytest.mark.postgres
def test_a_run_of_a_stack_and_its_variant_writes_each_rows_own_scenarios(pg_cluster, setting, tmp_path):  # noqa: F811
    _, root, tools = setting
    stack = manifest.load(write_stack(tmp_path, name="demo2", text=(VALID + VARIANT).replace('"demo"', '"demo2"')))
    fake = manifest.load(tmp_path / "demo")
    # The fake app's run command, under the stack with the variant.
    stack = stack.model_copy(update={"run": fake.run})
    stack._directory = tmp_path / "demo2"
    variant = stack.with_variant("lazy")
    plan = Plan(
        [stack, variant],
        [SCENARIOS["join-filter"], SCENARIOS["avatar"]],
        "smoke",
        1,
        SPLIT,
        tmp_path / "out",
        ceilings=False,
        cgroup_root=root,
    )

    records = run_plan(plan, pg_cluster, tools, CAPS)

    assert [(r.stack.name, r.scenario, r.failed) for r in records] == [
        ("demo2", "join-filter", None),
        ("demo2", "avatar", None),
        ("demo2@lazy", "avatar", None),
    ]
    files = sorted(p.name for p in (tmp_path / "out" / "raw" / "smoke").glob("*.json"))
    assert files == ["demo2--avatar--run1.json", "demo2--join-filter--run1.json", "demo2@lazy--avatar--run1.json"]
    # The avatar's first minute is the stack's alone (docs/method.md, Profiles).
    assert [(r.stack.name, r.scenario, r.first_minute is not None) for r in records] == [
        ("demo2", "join-filter", True),
        ("demo2", "avatar", True),
        ("demo2@lazy", "avatar", False),
    ]
    # Every ladder step says what the app held: its process's threads from /proc, and its
    # sessions from pg_stat_activity (the fake app opens none).
    for record in records:
        assert record.ladder is not None
        for step in record.ladder.steps:
            assert step.resources is not None and step.resources.samples >= 1
            assert step.resources.threads_peak is not None and step.resources.threads_peak >= 1
            assert step.resources.db_connections_held_peak == 0 and step.resources.jvm is None
