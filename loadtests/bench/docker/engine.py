"""Docker Engine and the Compose v2 plugin: installed when missing, the daemon started when none
runs (and stopped again by whoever started it), and the few docker commands the runner needs."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench import paths, procs, tools
from bench.errors import BenchError

COMPOSE_MODULE = "github.com/docker/compose/v2"
# Compose v2's last line that the Go module proxy serves whole (v5 needs a module it does not).
COMPOSE_VERSION = "2.40.3"
DEBIAN_PACKAGE = "docker.io"
LOGS = paths.LOGS / "docker"
DAEMON_START_S = 60.0

# BuildKit would pull its Dockerfile frontend image (the `# syntax=` lines) from a registry; the
# classic builder needs none, and Compose must not hand the build to buildx bake.
BUILD_ENV = {"DOCKER_BUILDKIT": "0", "COMPOSE_BAKE": "false", "COMPOSE_MENU": "false"}


def compose_cache() -> Path:
    """The built plugin, kept outside the checkout like the load generators (tools.CACHE)."""
    return tools.CACHE / f"docker-compose-{COMPOSE_VERSION}" / "bin" / "docker-compose"


def plugin_dir() -> Path:
    """Where the docker CLI looks for the current user's plugins."""
    config = os.environ.get("DOCKER_CONFIG")
    return (Path(config) if config else Path.home() / ".docker") / "cli-plugins"


def docker_env() -> dict[str, str]:
    return dict(os.environ, **BUILD_ENV)


def can_install() -> bool:
    """Root on Debian (or a derivative): what the installation with apt-get needs."""
    return os.geteuid() == 0 and shutil.which("apt-get") is not None and Path("/etc/debian_version").exists()


@dataclass
class Engine:
    """The docker CLI against one daemon; each command's output goes to a log under logs/docker/."""

    docker: str = "docker"

    def run(self, args: list[str], *, log_name: str, timeout_s: float | None = None, stdin: Path | None = None) -> int:
        command = shlex.join([self.docker, *args])
        if stdin is not None:
            command += f" < {shlex.quote(str(stdin))}"
        return procs.run(command, cwd=paths.ROOT, env=docker_env(), log=LOGS / f"{log_name}.log", timeout_s=timeout_s)

    def output(self, args: list[str], timeout_s: float = 60.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.docker, *args], capture_output=True, text=True, env=docker_env(), timeout=timeout_s, check=False
        )

    def answers(self) -> bool:
        try:
            return self.output(["info", "--format", "{{.ServerVersion}}"], timeout_s=20).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False

    def server_version(self) -> str:
        return self.output(["version", "--format", "{{.Server.Version}}"]).stdout.strip()

    def compose_version(self) -> str | None:
        try:
            done = self.output(["compose", "version", "--short"])
        except OSError:
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    def image_label(self, image: str, label: str) -> str | None:
        """None when the image is absent; else the label's value ("" when it has none)."""
        done = self.output(["image", "inspect", "--format", "{{json .Config.Labels}}", image])
        if done.returncode != 0:
            return None
        labels = json.loads(done.stdout.strip() or "null") or {}
        return str(labels.get(label, ""))

    def image_size(self, image: str) -> int | None:
        done = self.output(["image", "inspect", "--format", "{{.Size}}", image])
        return int(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip().isdigit() else None

    def pull(self, image: str) -> bool:
        return (
            self.run(["pull", image], log_name=f"pull-{image.replace('/', '_').replace(':', '_')}", timeout_s=600) == 0
        )

    def build_from_tar(
        self, context: Path, image: str, *, build_args: dict[str, str], labels: dict[str, str], log_name: str
    ) -> None:
        args = ["build", "--tag", image]
        for name, value in build_args.items():
            args += ["--build-arg", f"{name}={value}"]
        for name, value in labels.items():
            args += ["--label", f"{name}={value}"]
        log = LOGS / f"standin-{log_name}.log"
        if self.run([*args, "-"], log_name=f"standin-{log_name}", stdin=context, timeout_s=1800) != 0:
            raise BenchError(f"building the stand-in {image} failed; see {log}\n{procs.tail(log, 15)}")

    def import_tar(self, archive: Path, image: str, changes: list[str]) -> None:
        args = ["import"]
        for change in changes:
            args += ["--change", change]
        log = LOGS / "standin-import.log"
        if self.run([*args, str(archive), image], log_name="standin-import", timeout_s=600) != 0:
            raise BenchError(f"docker import of {image} failed; see {log}\n{procs.tail(log, 10)}")


def install_engine() -> None:
    """Debian's Docker Engine, when no dockerd is installed."""
    if shutil.which("dockerd") is not None:
        return
    if not can_install():
        raise BenchError(
            "Docker Engine is missing: install it (on Debian as root: apt-get install docker.io), then run this again"
        )
    log = LOGS / "install-docker.log"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    code = procs.run(
        ["apt-get", "install", "-y", "--no-install-recommends", DEBIAN_PACKAGE], cwd=paths.ROOT, env=env, log=log
    )
    if code != 0 or shutil.which("dockerd") is None:
        raise BenchError(f"apt-get install {DEBIAN_PACKAGE} failed; see {log}\n{procs.tail(log, 10)}")


def install_compose(engine: Engine) -> str:
    """The Compose v2 plugin, pinned: built once per machine from its Go module and linked into
    the CLI's plugin directory. Returns the version `docker compose` answers."""
    plugin = plugin_dir() / "docker-compose"
    built = compose_cache()
    version = engine.compose_version()
    if version is not None:
        return version
    if not built.exists():
        if shutil.which("go") is None:
            raise BenchError("the Compose plugin is missing and cannot be built: install Go (or docker-compose-plugin)")
        built.parent.mkdir(parents=True, exist_ok=True)
        log = LOGS / "install-compose.log"
        module = f"{COMPOSE_MODULE}@v{COMPOSE_VERSION}"
        # `go install` refuses the module (its go.mod has exclude directives): download it, then
        # build its command inside the module's directory.
        download = subprocess.run(
            ["go", "mod", "download", "-json", module], capture_output=True, text=True, cwd=paths.HOME
        )
        if download.returncode != 0:
            raise BenchError(f"go mod download {module} failed:\n{download.stdout}{download.stderr}")
        source = Path(json.loads(download.stdout)["Dir"])
        ldflags = f"-w -s -X {COMPOSE_MODULE}/internal.Version=v{COMPOSE_VERSION}"
        command = ["go", "build", "-trimpath", "-ldflags", ldflags, "-o", str(built), "./cmd"]
        if procs.run(command, cwd=source, env=dict(os.environ), log=log) != 0 or not built.exists():
            raise BenchError(f"building the Compose plugin failed; see {log}\n{procs.tail(log, 10)}")
    plugin.parent.mkdir(parents=True, exist_ok=True)
    plugin.unlink(missing_ok=True)
    plugin.symlink_to(built)
    version = engine.compose_version()
    if version is None:
        raise BenchError(f"`docker compose version` does not answer with the plugin at {plugin}")
    return version


@contextmanager
def daemon(engine: Engine) -> Iterator[bool]:
    """A running daemon for the block: the one that runs already, or dockerd started here and
    stopped afterwards (the machine stays quiet for measurements). Yields whether it started one."""
    if engine.answers():
        yield False
        return
    if os.geteuid() != 0:
        raise BenchError("no Docker daemon answers and only root can start one: start dockerd (or the docker service)")
    log = LOGS / "dockerd.log"
    # Published ports by NAT straight to the container, not through docker-proxy, which copies
    # each connection in user space: a client then sees the stack's own connection handling
    # (a close after an answer arrives as it does natively).
    proc = procs.spawn("exec dockerd --userland-proxy=false", cwd=paths.ROOT, env=dict(os.environ), log=log)
    try:
        deadline = time.monotonic() + DAEMON_START_S
        while not engine.answers():
            if proc.poll() is not None:
                raise BenchError(f"dockerd exited with code {proc.returncode}; see {log}\n{procs.tail(log, 15)}")
            if time.monotonic() > deadline:
                raise BenchError(f"dockerd did not answer within {DAEMON_START_S:.0f} s; see {log}")
            time.sleep(0.5)
        yield True
    finally:
        # dockerd stops its containers on SIGTERM; give it the time they take.
        procs.stop(proc, grace_s=60.0)
