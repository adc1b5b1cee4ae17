"""The checks of deploy/k8s/ that `./bench test` runs, with no cluster and no network:

- every kustomization builds (kustomize), and what it builds is valid against the Kubernetes and
  k6-operator schemas vendored in deploy/k8s/schemas/ (kubeconform -strict; bench.checks.k8s_schemas
  made them);
- every stack of the repository has its kustomization, written from compose.yaml by `./bench k8s`
  (bench.k8s_stack) and unchanged since, with compose.yaml's caps as its requests and limits; so
  have PostgreSQL and the stock upstream (deploy/k8s/base/, written by hand).

The files the manifests carry (db/'s schema, seed and settings; loadtests/k6/'s scripts) come from
the kustomization.yaml beside them, which deploy/k8s/ includes as a resource: kustomize reads
files only below a kustomization's own directory, and so there is no copy to drift.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bench import compose_file, k8s_stack, paths
from bench.errors import BenchError

DEPLOY = paths.ROOT / "deploy" / "k8s"
SCHEMA_LOCATION = str(DEPLOY / "schemas" / "{{ .ResourceKind }}{{ .KindSuffix }}.json")

MEMORY_UNITS = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}


@dataclass(frozen=True)
class Validators:
    kustomize: Path
    kubeconform: Path


def kustomizations(root: Path = DEPLOY) -> list[Path]:
    return sorted(path.parent for path in root.rglob("kustomization.yaml"))


def build(validators: Validators, directory: Path) -> tuple[str | None, str]:
    """`kustomize build DIRECTORY`: (the manifests, or None; kustomize's error)."""
    done = subprocess.run(
        [str(validators.kustomize), "build", str(directory)], capture_output=True, text=True, check=False
    )
    return (done.stdout if done.returncode == 0 else None), done.stderr.strip()


def kubeconform_problems(validators: Validators, manifests: str, schema_location: str = SCHEMA_LOCATION) -> list[str]:
    """Every resource that kubeconform finds invalid or has no schema for, as `Kind name: why`."""
    done = subprocess.run(
        [
            str(validators.kubeconform),
            "-strict",
            "-output",
            "json",
            "-schema-location",
            schema_location,
            "-",
        ],
        input=manifests,
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return [f"kubeconform failed (exit {done.returncode}): {done.stderr.strip() or done.stdout.strip()}"]
    problems = []
    for resource in report.get("resources") or []:
        if resource.get("status") in ("statusInvalid", "statusError"):
            errors = resource.get("validationErrors") or [{"path": "", "msg": resource.get("msg", "")}]
            for error in errors:
                problems.append(f"{resource['kind']} {resource['name']}: {error['path'] or '/'} {error['msg']}")
    if done.returncode != 0 and not problems:
        problems.append(f"kubeconform failed (exit {done.returncode}): {done.stderr.strip()}")
    return problems


def documents(manifests: str) -> Iterator[dict[str, Any]]:
    for document in yaml.safe_load_all(manifests):
        if isinstance(document, dict):
            yield document


def memory_bytes(quantity: str) -> int:
    for unit, factor in MEMORY_UNITS.items():
        if quantity.endswith(unit):
            return int(quantity.removesuffix(unit)) * factor
    return int(quantity)


def cap_problems(kind: str, name: str, manifests: str, cpus: float, mem_bytes: int | None) -> list[str]:
    """The containers of the workload `kind` `name` must request and be limited to its compose
    service's caps."""
    problems = []
    found = [d for d in documents(manifests) if d.get("kind") == kind and d["metadata"]["name"] == name]
    if not found:
        return [f"builds no {kind} named {name}"]
    for container in found[0]["spec"]["template"]["spec"]["containers"]:
        resources = container.get("resources") or {}
        for part in ("requests", "limits"):
            given = resources.get(part) or {}
            if float(given.get("cpu", 0)) != cpus:
                problems.append(f"{name}: {part}.cpu {given.get('cpu')} is not compose.yaml's cpus {cpus:g}")
            if mem_bytes is not None and memory_bytes(str(given.get("memory", 0))) != mem_bytes:
                problems.append(
                    f"{name}: {part}.memory {given.get('memory')} is not compose.yaml's mem_limit "
                    f"({mem_bytes >> 20} MiB)"
                )
    return problems


def upstream_caps(root: Path) -> dict[str, Any]:
    """compose.yaml's caps of the stock upstream, which the native runner does not apply (it runs
    on the load generator's CPUs there) and so are not among compose_file.caps()."""
    path = root / compose_file.COMPOSE_FILE
    services = compose_file.services_of(compose_file.load(path))
    if compose_file.UPSTREAM_SERVICE not in services:
        raise BenchError(f"{path.name}: no `{compose_file.UPSTREAM_SERVICE}` service to read the upstream's caps from")
    service = services[compose_file.UPSTREAM_SERVICE]
    return dict(compose_file.service_caps(compose_file.UPSTREAM_SERVICE, service, path))


def check(
    validators: Validators, stack_names: list[str], caps: dict[str, Any], root: Path = paths.ROOT
) -> tuple[int, list[str]]:
    """(kustomizations built and validated, every problem found), of the repository at `root`."""
    problems: list[str] = []
    built: dict[str, str] = {}
    for directory in kustomizations(root / "deploy" / "k8s"):
        name = str(directory.relative_to(root))
        manifests, error = build(validators, directory)
        if manifests is None:
            problems.append(f"{name}: kustomize build failed: {error}")
            continue
        built[name] = manifests
        problems += [f"{name}: {problem}" for problem in kubeconform_problems(validators, manifests)]
    # A stack's manifests are written from compose.yaml (bench.k8s_stack): missing or stale ones
    # are named with the command that writes them, and their caps are not checked twice.
    stale = k8s_stack.stale(root, stack_names)
    problems += stale
    workloads = [("deploy/k8s/base/postgres", "StatefulSet", "postgres", caps["postgres"])]
    try:
        workloads.append(("deploy/k8s/base/upstream", "Deployment", "upstream", upstream_caps(root)))
    except BenchError as error:
        problems.append(str(error))
    workloads += [
        (f"deploy/k8s/stacks/{s}", "Deployment", s, caps.get(s) or caps["app"])
        for s in stack_names
        if not any(p.startswith((f"deploy/k8s/stacks/{s}/", f"deploy/k8s/stacks/{s}:")) for p in stale)
    ]
    for directory_name, kind, name, cap in workloads:
        manifests = built.get(directory_name)
        if manifests is None:
            problems.append(f"{directory_name}: missing or not built (PostgreSQL and every stack have one)")
            continue
        problems += [
            f"{directory_name}: {problem}"
            for problem in cap_problems(kind, name, manifests, cap["cpus"], cap["mem_bytes"])
        ]
    return len(built), problems
