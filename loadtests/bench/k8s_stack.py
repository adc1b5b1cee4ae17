"""A stack's Kubernetes manifests (deploy/k8s/stacks/NAME/), written from what compose.yaml says
of its service: its environment, its caps and its healthcheck's timing. A contributor writes
those facts once, in compose.yaml; `./bench k8s NAME` writes the manifests and `./bench test`
fails, saying that command, when the committed ones are missing or say something else.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from bench import compose_file
from bench.compose_file import Service
from bench.errors import BenchError

STACKS_DIR = Path("deploy") / "k8s" / "stacks"

_DURATION = re.compile(r"(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?")

_KUSTOMIZATION = """\
# PostgreSQL, the stock upstream and {name}: `kubectl apply -k deploy/k8s/stacks/{name}`
# (docs/kubernetes.md).
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
labels:
  - pairs:
      app.kubernetes.io/part-of: bench
resources:
  - ../../base/postgres
  - ../../base/upstream
  - {name}.yaml
"""

_WORKLOAD = """\
# {name} as compose.yaml runs it: its image (built by `docker compose build {name}`; the name is
# the compose service's, to be pointed at your registry with an overlay's `images:`), the
# environment of spec/API.md's process contract, and compose's caps as requests and limits.
apiVersion: v1
kind: Service
metadata:
  name: {name}
  labels:
    app.kubernetes.io/name: {name}
spec:
  selector:
    app.kubernetes.io/name: {name}
  ports:
    - name: http
      port: 8080
      targetPort: http
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  labels:
    app.kubernetes.io/name: {name}
spec:
  replicas: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: {name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: {name}
    spec:
      containers:
        - name: {name}
          image: {name}
          env:
{env}
          ports:
            - name: http
              containerPort: 8080
          # compose.yaml's caps (cpus: {cpus_text}, mem_limit: {mem_text}) as requests and limits alike: a
          # Guaranteed pod, measured with the CPU and memory the native run gives it.
          resources:
            requests:
              cpu: "{cpus}"
              memory: {memory}
            limits:
              cpu: "{cpus}"
              memory: {memory}
          # compose's start_period ({start_period_s} s, for the JVMs), then its interval, timeout and retries.
          startupProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: {interval_s}
            timeoutSeconds: {timeout_s}
            failureThreshold: {startup_failures}
          readinessProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: {interval_s}
            timeoutSeconds: {timeout_s}
          livenessProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: {interval_s}
            timeoutSeconds: {timeout_s}
            failureThreshold: {retries}
"""


def seconds(value: object, what: str) -> int:
    """A Compose duration (`5s`, `1m30s`, `90s`) in whole seconds."""
    text = str(value).strip()
    found = _DURATION.fullmatch(text)
    if not text or found is None or not any(found.groups()):
        raise BenchError(f"compose.yaml: {what} {value!r} is not a duration like 5s or 1m30s")
    hours, minutes, secs = (int(part or 0) for part in found.groups())
    return hours * 3600 + minutes * 60 + secs


def memory_quantity(mem_bytes: int) -> str:
    """Bytes as Kubernetes writes them: the largest binary unit that divides them."""
    for unit, factor in (("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)):
        if mem_bytes % factor == 0:
            return f"{mem_bytes // factor}{unit}"
    return str(mem_bytes)


def _quoted(value: object) -> str:
    text = str(value)
    # An env value must be a string: quoted where YAML would read a number, a boolean or null.
    return text if isinstance(yaml.safe_load(text), str) else json.dumps(text)


def manifests(name: str, service: Service) -> dict[str, str]:
    """{file name: text} of deploy/k8s/stacks/NAME/, from the stack's compose service."""
    environment = service.get("environment") or {}
    if isinstance(environment, list):
        environment = dict(item.split("=", 1) for item in environment)
    health = service.get("healthcheck") or {}
    missing = [key for key in ("interval", "timeout", "retries", "start_period") if key not in health]
    if missing:
        raise BenchError(f"compose.yaml: service {name}'s healthcheck has no {', '.join(missing)}")
    caps = compose_file.service_caps(name, service, Path(compose_file.COMPOSE_FILE))
    interval = seconds(health["interval"], f"{name}'s healthcheck interval")
    start_period = seconds(health["start_period"], f"{name}'s healthcheck start_period")
    cpus = f"{caps['cpus']:g}"
    return {
        "kustomization.yaml": _KUSTOMIZATION.format(name=name),
        f"{name}.yaml": _WORKLOAD.format(
            name=name,
            env="\n".join(
                f"            - name: {key}\n              value: {_quoted(value)}"
                for key, value in environment.items()
            ),
            cpus_text=service["cpus"],
            mem_text=service["mem_limit"],
            cpus=cpus,
            memory=memory_quantity(int(caps["mem_bytes"])),
            start_period_s=start_period,
            interval_s=interval,
            timeout_s=seconds(health["timeout"], f"{name}'s healthcheck timeout"),
            startup_failures=-(-start_period // interval),
            retries=int(health["retries"]),
        ),
    }


def _services(root: Path) -> dict[str, Service]:
    services = compose_file.services_of(compose_file.load(root / compose_file.COMPOSE_FILE))
    stacks = compose_file.stack_services(services, root)
    return {name: services[name] for name in stacks}


def write(root: Path, names: list[str]) -> list[Path]:
    """Writes each stack's manifests; returns the files that changed."""
    services = _services(root)
    changed = []
    for name in names:
        if name not in services:
            raise BenchError(f"compose.yaml has no service for {name}: add it first (CONTRIBUTING.md, step 4)")
        directory = root / STACKS_DIR / name
        directory.mkdir(parents=True, exist_ok=True)
        for file_name, text in manifests(name, services[name]).items():
            path = directory / file_name
            if not path.exists() or path.read_text() != text:
                path.write_text(text)
                changed.append(path)
    return changed


def stale(root: Path, names: list[str]) -> list[str]:
    """Every stack whose committed manifests are missing or differ from what compose.yaml says."""
    services = _services(root)
    problems = []
    for name in names:
        if name not in services:
            problems.append(f"{STACKS_DIR / name}: compose.yaml has no service for {name} to write it from")
            continue
        directory = root / STACKS_DIR / name
        for file_name, text in manifests(name, services[name]).items():
            path = directory / file_name
            if not path.exists():
                problems.append(f"{STACKS_DIR / name / file_name} is missing: run `./bench k8s {name}`")
            elif path.read_text() != text:
                problems.append(
                    f"{STACKS_DIR / name / file_name} differs from what compose.yaml says: run `./bench k8s {name}`"
                )
    return problems
