"""The runner as a package: its lock pins everything pyproject.toml asks for, and ./bench
runs the installed entry point, not a path hack."""

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

LOADTESTS = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((LOADTESTS / "pyproject.toml").read_text())


def locked() -> dict[str, str]:
    lines = (LOADTESTS / "requirements.txt").read_text().splitlines()
    pins = [re.match(r"^([A-Za-z0-9_.\-]+)==([^ ;\\]+)", line) for line in lines]
    return {canonicalize_name(m[1]): m[2] for m in pins if m}


def test_the_lock_pins_every_dependency_with_a_version_pyproject_accepts():
    project = PYPROJECT["project"]
    wanted = [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["dev"]]
    wanted += [Requirement(r) for r in PYPROJECT["build-system"]["requires"]]
    pins = locked()
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in requirements.txt: regenerate the lock (loadtests/README.md)"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} does not satisfy {requirement}"


def test_every_pin_has_hashes():
    text = (LOADTESTS / "requirements.txt").read_text()
    for block in re.split(r"\n(?=[A-Za-z])", text.split("\n\n", 1)[-1]):
        if "==" in block.splitlines()[0]:
            assert "--hash=sha256:" in block, block.splitlines()[0]


def test_bench_runs_the_entry_point_of_the_installed_package():
    script = (LOADTESTS.parent / "bench").read_text()
    assert "PYTHONPATH" not in script
    assert 'exec "$venv/bin/bench"' in script
    assert PYPROJECT["project"]["scripts"]["bench"] == "bench.cli:main"
