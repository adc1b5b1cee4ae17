"""Stacks are discovered from their manifests, `IMPL/impl.toml`: adding one never touches the runner."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from bench import paths
from bench.errors import BenchError

_EXPANSION = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def expand(value: str, environ: dict[str, str]) -> str:
    """Expands ${NAME} and ${NAME:-default} the way a shell would, and nothing else."""
    return _EXPANSION.sub(lambda m: environ.get(m.group(1)) or (m.group(2) or ""), value)


@dataclass(frozen=True)
class Stack:
    name: str
    directory: Path
    display: str
    language: str
    language_version: str
    framework: str
    framework_version: str
    server: str
    data_access: str
    toolchain_check: str
    toolchain_hint: str
    toolchain_apt: tuple[str, ...]
    env: dict[str, str]
    build_command: str
    build_artifact: str
    fetch_command: str | None
    test_command: str
    run_command: str
    run_env: dict[str, str]
    ready_timeout_s: float
    raw: dict = field(repr=False, compare=False)

    def environment(self, extra: dict[str, str] | None = None, *, run: bool = False) -> dict[str, str]:
        environ = dict(os.environ)
        for key, value in self.env.items():
            environ[key] = expand(value, environ)
        if run:
            for key, value in self.run_env.items():
                environ[key] = expand(value, environ)
        environ.update(extra or {})
        return environ


def _require(table: dict, key: str, where: str, kind: type = str):
    value = table.get(key)
    if not isinstance(value, kind) or (kind is str and not value.strip()):
        raise BenchError(f"{where}: `{key}` is missing or not a {kind.__name__}")
    return value


def load(directory: Path) -> Stack:
    path = directory / "impl.toml"
    where = str(path.relative_to(paths.ROOT)) if path.is_relative_to(paths.ROOT) else str(path)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise BenchError(f"{where} is not valid TOML: {error}") from None
    name = _require(data, "name", where)
    if name != directory.name:
        raise BenchError(f"{where}: name = {name!r} must equal the directory name {directory.name!r}")
    toolchain = data.get("toolchain", {})
    build = data.get("build", {})
    test = data.get("test", {})
    run = data.get("run", {})
    return Stack(
        name=name,
        directory=directory,
        display=_require(data, "display", where),
        language=_require(data, "language", where),
        language_version=_require(data, "language_version", where),
        framework=_require(data, "framework", where),
        framework_version=_require(data, "framework_version", where),
        server=_require(data, "server", where),
        data_access=_require(data, "data_access", where),
        toolchain_check=_require(toolchain, "check", where + " [toolchain]"),
        toolchain_hint=_require(toolchain, "hint", where + " [toolchain]"),
        toolchain_apt=tuple(toolchain.get("apt", [])),
        env={k: str(v) for k, v in data.get("env", {}).items()},
        build_command=_require(build, "command", where + " [build]"),
        build_artifact=_require(build, "artifact", where + " [build]"),
        fetch_command=build.get("fetch"),
        test_command=_require(test, "command", where + " [test]"),
        run_command=_require(run, "command", where + " [run]"),
        run_env={k: str(v) for k, v in run.get("env", {}).items()},
        ready_timeout_s=float(run.get("ready_timeout_s", 60)),
        raw=data,
    )


def discover(root: Path | None = None) -> list[Stack]:
    root = root or paths.ROOT
    return [load(d) for d in sorted(root.iterdir())
            if d.is_dir() and not d.name.startswith(".") and (d / "impl.toml").is_file()]


def select(names: tuple[str, ...] | list[str]) -> list[Stack]:
    stacks = discover()
    if not names:
        if not stacks:
            raise BenchError("no stack found: a stack is a top-level directory with an impl.toml")
        return stacks
    by_name = {s.name: s for s in stacks}
    unknown = [n for n in names if n.rstrip("/") not in by_name]
    if unknown:
        raise BenchError(f"unknown stack {', '.join(unknown)}: choose from {', '.join(by_name) or 'none'}")
    return [by_name[n.rstrip("/")] for n in names]
