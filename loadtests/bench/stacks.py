"""Toolchains, builds and running processes of the stacks."""

from __future__ import annotations

import hashlib
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench import paths, ports, procs, system, upstream
from bench.errors import BenchError
from bench.manifest import Stack

DEFAULT_POOL_SIZE = "10"


def check_toolchain(stack: Stack) -> None:
    """Makes sure the stack's toolchain answers, installing Debian's packages when the manifest names any."""
    env = stack.environment()
    if _answers(stack.toolchain_check, stack, env):
        return
    if stack.toolchain_apt:
        system.apt_install(list(stack.toolchain_apt), why=f"{stack.name}'s toolchain")
        if _answers(stack.toolchain_check, stack, env):
            return
    raise BenchError(f"{stack.name}: toolchain missing (`{stack.toolchain_check}` failed): {stack.toolchain_hint}")


def _answers(command: str, stack: Stack, env: dict[str, str]) -> bool:
    return subprocess.run(["bash", "-c", command], cwd=stack.directory, env=env, capture_output=True).returncode == 0


def source_fingerprint(stack: Stack) -> str:
    """Hash of every file git would track in the stack (build outputs are ignored by its .gitignore)."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."],
        cwd=stack.directory,
        capture_output=True,
    )
    digest = hashlib.sha256(stack.build_command.encode())
    if listing.returncode != 0:
        # Not a git checkout: nothing tells sources from outputs, so always build.
        return "no-git-" + str(time.time())
    for name in sorted(n for n in listing.stdout.decode().split("\0") if n):
        file = stack.directory / name
        if file.is_file():
            digest.update(name.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def _stamp(stack: Stack) -> Path:
    # A variant that runs its stack's build shares its stamp: the one build serves both.
    return paths.HOME / "build" / f"{stack.build_key}.sha256"


def up_to_date(stack: Stack) -> bool:
    stamp = _stamp(stack)
    return (
        stamp.exists()
        and (stack.directory / stack.build_artifact).exists()
        and stamp.read_text() == source_fingerprint(stack)
    )


def build(stack: Stack, *, force: bool = False) -> bool:
    """Builds unless up to date. Returns True when it built. A variant that trains is built and
    trained by bench.training.build."""
    check_toolchain(stack)
    if not force and up_to_date(stack):
        return False
    log = paths.LOGS / f"{stack.build_key}-build.log"
    _stamp(stack).unlink(missing_ok=True)
    code = procs.run(stack.build_command, cwd=stack.directory, env=stack.environment(), log=log)
    if code != 0:
        raise BenchError(f"{stack.name}: build failed (exit {code}); see {log}\n{procs.tail(log, 25)}")
    if not (stack.directory / stack.build_artifact).exists():
        raise BenchError(
            f"{stack.name}: the build succeeded but did not produce {stack.build_artifact} "
            "(fix [build] artifact in impl.toml)"
        )
    _stamp(stack).parent.mkdir(parents=True, exist_ok=True)
    _stamp(stack).write_text(source_fingerprint(stack))
    return True


@dataclass
class Running:
    stack: Stack
    proc: subprocess.Popen[bytes]
    base_url: str
    log: Path
    startup_s: float

    def stop(self) -> int | None:
        return procs.stop(self.proc)

    def alive(self) -> bool:
        return self.proc.poll() is None


def start(
    stack: Stack,
    *,
    port: int,
    database_url: str,
    stock_url: str = upstream.DEFAULT_URL,
    extra_env: dict[str, str] | None = None,
    log_name: str | None = None,
    command: str | None = None,
) -> Running:
    """Starts the stack (its run command, or `command` wrapping it) with the environment of
    spec/API.md's process contract, and waits for its first healthy /health. `stock_url` names
    the stock upstream its GET /items/{id}/stock asks (bench.upstream, or a test's fake)."""
    if ports.port_in_use(port):
        raise BenchError(f"port {port} is in use: stop what listens there or choose another with --port")
    env = stack.environment(
        {
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "DATABASE_URL": database_url,
            "DB_POOL_SIZE": DEFAULT_POOL_SIZE,
            "STOCK_URL": stock_url,
            **(extra_env or {}),
        },
        run=True,
    )
    log = paths.LOGS / (log_name or f"{stack.name}-serve.log")
    base_url = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    proc = procs.spawn(command or stack.run_command, cwd=stack.directory, env=env, log=log)
    running = Running(stack, proc, base_url, log, 0.0)
    try:
        wait_healthy(running, stack.ready_timeout_s)
    except BaseException:
        running.stop()
        raise
    running.startup_s = time.monotonic() - started
    return running


def wait_healthy(running: Running, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    with httpx.Client(timeout=2.0) as client:
        while True:
            if not running.alive():
                raise BenchError(
                    f"{running.stack.name} exited with code {running.proc.returncode} before "
                    f"it was healthy; log {running.log}:\n{procs.tail(running.log, 20)}"
                )
            try:
                if client.get(running.base_url + "/health").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise BenchError(
                    f"{running.stack.name} was not healthy within {timeout_s:.0f} s "
                    f"(ready_timeout_s in impl.toml); log {running.log}:\n"
                    f"{procs.tail(running.log, 20)}"
                )
            time.sleep(0.1)
