"""The Docker path, checked without Docker: `check(root)` lists what is wrong with compose.yaml
(bench.checks.compose_checks) and with every stack's Dockerfile and the stock upstream's
(bench.checks.dockerfiles, then hadolint).

Everything these checks know of a stack's ecosystem comes from its impl.toml ([docker]): a
stack in a language the repository has never seen needs no change here. The upstream, part of
the harness, has no impl.toml: its Go build is described here (UPSTREAM_DOCKER).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from bench import manifest
from bench.checks.compose_checks import compose_problems
from bench.checks.dockerfiles import dockerfile_problems
from bench.checks.hadolint import hadolint_binary, hadolint_problems
from bench.checks.images import image_pin_problem
from bench.compose_file import UPSTREAM_CONTEXT, UPSTREAM_PORT, built_dirs, caps, parse_bytes, parse_cpus
from bench.errors import BenchError

__all__ = [
    "caps",
    "check",
    "compose_problems",
    "dockerfile_dirs",
    "dockerfile_problems",
    "hadolint_binary",
    "hadolint_problems",
    "image_pin_problem",
    "parse_bytes",
    "parse_cpus",
]


# The stock upstream's build as a stack's [docker] would say it: go-gin's Go toolchain.
UPSTREAM_DOCKER = manifest.Docker(
    dependency_files=["go.mod", "go.sum"],
    build_images=["golang"],
    build_commands=["go build"],
    build_packages=["golang", "golang-*"],
    three_part_versions=["golang"],
)


def dockerfile_dirs(root: Path) -> list[Path]:
    """Stack directories, and every top-level directory compose.yaml builds from."""
    found = {d.resolve(): d for d in manifest.stack_dirs(root)}
    for directory in built_dirs(root):
        found.setdefault(directory.resolve(), directory)
    return sorted(found.values())


def _ecosystem(directory: Path) -> tuple[manifest.Docker | None, list[str]]:
    """The stack's [docker] section, or why there is none to read."""
    if not (directory / manifest.MANIFEST).is_file():
        return None, []
    try:
        return manifest.load(directory).docker, []
    except BenchError as error:
        return None, [str(error)]


def check(root: Path, *, hadolint: bool = True, stacks: Collection[str] | None = None) -> list[str]:
    """Every problem of the Docker path under `root`, one human-readable line each: compose.yaml,
    which all stacks share, and the Dockerfiles of `stacks` (all by default)."""
    root = Path(root)
    problems = compose_problems(root)
    # Every stack's service is built with it (it waits for the upstream), so it is always checked.
    upstream = root / UPSTREAM_CONTEXT / "Dockerfile"
    where = f"{UPSTREAM_CONTEXT}/Dockerfile"
    if upstream.is_file():
        problems += dockerfile_problems(upstream, where, UPSTREAM_DOCKER, port=UPSTREAM_PORT)
        if hadolint:
            problems += hadolint_problems(upstream, where, cwd=root)
    else:
        problems.append(f"{where}: missing (compose.yaml builds the stock upstream from it)")
    for directory in dockerfile_dirs(root):
        if stacks is not None and directory.name not in stacks:
            continue
        dockerfile = directory / "Dockerfile"
        where = f"{directory.name}/Dockerfile"
        if not dockerfile.is_file():
            problems.append(f"{where}: missing (every stack is built from its Dockerfile by compose.yaml)")
            continue
        docker, unreadable = _ecosystem(directory)
        problems += unreadable or dockerfile_problems(dockerfile, where, docker)
        if hadolint:
            problems += hadolint_problems(dockerfile, where, cwd=root)
    return problems
