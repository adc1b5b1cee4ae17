"""`./bench docker` without a daemon: the orchestration against a fake docker CLI, the stand-in
table, the build contexts and the skip of `./bench test` where Docker cannot run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from bench import conformance, manifest, paths, procs, system, tools
from bench.checks import images
from bench.docker import cycle, engine, session, standins
from bench.errors import BenchError
from bench.testing import docker_path


class FakeEngine(engine.Engine):
    """The docker CLI as a script: every command is recorded; `fail` names the first word
    after `compose ...` (or after `docker`) that exits 1; images answer from `images`."""

    def __init__(self, *, fail: str = "", k6_line: str = "", interrupt: str = "", images: dict[str, str] | None = None):
        super().__init__("docker")
        self.commands: list[list[str]] = []
        self.fail = fail
        self.k6_line = k6_line
        self.interrupt = interrupt
        self.images = dict(images or {})
        self.pullable: set[str] = set()
        self.built: list[str] = []

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
        return 1 if verb == self.fail else 0

    def output(self, args, timeout_s=60.0):
        self.commands.append(args)
        if args[:2] == ["image", "inspect"]:
            image = args[-1]
            if image.startswith(cycle.PROJECT):
                return subprocess.CompletedProcess(args, 0, "123456789\n", "")
            if image not in self.images:
                return subprocess.CompletedProcess(args, 1, "", "no such image")
            labels = json.dumps({standins.LABEL: self.images[image]} if self.images[image] else None)
            return subprocess.CompletedProcess(args, 0, labels + "\n", "")
        if args[0] == "compose" and "port" in args:
            return subprocess.CompletedProcess(args, 0, "0.0.0.0:8081\n", "")
        return subprocess.CompletedProcess(args, 0, "", "")


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "LOGS", tmp_path / "logs")
    monkeypatch.setattr(cycle, "LOGS", tmp_path / "logs")
    return tmp_path


@pytest.fixture
def go_gin():
    return manifest.load(paths.ROOT / "go-gin")


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
    return [FakeEngine.verb(c) for c in fake.commands if c[0] == "compose" and "logs" not in c and "port" not in c]


def test_a_stack_goes_through_build_up_conformance_k6_and_down(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK)
    outcome = cycle.run_stack(fake, go_gin, on_progress=lambda text: None)
    assert verbs(fake) == ["build", "up", "up", "run", "down"]
    assert outcome.ok, outcome.problems
    assert outcome.image_bytes == 123456789
    assert outcome.build_s is not None and outcome.healthy_s is not None
    assert outcome.conformance is not None and outcome.conformance.summary == "conformance: 7 passed, 0 failed"
    assert outcome.smoke is not None and "812 req/s" in outcome.smoke.summary
    assert outcome.passed == 8 and outcome.failed == 0


def test_bench_docker_runs_the_whole_suite_and_bench_test_leaves_out_only_the_code_alone(
    home, go_gin, conformance_passes
):
    cycle.run_stack(FakeEngine(k6_line=K6_OK), go_gin, on_progress=lambda text: None)
    assert f"not {conformance.CODE_ONLY_MARKER}" not in conformance_passes["command"]
    outcome = cycle.run_stack(FakeEngine(k6_line=K6_OK), go_gin, on_progress=lambda text: None, whole_suite=False)
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
    cycle.run_stack(FakeEngine(k6_line=K6_OK), go_gin, on_progress=lambda text: None)
    env = conformance_passes["env"]
    assert env["BASE_URL"] == "http://127.0.0.1:8081"
    assert env["CONFORMANCE_STRICT"] == "1"
    assert env["BENCH_DB_STOP"].endswith("stop postgres")
    assert "up --detach --wait --no-deps postgres" in env["BENCH_DB_START"]
    assert f"--project-name {cycle.PROJECT}" in env["BENCH_DB_STOP"]


def test_the_resilience_cases_reach_the_daemon_this_run_uses(home, go_gin, conformance_passes, monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///run/user/1000/docker.sock")
    monkeypatch.delenv("DOCKER_CONTEXT", raising=False)
    cycle.run_stack(FakeEngine(k6_line=K6_OK), go_gin, on_progress=lambda text: None)
    assert conformance_passes["env"]["DOCKER_HOST"] == "unix:///run/user/1000/docker.sock"
    assert "DOCKER_CONTEXT" not in conformance_passes["env"]


def test_the_stack_asks_the_suites_fake_upstream_on_the_host(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK)
    cycle.run_stack(fake, go_gin, on_progress=lambda text: None)
    ups = [c for c in fake.commands if c[0] == "compose" and "up" in c]
    # PostgreSQL as compose.yaml has it; the stack with the override laid over compose.yaml.
    [override] = [word.removeprefix("--file=") for c in ups for word in c if word.startswith("--file=")]
    assert [FakeEngine.verb(c) for c in ups] == ["up", "up"] and any(w.startswith("--file=") for w in ups[1])
    env = conformance_passes["env"]
    port = env["CONFORMANCE_UPSTREAM_PORT"]
    service = json.loads(Path(override).read_text())["services"]["go-gin"]
    assert service["environment"] == {"STOCK_URL": f"http://host.docker.internal:{port}"}
    assert service["extra_hosts"] == ["host.docker.internal:host-gateway"]
    # The fake listens where the container's traffic to the host's gateway arrives.
    assert env["CONFORMANCE_UPSTREAM_HOST"] == "0.0.0.0"


def test_the_k6_smoke_runs_from_the_compose_service_on_the_project_network(home, go_gin, conformance_passes):
    fake = FakeEngine(k6_line=K6_OK)
    cycle.run_stack(fake, go_gin, on_progress=lambda text: None)
    run = next(c for c in fake.commands if c[0] == "compose" and "run" in c)
    assert "BASE_URL=http://go-gin:8080" in run and "DIALECT=api" in run
    assert run[-3:] == ["k6", "run", "--quiet", "/scripts/read-heavy.js"][-3:]


def test_a_failed_build_still_takes_the_project_down(home, go_gin, conformance_passes):
    fake = FakeEngine(fail="build")
    outcome = cycle.run_stack(fake, go_gin, on_progress=lambda text: None)
    assert verbs(fake) == ["build", "down"]
    assert not outcome.ok
    assert "docker compose build go-gin failed" in outcome.problems[0]
    assert outcome.conformance is None and outcome.smoke is None


def test_ctrl_c_still_takes_the_project_down(home, go_gin, conformance_passes):
    fake = FakeEngine(interrupt="run")
    with pytest.raises(KeyboardInterrupt):
        cycle.run_stack(fake, go_gin, on_progress=lambda text: None)
    down = fake.commands[-1]
    assert FakeEngine.verb(down) == "down"
    assert {"--volumes", "--remove-orphans"} <= set(down) and "loadtest" in down


def test_k6_errors_fail_the_smoke(home, go_gin, conformance_passes):
    line = "read-heavy @ 50 VUs: 812 req/s, p99 41.5 ms, 3 unexpected statuses\n"
    outcome = cycle.run_stack(FakeEngine(k6_line=line), go_gin, on_progress=lambda text: None)
    assert outcome.smoke is not None and not outcome.smoke.ok
    assert not outcome.ok


def test_k6_without_its_summary_line_fails_the_smoke(home, go_gin, conformance_passes):
    outcome = cycle.run_stack(FakeEngine(k6_line="level=error msg=boom\n"), go_gin, on_progress=lambda text: None)
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
    assert not any(image.startswith(cycle.PROJECT) for image in wanted)


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
