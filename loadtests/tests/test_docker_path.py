"""`./bench docker` without a daemon: the orchestration against a fake docker CLI, the stand-in
table, the build contexts and the skip of `./bench test` where Docker cannot run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench import conformance, manifest, paths, procs, system, tools
from bench.checks import images
from bench.docker import compose, cycle, engine, health, session, standins
from bench.docker.project import Project
from bench.errors import BenchError
from bench.testing import docker_path


class FakeEngine(engine.Engine):
    """The docker CLI as a script: every command is recorded; `fail` names the first word
    after `compose ...` (or after `docker`) that exits 1, `fail_sql` a statement that psql in
    PostgreSQL's container fails on; images answer from `images`. The stack's container answers
    `docker inspect` with `status` and, one per look (the last one staying), `health`; its
    published port is the one `stack_server` serves GET /health on."""

    published_port = 8081

    def __init__(
        self,
        *,
        fail: str = "",
        fail_sql: str = "",
        k6_line: str = "",
        interrupt: str = "",
        images: dict[str, str] | None = None,
        health: list[str] | None = None,
        status: str = "running",
    ):
        super().__init__("docker")
        self.commands: list[list[str]] = []
        self.fail = fail
        self.fail_sql = fail_sql
        self.k6_line = k6_line
        self.interrupt = interrupt
        self.images = dict(images or {})
        self.pullable: set[str] = set()
        self.built: list[str] = []
        self.health = list(health or ["healthy"])
        self.status = status

    @staticmethod
    def verb(args: list[str]) -> str:
        if args[0] == "compose":
            words = [w for w in args[7:] if not w.startswith("-") and w != "loadtest"]
            return words[0]
        return args[0]

    def run(self, args, *, log_name, timeout_s=None, stdin=None):
        self.commands.append(args)
        verb = self.verb(args)
        if verb == self.interrupt:
            raise KeyboardInterrupt
        log = engine.LOGS / f"{log_name}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(self.k6_line if verb == "run" else "")
        if verb == "pull":
            return 0 if args[1] in self.pullable else 1
        if verb == "exec" and self.fail_sql and any(self.fail_sql in word for word in args):
            return 1
        return 1 if verb == self.fail else 0

    def output(self, args, timeout_s=60.0):
        self.commands.append(args)
        if args[:2] == ["image", "inspect"]:
            image = args[-1]
            if image.startswith(compose.PROJECT):
                return subprocess.CompletedProcess(args, 0, "123456789\n", "")
            if image not in self.images:
                return subprocess.CompletedProcess(args, 1, "", "no such image")
            labels = json.dumps({standins.LABEL: self.images[image]} if self.images[image] else None)
            return subprocess.CompletedProcess(args, 0, labels + "\n", "")
        if args[0] == "compose" and "port" in args:
            return subprocess.CompletedProcess(args, 0, f"0.0.0.0:{self.published_port}\n", "")
        if args[0] == "compose" and "ps" in args:
            return subprocess.CompletedProcess(args, 0, "c0ffee\n", "")
        if args[:2] == ["inspect", "c0ffee"]:
            return subprocess.CompletedProcess(args, 0, json.dumps([self.inspected()]), "")
        return subprocess.CompletedProcess(args, 0, "", "")

    def inspected(self) -> dict[str, object]:
        health = self.health.pop(0) if len(self.health) > 1 else self.health[0]
        probe = {"ExitCode": 0 if health == "healthy" else 1, "Output": "" if health == "healthy" else "refused"}
        # Probes a tenth of a second apart: a check that waits two intervals and a timeout is quick.
        check = {"Test": ["CMD", "/app/server", "healthcheck"], "Interval": 50_000_000, "Timeout": 30_000_000}
        return {
            "State": {
                "Status": self.status,
                "ExitCode": 0 if self.status == "running" else 1,
                "Health": {"Status": health, "Log": [probe]},
            },
            "Config": {"Healthcheck": check},
        }


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "LOGS", tmp_path / "logs")
    monkeypatch.setattr(cycle, "LOGS", tmp_path / "logs")
    return tmp_path


@pytest.fixture
def go_gin():
    return manifest.load(paths.ROOT / "go-gin")


@pytest.fixture
def three_stacks():
    return [manifest.load(paths.ROOT / name) for name in ("go-gin", "java-vertx", "java-spring")]


@pytest.fixture(autouse=True)
def stack_server(monkeypatch) -> Iterator[list[int]]:
    """The stack's published port: GET /health answers the statuses in the list it yields, one
    per request, then 200; the waits' polls made quick."""
    statuses: list[int] = []

    class Health(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(statuses.pop(0) if statuses else 200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Health)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    monkeypatch.setattr(FakeEngine, "published_port", server.server_address[1])
    monkeypatch.setattr(health, "POLL_S", 0.01)
    monkeypatch.setattr(health, "VERDICT_POLL_S", 0.01)
    yield statuses
    server.shutdown()
    server.server_close()


def run_stacks(fake: FakeEngine, stacks, **kwargs) -> list[cycle.Outcome]:
    """`stacks` through the Docker path in one project, as `./bench docker` runs them."""
    with Project(fake) as project:
        return [cycle.run_stack(project, stack, on_progress=lambda text: None, **kwargs) for stack in stacks]


def run_one(fake: FakeEngine, stack, **kwargs) -> cycle.Outcome:
    [outcome] = run_stacks(fake, [stack], **kwargs)
    return outcome


@pytest.fixture
def conformance_passes(monkeypatch):
    """The conformance suite's pytest replaced by one that writes a passing JUnit report."""
    seen: dict[str, dict[str, str]] = {}

    def fake_run(command, *, cwd, env, log, timeout_s=None):
        report = Path(next(word for word in command if word.startswith("--junitxml=")).split("=", 1)[1])
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text('<testsuite tests="7" failures="0" errors="0" skipped="0"></testsuite>')
        seen["env"] = env
        seen["command"] = command
        return 0

    monkeypatch.setattr(procs, "run", fake_run)
    return seen


K6_OK = "read-heavy @ 50 VUs: 812 req/s, p99 41.5 ms, 0 unexpected statuses\nsummary written to k6-read-heavy.json\n"


def verbs(fake: FakeEngine) -> list[str]:
    """The compose commands that change something, in order."""
    return [FakeEngine.verb(c) for c in fake.commands if c[0] == "compose" and FakeEngine.verb(c) not in QUERIES]


QUERIES = {"logs", "port", "ps"}


def sql(command: list[str]) -> list[str]:
    return [command[i + 1] for i, word in enumerate(command) if word == "--command"]


def test_a_stack_goes_through_build_up_conformance_k6_and_down(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK)
    outcome = run_one(fake, go_gin)
    # down (what a run before left), build, PostgreSQL seeded, its copy made, the stack up, k6,
    # the stack's container removed, down.
    assert verbs(fake) == ["down", "build", "up", "exec", "up", "run", "rm", "down"]
    assert outcome.ok, outcome.problems
    assert outcome.image_bytes == 123456789
    assert outcome.build_s is not None and outcome.healthy_s is not None
    assert outcome.conformance is not None and outcome.conformance.summary == "conformance: 7 passed, 0 failed"
    assert outcome.smoke is not None and "812 req/s" in outcome.smoke.summary
    assert outcome.healthcheck == conformance.Step(True, "healthcheck: healthy")
    assert outcome.passed == 9 and outcome.failed == 0


def test_postgresql_is_seeded_once_and_reset_from_its_copy_for_every_later_stack(
    home, three_stacks, conformance_passes
):
    fake = FakeEngine(k6_line=K6_OK)
    outcomes = run_stacks(fake, three_stacks)
    assert all(o.ok for o in outcomes), [o.problems for o in outcomes]
    changes = [c for c in fake.commands if c[0] == "compose" and FakeEngine.verb(c) not in QUERIES]
    seedings = [c for c in changes if FakeEngine.verb(c) == "up" and c[-1] == "postgres"]
    assert len(seedings) == 1 and "--wait" in seedings[0]
    statements = [sql(c) for c in changes if FakeEngine.verb(c) == "exec"]
    copy = [
        'CREATE DATABASE "bench_seeded" TEMPLATE "bench" STRATEGY FILE_COPY',
        'ALTER DATABASE "bench_seeded" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false',
    ]
    reset = [
        'DROP DATABASE IF EXISTS "bench" WITH (FORCE)',
        'CREATE DATABASE "bench" TEMPLATE "bench_seeded" STRATEGY FILE_COPY',
    ]
    assert statements == [copy, reset, reset]
    # Each stack's container gone before the next stack's database is replaced; the project
    # down only before the first and after the last.
    assert verbs(fake) == [
        "down", "build", "up", "exec", "up", "run", "rm",
        "build", "exec", "up", "run", "rm",
        "build", "exec", "up", "run", "rm", "down",
    ]  # fmt: skip
    removed = [c[-1] for c in changes if FakeEngine.verb(c) == "rm"]
    assert removed == ["go-gin", "java-vertx", "java-spring"]
    assert all({"--stop", "--force"} <= set(c) for c in changes if FakeEngine.verb(c) == "rm")
    first, *later = outcomes
    assert first.database is not None and not first.database.reset and first.database.copy_s is not None
    assert first.postgres().startswith("seeded in ") and ", copied in " in first.postgres()
    assert all(o.database is not None and o.database.reset for o in later)
    assert all(o.postgres().startswith("reset in ") for o in later)
    assert session.line(first).count("PostgreSQL seeded in") == 1
    assert all("(PostgreSQL reset in " in session.line(o) for o in later)


def test_a_failed_reset_takes_the_project_down_and_seeds_afresh(home, three_stacks, conformance_passes):
    # As when a failed resilience case leaves PostgreSQL stopped.
    fake = FakeEngine(k6_line=K6_OK, fail_sql="DROP DATABASE")
    outcomes = run_stacks(fake, three_stacks[:2])
    assert all(o.ok for o in outcomes), [o.problems for o in outcomes]
    assert verbs(fake) == [
        "down", "build", "up", "exec", "up", "run", "rm",
        "build", "exec", "down", "up", "exec", "up", "run", "rm", "down",
    ]  # fmt: skip
    second = outcomes[1]
    assert second.database is not None and not second.database.reset
    assert second.database.failed_reset == home / "logs" / "java-vertx-reset-postgres.log"
    assert second.postgres(short=True).endswith(" after a failed reset")
    assert f"after the reset failed (see {second.database.failed_reset})" in session.line(second)


def test_a_stack_that_fails_leaves_the_next_one_a_reset_database(home, three_stacks, conformance_passes):
    fake = FakeEngine(k6_line="level=error msg=boom\n")
    outcomes = run_stacks(fake, three_stacks[:2])
    assert not any(o.ok for o in outcomes)
    assert outcomes[1].database is not None and outcomes[1].database.reset
    assert verbs(fake).count("rm") == 2 and verbs(fake).count("down") == 2


def test_the_stack_is_up_when_get_health_answers_200_not_at_composes_next_probe(
    home, go_gin, conformance_passes, stack_server
):
    stack_server.extend([503, 503, 503])
    fake = FakeEngine(k6_line=K6_OK)
    outcome = run_one(fake, go_gin)
    assert outcome.ok, outcome.problems
    assert stack_server == []  # all three 503s were asked past
    up = next(c for c in fake.commands if c[0] == "compose" and FakeEngine.verb(c) == "up" and c[-1] == "go-gin")
    assert "--detach" in up and "--wait" not in up
    assert outcome.healthy_s is not None and outcome.healthy_s < 5


def test_a_stack_that_never_answers_200_fails_naming_its_container_log(
    home, go_gin, conformance_passes, stack_server, monkeypatch
):
    monkeypatch.setattr(compose, "UP_TIMEOUT_S", 0.3)
    stack_server.extend([503] * 1000)
    fake = FakeEngine(k6_line=K6_OK)
    outcome = run_one(fake, go_gin)
    assert not outcome.ok and outcome.conformance is None and outcome.healthy_s is None
    [problem] = outcome.problems
    assert problem.startswith("go-gin did not answer 200 on GET http://127.0.0.1:")
    assert str(home / "logs" / "go-gin-containers.log") in problem
    assert (home / "logs" / "go-gin-containers.log").exists()
    assert verbs(fake)[-2:] == ["rm", "down"]


def test_a_container_that_exits_fails_without_waiting_out_the_timeout(
    home, go_gin, conformance_passes, stack_server, monkeypatch
):
    monkeypatch.setattr(health, "CONTAINER_LOOK_S", 0.0)
    stack_server.extend([503] * 1000)
    started = time.monotonic()
    outcome = run_one(FakeEngine(k6_line=K6_OK, status="exited"), go_gin)
    assert time.monotonic() - started < 30
    [problem] = outcome.problems
    assert problem.startswith("go-gin's container is exited (exit code 1) before GET /health answered 200; see ")


def test_a_healthcheck_still_starting_after_the_smoke_is_waited_for(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK, health=["starting", "starting", "healthy"])
    outcome = run_one(fake, go_gin)
    assert outcome.ok, outcome.problems
    assert outcome.healthcheck is not None and outcome.healthcheck.ok
    assert fake.health == ["healthy"]
    # Asked after the smoke, of the stack's own container.
    after_k6 = fake.commands[next(i for i, c in enumerate(fake.commands) if FakeEngine.verb(c) == "run") :]
    assert any(c[0] == "compose" and "ps" in c and c[-1] == "go-gin" for c in after_k6)
    assert sum(c[:2] == ["inspect", "c0ffee"] for c in after_k6) == 3


def test_a_healthcheck_that_never_turns_healthy_fails_the_row(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK, health=["starting"])
    started = time.monotonic()
    outcome = run_one(fake, go_gin)
    # Two intervals of 50 ms and a timeout of 30 ms, not the compose.yaml's 13 s.
    assert time.monotonic() - started < 10
    assert not outcome.ok and not outcome.problems
    assert outcome.healthcheck is not None and not outcome.healthcheck.ok
    assert outcome.healthcheck.summary.startswith(
        "compose.yaml's healthcheck never turned healthy: Docker says starting (container running)"
    )
    assert outcome.healthcheck.summary.endswith("last probe exit 1: refused")
    assert outcome.passed == 8 and outcome.failed == 1
    assert session.summary(outcome) == outcome.healthcheck.summary


def test_bench_docker_runs_the_whole_suite_and_bench_test_leaves_out_only_the_code_alone(
    home, go_gin, conformance_passes
):
    run_one(FakeEngine(k6_line=K6_OK), go_gin)
    assert f"not {conformance.CODE_ONLY_MARKER}" not in conformance_passes["command"]
    outcome = run_one(FakeEngine(k6_line=K6_OK), go_gin, whole_suite=False)
    command = conformance_passes["command"]
    assert command[command.index(f"not {conformance.CODE_ONLY_MARKER}") - 1] == "-m"
    assert outcome.conformance is not None and "without the code-only cases" in outcome.conformance.summary


def collected(*args: str) -> set[str]:
    """The conformance cases pytest collects with `args`, as module::function."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(conformance.CONFORMANCE_SUITE), "--collect-only", "-q", *args],
        cwd=paths.ROOT,
        env={**os.environ, "CONFORMANCE_DIALECT": "api", "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {line.split("[")[0].replace("spec/conformance/", "") for line in done.stdout.splitlines() if "::" in line}


def test_the_docker_path_leaves_out_only_code_only_cases_and_keeps_what_touches_the_image():
    every, kept = collected(), collected("-m", f"not {conformance.CODE_ONLY_MARKER}")
    left_out = every - kept
    assert left_out, "the marker leaves nothing out: is it still spelled as conformance.CODE_ONLY_MARKER?"
    assert {"test_params.py", "test_fuzzer_paths.py"} <= {case.split("::")[0] for case in left_out}
    for case in (
        "test_resilience.py::test_database_outage_and_recovery",
        "test_bodies.py::test_body_of_exactly_1_mib_is_read",
        "test_stock.py::test_the_quantity_is_answered",
        "test_stock.py::test_an_upstream_that_does_not_answer_is_504_after_the_timeout",
        "test_stock.py::test_a_burst_is_served_on_the_pool",
        "test_items.py::test_unicode_description_round_trip",
        "test_concurrency.py::test_racing_item_creates_have_one_winner",
    ):
        assert case in kept, case


def test_the_conformance_suite_gets_the_published_port_and_the_database_controls(home, go_gin, conformance_passes):
    run_one(FakeEngine(k6_line=K6_OK), go_gin)
    env = conformance_passes["env"]
    assert env["BASE_URL"] == f"http://127.0.0.1:{FakeEngine.published_port}"
    assert env["CONFORMANCE_STRICT"] == "1"
    assert env["BENCH_DB_STOP"].endswith("stop postgres")
    assert "up --detach --wait --no-deps postgres" in env["BENCH_DB_START"]
    assert f"--project-name {compose.PROJECT}" in env["BENCH_DB_STOP"]


def test_the_resilience_cases_reach_the_daemon_this_run_uses(home, go_gin, conformance_passes, monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///run/user/1000/docker.sock")
    monkeypatch.delenv("DOCKER_CONTEXT", raising=False)
    run_one(FakeEngine(k6_line=K6_OK), go_gin)
    assert conformance_passes["env"]["DOCKER_HOST"] == "unix:///run/user/1000/docker.sock"
    assert "DOCKER_CONTEXT" not in conformance_passes["env"]


def test_the_stack_asks_the_suites_fake_upstream_on_the_host(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK)
    run_one(fake, go_gin)
    ups = [c for c in fake.commands if c[0] == "compose" and FakeEngine.verb(c) == "up"]
    # PostgreSQL as compose.yaml has it; the stack with the override laid over compose.yaml.
    [override] = [word.removeprefix("--file=") for c in ups for word in c if word.startswith("--file=")]
    assert [c[-1] for c in ups] == ["postgres", "go-gin"] and any(w.startswith("--file=") for w in ups[1])
    env = conformance_passes["env"]
    port = env["CONFORMANCE_UPSTREAM_PORT"]
    service = json.loads(Path(override).read_text())["services"]["go-gin"]
    assert service["environment"] == {"STOCK_URL": f"http://host.docker.internal:{port}"}
    assert service["extra_hosts"] == ["host.docker.internal:host-gateway"]
    # The fake listens where the container's traffic to the host's gateway arrives.
    assert env["CONFORMANCE_UPSTREAM_HOST"] == "0.0.0.0"


def test_the_k6_smoke_runs_from_the_compose_service_on_the_project_network(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK)
    run_one(fake, go_gin)
    run = next(c for c in fake.commands if c[0] == "compose" and "run" in c)
    assert "BASE_URL=http://go-gin:8080" in run and "DIALECT=api" in run
    assert run[-3:] == ["k6", "run", "--quiet", "/scripts/read-heavy.js"][-3:]


def test_a_variant_is_built_to_its_stage_and_runs_in_its_stacks_service(home, conformance_passes):
    aot = manifest.load(paths.ROOT / "java-spring").with_variant("aot-cache")
    fake = FakeEngine(k6_line=K6_OK)
    outcome = run_one(fake, aot)
    assert outcome.ok, outcome.problems
    assert outcome.stack == "java-spring@aot-cache"
    build = next(c for c in fake.commands if c[0] == "compose" and FakeEngine.verb(c) == "build")
    override = next(Path(w.split("=", 1)[1]) for w in build if w.startswith("--file="))
    target = {"context": str(paths.ROOT / "java-spring"), "target": "aot-cache"}
    assert json.loads(override.read_text()) == {"services": {"java-spring": {"build": target}}}
    assert build[-1] == "java-spring"
    # Up, the smoke and the removal name the stack's service; the logs the variant.
    up = next(c for c in fake.commands if c[0] == "compose" and FakeEngine.verb(c) == "up" and "java-spring" in c)
    assert up[-1] == "java-spring"
    run = next(c for c in fake.commands if c[0] == "compose" and "run" in c)
    assert "BASE_URL=http://java-spring:8080" in run
    rm = next(c for c in fake.commands if c[0] == "compose" and FakeEngine.verb(c) == "rm")
    assert rm[-1] == "java-spring"
    assert (home / "logs" / "java-spring@aot-cache-build.log").exists()
    assert health.container_log(aot).name == "java-spring@aot-cache-containers.log"


def test_a_stacks_own_build_names_no_target(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK)
    run_one(fake, go_gin)
    build = next(c for c in fake.commands if c[0] == "compose" and FakeEngine.verb(c) == "build")
    assert not [w for w in build if w.startswith("--file=")]


def test_a_variant_without_a_stage_of_its_name_is_refused_before_anything_runs(home):
    threads = manifest.load(paths.ROOT / "java-spring").with_variant("platform-threads")
    refused = r"java-spring/Dockerfile has no stage 'platform-threads' \(stages: build, aot-cache\)"
    with pytest.raises(BenchError, match=refused):
        session.run([threads], on_progress=lambda text: None)


def test_every_aot_cache_variant_has_its_stage():
    for name in ("java-spring", "java-spring-webflux", "java-jersey", "java-vertx"):
        cycle.check_variant_stage(manifest.load(paths.ROOT / name).with_variant("aot-cache"))


def test_a_failed_build_still_takes_the_project_down(home, go_gin, conformance_passes):
    fake = FakeEngine(fail="build")
    outcome = run_one(fake, go_gin)
    assert verbs(fake) == ["down", "build", "down"]
    assert not outcome.ok
    assert "docker compose build go-gin failed" in outcome.problems[0]
    assert outcome.conformance is None and outcome.smoke is None


def test_ctrl_c_still_takes_the_project_down(home, three_stacks, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK, interrupt="run")
    with pytest.raises(KeyboardInterrupt):
        run_stacks(fake, three_stacks)
    down = fake.commands[-1]
    assert FakeEngine.verb(down) == "down"
    assert {"--volumes", "--remove-orphans"} <= set(down) and "loadtest" in down
    # Interrupted during the first stack: the later ones never started.
    assert [FakeEngine.verb(c) for c in fake.commands if FakeEngine.verb(c) == "build"] == ["build"]


def test_a_container_that_cannot_be_removed_takes_the_project_down_at_once(home, three_stacks, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK, fail="rm")
    outcomes = run_stacks(fake, three_stacks[:2])
    assert outcomes[0].problems[0].startswith("docker compose rm go-gin failed; see ")
    # So the next stack seeds afresh, with nothing of the first in its way.
    assert verbs(fake) == [
        "down", "build", "up", "exec", "up", "run", "rm", "down",
        "build", "up", "exec", "up", "run", "rm", "down", "down",
    ]  # fmt: skip
    assert outcomes[1].database is not None
    assert not outcomes[1].database.reset and outcomes[1].database.failed_reset is None


def test_a_failed_down_at_the_end_is_the_runs_failure(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK, fail="down")
    with Project(fake) as project:
        outcome = cycle.run_stack(project, go_gin, on_progress=lambda text: None)
    # The leftovers' down before the first stack failing too, the seeding tries it again.
    assert outcome.problems == [
        f"docker compose down failed before a fresh seeding; see {home / 'logs' / 'compose-down.log'}"
    ]
    assert project.problems == [
        f"docker compose down failed: project bench-docker may still be up; see {home / 'logs' / 'compose-down.log'}"
    ]


def test_k6_errors_fail_the_smoke(home, go_gin, conformance_passes):
    line = "read-heavy @ 50 VUs: 812 req/s, p99 41.5 ms, 3 unexpected statuses\n"
    outcome = run_one(FakeEngine(k6_line=line), go_gin)
    assert outcome.smoke is not None and not outcome.smoke.ok
    assert not outcome.ok


def test_k6_without_its_summary_line_fails_the_smoke(home, go_gin, conformance_passes):
    outcome = run_one(FakeEngine(k6_line="level=error msg=boom\n"), go_gin)
    assert outcome.smoke is not None and outcome.smoke.summary == "k6 exit 0, no summary line"
    assert not outcome.ok


def test_images_present_are_used_pullable_ones_pulled_and_the_rest_stood_in(home, monkeypatch):
    fake = FakeEngine(images={"debian:12.12-slim": "", "golang:1.26.8-bookworm": "host Go"})
    fake.pullable.add("node:20.20.2-bookworm-slim")
    built: list[str] = []

    def fake_build(docker, image):
        built.append(image)
        docker.images[image] = "a stand-in"

    monkeypatch.setattr(standins, "build", fake_build)
    wanted = ["golang:1.26.8-bookworm", "debian:12.12-slim", "node:20.20.2-bookworm-slim", "postgres:15.18-bookworm"]
    found = standins.ensure(fake, wanted, on_progress=lambda text: None)
    assert built == ["postgres:15.18-bookworm"]
    assert found.standins == {"golang:1.26.8-bookworm": "host Go", "postgres:15.18-bookworm": "a stand-in"}
    assert found.announcement().startswith("built against stand-in base images: golang:1.26.8-bookworm = host Go")


def test_the_debian_base_is_made_before_every_other_stand_in(home, monkeypatch):
    fake = FakeEngine()
    built: list[str] = []

    def fake_build(docker, image):
        built.append(image)
        docker.images[image] = "stand-in"

    monkeypatch.setattr(standins, "build", fake_build)
    standins.ensure(fake, ["golang:1.26.8-bookworm", "grafana/k6:1.8.1"], on_progress=lambda text: None)
    assert built == [standins.BASE, "golang:1.26.8-bookworm", "grafana/k6:1.8.1"]


def test_no_stand_in_when_every_image_comes_from_the_registry(home):
    fake = FakeEngine()
    fake.pullable |= {standins.BASE, "golang:1.26.8-bookworm"}
    found = standins.ensure(fake, ["golang:1.26.8-bookworm"], on_progress=lambda text: None)
    assert found.standins == {}
    assert found.announcement() == "base images: all from their registry"


def test_an_image_without_a_recipe_is_a_clear_error(home):
    with pytest.raises(BenchError, match="no stand-in"):
        standins.build(FakeEngine(), "mcr.microsoft.com/dotnet/sdk:9.0.100")


def test_a_missing_debootstrap_is_installed_from_debians_packages(monkeypatch):
    installed: list[str] = []
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/sbin/debootstrap" if installed else None)
    monkeypatch.setattr(system, "apt_install", lambda packages, why: installed.extend(packages))
    assert standins._host_command("debootstrap") == Path("/usr/sbin/debootstrap")
    assert installed == ["debootstrap"]


def test_a_missing_toolchain_is_named_not_installed(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(system, "apt_install", lambda packages, why: pytest.fail("installed a toolchain"))
    with pytest.raises(BenchError, match="needs `mvn`"):
        standins._host_command("mvn")


def test_required_images_are_the_stacks_bases_and_composes_images():
    wanted = standins.required_images(paths.ROOT, [paths.ROOT / "go-gin", paths.ROOT / "java-spring"])
    assert wanted[:2] == ["golang:1.26.8-bookworm", "debian:12.12-slim"]
    assert "maven:3.9.16-eclipse-temurin-25-noble" in wanted
    assert "postgres:15.18-bookworm" in wanted and "grafana/k6:1.8.1" in wanted
    assert not any(image.startswith(compose.PROJECT) for image in wanted)


def test_a_stack_of_any_language_needs_the_stock_upstreams_go_image_too():
    # `docker compose up java-spring` builds the upstream it waits for.
    wanted = standins.required_images(paths.ROOT, [paths.ROOT / "java-spring"])
    assert "golang:1.26.8-bookworm" in wanted and "debian:12.12-slim" in wanted


def test_every_java_dockerfile_pins_the_same_maven_image():
    java = [d for d in manifest.stack_dirs() if d.name.startswith("java-")]
    bases = {image for d in java for image in standins.required_images(paths.ROOT, [d]) if image.startswith("maven:")}
    assert bases == {"maven:3.9.16-eclipse-temurin-25-noble"}


def test_every_base_image_of_the_repository_has_a_recipe():
    wanted = standins.required_images(paths.ROOT, manifest.stack_dirs())
    missing = [
        image for image in wanted if image != standins.BASE and images.repository(image) not in standins.STANDINS
    ]
    assert missing == []
    for standin in standins.STANDINS.values():
        assert (standins.RECIPES / standin.recipe / "Dockerfile").is_file()


def test_a_build_context_holds_the_recipe_and_the_host_files_without_documentation(tmp_path):
    recipe = tmp_path / "recipe"
    recipe.mkdir()
    (recipe / "Dockerfile").write_text("FROM scratch\n")
    tool = tmp_path / "tool"
    (tool / "bin").mkdir(parents=True)
    (tool / "bin" / "run").write_text("x")
    (tool / "share" / "doc").mkdir(parents=True)
    (tool / "share" / "doc" / "README").write_text("docs")
    (tool / "lib").mkdir()
    (tool / "lib" / "real.so").write_text("so")
    (tool / "lib" / "link.so").symlink_to("real.so")
    archive = tmp_path / "context.tar"
    standins._write_context(archive, recipe, {"tool": tool})
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
        link = tar.getmember("tool/lib/link.so")
    assert {"Dockerfile", "tool/bin/run", "tool/lib/real.so"} <= names
    assert not any(name.startswith("tool/share/doc") for name in names)
    assert link.isfile()  # followed: a context cannot point outside itself


def test_test_skips_the_docker_path_loudly_where_it_cannot_run(monkeypatch, capsys):
    monkeypatch.setattr(session, "available", lambda: "needs root on Debian")
    results = docker_path.run_docker_path([])
    assert len(results) == 1 and results[0].ok
    assert results[0].steps["docker"].summary == "skipped: needs root on Debian"
    assert "SKIPPED" in capsys.readouterr().out


def test_a_project_left_up_fails_bench_test_in_a_row_of_its_own(monkeypatch, capsys):
    passed = cycle.Outcome("go-gin", conformance=conformance.Step(True, "conformance: 7 passed, 0 failed"))
    passed.smoke = conformance.Step(True, "read-heavy 50 VUs: 812 req/s")
    passed.healthcheck = conformance.Step(True, "healthcheck: healthy")
    left_up = "docker compose down failed: project bench-docker may still be up; see compose-down.log"
    report = session.Report(outcomes=[passed], problems=[left_up])
    monkeypatch.setattr(session, "available", lambda: None)
    monkeypatch.setattr(session, "run", lambda selected, on_progress, whole_suite: report)
    results = docker_path.run_docker_path([])
    assert not report.ok
    assert [(r.stack, r.ok) for r in results] == [("go-gin (docker)", True), ("docker path", False)]
    assert results[1].steps["docker"].summary == left_up and results[1].failed == 1
    assert left_up in capsys.readouterr().out


def test_docker_can_run_as_root_on_debian_without_a_daemon(monkeypatch):
    monkeypatch.setattr(engine.Engine, "answers", lambda self: False)
    monkeypatch.setattr(engine, "can_install", lambda: True)
    assert session.available() is None
    monkeypatch.setattr(engine, "can_install", lambda: False)
    assert session.available() is not None


def test_a_stack_missing_from_compose_yaml_is_refused(go_gin):
    renamed = go_gin.model_copy(update={"name": "no-such-service"})
    with pytest.raises(BenchError, match=r"compose\.yaml has no service for no-such-service"):
        session.run([renamed], on_progress=lambda text: None)


def test_the_compose_plugin_is_built_once_from_its_module_and_linked(tmp_path, monkeypatch, home):
    monkeypatch.setattr(tools, "CACHE", tmp_path / "cache")
    monkeypatch.setenv("DOCKER_CONFIG", str(tmp_path / "docker-config"))
    module = tmp_path / "module"
    module.mkdir()
    ran: list[tuple[list[str], Path]] = []

    def fake_download(command, **kwargs):
        ran.append((command, Path(kwargs["cwd"])))
        return subprocess.CompletedProcess(command, 0, json.dumps({"Dir": str(module)}), "")

    def fake_build(command, *, cwd, env, log, timeout_s=None):
        ran.append((command, cwd))
        Path(command[command.index("-o") + 1]).write_text("plugin")
        return 0

    answers = iter([None, "2.40.3"])
    monkeypatch.setattr(engine.Engine, "compose_version", lambda self: next(answers))
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(subprocess, "run", fake_download)
    monkeypatch.setattr(procs, "run", fake_build)
    assert engine.install_compose(engine.Engine()) == "2.40.3"
    download, build = ran
    assert download[0][:3] == ["go", "mod", "download"] and download[0][-1] == "github.com/docker/compose/v2@v2.40.3"
    assert build[1] == module and build[0][-1] == "./cmd"
    assert "github.com/docker/compose/v2/internal.Version=v2.40.3" in " ".join(build[0])
    plugin = tmp_path / "docker-config" / "cli-plugins" / "docker-compose"
    assert plugin.resolve() == engine.compose_cache().resolve()


def test_a_daemon_started_here_is_stopped_afterwards(monkeypatch, home):
    answers = iter([False, False, True])
    monkeypatch.setattr(engine.Engine, "answers", lambda self: next(answers))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    started: list[subprocess.Popen[bytes]] = []

    def fake_spawn(command, *, cwd, env, log):
        assert command.startswith("exec dockerd")
        proc = subprocess.Popen(["sleep", "60"], start_new_session=True)
        started.append(proc)
        return proc

    monkeypatch.setattr(procs, "spawn", fake_spawn)
    monkeypatch.setattr(time, "sleep", lambda seconds: None)
    with engine.daemon(engine.Engine()) as started_here:
        assert started_here
        assert started[0].poll() is None
    assert started[0].poll() is not None


def test_a_running_daemon_is_left_alone(monkeypatch):
    monkeypatch.setattr(engine.Engine, "answers", lambda self: True)
    monkeypatch.setattr(procs, "spawn", lambda *args, **kwargs: pytest.fail("started a daemon"))
    with engine.daemon(engine.Engine()) as started_here:
        assert not started_here
