"""The load generators, built from their registries into the runner's own bin directory."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from bench import paths, procs
from bench.errors import BenchError


@dataclass(frozen=True)
class Tool:
    name: str
    version: str
    needs: str  # the toolchain command that builds it
    install_hint: str

    @property
    def path(self) -> Path:
        return paths.BIN / self.name

    def install_command(self) -> list[str]:
        if self.name == "oha":
            return ["cargo", "install", "oha", "--locked", "--version", self.version, "--root", str(paths.HOME)]
        return ["go", "install", f"go.k6.io/k6@v{self.version}"]


OHA = Tool("oha", "1.16.0", "cargo", "install Rust (cargo) so that oha can be built")
K6 = Tool("k6", "1.8.1", "go", "install Go so that k6 can be built")
TOOLS = (OHA, K6)


def _installed_version(tool: Tool) -> str | None:
    stamp = paths.BIN / f".{tool.name}.version"
    if tool.path.exists() and stamp.exists():
        return stamp.read_text().strip()
    return None


def ensure(tool: Tool, on_progress=None) -> Path:
    """Builds the pinned version once; later calls cost nothing."""
    if _installed_version(tool) == tool.version:
        return tool.path
    if shutil.which(tool.needs) is None:
        raise BenchError(f"{tool.name} is missing and cannot be built: {tool.install_hint}")
    paths.ensure_dirs()
    if on_progress:
        on_progress(f"building {tool.name} {tool.version} (minutes, once)")
    env = dict(os.environ, GOBIN=str(paths.BIN))
    log = paths.LOGS / f"install-{tool.name}.log"
    code = procs.run(tool.install_command(), cwd=paths.HOME, env=env, log=log)
    if code != 0 or not tool.path.exists():
        raise BenchError(f"building {tool.name} failed; see {log}\n{procs.tail(log, 10)}")
    (paths.BIN / f".{tool.name}.version").write_text(tool.version)
    return tool.path
