"""The load generators and the manifest and workflow validators, built from their registries into the
runner's own bin directory."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable
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
    package: str = ""  # the Go package `go install` builds; empty for oha (cargo)

    @property
    def path(self) -> Path:
        return paths.BIN / self.name

    @property
    def cached(self) -> Path:
        """Where the build is kept, outside the checkout and keyed by version, so that a fresh
        clone (as CI makes) links it instead of spending minutes building it again."""
        return CACHE / f"{self.name}-{self.version}" / "bin" / self.name

    def install_command(self) -> list[str]:
        if self.name == "oha":
            return [
                "cargo",
                "install",
                "oha",
                "--locked",
                "--version",
                self.version,
                "--root",
                str(self.cached.parent.parent),
            ]
        return ["go", "install", f"{self.package}@v{self.version}"]


OHA = Tool("oha", "1.16.0", "cargo", "install Rust (cargo) so that oha can be built")
K6 = Tool("k6", "1.8.1", "go", "install Go so that k6 can be built", "go.k6.io/k6")
TOOLS = (OHA, K6)
# deploy/k8s/ is built with kustomize and checked with kubeconform (bench.checks.k8s). kustomize
# 5.8.3 needs Go 1.27; 5.8.2 is the newest that builds with Go 1.26.
KUSTOMIZE = Tool(
    "kustomize", "5.8.2", "go", "install Go so that kustomize can be built", "sigs.k8s.io/kustomize/kustomize/v5"
)
KUBECONFORM = Tool(
    "kubeconform",
    "0.8.0",
    "go",
    "install Go so that kubeconform can be built",
    "github.com/yannh/kubeconform/cmd/kubeconform",
)
# Checks .github/workflows/ in the runner's row of ./bench test (bench.checks.scripts).
ACTIONLINT = Tool(
    "actionlint",
    "1.7.12",
    "go",
    "install Go so that actionlint can be built",
    "github.com/rhysd/actionlint/cmd/actionlint",
)
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bench-tools"


# `./bench test` asks for oha from two threads: the builds ahead (bench.testing.prefetch) and each
# stack's resilience case. One build of a tool at a time, the second caller finding it done; a
# lock per tool, so that waiting for oha never means waiting for k6 too.
_building = {tool.name: threading.Lock() for tool in (*TOOLS, KUSTOMIZE, KUBECONFORM, ACTIONLINT)}
_other = threading.Lock()


def ensure(tool: Tool, on_progress: Callable[[str], object] | None = None) -> Path:
    """Builds the pinned version once per machine; later calls only check the link."""
    with _building.get(tool.name, _other):
        return _ensure(tool, on_progress)


def _ensure(tool: Tool, on_progress: Callable[[str], object] | None) -> Path:
    paths.ensure_dirs()
    if not tool.cached.exists():
        if shutil.which(tool.needs) is None:
            raise BenchError(f"{tool.name} is missing and cannot be built: {tool.install_hint}")
        if on_progress:
            on_progress(f"building {tool.name} {tool.version} (minutes, once per machine)")
        tool.cached.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, GOBIN=str(tool.cached.parent))
        log = paths.LOGS / f"install-{tool.name}.log"
        code = procs.run(tool.install_command(), cwd=paths.HOME, env=env, log=log)
        if code != 0 or not tool.cached.exists():
            raise BenchError(f"building {tool.name} failed; see {log}\n{procs.tail(log, 10)}")
    if not tool.path.is_symlink() or tool.path.resolve() != tool.cached.resolve():
        tool.path.unlink(missing_ok=True)
        tool.path.symlink_to(tool.cached)
    return tool.path
