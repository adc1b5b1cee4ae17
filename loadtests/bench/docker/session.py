"""`./bench docker`: the engine and Compose ready, the base images there, then each stack's cycle
(bench/docker/cycle.py) and one table."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.table import Table

from bench import compose_file, paths
from bench.conformance import Step
from bench.console import console
from bench.docker import compose, cycle, engine, standins
from bench.docker.project import Project
from bench.errors import BenchError
from bench.manifest import Stack


@dataclass
class Report:
    server_version: str = ""
    compose_version: str = ""
    started_daemon: bool = False
    base_images: standins.BaseImages = field(default_factory=lambda: standins.BaseImages({}))
    outcomes: list[cycle.Outcome] = field(default_factory=list)
    # The run's own failures, beside the stacks' (the project's `down` at the end).
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return bool(self.outcomes) and all(o.ok for o in self.outcomes) and not self.problems


def available() -> str | None:
    """None when `./bench docker` can run here; else why not (for the loud skip in CI)."""
    docker = engine.Engine()
    if docker.answers() and docker.compose_version() is not None:
        return None
    if engine.can_install():
        return None
    return "needs root on Debian (to install Docker Engine and start dockerd) or a running daemon with Compose v2"


def _check_services(selected: list[Stack]) -> None:
    services = compose_file.services_of(compose_file.load(paths.ROOT / compose_file.COMPOSE_FILE))
    missing = [s.name for s in selected if compose.service(s) not in services]
    if missing:
        raise BenchError(f"compose.yaml has no service for {', '.join(missing)}: add one (docs/docker.md)")
    for stack in selected:
        cycle.check_variant_stage(stack)


@contextmanager
def ready(
    docker: engine.Engine, selected: list[Stack], on_progress: Callable[[str], object]
) -> Iterator[tuple[str, bool, standins.BaseImages]]:
    """Docker Engine and the Compose plugin installed, a daemon for the block, the base images of
    `selected` there. Yields Compose's version, whether the daemon was started here, the base
    images (pulled or stand-ins)."""
    on_progress("Docker Engine")
    engine.install_engine()
    on_progress(f"Compose v2 plugin (a build of {engine.COMPOSE_VERSION} takes minutes, once per machine)")
    compose_version = engine.install_compose(docker)
    on_progress("Docker daemon")
    with engine.daemon(docker) as started_daemon:
        wanted = standins.required_images(paths.ROOT, [s.directory for s in selected])
        yield compose_version, started_daemon, standins.ensure(docker, wanted, on_progress)


def run(selected: list[Stack], on_progress: Callable[[str], object], *, whole_suite: bool = True) -> Report:
    """Every selected stack through the Docker path; the daemon stopped afterwards if started here.
    `whole_suite=False` leaves out the conformance cases of the code alone (bench.conformance.CODE_ONLY_MARKER)."""
    _check_services(selected)
    report = Report()
    started = time.monotonic()
    docker = engine.Engine()
    with ready(docker, selected, on_progress) as (report.compose_version, report.started_daemon, report.base_images):
        report.server_version = docker.server_version()
        console.print(
            f"docker: Engine {report.server_version}"
            + (" (dockerd started for this run)" if report.started_daemon else "")
            + f", Compose {report.compose_version}"
        )
        console.print(report.base_images.announcement(), markup=False)
        # PostgreSQL and the stock upstream stay up from one stack to the next; the project goes
        # down before the first (what an interrupted run left) and after the last, whatever happens.
        with Project(docker) as project:
            for stack in selected:
                outcome = cycle.run_stack(project, stack, on_progress, whole_suite=whole_suite)
                report.outcomes.append(outcome)
                console.print(line(outcome), markup=False)
                for problem in outcome.problems:
                    console.print(problem, style="red", markup=False)
        report.problems = project.problems
        for problem in report.problems:
            console.print(problem, style="red", markup=False)
    report.seconds = time.monotonic() - started
    return report


def line(outcome: cycle.Outcome) -> str:
    conformance = outcome.conformance.summary if outcome.conformance else "not run"
    smoke = outcome.smoke.summary if outcome.smoke else "not run"
    healthcheck = outcome.healthcheck.summary if outcome.healthcheck else "healthcheck: not checked"
    return (
        f"{outcome.stack}: {'PASS' if outcome.ok else 'FAIL'}; image {cycle.megabytes(outcome.image_bytes)}, "
        f"build {cycle.seconds(outcome.build_s)}, GET /health 200 in {cycle.seconds(outcome.healthy_s)} "
        f"(PostgreSQL {outcome.postgres()}); {conformance}; k6 {smoke}; {healthcheck}"
    )


def summary(outcome: cycle.Outcome) -> str:
    """The short form for `./bench test`'s table."""
    if outcome.problems:
        return outcome.problems[0].splitlines()[0]
    failed = [step for step in (outcome.smoke, outcome.healthcheck) if step is not None and not step.ok]
    if failed and (outcome.conformance is None or outcome.conformance.ok):
        return failed[0].summary
    conformance = outcome.conformance.summary if outcome.conformance else "conformance not run"
    return f"{cycle.megabytes(outcome.image_bytes)}, /health 200 in {cycle.seconds(outcome.healthy_s)}; {conformance}"


def print_table(report: Report) -> None:
    table = Table(title="./bench docker")
    for column in (
        "stack",
        "image",
        "build",
        "PostgreSQL",
        "GET /health 200",
        "conformance",
        "k6 smoke",
        "healthcheck",
        "result",
    ):
        table.add_column(column)
    for o in report.outcomes:
        table.add_row(
            o.stack,
            cycle.megabytes(o.image_bytes),
            cycle.seconds(o.build_s),
            o.postgres(short=True),
            cycle.seconds(o.healthy_s),
            _cell(o.conformance),
            _cell(o.smoke),
            _cell(o.healthcheck),
            "[green]PASS[/]" if o.ok else "[red]FAIL[/]",
        )
    console.print(table)
    console.print(report.base_images.announcement(), markup=False)
    for problem in report.problems:
        console.print(problem, style="red", markup=False)
    console.print(f"docker: {len(report.outcomes)} stacks in {report.seconds / 60:.1f} min")


def _cell(step: Step | None) -> str:
    if step is None:
        return "not run"
    return step.summary if step.ok else f"[red]{step.summary}[/]"
