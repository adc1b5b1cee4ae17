"""A stack's container up and healthy: GET /health on its published port until 200 (Compose's
`up --wait` would say so only at the healthcheck's next probe, up to an interval later), and,
after the suite and the smoke, Docker's own verdict on compose.yaml's healthcheck."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench.conformance import Step
from bench.docker import engine
from bench.docker.compose import compose_command, service
from bench.errors import BenchError
from bench.manifest import Stack

# GET /health this often until it answers 200.
POLL_S = 0.2
# How often that wait also asks Docker whether the container still runs (one that exited fails
# at once, not after the whole timeout).
CONTAINER_LOOK_S = 2.0
# How often the check of compose.yaml's healthcheck asks Docker for its verdict.
VERDICT_POLL_S = 0.5
# Docker's own defaults for a healthcheck without `interval` or `timeout`.
DOCKER_PROBE_DEFAULT_S = 30.0


def container_log(stack: Stack) -> Path:
    """The containers' own output for `stack`, kept before its container is removed."""
    return engine.LOGS / f"{stack.name}-containers.log"


@dataclass(frozen=True)
class Container:
    """What Docker says of a service's container."""

    status: str
    exit_code: int
    # "starting", "healthy" or "unhealthy"; None without a healthcheck.
    health: str | None
    last_probe: str
    # Two probe intervals and a probe's timeout: how long a healthcheck that would pass now may
    # take to say so.
    verdict_within_s: float


def container(docker: engine.Engine, service: str) -> Container:
    done = docker.output(compose_command("ps", "--all", "--quiet", service))
    ids = done.stdout.split()
    if done.returncode != 0 or not ids:
        raise BenchError(f"docker compose ps finds no container of {service}: {done.stderr.strip() or 'none'}")
    done = docker.output(["inspect", ids[0]])
    if done.returncode != 0:
        raise BenchError(f"docker inspect of {service}'s container failed: {done.stderr.strip()}")
    [inspected] = json.loads(done.stdout)
    state = inspected["State"]
    health = state.get("Health") or {}
    probes = health.get("Log") or []
    last = probes[-1] if probes else None
    last_probe = f"exit {last['ExitCode']}: {last['Output'].strip() or 'no output'}" if last else "none ran"
    check = inspected["Config"].get("Healthcheck") or {}
    interval = check.get("Interval", 0) / 1e9 or DOCKER_PROBE_DEFAULT_S
    timeout = check.get("Timeout", 0) / 1e9 or DOCKER_PROBE_DEFAULT_S
    return Container(
        status=state["Status"],
        exit_code=state.get("ExitCode", 0),
        health=health.get("Status"),
        last_probe=last_probe,
        verdict_within_s=2 * interval + timeout,
    )


def wait_for_health(docker: engine.Engine, stack: Stack, port: int, *, deadline: float, timeout_s: float) -> None:
    """GET /health on `port` every POLL_S until 200; a BenchError naming the container's log when
    `deadline` passes or the container stops first."""
    url = f"http://127.0.0.1:{port}/health"
    next_look = time.monotonic() + CONTAINER_LOOK_S
    with httpx.Client(timeout=2.0) as client:
        while True:
            try:
                if client.get(url).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            now = time.monotonic()
            if now >= next_look:
                state = container(docker, service(stack))
                if state.status != "running":
                    raise BenchError(
                        f"{stack.name}'s container is {state.status} (exit code {state.exit_code}) before GET "
                        f"/health answered 200; see {container_log(stack)}\n{_recent_output(docker, stack)}"
                    )
                next_look = now + CONTAINER_LOOK_S
            if now > deadline:
                raise BenchError(
                    f"{stack.name} did not answer 200 on GET {url} within {timeout_s:.0f} s of "
                    f"`docker compose up`; see {container_log(stack)}\n{_recent_output(docker, stack)}"
                )
            time.sleep(POLL_S)


def _recent_output(docker: engine.Engine, stack: Stack) -> str:
    done = docker.output(compose_command("logs", "--no-color", "--tail", "20", service(stack)), timeout_s=60)
    return (done.stdout + done.stderr).rstrip()


def verdict(docker: engine.Engine, stack: Stack) -> Step:
    """compose.yaml's healthcheck, as Docker judges it: `healthy`, or so within two probe
    intervals and a probe's timeout (the stack answers GET /health by now, but Docker's next
    probe may not have run yet)."""
    state = container(docker, service(stack))
    deadline = time.monotonic() + state.verdict_within_s
    while state.health != "healthy" and state.status == "running" and time.monotonic() < deadline:
        time.sleep(VERDICT_POLL_S)
        state = container(docker, service(stack))
    if state.health == "healthy":
        return Step(True, "healthcheck: healthy")
    said = "no healthcheck" if state.health is None else state.health
    return Step(
        False,
        f"compose.yaml's healthcheck never turned healthy: Docker says {said} (container {state.status}) "
        f"{state.verdict_within_s:.0f} s after the k6 smoke; last probe {state.last_probe}",
        container_log(stack),
    )
