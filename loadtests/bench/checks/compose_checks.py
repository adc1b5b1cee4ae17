"""What is wrong with compose.yaml: the Compose specification's JSON schema (vendored in
loadtests/vendor/compose-spec), then this benchmark's rules for the database, the stock
upstream, the stacks and the load generator."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator, ValidationError

from bench import manifest
from bench.checks.images import image_pin_problem, repository
from bench.compose_file import (
    COMPOSE_FILE,
    DB_SERVICE,
    UPSTREAM_CONTEXT,
    UPSTREAM_SERVICE,
    Service,
    build_context,
    load,
    parse_bytes,
    parse_cpus,
    services_of,
    stack_services,
)
from bench.errors import BenchError

SCHEMA = Path(__file__).resolve().parents[2] / "vendor" / "compose-spec" / "compose-spec.json"
K6_IMAGE = "grafana/k6"
WHERE = COMPOSE_FILE


def _json_path(error: ValidationError) -> str:
    parts: list[str] = []
    for part in error.absolute_path:
        parts.append(f"[{part}]" if isinstance(part, int) else ("." if parts else "") + str(part))
    return "".join(parts) or "(top level)"


def schema_problems(compose: dict[str, Any]) -> list[str]:
    validator = Draft202012Validator(json.loads(SCHEMA.read_text()))
    errors = sorted(validator.iter_errors(compose), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{WHERE}: {_json_path(error)}: {error.message} (Compose specification)" for error in errors]


def compose_problems(root: Path) -> list[str]:
    try:
        compose = load(Path(root) / COMPOSE_FILE)
    except BenchError as error:
        return [str(error)]
    problems = schema_problems(compose)
    services = services_of(compose)
    if not services:
        return [*problems, f"{WHERE}: no services"]
    problems += _database_problems(services)
    problems += _upstream_problems(services, Path(root))
    built = stack_services(services, Path(root))
    problems += _stack_problems(services, built, Path(root))
    problems += _port_problems(services)
    problems += _on_demand_problems(services, built)
    return problems


def _database_problems(services: dict[str, Service]) -> list[str]:
    db = services.get(DB_SERVICE)
    if db is None:
        return [f"{WHERE}: no `{DB_SERVICE}` service"]
    problems = _caps_problems(DB_SERVICE, db) + _healthcheck_problems(DB_SERVICE, db)
    image = db.get("image")
    if not isinstance(image, str):
        problems.append(f"{WHERE}: services.{DB_SERVICE}: no `image` (the official postgres image, pinned)")
    elif problem := image_pin_problem(image):
        problems.append(f"{WHERE}: services.{DB_SERVICE}: image {problem}")
    return problems


def _upstream_problems(services: dict[str, Service], root: Path) -> list[str]:
    """The stock upstream: built from its source, capped, healthy when it answers, and started
    with the stacks (no profile)."""
    upstream = services.get(UPSTREAM_SERVICE)
    if upstream is None:
        return [f"{WHERE}: no `{UPSTREAM_SERVICE}` service (the stock upstream, build: ./{UPSTREAM_CONTEXT})"]
    problems = _caps_problems(UPSTREAM_SERVICE, upstream) + _healthcheck_problems(UPSTREAM_SERVICE, upstream)
    if build_context(upstream, root) != (root / UPSTREAM_CONTEXT).resolve():
        problems.append(f"{WHERE}: services.{UPSTREAM_SERVICE}: build it from ./{UPSTREAM_CONTEXT}")
    if upstream.get("profiles"):
        problems.append(
            f"{WHERE}: services.{UPSTREAM_SERVICE} is under a profile: the stacks wait for it, so it starts with them"
        )
    return problems


def _stack_problems(services: dict[str, Service], built: dict[str, Path], root: Path) -> list[str]:
    """One service per stack directory, named as it, built from it, waiting for the database and
    the stock upstream."""
    problems = [
        f"{WHERE}: services.{name} builds ./{context.name}: name the service {context.name}"
        for name, context in built.items()
        if context.name != name
    ]
    stacks = {d.name for d in manifest.stack_dirs(root)}
    problems += [
        f"{WHERE}: no service for the stack {stack} (a service named {stack} with build: ./{stack})"
        for stack in sorted(stacks - set(built))
    ]
    pool_sizes = {}
    for name in sorted(built):
        service = services[name]
        problems += _caps_problems(name, service) + _healthcheck_problems(name, service)
        depends = _depends_on(service)
        if depends.get(DB_SERVICE) != "service_healthy":
            problems.append(
                f"{WHERE}: services.{name}: must wait for the database "
                f"(depends_on: {DB_SERVICE}: condition: service_healthy)"
            )
        if depends.get(UPSTREAM_SERVICE) != "service_healthy":
            problems.append(
                f"{WHERE}: services.{name}: must wait for the stock upstream "
                f"(depends_on: {UPSTREAM_SERVICE}: condition: service_healthy)"
            )
        others = sorted(set(depends) - {DB_SERVICE, UPSTREAM_SERVICE})
        if others:
            problems.append(
                f"{WHERE}: services.{name} depends on {', '.join(others)}: "
                f"`docker compose up {name}` must start {DB_SERVICE}, {UPSTREAM_SERVICE} and {name} only"
            )
        environment = _environment(service)
        problems += [
            f"{WHERE}: services.{name}: no {key} in environment"
            for key in ("DATABASE_URL", "DB_POOL_SIZE", "STOCK_URL")
            if not environment.get(key)
        ]
        stock_url = environment.get("STOCK_URL")
        if stock_url and _host_of(stock_url) != UPSTREAM_SERVICE:
            problems.append(
                f"{WHERE}: services.{name}: STOCK_URL={stock_url} does not name the `{UPSTREAM_SERVICE}` "
                f"service (http://{UPSTREAM_SERVICE}:PORT)"
            )
        if environment.get("HOST") not in (None, "0.0.0.0"):
            problems.append(
                f"{WHERE}: services.{name}: HOST={environment['HOST']} is unreachable "
                "from outside the container: use 0.0.0.0"
            )
        if environment.get("DB_POOL_SIZE"):
            pool_sizes[name] = environment["DB_POOL_SIZE"]
    if len(set(pool_sizes.values())) > 1:
        sizes = ", ".join(f"{n}={v}" for n, v in sorted(pool_sizes.items()))
        problems.append(f"{WHERE}: DB_POOL_SIZE differs between stacks ({sizes}): it must be the same for all")
    return problems


def _port_problems(services: dict[str, Service]) -> list[str]:
    """Host ports are unique, so that several stacks run side by side."""
    problems = []
    owners: dict[str, list[str]] = {}
    for name, service in services.items():
        for port in service.get("ports") or []:
            if isinstance(port, int) and port > 65535:
                problems.append(
                    f"{WHERE}: services.{name}: port {port} is a YAML 1.1 base-60 number "
                    "(an unquoted HOST:CONTAINER): quote it"
                )
        for published in _published_ports(service):
            owners.setdefault(published, []).append(name)
    for published, names in sorted(owners.items()):
        if len(names) > 1:
            problems.append(
                f"{WHERE}: host port {published} is published by {', '.join(names)}: each service needs its own"
            )
    return problems


def _on_demand_problems(services: dict[str, Service], built: dict[str, Path]) -> list[str]:
    """Everything but the database and the stacks (the load generator) starts only on demand."""
    problems = []
    if not any(repository(str(s.get("image", ""))).endswith(K6_IMAGE) for s in services.values()):
        problems.append(f"{WHERE}: no k6 service (image {K6_IMAGE}, under the loadtest profile)")
    for name, service in services.items():
        if name in (DB_SERVICE, UPSTREAM_SERVICE) or name in built:
            continue
        if not service.get("profiles"):
            problems.append(
                f"{WHERE}: services.{name} has no `profiles`: it would start with every "
                "`docker compose up`; put it under a profile (e.g. loadtest)"
            )
        image = service.get("image")
        if isinstance(image, str) and (problem := image_pin_problem(image)):
            problems.append(f"{WHERE}: services.{name}: image {problem}")
    return problems


def _caps_problems(name: str, service: Service) -> list[str]:
    problems = []
    for key, parse in (("cpus", parse_cpus), ("mem_limit", parse_bytes)):
        if key not in service:
            problems.append(f"{WHERE}: services.{name}: no `{key}` cap")
            continue
        try:
            parse(service[key])
        except ValueError as error:
            problems.append(f"{WHERE}: services.{name}: {key}: {error}")
    return problems


def _healthcheck_problems(name: str, service: Service) -> list[str]:
    health = service.get("healthcheck")
    if not isinstance(health, dict) or health.get("disable") is True:
        return [f"{WHERE}: services.{name}: no healthcheck"]
    test = health.get("test")
    if not test or (isinstance(test, list) and (test[0] == "NONE" or len(test) < 2)):
        return [f"{WHERE}: services.{name}: the healthcheck has no test command"]
    return []


def _host_of(url: str) -> str | None:
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _depends_on(service: Service) -> dict[str, str]:
    """{service: condition}; the list form means service_started."""
    depends = service.get("depends_on") or {}
    if isinstance(depends, list):
        return {str(d): "service_started" for d in depends}
    if isinstance(depends, dict):
        return {
            str(k): v.get("condition", "service_started") if isinstance(v, dict) else "service_started"
            for k, v in depends.items()
        }
    return {}


def _environment(service: Service) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        pairs = (item.partition("=") for item in map(str, env))
        return {key: value for key, _, value in pairs}
    if isinstance(env, dict):
        return {str(k): "" if v is None else str(v) for k, v in env.items()}
    return {}


_SHORT_PORT = re.compile(r"^(?:(?:\[[^\]]*\]|[^:\[\]]*):)?(?P<host>[\d-]*):(?P<container>[\d-]+)(?:/\w+)?$")


def _published_ports(service: Service) -> list[str]:
    """Host ports a service publishes ("8081"; a range gives each of its ports), with protocol
    when it is not tcp."""
    result = []
    for port in service.get("ports") or []:
        protocol = "tcp"
        if isinstance(port, dict):
            published = port.get("published")
            protocol = port.get("protocol") or "tcp"
        else:
            text = str(port)
            if "/" in text:
                text, protocol = text.rsplit("/", 1)
            match = _SHORT_PORT.match(text)
            published = match.group("host") if match else None
        if published in (None, ""):
            continue
        published = str(published)
        if re.fullmatch(r"\d+-\d+", published):
            low, high = map(int, published.split("-"))
            ports = [str(p) for p in range(low, high + 1)]
        else:
            ports = [published]
        result += [p if protocol == "tcp" else f"{p}/{protocol}" for p in ports]
    return result
