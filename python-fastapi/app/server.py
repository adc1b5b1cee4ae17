"""Starts the service: `python -m app.server`.

One worker process: the benchmark caps the service at 1 CPU, and FastAPI's container
deployment docs run a single server process per container. ASGI_SERVER picks the server:
granian (default: measured the better of the two, see README.md) or uvicorn with uvloop and
httptools; both serve the same app alike.
"""

import asyncio
import platform
import signal
import sys
from importlib.metadata import version
from types import FrameType
from typing import NoReturn

import asyncpg

from app.core.config import ConfigError, Settings, get_settings

APP = "app.main:app"
# SIGTERM lets in-flight requests finish, but not longer than this (the contract allows 10 s).
GRACEFUL_SHUTDOWN_S = 8


def fail(message: str) -> NoReturn:
    sys.exit(f"python-fastapi: {message}")


async def check_database(settings: Settings) -> None:
    connection = await asyncpg.connect(settings.DATABASE_URL, timeout=5)
    try:
        await connection.fetchval("SELECT 1")
    finally:
        await connection.close()


def serve_uvicorn(settings: Settings) -> None:
    import uvicorn

    # uvicorn re-raises the SIGTERM it handled once it has shut down gracefully, so that the
    # process ends "by the signal"; the contract wants exit status 0 instead.
    def exit_cleanly(_signum: int, _frame: FrameType | None) -> None:
        sys.exit(0)

    signal.signal(signal.SIGTERM, exit_cleanly)
    uvicorn.run(
        APP,
        host=settings.HOST,
        port=settings.PORT,
        loop="uvloop",
        http="httptools",
        ws="none",
        lifespan="on",
        access_log=settings.LOG_REQUESTS,
        log_level="info" if settings.LOG_REQUESTS else "warning",
        server_header=False,
        proxy_headers=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
    )


def serve_granian(settings: Settings) -> None:
    from granian.constants import HTTPModes, Interfaces, Loops
    from granian.log import LogLevels
    from granian.server import Server

    Server(
        APP,
        address=settings.HOST,
        port=settings.PORT,
        interface=Interfaces.ASGI,
        workers=1,
        runtime_threads=1,
        loop=Loops.uvloop,
        http=HTTPModes.http1,
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
    server = settings.ASGI_SERVER
    try:
        asyncio.run(check_database(settings))
    except Exception as error:  # whatever failed, the database is not usable: say so in one line
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        fail(f"cannot reach the database at start: {reason}")
    print(
        f"python-fastapi: FastAPI {version('fastapi')} on Python {platform.python_version()}, "
        f"{server} {version(server)}, listening on {settings.HOST}:{settings.PORT}, "
        f"pool size {settings.DB_POOL_SIZE}, 1 worker",
        flush=True,
    )
    if server == "granian":
        serve_granian(settings)
    else:
        serve_uvicorn(settings)


if __name__ == "__main__":
    main()
