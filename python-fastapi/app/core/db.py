"""The async engine and session factory, after rafsaf/minimal-fastapi-postgres-template."""

from collections.abc import AsyncIterator

from sqlalchemy import event
from sqlalchemy.engine import AdaptedConnection
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from app.core.config import Settings, get_settings

# Waiting longer than this for a pooled connection, or for a new one, answers 503.
POOL_TIMEOUT_S = 5.0
# SQLSTATE classes that mean the database cannot serve us right now: 08 connection exception,
# 53 insufficient resources (53300 too_many_connections), 57P operator intervention (57P01
# admin_shutdown ... 57P05). Not the rest of class 57: 57014 query_canceled is no outage.
_UNAVAILABLE_SQLSTATE_PREFIXES = ("08", "53", "57P")


def new_async_engine(settings: Settings) -> AsyncEngine:
    engine = create_async_engine(
        settings.sqlalchemy_database_uri,
        pool_size=settings.DB_POOL_SIZE,
        max_overflow=0,
        # Parameters are request data: an error's text, logged on a 500, names the statement alone.
        hide_parameters=True,
        pool_timeout=POOL_TIMEOUT_S,
        connect_args={"timeout": POOL_TIMEOUT_S},
    )
    event.listen(engine.sync_engine, "checkout", _discard_closed_connection)
    return engine


def _discard_closed_connection(
    dbapi_connection: AdaptedConnection, _record: ConnectionPoolEntry, _proxy: PoolProxiedConnection
) -> None:
    # The same guarantee as pool_pre_ping without its round trips (asyncpg's ping is BEGIN, ";",
    # ROLLBACK on every checkout): when PostgreSQL stops or restarts it closes its sockets and
    # asyncpg marks the connection closed. Raising DisconnectionError here makes the pool drop
    # the connection and check out another, so a broken one is never handed to a request.
    # A connection that breaks silently fails its first statement instead; SQLAlchemy then
    # invalidates the whole pool (a 503 for that request, fresh connections for the next).
    if dbapi_connection.driver_connection.is_closed():
        raise DisconnectionError("connection closed by the server")


def database_unavailable(error: BaseException) -> bool:
    """True when `error` means "no usable database connection" (503), False for any other
    database error (a bug: 500). The one place that decides it."""
    if isinstance(error, PoolTimeoutError):  # no pooled connection freed up within POOL_TIMEOUT_S
        return True
    # SQLAlchemy found the connection closed under the statement (its disconnect check).
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    driver_error = error.orig if isinstance(error, DBAPIError) else error
    sqlstate: str | None = getattr(driver_error, "sqlstate", None)
    if sqlstate:
        return sqlstate.startswith(_UNAVAILABLE_SQLSTATE_PREFIXES)
    # asyncpg's own I/O failures: refused, reset, EOF, the connect timeout (all OSError).
    return isinstance(driver_error, OSError)


engine = new_async_engine(get_settings())
async_session = async_sessionmaker(engine, expire_on_commit=False)
# Reads run in autocommit on the same pool: a read is then its statements alone, where the
# asyncpg dialect would otherwise add a BEGIN and a ROLLBACK round trip to every request.
# SQLAlchemy documents this engine copy for read-only work; writes keep their transaction.
read_session = async_sessionmaker(
    engine.execution_options(isolation_level="AUTOCOMMIT"), expire_on_commit=False
)


async def new_async_session() -> AsyncIterator[AsyncSession]:
    async with async_session() as session:
        yield session


async def new_read_session() -> AsyncIterator[AsyncSession]:
    async with read_session() as session:
        yield session
