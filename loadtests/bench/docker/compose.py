"""The Compose project the Docker path runs in (its own name, so that nothing of a user's
`docker compose up` in this directory is touched) and the compose commands its parts share."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench import compose_file, paths, procs
from bench.docker import engine
from bench.errors import BenchError

if TYPE_CHECKING:
    from bench.manifest import Stack

PROJECT = "bench-docker"
UP_TIMEOUT_S = 600.0


def compose_command(*args: str) -> list[str]:
    return [
        "compose",
        "--project-name",
        PROJECT,
        "--file",
        str(paths.ROOT / compose_file.COMPOSE_FILE),
        "--project-directory",
        str(paths.ROOT),
        *args,
    ]


def service(stack: Stack) -> str:
    """The stack's service in compose.yaml: a variant runs in its stack's, from its own image."""
    return stack.base_name


def write_override(path: Path, stack: Stack, settings: dict[str, Any]) -> Path:
    """A compose file at `path`, laid over compose.yaml with `--file`: `settings` for the stack's
    service. JSON is YAML, which Compose reads."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"services": {service(stack): settings}}, indent=2) + "\n")
    return path


def timed(docker: engine.Engine, args: list[str], *, log_name: str, timeout_s: float, what: str) -> float:
    """The seconds `args` took; a BenchError with its log's tail when it failed."""
    started = time.monotonic()
    code = docker.run(args, log_name=log_name, timeout_s=timeout_s)
    elapsed = time.monotonic() - started
    if code != 0:
        log = engine.LOGS / f"{log_name}.log"
        raise BenchError(f"{what} failed (exit {code}); see {log}\n{procs.tail(log, 25)}")
    return elapsed


def down(docker: engine.Engine) -> int:
    """Containers, network and volumes of the project gone, the k6 runs' included."""
    args = compose_command("--profile", "loadtest", "down", "--volumes", "--remove-orphans", "--timeout", "15")
    return docker.run(args, log_name="compose-down", timeout_s=300)
