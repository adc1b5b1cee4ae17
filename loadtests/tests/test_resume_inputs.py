"""`./bench run --resume` keeps a record whose inputs are today's (bench.measure.plan.inputs):
across commits to docs or the report, and dropping only what a change could have moved."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_manifest import VALID, write_stack
from test_report import BASE, record

import bench
from bench import manifest, paths
from bench.errors import BenchError
from bench.manifest import Stack
from bench.measure.host import environment
from bench.measure.plan import inputs
from bench.measure.plan.inputs import Fingerprints
from bench.measure.plan.plan import Plan, Today, kept_records
from bench.measure.run import request
from bench.records import METHOD, Caps, CpuSplit, RawResult, Versions
from bench.report.tables import commit_counts
from bench.scenarios import SCENARIOS

REPOSITORY = Path(bench.__file__).resolve().parents[2]
SPLIT = CpuSplit.model_validate(BASE["cpu_split"])
CAPS = Caps.model_validate(BASE["caps"])
VERSIONS = Versions.model_validate(BASE["versions"])

FILES = {
    "loadtests/bench/measure/run.py": "measures\n",
    "loadtests/bench/report/render.py": "renders\n",
    "loadtests/k6/mixed.js": "export default function () {}\n",
    "loadtests/requirements.txt": "httpx==1\n",
    "db/schema.sql": "create table item ();\n",
    "spec/openapi.yaml": "openapi: 3.1.0\n",
    "compose.yaml": "services: {}\n",
    "docs/method.md": "# Method\n",
    "README.md": "# Readme\n",
    ".gitignore": "__pycache__/\n",
}


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def commit(root: Path, changes: dict[str, str]) -> None:
    for name, text in changes.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "change")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[Stack]]:
    """A repository with the runner's layout in miniature and two stacks, a and b, committed."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    measured = []
    for name in ("a", "b"):
        directory = write_stack(root, name=name, text=VALID.replace('name = "demo"', f'name = "{name}"'))
        (directory / "main.sh").write_text("echo hello\n")
        (directory / ".gitignore").write_text("out\n")
        measured.append(manifest.load(directory))
    commit(root, FILES)
    monkeypatch.setattr(paths, "ROOT", root)
    monkeypatch.setattr(environment, "git_commit", lambda *measured: git(root, "rev-parse", "HEAD"))
    return root, measured


def today(measured: list[Stack], **changed: object) -> Today:
    fingerprints = inputs.today(measured)
    assert fingerprints is not None
    fields: dict[str, object] = {
        "profile": "quick",
        "split": SPLIT,
        "caps": CAPS,
        "versions": VERSIONS,
        "inputs": fingerprints,
        "commit": environment.git_commit(),
    }
    return Today(**{**fields, **changed})  # type: ignore[arg-type]


def write_records(raw: Path, fingerprints: Fingerprints, **extra: object) -> None:
    """A record of a and of b in the mixed scenario, and the scenario's ceiling's, measured today."""
    raw.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = [record(name, "mixed", 1, [(10, 100.0)]) for name in ("a", "b")]
    rows.append(record("ceiling-db", "mixed", 1, [(10, 500.0)], kind="ceiling"))
    for row in rows:
        ceiling = row.get("kind") == "ceiling"
        row["git_commit"] = environment.git_commit()
        row["method"] = METHOD
        row["inputs"] = fingerprints.expected(None if ceiling else row["stack"]["name"]).model_dump()
        row.update(extra)
        RawResult.model_validate(row)
        (raw / f"{row['stack']['name']}--mixed--run1.json").write_text(json.dumps(row))


ALL = {("a", "mixed", 1), ("b", "mixed", 1), ("ceiling-db", "mixed", 1)}


def test_resume_keeps_every_record_across_commits_to_docs_and_the_report(repo, tmp_path):
    root, measured = repo
    raw = tmp_path / "raw"
    write_records(raw, today(measured).inputs)
    # A build's output and a cache, ignored by git, are no input either.
    (root / "a" / "out").write_text("built\n")
    (root / "loadtests" / "bench" / "measure" / "__pycache__").mkdir()
    (root / "loadtests" / "bench" / "measure" / "__pycache__" / "run.pyc").write_bytes(b"\0")

    commit(root, {"docs/method.md": "# Method, rewritten\n", "loadtests/bench/report/render.py": "renders more\n"})

    assert set(kept_records(raw, today(measured))) == ALL


def test_a_change_to_one_stack_measures_that_stack_again_alone(repo, tmp_path):
    root, measured = repo
    raw = tmp_path / "raw"
    write_records(raw, today(measured).inputs)

    commit(root, {"a/main.sh": "echo changed\n"})

    assert set(kept_records(raw, today(measured))) == ALL - {("a", "mixed", 1)}


def test_a_conformance_or_fuzz_case_is_no_input(repo, tmp_path):
    """They test a stack against the contract and never run in a measurement."""
    root, measured = repo
    raw = tmp_path / "raw"
    write_records(raw, today(measured).inputs)

    commit(root, {"spec/conformance/test_pool.py": "def test_pool(): ...\n", "spec/fuzz/test_more.py": "x = 1\n"})

    assert set(kept_records(raw, today(measured))) == ALL
    commit(root, {"spec/API.md": "# The contract, changed\n"})
    assert kept_records(raw, today(measured)) == {}


def test_a_stacks_readme_is_no_input(repo, tmp_path):
    root, measured = repo
    raw = tmp_path / "raw"
    write_records(raw, today(measured).inputs)
    (root / "a" / "README.md").write_text("# a, explained\n")
    assert inputs.uncommitted(measured[:1]) == []

    commit(root, {"a/README.md": "# a, explained again\n", "a/docs/notes.md": "# Why\n"})

    assert set(kept_records(raw, today(measured))) == ALL


@pytest.mark.parametrize(
    "path",
    [
        "loadtests/bench/measure/run.py",
        "loadtests/k6/mixed.js",
        "loadtests/requirements.txt",
        "db/schema.sql",
        "spec/openapi.yaml",
        "compose.yaml",
    ],
)
def test_a_change_to_the_runner_or_what_every_stack_shares_measures_everything_again(repo, tmp_path, path):
    root, measured = repo
    raw = tmp_path / "raw"
    write_records(raw, today(measured).inputs)

    commit(root, {path: "changed\n"})

    assert kept_records(raw, today(measured)) == {}


@pytest.mark.parametrize(
    "extra",
    [
        {"profile": "full"},
        {"method": None},
        {"cpu_split": {"app": "0", "postgres": "1", "loadgen": "2-3"}},
        {"caps": CAPS.model_dump() | {"app": {"cpus": 2.0, "mem_bytes": 512 << 20}}},
        {"versions": VERSIONS.model_dump() | {"k6": "k6 v1.9.0"}},
        {"versions": VERSIONS.model_dump() | {"postgres": "postgres (PostgreSQL) 16.1"}},
        {"failed": "a exited with code 1 under load"},
    ],
)
def test_a_record_measured_otherwise_is_not_kept(repo, tmp_path, extra):
    _, measured = repo
    raw = tmp_path / "raw"
    write_records(raw, today(measured).inputs, **extra)

    assert kept_records(raw, today(measured)) == {}


def test_the_database_ceilings_client_on_the_apps_cpus_is_kept(repo, tmp_path):
    _, measured = repo
    raw = tmp_path / "raw"
    write_records(raw, today(measured).inputs)
    ceiling = raw / "ceiling-db--mixed--run1.json"
    moved = json.loads(ceiling.read_text())
    moved["cpu_split"] = dict(moved["cpu_split"], loadgen=moved["cpu_split"]["app"])
    ceiling.write_text(json.dumps(moved))

    assert set(kept_records(raw, today(measured))) == ALL


def test_a_record_without_inputs_is_kept_only_at_its_commit_with_nothing_changed(repo, tmp_path):
    root, measured = repo
    raw = tmp_path / "raw"
    write_records(raw, today(measured).inputs)
    for file in raw.glob("*.json"):
        older = json.loads(file.read_text())
        del older["inputs"]
        file.write_text(json.dumps(older))

    assert set(kept_records(raw, today(measured))) == ALL
    assert kept_records(raw, today(measured, commit=f"{environment.git_commit()}-dirty")) == {}
    commit(root, {"docs/method.md": "# Method, rewritten\n"})
    assert kept_records(raw, today(measured)) == {}


def test_uncommitted_changes_to_what_a_run_measures_are_named(repo):
    root, (a, _) = repo
    (root / "docs" / "method.md").write_text("# Method, being rewritten\n")
    (root / "loadtests" / "bench" / "report" / "render.py").write_text("renders, being changed\n")
    (root / "b" / "main.sh").write_text("echo b, not measured today\n")
    (root / "a" / "out").write_text("built\n")
    assert inputs.uncommitted([a]) == []

    (root / "a" / "main.sh").write_text("echo changed\n")
    (root / "db" / "extra.sql").write_text("select 1;\n")
    (root / "loadtests" / "bench" / "measure" / "run.py").write_text("measures otherwise\n")
    assert inputs.uncommitted([a]) == ["a/main.sh", "db/extra.sql", "loadtests/bench/measure/run.py"]


def test_resume_refuses_while_what_it_measures_is_uncommitted(repo, tmp_path):
    root, (a, _) = repo
    plan = Plan([a], [SCENARIOS["mixed"]], "quick", 1, SPLIT, tmp_path / "out", inputs=inputs.today([a]))
    (root / "a" / "main.sh").write_text("echo changed\n")

    with pytest.raises(BenchError, match=r"uncommitted changes \(a/main\.sh\)"):
        request._today(plan)


def test_each_record_carries_its_stacks_inputs_a_ceiling_none(repo, tmp_path):
    _, (a, b) = repo
    plan = Plan([a], [SCENARIOS["mixed"]], "quick", 1, SPLIT, tmp_path / "out", inputs=inputs.today([a]))

    mine, ceiling = plan.inputs_of(a)["inputs"], plan.inputs_of(None)["inputs"]
    assert mine.stack is not None and ceiling.stack is None
    assert mine.model_dump(exclude={"stack"}) == ceiling.model_dump(exclude={"stack"})
    # A stack not fingerprinted as the run was planned is, when its record is made.
    assert plan.inputs_of(b)["inputs"].stack not in (None, mine.stack)
    assert Plan([a], [], "quick", 1, SPLIT, tmp_path).inputs_of(a) == {}


# What a `./bench run` imports: the command line, then what its command loads as it runs.
RUN_MODULES = (
    "bench.cli",
    "bench.cli.benchmark",
    "bench.measure",
    "bench.measure.run.orchestrate",
    "bench.measure.run.request",
    "bench.judgement.verdict",
    "bench.report",
    "bench.training",
)


def test_every_module_a_run_loads_is_fingerprinted_unless_it_alters_no_figure():
    """A new measuring module cannot be left out of the runner's fingerprint: every module a run
    imports is in bench.measure.plan.inputs.RUNNER, or named in NOT_MEASURING."""
    script = (
        f"import importlib, json, sys\nfor m in {list(RUN_MODULES)!r}: importlib.import_module(m)\n"
        "print(json.dumps({n: m.__file__ for n, m in sys.modules.items()"
        " if (n == 'bench' or n.startswith('bench.')) and getattr(m, '__file__', None)}))"
    )
    loaded = json.loads(subprocess.run([sys.executable, "-c", script], check=True, capture_output=True).stdout)
    fingerprinted = set(inputs.listed(inputs.RUNNER, REPOSITORY) or [])

    def left_out(name: str) -> bool:
        return any(name == prefix or name.startswith(prefix + ".") for prefix in inputs.NOT_MEASURING)

    def relative(file: str) -> str:
        return Path(file).resolve().relative_to(REPOSITORY).as_posix()

    assert "bench.measure.run.stack_run" in loaded
    assert sorted(n for n, f in loaded.items() if relative(f) not in fingerprinted and not left_out(n)) == []
    assert sorted(n for n, f in loaded.items() if relative(f) in fingerprinted and left_out(n)) == []
    # No entry of the list names nothing (a file moved away).
    assert [spec for spec in inputs.RUNNER if not inputs.listed([spec], REPOSITORY)] == []


def test_results_md_names_each_commit_its_records_were_measured_at():
    records = [RawResult.model_validate(record(name, "mixed", 1, [(10, 100.0)])) for name in ("a", "b", "c")]
    assert commit_counts(records) == f"`{'0' * 12}` (3 records)"
    records[2].git_commit = "1" * 40 + "-dirty"
    assert commit_counts(records) == f"`{'0' * 12}` (2 records); `{'1' * 12}` (1 record)"
