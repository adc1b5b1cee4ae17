"""compose.yaml as the runner reads it: its services, which of them are stacks, and their caps.

compose.yaml is the one source of the caps: `caps(root)` reads the `cpus` and `mem_limit` of
postgres and of the stacks, which the native runner applies too. Read by the checks
(bench.checks), the Docker path (bench.docker) and the Kubernetes manifests (bench.k8s_stack)
alike, so it is none of theirs.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from bench.errors import BenchError

COMPOSE_FILE = "compose.yaml"
DB_SERVICE = "postgres"
# The stock service of the outbound scenario: a role of the harness like PostgreSQL, which every
# stack waits for and names by STOCK_URL.
UPSTREAM_SERVICE = "upstream"
UPSTREAM_CONTEXT = "loadtests/upstream"
UPSTREAM_PORT = 8099

Service = dict[str, Any]
Caps = dict[str, float | int]


def load(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise BenchError(f"{path} is missing") from None
    except yaml.YAMLError as error:
        raise BenchError(f"{path} is not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise BenchError(f"{path} is not a mapping of top-level keys")
    return data


def services_of(compose: dict[str, Any]) -> dict[str, Service]:
    """The services that are mappings (the schema check reports the others)."""
    services = compose.get("services")
    if not isinstance(services, dict):
        return {}
    return {str(name): s for name, s in services.items() if isinstance(s, dict)}


def build_context(service: Service, root: Path) -> Path | None:
    """The directory a service is built from, when it is one on this machine."""
    if "build" not in service:
        return None
    build = service["build"]
    context = build.get("context", ".") if isinstance(build, dict) else build
    if not isinstance(context, str) or "://" in context or context.startswith("git@"):
        return None  # a remote context: nothing here to check
    return (root / context).resolve()


def stack_services(services: dict[str, Service], root: Path) -> dict[str, Path]:
    """{service: build context} for the services built from a top-level directory: the stacks."""
    result = {}
    for name, service in services.items():
        context = build_context(service, root)
        if context is not None and context.parent == root.resolve():
            result[name] = context
    return result


def built_dirs(root: Path) -> list[Path]:
    """Top-level directories compose.yaml builds from (an unreadable compose.yaml builds none)."""
    try:
        services = services_of(load(root / COMPOSE_FILE))
    except BenchError:
        return []
    return [root / context.name for context in stack_services(services, root).values() if context.is_dir()]


# --------------------------------------------------------------------------- caps

_BYTES = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)b?\s*$", re.IGNORECASE)
_UNIT = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}


def parse_bytes(value: object) -> int:
    """A Compose byte value: 536870912, "512m", "1g", "1.5g", "256M", "64mb" (units of 1024)."""
    if isinstance(value, bool):
        raise ValueError(f"not a byte value: {value!r}")
    if isinstance(value, int | float):
        number, unit = float(value), ""
    else:
        match = _BYTES.match(str(value))
        if not match:
            raise ValueError(f"not a byte value: {value!r}")
        number, unit = float(match.group(1)), match.group(2).lower()
    result = int(number * _UNIT[unit])
    if result <= 0:
        raise ValueError(f"not a positive byte value: {value!r}")
    return result


def parse_cpus(value: object) -> float:
    """Compose's `cpus`: 1, 1.5 or "1.5"."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"not a CPU count: {value!r}")
    try:
        result = float(value)
    except ValueError:
        raise ValueError(f"not a CPU count: {value!r}") from None
    if not result > 0:
        raise ValueError(f"not a positive CPU count: {value!r}")
    return result


def service_caps(name: str, service: Service, path: Path) -> Caps:
    missing = [key for key in ("cpus", "mem_limit") if key not in service]
    if missing:
        raise BenchError(f"{path}: service {name} has no {' and no '.join(missing)}")
    try:
        return {"cpus": parse_cpus(service["cpus"]), "mem_bytes": parse_bytes(service["mem_limit"])}
    except ValueError as error:
        raise BenchError(f"{path}: service {name}: {error}") from None


def caps(root: Path) -> dict[str, Caps]:
    """{"app": {"cpus": 1.0, "mem_bytes": 536870912}, "postgres": {…}}, plus an entry for each
    stack service whose caps differ from "app" (the caps most stacks share)."""
    path = Path(root) / COMPOSE_FILE
    services = services_of(load(path))
    if DB_SERVICE not in services:
        raise BenchError(f"{path}: no `{DB_SERVICE}` service to read the database's caps from")
    result = {"postgres": service_caps(DB_SERVICE, services[DB_SERVICE], path)}
    stacks = {name: service_caps(name, services[name], path) for name in stack_services(services, Path(root))}
    if not stacks:
        raise BenchError(
            f"{path}: no stack service (one built from a top-level directory) to read the application's caps from"
        )
    shared = Counter(tuple(sorted(c.items())) for c in stacks.values()).most_common(1)[0][0]
    result["app"] = dict(shared)
    for name, value in stacks.items():
        if value != result["app"]:
            result[name] = value
    return result
