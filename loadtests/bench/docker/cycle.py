"""One stack through the Docker path, as a visitor would run it, in the run's Compose project
(bench/docker/project.py): `docker compose build`, PostgreSQL ready, `up -d` and GET /health on
the published port (bench/docker/health.py), the conformance suite against that port, a k6 smoke
from compose's own k6 service, Docker's verdict on compose.yaml's healthcheck, the stack's
container removed; timed and reported."""

from __future__ import annotations

import os
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench import compose_file, ports
from bench.checks import dockerfiles
from bench.conformance import DEFAULT_PATH, UPSTREAM_HOST_VARIABLE, Step, run_suite
from bench.docker import compose, health
from bench.docker.compose import PROJECT, compose_command, service, timed, write_override
from bench.docker.engine import LOGS, Engine
from bench.docker.project import Database, Project
from bench.errors import BenchError
from bench.manifest import Stack
from bench.scenarios import SCENARIOS

CONTAINER_PORT = 8080
# The scenario of the k6 smoke, at the first closed-model stage of the smoke profile.
SMOKE_SCENARIO = "read-heavy"
SMOKE_VUS = 50
BUILD_TIMEOUT_S = 3600.0
K6_TIMEOUT_S = 300.0
REMOVE_TIMEOUT_S = 120.0
# The conformance suite fakes the stock upstream in its own process on this machine
# (spec/conformance/stock_upstream.py); the container reaches it by this name, the host's gateway.
HOST_GATEWAY = "host.docker.internal"
# What the docker CLI reads to find its daemon and its configuration.
DOCKER_CLIENT_VARIABLES = ("DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG", "DOCKER_CERT_PATH", "DOCKER_TLS_VERIFY")
# What `./bench test` leaves out of the Docker path's conformance run: the cases marked code_only
# (bench.conformance.CODE_ONLY_MARKER), 523 of the api dialect's 665 cases. Without them the
# cases of the ten stacks' conformance runs there took 5.9 minutes instead of 8.2 (warm CI runs of
# 2026-11-27), and the code has just passed them natively, built from the same sources.
# Everything that touches the image and its wiring stays: bodies up to 1 MiB under the
# container's memory cap, writes and reads through PostgreSQL, the stock upstream across the
# compose network, PostgreSQL's restart, concurrency and the pools on the container's one CPU.
_K6_LINE = re.compile(rf"{SMOKE_SCENARIO} @ \d+ VUs: (\d+) req/s, p99 ([\d.]+|-) ms, (\d+) unexpected statuses")


@dataclass
class Outcome:
    """One stack's pass through the Docker path; None where the step did not run."""

    stack: str
    build_s: float | None = None
    image_bytes: int | None = None
    database: Database | None = None
    healthy_s: float | None = None
    conformance: Step | None = None
    smoke: Step | None = None
    healthcheck: Step | None = None
    passed: int = 0
    failed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        steps = (self.conformance, self.smoke, self.healthcheck)
        return not self.problems and all(step is not None and step.ok for step in steps)

    def postgres(self, *, short: bool = False) -> str:
        """What PostgreSQL took for this stack (seeded and copied, or reset)."""
        return "-" if self.database is None else self.database.summary(short=short)


def image_name(service: str) -> str:
    """The tag Compose gives a service's built image."""
    return f"{PROJECT}-{service}"


def check_variant_stage(stack: Stack) -> None:
    """A variant goes through the Docker path from the stage of its name in its stack's
    Dockerfile (`docker build --target VARIANT`, as the AOT-cache variants' images are built);
    a BenchError for one without such a stage, whose knob lives in the native run alone."""
    if stack.variant is None:
        return
    dockerfile = stack.directory / "Dockerfile"
    read = dockerfiles.read(dockerfile.read_text()) if dockerfile.exists() else []
    stages = [stage.name for stage in read if stage.name]
    if stack.variant not in stages:
        raise BenchError(
            f"{stack.name} has no image of its own: {stack.base_name}/Dockerfile has no stage {stack.variant!r} "
            f"(stages: {', '.join(stages) or 'none'}). The Docker path runs a variant built with "
            f"`docker build --target VARIANT`; run this one natively (./bench serve {stack.name})"
        )


def target_override(stack: Stack) -> Path:
    """A compose file laid over compose.yaml for a variant's build: its stage as the target."""
    # The context again, so that the file stands without compose.yaml's short `build: ./STACK`.
    build = {"context": str(stack.directory), "target": stack.variant}
    return write_override(LOGS / f"{stack.name}-target.compose.json", stack, {"build": build})


def published_port(engine: Engine, service: str) -> int:
    done = engine.output(compose_command("port", service, str(CONTAINER_PORT)))
    address = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    if done.returncode != 0 or ":" not in address:
        raise BenchError(f"{service} publishes no port for {CONTAINER_PORT}: {done.stderr.strip() or address}")
    return int(address.rsplit(":", 1)[1])


def start(engine: Engine, stack: Stack, upstream_port: int) -> tuple[int, float]:
    """`docker compose up -d` of the stack (PostgreSQL and the upstream healthy first, as
    compose.yaml's depends_on has it), then GET /health on its published port until 200.
    Returns the port and the seconds from `up` to that 200."""
    started = time.monotonic()
    timed(
        engine,
        compose_command(f"--file={stock_override(stack, upstream_port)}", "up", "--detach", service(stack)),
        log_name=f"{stack.name}-up",
        timeout_s=compose.UP_TIMEOUT_S,
        what=f"docker compose up {service(stack)}",
    )
    port = published_port(engine, service(stack))
    health.wait_for_health(engine, stack, port, deadline=started + compose.UP_TIMEOUT_S, timeout_s=compose.UP_TIMEOUT_S)
    return port, time.monotonic() - started


def stock_override(stack: Stack, upstream_port: int) -> Path:
    """A compose file laid over compose.yaml for the conformance run: the stack's STOCK_URL names
    the suite's fake upstream on the host, at `upstream_port`, instead of the upstream service."""
    settings = {
        "environment": {"STOCK_URL": f"http://{HOST_GATEWAY}:{upstream_port}"},
        "extra_hosts": [f"{HOST_GATEWAY}:host-gateway"],
    }
    return write_override(LOGS / f"{stack.name}-stock.compose.json", stack, settings)


def conformance(
    engine: Engine, stack: Stack, port: int, upstream_port: int, outcome: Outcome, *, whole_suite: bool = True
) -> None:
    """The conformance suite, in the stack's dialect, against the container, with PostgreSQL's
    container stopped and started for the resilience cases, and its fake stock upstream listening
    where the container reaches it; without the code-only cases unless `whole_suite`."""
    docker = [engine.docker]
    env = {
        # The docker CLI finds its plugins (compose) from HOME.
        "HOME": os.environ.get("HOME", "/root"),
        "PATH": os.environ.get("PATH", DEFAULT_PATH),
        # Every address of this machine, the containers' gateway among them.
        UPSTREAM_HOST_VARIABLE: "0.0.0.0",
    }
    # The resilience cases' docker commands must reach the daemon this run uses: one that
    # DOCKER_HOST or a context names (rootless Docker, a second daemon) is not the default socket.
    env.update({name: os.environ[name] for name in DOCKER_CLIENT_VARIABLES if name in os.environ})
    suite = run_suite(
        stack,
        base_url=f"http://127.0.0.1:{port}",
        upstream_port=upstream_port,
        db_stop=shlex.join(docker + compose_command("stop", compose_file.DB_SERVICE)),
        db_start=shlex.join(docker + compose_command("up", "--detach", "--wait", "--no-deps", compose_file.DB_SERVICE)),
        logs=LOGS,
        env=env,
        whole_suite=whole_suite,
    )
    outcome.conformance = suite.step
    outcome.passed += suite.passed
    outcome.failed += suite.failed


def smoke(engine: Engine, stack: Stack, outcome: Outcome) -> None:
    """k6 from compose's k6 service against the stack on the project's network."""
    args = compose_command(
        "--profile",
        "loadtest",
        "run",
        "--rm",
        "--no-TTY",
        "--env",
        f"BASE_URL=http://{service(stack)}:{CONTAINER_PORT}",
        "--env",
        "PROFILE=smoke",
        "--env",
        f"STAGE={SMOKE_VUS}",
        "--env",
        f"DIALECT={stack.dialect}",
        "k6",
        "run",
        "--quiet",
        f"/scripts/{SCENARIOS[SMOKE_SCENARIO].k6_script}",
    )
    log_name = f"{stack.name}-k6"
    code = engine.run(args, log_name=log_name, timeout_s=K6_TIMEOUT_S)
    log = LOGS / f"{log_name}.log"
    match = _K6_LINE.search(log.read_text(errors="replace")) if log.exists() else None
    if match is None:
        outcome.smoke = Step(False, f"k6 exit {code}, no summary line", log)
        outcome.failed += 1
        return
    rps, p99, errors = match.groups()
    ok = code == 0 and int(errors) == 0 and int(rps) > 0
    outcome.smoke = Step(ok, f"{SMOKE_SCENARIO} {SMOKE_VUS} VUs: {rps} req/s, p99 {p99} ms, {errors} errors", log)
    outcome.passed, outcome.failed = (
        (outcome.passed + 1, outcome.failed) if ok else (outcome.passed, outcome.failed + 1)
    )


def build(engine: Engine, stack: Stack, *, log_name: str) -> float:
    """`docker compose build` of the stack's service (a variant's: to its stage); the seconds it took."""
    args = ["build", service(stack)]
    what = f"docker compose build {service(stack)}"
    if stack.variant is not None:
        args.insert(0, f"--file={target_override(stack)}")
        what += f" (target {stack.variant})"
    return timed(engine, compose_command(*args), log_name=log_name, timeout_s=BUILD_TIMEOUT_S, what=what)


def run_stack(
    project: Project, stack: Stack, on_progress: Callable[[str], object], *, whole_suite: bool = True
) -> Outcome:
    """Build, PostgreSQL ready (`Project.prepare_database`), up and the wait for GET /health,
    conformance (see `conformance` for `whole_suite`), k6 smoke, Docker's healthcheck verdict;
    whatever fails, the stack's container is removed (its logs kept first), and the project
    itself is taken down when the Project is left."""
    engine = project.engine
    outcome = Outcome(stack.name)
    # The shared containers' logs from here on are this stack's.
    since = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    containers = False
    try:
        on_progress(f"{stack.name}: docker compose build")
        outcome.build_s = build(engine, stack, log_name=f"{stack.name}-build")
        outcome.image_bytes = engine.image_size(image_name(service(stack)))
        containers = True
        outcome.database = project.prepare_database(stack, on_progress)
        on_progress(f"{stack.name}: docker compose up, then GET /health")
        upstream_port = ports.free_port()
        port, outcome.healthy_s = start(engine, stack, upstream_port)
        on_progress(f"{stack.name}: conformance suite on :{port}")
        conformance(engine, stack, port, upstream_port, outcome, whole_suite=whole_suite)
        on_progress(f"{stack.name}: k6 smoke ({SMOKE_SCENARIO})")
        smoke(engine, stack, outcome)
        on_progress(f"{stack.name}: Docker's healthcheck")
        outcome.healthcheck = health.verdict(engine, stack)
        if outcome.healthcheck.ok:
            outcome.passed += 1
        else:
            outcome.failed += 1
    except BenchError as error:
        outcome.problems.append(str(error))
        outcome.failed += 1
    finally:
        if containers:
            _keep_logs(engine, stack, since)
            if remove(engine, stack) != 0:
                # A container left behind would be in the next stack's way: everything goes,
                # and the next stack's database is seeded afresh.
                log = LOGS / f"{stack.name}-rm.log"
                outcome.problems.append(f"docker compose rm {service(stack)} failed; see {log}; project taken down")
                project.down()
    return outcome


def remove(engine: Engine, stack: Stack) -> int:
    """The stack's container stopped and removed; PostgreSQL and the upstream stay."""
    args = compose_command("rm", "--stop", "--force", "--volumes", service(stack))
    return engine.run(args, log_name=f"{stack.name}-rm", timeout_s=REMOVE_TIMEOUT_S)


def _keep_logs(engine: Engine, stack: Stack, since: str) -> None:
    """The containers' own output since the stack's cycle began, kept before its container goes."""
    services = (compose_file.DB_SERVICE, compose_file.UPSTREAM_SERVICE, service(stack))
    done = engine.output(compose_command("logs", "--no-color", "--since", since, *services), timeout_s=60)
    health.container_log(stack).write_text(done.stdout + done.stderr)


def megabytes(size: int | None) -> str:
    return "-" if size is None else f"{size / 1e6:.0f} MB"


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} s"
