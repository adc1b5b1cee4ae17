"""The Compose project across one `./bench docker` run: PostgreSQL and the stock upstream come up
once, the first stack gets the database as the image's entrypoint seeds it, every later stack the
same seeded database back from a copy kept in the volume; `down -v` before the first stack and
after the last."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench import compose_file, postgres
from bench.docker import engine
from bench.docker.compose import PROJECT, UP_TIMEOUT_S, compose_command, down, timed
from bench.errors import BenchError
from bench.manifest import Stack

# compose.yaml's database and user; the seeded copy every later stack's database is made from,
# kept in the volume beside it (a template that takes no connections, as the native cluster's).
DB_NAME = "bench"
DB_USER = "bench"
SEEDED_COPY = "bench_seeded"
DB_COMMAND_TIMEOUT_S = 120.0


def psql(*statements: str) -> list[str]:
    """`statements` run one by one (DROP and CREATE DATABASE refuse a transaction) by psql in
    PostgreSQL's container, connected to the maintenance database; the first error stops it."""
    args = ["exec", "-T", compose_file.DB_SERVICE, "psql", "--username", DB_USER, "--dbname", "postgres"]
    args += ["--no-psqlrc", "--set", "ON_ERROR_STOP=1"]
    for statement in statements:
        args += ["--command", statement]
    return compose_command(*args)


@dataclass(frozen=True)
class Database:
    """What PostgreSQL took for one stack: seeded by the image's entrypoint on a fresh volume and
    then copied, or `bench` replaced from that copy (`reset`)."""

    reset: bool
    seconds: float
    copy_s: float | None = None
    # The log of the reset that failed, when the database was seeded afresh instead.
    failed_reset: Path | None = None

    def summary(self, *, short: bool = False) -> str:
        if self.reset:
            return f"reset in {self.seconds:.1f} s"
        said = f"seeded in {self.seconds:.1f} s"
        if self.copy_s is not None:
            said += f", copied in {self.copy_s:.1f} s"
        if self.failed_reset is not None:
            said += " after a failed reset" if short else f" after the reset failed (see {self.failed_reset})"
        return said


class Project:
    """The project of one run, as a context: taken down, volumes and all, on entry (whatever an
    interrupted run left) and on exit, whatever happened, Ctrl-C included. In between PostgreSQL
    and the stock upstream stay up from one stack to the next, and each stack's own container is
    removed after it (bench.docker.cycle.run_stack)."""

    def __init__(self, docker: engine.Engine) -> None:
        self.engine = docker
        # The run's own failures (the project's `down` at the end), beside the stacks'.
        self.problems: list[str] = []
        # Whether the project may hold a database (then a fresh seeding needs `down -v` first),
        # and whether its volume holds the seeded copy.
        self._volume_used = True
        self._copy_made = False

    def __enter__(self) -> Project:
        self.down()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.down() != 0:
            self.problems.append(
                f"docker compose down failed: project {PROJECT} may still be up; see {engine.LOGS / 'compose-down.log'}"
            )

    def down(self) -> int:
        code = down(self.engine)
        self._copy_made = False
        if code == 0:
            self._volume_used = False
        return code

    def prepare_database(self, stack: Stack, on_progress: Callable[[str], object]) -> Database:
        """PostgreSQL serving the seeded `bench` for `stack`: replaced from the seeded copy (a
        file copy, as the native runner's bench.postgres.Cluster.reset) when the volume holds
        one; else, or when that fails (PostgreSQL left stopped by a failed case, say), the
        project taken down and the database seeded by the image's entrypoint on a fresh volume,
        exactly as a visitor's `docker compose up` seeds it, then copied for the next stacks."""
        failed_reset = None
        if self._copy_made:
            on_progress(f"{stack.name}: PostgreSQL reset from the seeded copy")
            log_name = f"{stack.name}-reset-postgres"
            started = time.monotonic()
            reset = psql(*postgres.replacing_statements(DB_NAME, SEEDED_COPY))
            if self.engine.run(reset, log_name=log_name, timeout_s=DB_COMMAND_TIMEOUT_S) == 0:
                return Database(reset=True, seconds=time.monotonic() - started)
            failed_reset = engine.LOGS / f"{log_name}.log"
            on_progress(f"{stack.name}: PostgreSQL's reset failed; docker compose down -v and seeding afresh")
        if self._volume_used and self.down() != 0:
            raise BenchError(
                f"docker compose down failed before a fresh seeding; see {engine.LOGS / 'compose-down.log'}"
            )
        on_progress(f"{stack.name}: PostgreSQL seeding")
        self._volume_used = True
        seeded_s = timed(
            self.engine,
            compose_command("up", "--detach", "--wait", compose_file.DB_SERVICE),
            log_name=f"{stack.name}-up-postgres",
            timeout_s=UP_TIMEOUT_S,
            what="docker compose up postgres",
        )
        on_progress(f"{stack.name}: PostgreSQL's seeded database copied for the next stacks")
        copy_s = timed(
            self.engine,
            psql(
                f'CREATE DATABASE "{SEEDED_COPY}" TEMPLATE "{DB_NAME}" STRATEGY FILE_COPY',
                postgres.sealing_statement(SEEDED_COPY),
            ),
            log_name=f"{stack.name}-copy-postgres",
            timeout_s=DB_COMMAND_TIMEOUT_S,
            what=f"copying the seeded database to {SEEDED_COPY}",
        )
        self._copy_made = True
        return Database(reset=False, seconds=seeded_s, copy_s=copy_s, failed_reset=failed_reset)
