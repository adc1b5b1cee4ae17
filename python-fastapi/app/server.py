"""Starts the service: `python -m app.server`.

One worker process: the benchmark caps the service at 1 CPU, and FastAPI's container
deployment docs run a single server process per container. The server is granian (measured
against uvicorn, see README.md).
"""

import asyncio
import platform
import sys
from importlib.metadata import version
from typing import NoReturn

import asyncpg
from granian.constants import HTTPModes, Interfaces, Loops
from granian.http import HTTP1Settings
from granian.log import LogLevels
from granian.server import Server

from app.core.config import ConfigError, Settings, get_settings

APP = "app.main:app"
# SIGTERM lets in-flight requests finish, but not longer than this (the contract allows 10 s).
GRACEFUL_SHUTDOWN_S = 8
# A request's headers have this long to arrive, whole (API.md, "Overload and slow clients"); on
# a kept-alive connection the clock starts when the previous answer is sent.
HEADER_READ_TIMEOUT_MS = 10_000
# The connections the worker holds at once; past it granian stops accepting. Its default
# (backlog / workers: 1,024) let a crowd of slow clients take every place until their headers
# timed out. At about 20 KB a connection, 8,192 cost some 160 MiB (README.md, "Limits").
BACKPRESSURE = 8192


def fail(message: str) -> NoReturn:
    sys.exit(f"python-fastapi: {message}")


async def check_database(settings: Settings) -> None:
    connection = await asyncpg.connect(settings.DATABASE_URL, timeout=5)
    try:
        await connection.fetchval("SELECT 1")
    finally:
        await connection.close()


def serve(settings: Settings) -> None:
    Server(
        APP,
        address=settings.HOST,
        port=settings.PORT,
        interface=Interfaces.ASGI,
        workers=1,
        runtime_threads=1,
        loop=Loops.uvloop,
        http=HTTPModes.http1,
        http1_settings=HTTP1Settings(header_read_timeout=HEADER_READ_TIMEOUT_MS),
        backpressure=BACKPRESSURE,
        websockets=False,
        log_access=settings.LOG_REQUESTS,
        log_level=LogLevels.info if settings.LOG_REQUESTS else LogLevels.warning,
        workers_kill_timeout=GRACEFUL_SHUTDOWN_S,
    ).serve()


def main() -> None:
    try:
        settings = get_settings()
    except ConfigError as error:
        fail(str(error))
    try:
        asyncio.run(check_database(settings))
    except Exception as error:  # whatever failed, the database is not usable: say so in one line
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        fail(f"cannot reach the database at start: {reason}")
    print(
        f"python-fastapi: FastAPI {version('fastapi')} on Python {platform.python_version()}, "
        f"granian {version('granian')}, listening on {settings.HOST}:{settings.PORT}, "
        f"pool size {settings.DB_POOL_SIZE}, 1 worker",
        flush=True,
    )
    serve(settings)


if __name__ == "__main__":
    main()
