"""A scenario is defined once (bench.scenarios): its scripts say what its entry says, nothing else
in the runner says it again, and a scenario added to the registry alone is planned, estimated,
sent by its load generators, reported in results.md and shown on the results page."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_report import laddered, write

from bench import cli, postgres, report, scenarios
from bench.measure import RunRequest, plan_run
from bench.measure.load import k6, oha, pgbench
from bench.measure.plan.ceilings import CEILING_DB, ceiling_of
from bench.measure.plan.estimate import CALIBRATION_S, estimate_seconds
from bench.measure.run import request
from bench.records import RawResult
from bench.report.site import site_data
from bench.scenarios import SCENARIOS, Scenario

RUNNER = Path(scenarios.__file__).parent
WITH_K6 = [s for s in SCENARIOS.values() if s.k6_script]


def _k6_list(script: str, name: str) -> list[str]:
    """The items of a script's `const NAME = [...];`, quotes taken off."""
    found = re.search(rf"const {name} = \[(.*?)\];", script, re.DOTALL)
    assert found is not None, f"no const {name}"
    return [item.strip().strip("'") for item in found.group(1).split(",") if item.strip()]


def _k6_weights(script: str) -> list[int]:
    """The weight of each request a script picks from (`[35, () => get(...)],`, `[15, create],`);
    none where it sends one request only."""
    found = re.search(r"const requests = \[(.*?)\n\];", script, re.DOTALL)
    return [int(weight) for weight in re.findall(r"^\s*\[(\d+),", found.group(1), re.MULTILINE)] if found else []


@pytest.mark.parametrize("scenario", WITH_K6, ids=lambda s: s.name)
def test_its_k6_script_sends_its_stages_endpoints_and_weights(scenario):
    script = (k6.K6_DIR / scenario.k6_script).read_text()
    assert _k6_list(script, "STAGES") == [str(vus) for vus in scenario.stages]
    assert _k6_list(script, "ENDPOINTS") == list(scenario.endpoints)
    # A script of one request sends all of it: it weighs nothing.
    assert _k6_weights(script) == ([weight for _, weight in scenario.mix] if len(scenario.mix) > 1 else [])
    # Its summary, which the runner reads, names the scenario.
    assert f"return summary('{scenario.name}', STAGES, ENDPOINTS, data);" in script


@pytest.mark.parametrize("scenario", SCENARIOS.values(), ids=lambda s: s.name)
def test_every_script_it_names_is_there(scenario):
    if scenario.k6_script is not None:
        assert (k6.K6_DIR / scenario.k6_script).is_file()
        # The ConfigMap the Kubernetes TestRuns mount (docs/kubernetes.md) carries every script.
        assert f"- {scenario.k6_script}\n" in (k6.K6_DIR / "kustomization.yaml").read_text()
    for script in scenario.oha_scripts:
        assert (oha.OHA_DIR / script).is_file()
    for script in scenario.pgbench_scripts:
        assert (pgbench.PGBENCH_DIR / script).is_file()


def _number(value: int) -> str:
    """`value` as Python may write it: 2000 or 2_000."""
    return "_?".join(str(value))


def _repeats(scenario: Scenario) -> list[str]:
    """Patterns of what the scenario's entry says, as another module would say it again."""
    pairs = [(endpoint, weight) for endpoint, weight in scenario.mix]
    pairs += [(Path(script).stem, weight) for script, weight in scenario.pgbench_mix]
    return [
        *(rf"""["']{re.escape(name)}(\.sql)?["']\s*[,:]\s*{weight}\b""" for name, weight in pairs),
        rf"""["']{re.escape(scenario.name)}["']\s*:\s*["']{re.escape(scenario.short_name)}["']""",
        r"\b" + r",\s*".join(_number(rate) for rate in scenario.rates[:3]) + r"\b",
    ]


def test_what_an_entry_says_is_written_nowhere_else_in_the_runner():
    patterns = [re.compile(p) for s in SCENARIOS.values() for p in _repeats(s)]
    named = [re.compile(rf"""["']{re.escape(name)}["']""") for name in SCENARIOS]
    found = []
    for path in sorted(RUNNER.rglob("*.py")):
        if path == Path(scenarios.__file__):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            # A mix, a short name or a ladder's rates again; or the scenarios listed by name, as a
            # type of their names would.
            if any(p.search(line) for p in patterns) or sum(1 for n in named if n.search(line)) >= 3:
                found.append(f"{path.relative_to(RUNNER)}:{number}: {line.strip()}")
    assert found == []


# A seventh scenario, added as CONTRIBUTING.md says: an entry in the registry, and its scripts
# (which nothing here runs).
LOOKUP = Scenario(
    "item-lookup",
    short_name="lookup",
    tool="k6",
    stages=(40, 80),
    mix=(("item_by_id", 80), ("category_by_id", 20)),
    rates=(200, 400, 800, 1600),
    objective_ms=50.0,
    warm_rate=400,
    k6_script="item-lookup.js",
    pgbench_scripts=("item_by_id.sql", "category_by_id.sql"),
)


@pytest.fixture
def seventh(monkeypatch):
    monkeypatch.setitem(SCENARIOS, LOOKUP.name, LOOKUP)
    return LOOKUP


def test_a_seventh_scenario_is_planned_estimated_and_sent_by_its_generators(seventh, tmp_path, monkeypatch):
    def must_not_run(*args, **kwargs):
        raise AssertionError("--estimate started a run")

    monkeypatch.setattr(request, "execute", must_not_run)
    monkeypatch.setattr(postgres, "session", must_not_run)
    out = tmp_path / "out"
    said = CliRunner().invoke(
        cli.cli, ["run", "go-gin", "--scenario", seventh.name, "--estimate", "--output", str(out)]
    )
    assert said.exit_code == 0, said.output
    assert "1 stack(s) × 1 scenario(s) × 1 run(s), profile quick: about" in said.output
    planned = plan_run(RunRequest(impls=("go-gin",), scenario_names=(seventh.name,), output=out))
    assert planned.plan.scenarios == [seventh]
    # Its database ceiling's job and the stack's, from the entry alone: no earlier run to follow;
    # and the machine's calibration before them.
    assert ceiling_of(seventh) is CEILING_DB
    assert (
        planned.estimate_s
        == estimate_seconds(seventh, "quick", open_model=True, ceiling=True)
        + (estimate_seconds(seventh, "quick", open_model=True))
        + CALIBRATION_S
    )
    command = k6.k6_command(
        Path("/k6"), seventh, base_url="http://h:1", profile="quick", stage="40", summary=Path("/s.json")
    )
    assert command.endswith(f"'{k6.K6_DIR / 'item-lookup.js'}'")
    replay = pgbench.pgbench_command(Path("/pgbench"), "postgres://u@h/db", seventh, 10, 12)
    assert f"-f '{pgbench.PGBENCH_DIR / 'item_by_id.sql'}@80' -f '{pgbench.PGBENCH_DIR / 'category_by_id.sql'}@20'" in (
        replay
    )


def test_a_seventh_scenario_is_reported_and_shown_on_the_page(seventh, tmp_path):
    raw = tmp_path / "results" / "raw" / "quick"
    records = [
        laddered("go-gin", run, [250.0, 400.0, 630.0], 1000.0) | {"scenario": seventh.name} for run in (1, 2)
    ] + [laddered("rust-axum", run, [250.0, 400.0], 630.0) | {"scenario": seventh.name} for run in (1, 2)]
    write(raw, records)
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    assert "### item-lookup: fixed-rate ladder" in text
    # The summary's columns go by the short name.
    assert "| stack | lookup req/s |" in text
    found = [(path, RawResult.read(path)) for path in sorted(raw.glob("*.json"))]
    data = site_data(found, tmp_path / "results" / "site")
    assert [shown["name"] for shown in data["scenarios"]] == ["item-lookup"]
    assert {stack["name"]: list(stack["scenarios"]) for stack in data["stacks"]} == {
        "go-gin": ["item-lookup"],
        "rust-axum": ["item-lookup"],
    }
