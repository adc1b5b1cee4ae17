"""The runner's private PostgreSQL cluster: its own data directory, port and seeded template.

Never the system's cluster. When the runner is root, the server runs as an unprivileged user
(PostgreSQL refuses to run as root): `postgres` if Debian's package made it, else one we create.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pwd
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg

from bench import paths, ports, system
from bench.errors import BenchError

DB_USER = "bench"
DB_PASSWORD = "bench"
DB_NAME = "bench"
TEMPLATE_NAME = "bench_template"
# Below the kernel's ephemeral range (32768-60999 on Linux): while the resilience cases have the
# cluster stopped, an outgoing connection could be given a port in that range as its own, and the
# restart could then not listen on it (seen with 55450 while other runners were busy).
DEFAULT_PORT = 25432
# How long a restart waits for its port to be let go before it gives up.
PORT_WAIT_S = 20.0
SERVICE_USER = "bench-postgres"
MIN_VERSION = 15  # CREATE DATABASE … STRATEGY FILE_COPY


def port() -> int:
    raw = os.environ.get("BENCH_PG_PORT", str(DEFAULT_PORT))
    if not raw.isdigit() or not 1024 <= int(raw) <= 65535:
        raise BenchError(f"BENCH_PG_PORT={raw!r} is not a port number between 1024 and 65535")
    return int(raw)


def find_bindir() -> Path | None:
    override = os.environ.get("BENCH_PG_BIN")
    if override:
        return Path(override) if (Path(override) / "initdb").exists() else None
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if candidates:
        return candidates[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def server_version(bindir: Path) -> int:
    out = subprocess.run([bindir / "postgres", "--version"], capture_output=True, text=True).stdout
    # "postgres (PostgreSQL) 15.18 (Debian …)"
    try:
        return int(out.split(")")[1].strip().split(".")[0])
    except (IndexError, ValueError):
        raise BenchError(f"cannot read the PostgreSQL version from {out.strip()!r}") from None


def ensure_installed() -> Path:
    """Finds PostgreSQL's server binaries, installing Debian's package when they are absent."""
    bindir = find_bindir()
    if bindir is None:
        system.apt_install(["postgresql", "postgresql-contrib"], why="the PostgreSQL server", keep_services_down=True)
        bindir = find_bindir()
        if bindir is None:
            raise BenchError(
                "PostgreSQL's initdb is still missing after installing it: "
                "set BENCH_PG_BIN to the directory holding initdb and postgres"
            )
    version = server_version(bindir)
    if version < MIN_VERSION:
        raise BenchError(
            f"PostgreSQL {version} found in {bindir}, {MIN_VERSION} or newer is needed: "
            "install a newer one or point BENCH_PG_BIN at it"
        )
    if not (bindir.parent / "lib" / "pg_stat_statements.so").exists() and not list(
        Path("/usr/lib").glob(f"postgresql/{version}/lib/pg_stat_statements.so")
    ):
        system.apt_install(
            [f"postgresql-contrib-{version}", "postgresql-contrib"],
            why="pg_stat_statements",
            keep_services_down=True,
            any_of=True,
        )
    return bindir


@dataclass
class Cluster:
    bindir: Path
    data: Path
    port: int
    os_user: str | None  # the user the server runs as when we are root; None: ourselves

    @property
    def log(self) -> Path:
        return self.data.parent / "postgres.log"

    def url(self, database: str = DB_NAME) -> str:
        return f"postgres://{DB_USER}:{DB_PASSWORD}@127.0.0.1:{self.port}/{database}"

    def _as_server_user(self, argv: list[str]) -> list[str]:
        return ["runuser", "-u", self.os_user, "--", *argv] if self.os_user else argv

    def pg_ctl(self, *args: str) -> list[str]:
        return self._as_server_user([str(self.bindir / "pg_ctl"), "-D", str(self.data), *args])

    def start_command(self) -> str:
        return shlex.join(self.pg_ctl("-l", str(self.log), "-w", "-t", "60", "start"))

    def stop_command(self) -> str:
        return shlex.join(self.pg_ctl("-w", "-t", "60", "stop", "-m", "fast"))

    # -- state ---------------------------------------------------------------------------------

    def initialised(self) -> bool:
        return (self.data / "PG_VERSION").exists()

    def running(self) -> bool:
        if not self.initialised():
            return False
        return subprocess.run(self.pg_ctl("status"), capture_output=True).returncode == 0

    # -- lifecycle -----------------------------------------------------------------------------

    def init(self) -> None:
        self.data.parent.mkdir(parents=True, exist_ok=True)
        if self.os_user:
            shutil.chown(self.data.parent, self.os_user)
        pwfile = self.data.parent / "pwfile"
        pwfile.write_text(DB_PASSWORD + "\n")
        if self.os_user:
            shutil.chown(pwfile, self.os_user)
        try:
            result = subprocess.run(
                self._as_server_user(
                    [
                        str(self.bindir / "initdb"),
                        "-D",
                        str(self.data),
                        "-U",
                        DB_USER,
                        f"--pwfile={pwfile}",
                        "--auth-host=scram-sha-256",
                        "--auth-local=peer",
                        "-E",
                        "UTF8",
                        "--locale=C.UTF-8",
                    ]
                ),
                capture_output=True,
                text=True,
            )
        finally:
            pwfile.unlink(missing_ok=True)
        if result.returncode != 0:
            shutil.rmtree(self.data, ignore_errors=True)
            last = (result.stderr.strip().splitlines() or ["no output"])[-1]
            raise BenchError(f"initdb failed in {self.data}: {last}")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                "\n# Added by ./bench: the shared settings, then this cluster's own.\n"
                "include_if_exists = 'bench.conf'\n"
                "include_if_exists = 'bench-local.conf'\n"
            )

    def _write_config(self) -> None:
        shared = (paths.DB_DIR / "postgresql.conf").read_text()
        local = (
            f"port = {self.port}\n"
            "# TCP on 127.0.0.1 only: no socket file to collide with another cluster.\n"
            "unix_socket_directories = ''\n"
        )
        for name, text in (("bench.conf", shared), ("bench-local.conf", local)):
            target = self.data / name
            target.write_text(text)
            if self.os_user:
                shutil.chown(target, self.os_user)

    def start(self) -> None:
        if self.running():
            return
        if not self.initialised():
            self.init()
        deadline = time.monotonic() + PORT_WAIT_S
        while ports.port_in_use(self.port):
            if time.monotonic() > deadline:
                raise BenchError(
                    f"port {self.port} is in use by another program: "
                    "set BENCH_PG_PORT to a free port for the runner's PostgreSQL (below 32768, where the "
                    "kernel hands out no port to an outgoing connection)"
                )
            time.sleep(0.5)
        self._write_config()
        result = subprocess.run(shlex.split(self.start_command()), capture_output=True, text=True)
        if result.returncode != 0:
            reason = last_error_line(self.log) or (result.stderr.strip().splitlines() or ["?"])[-1]
            raise BenchError(f"PostgreSQL did not start ({reason}); its log is {self.log}")

    def stop(self) -> None:
        if self.running():
            subprocess.run(shlex.split(self.stop_command()), capture_output=True)

    # -- databases -----------------------------------------------------------------------------

    def connect(self, database: str = "postgres") -> psycopg.Connection:
        try:
            return psycopg.connect(self.url(database), autocommit=True, connect_timeout=10)
        except psycopg.OperationalError as error:
            reason = str(error).strip().splitlines()[0]
            raise BenchError(
                f"the runner's PostgreSQL on port {self.port} does not answer ({reason}); its log is {self.log}"
            ) from None

    def ensure_template(self) -> bool:
        """Seeds the template database unless it already holds the current db/ files' data.

        Returns True when it (re)built the template.
        """
        fingerprint = seed_fingerprint()
        with self.connect() as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            row = conn.execute(
                "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s", (TEMPLATE_NAME,)
            ).fetchone()
            if row is not None and row[0] == fingerprint:
                return False
            if row is not None:
                conn.execute(f"ALTER DATABASE {TEMPLATE_NAME} WITH IS_TEMPLATE false ALLOW_CONNECTIONS true")
                conn.execute(f"DROP DATABASE {TEMPLATE_NAME} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {TEMPLATE_NAME}")
        with self.connect(TEMPLATE_NAME) as conn:
            conn.execute((paths.DB_DIR / "schema.sql").read_text())
            conn.execute((paths.DB_DIR / "seed.sql").read_text())
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        with self.connect() as conn:
            conn.execute(sealing_statement(TEMPLATE_NAME))
            conn.execute(f"COMMENT ON DATABASE {TEMPLATE_NAME} IS '{fingerprint}'")
        return True

    def reset(self, database: str = DB_NAME) -> None:
        """Replaces `database` with a copy of the seeded template (a file copy: well under 1 s)."""
        with self.connect() as conn:
            for statement in replacing_statements(database, TEMPLATE_NAME):
                conn.execute(statement)

    def vacuum(self, database: str = DB_NAME) -> None:
        """VACUUM of every table of `database`: dead rows gone, the visibility map set again."""
        with self.connect(database) as conn:
            conn.execute("VACUUM")

    def drop(self, database: str) -> None:
        with self.connect() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')

    def databases(self) -> list[str]:
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT datname FROM pg_database WHERE NOT datname LIKE 'template_' ORDER BY datname"
            ).fetchall()
        return [r[0] for r in rows]


def replacing_statements(database: str, template: str) -> tuple[str, str]:
    """What replaces `database` with a file copy of the seeded `template`, each statement outside
    a transaction: the native cluster's reset and the Docker path's (bench.docker.project)."""
    return (
        f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)',
        f'CREATE DATABASE "{database}" TEMPLATE "{template}" STRATEGY FILE_COPY',
    )


def sealing_statement(template: str) -> str:
    """What makes `template` a template no one connects to, so that a copy of it is never refused
    for an open connection nor changed by one."""
    return f'ALTER DATABASE "{template}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false'


def seed_fingerprint() -> str:
    digest = hashlib.sha256()
    for name in ("schema.sql", "seed.sql"):
        digest.update((paths.DB_DIR / name).read_bytes())
    return "seed:" + digest.hexdigest()[:16]


def last_error_line(log: Path) -> str | None:
    try:
        lines = log.read_text(errors="replace").splitlines()
    except (FileNotFoundError, PermissionError):
        return None
    for line in reversed(lines):
        if "FATAL" in line or "ERROR" in line or "PANIC" in line:
            return line.split(":  ", 1)[-1].strip()
    return None


def _server_user() -> str | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", SERVICE_USER):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVICE_USER],
        check=True,
        capture_output=True,
    )
    return SERVICE_USER


def _data_dir(os_user: str | None) -> Path:
    preferred = paths.HOME / "postgres" / "data"
    if os_user is None:
        return preferred
    # The server user must reach the data directory; a checkout under /root is out of its reach,
    # so the cluster then lives under /var/tmp, keyed by the state directory it belongs to.
    preferred.parent.mkdir(parents=True, exist_ok=True)
    shutil.chown(preferred.parent, os_user)
    reachable = (
        subprocess.run(
            ["runuser", "-u", os_user, "--", "test", "-w", str(preferred.parent)], capture_output=True
        ).returncode
        == 0
    )
    if reachable:
        return preferred
    key = hashlib.sha256(str(paths.HOME.resolve()).encode()).hexdigest()[:12]
    return Path("/var/tmp") / f"bench-postgres-{key}" / "data"


def cluster() -> Cluster:
    bindir = ensure_installed()
    os_user = _server_user()
    return Cluster(bindir=bindir, data=_data_dir(os_user), port=port(), os_user=os_user)


@contextlib.contextmanager
def session() -> Iterator[Cluster]:
    """The ready cluster for one command; stopped again at the end if this command started it
    (a cluster started by `./bench db start` is left running)."""
    c = cluster()
    was_running = c.running()
    try:
        yield ready_cluster(c)
    finally:
        if not was_running:
            c.stop()


def ready_cluster(c: Cluster | None = None) -> Cluster:
    """The running cluster with its seeded template: what every command that needs data calls."""
    c = c or cluster()
    c.start()
    deadline = time.monotonic() + 30
    while True:
        try:
            c.ensure_template()
            return c
        except psycopg.OperationalError as error:
            if time.monotonic() > deadline:
                raise BenchError(
                    f"cannot connect to the runner's PostgreSQL on port {c.port}: {str(error).strip().splitlines()[-1]}"
                ) from None
            time.sleep(0.5)
