"""Which database errors mean "unavailable" (503), and that an integrity error data access does
not expect is a 500, logged without the request's values, never a 409."""

import logging
from decimal import Decimal
from typing import Any

import asyncpg
import pytest
from httpx import AsyncClient
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncSession

from app import crud
from app.core import db
from app.models import Item
from app.schemas import ItemCreate
from tests.utils import assert_problem, send_json, unique


def postgres_error(sqlstate: str) -> asyncpg.PostgresError:
    """The exception asyncpg raises for an error response with this SQLSTATE."""
    return asyncpg.PostgresError.new({"C": sqlstate, "M": f"error {sqlstate}", "S": "ERROR"})


def as_sqlalchemy_error(error: Exception) -> DBAPIError:
    """The same error as it reaches the app: asyncpg's, adapted, inside SQLAlchemy's."""
    dbapi = db.engine.dialect.loaded_dbapi
    wrapped = DBAPIError.instance("SELECT 1", None, dbapi.Error(str(error), error), dbapi.Error)
    assert isinstance(wrapped, DBAPIError)
    return wrapped


@pytest.mark.parametrize(
    ("sqlstate", "unavailable"),
    [
        ("08006", True),  # connection_failure
        ("08001", True),  # sqlclient_unable_to_establish_sqlconnection
        ("08003", True),  # connection_does_not_exist
        ("53300", True),  # too_many_connections
        ("53100", True),  # disk_full
        ("57P01", True),  # admin_shutdown
        ("57P02", True),  # crash_shutdown
        ("57P03", True),  # cannot_connect_now
        ("57P05", True),  # idle_session_timeout
        ("23505", False),  # unique_violation
        ("23503", False),  # foreign_key_violation
        ("57014", False),  # query_canceled: class 57, but not 57P
        ("40P01", False),  # deadlock_detected
        ("XX000", False),  # internal_error
        ("42P01", False),  # undefined_table
    ],
)
def test_sqlstates_that_mean_unavailable(sqlstate: str, unavailable: bool) -> None:
    error = postgres_error(sqlstate)

    assert db.database_unavailable(error) is unavailable
    assert db.database_unavailable(as_sqlalchemy_error(error)) is unavailable


@pytest.mark.parametrize(
    ("error", "unavailable"),
    [
        (ConnectionRefusedError(111, "Connection refused"), True),
        (ConnectionResetError(104, "Connection reset by peer"), True),
        (TimeoutError(), True),  # asyncpg's connect timeout
        (PoolTimeoutError("QueuePool limit of size 10 overflow 0 reached"), True),
        (asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"), True),
        (ValueError("not a database failure"), False),
        (asyncpg.InterfaceError("the server expects 1 argument for this query, 2 were passed"), False),
    ],
)
def test_driver_and_pool_failures(error: Exception, unavailable: bool) -> None:
    assert db.database_unavailable(error) is unavailable


def test_a_connection_found_closed_is_unavailable() -> None:
    error = as_sqlalchemy_error(asyncpg.InterfaceError("cannot perform operation: connection is closed"))
    error.connection_invalidated = True

    assert db.database_unavailable(error)


@pytest.mark.anyio
async def test_an_integrity_error_data_access_does_not_expect_propagates() -> None:
    # A NOT NULL violation (23502) is none of the violations crud translates. model_copy(update=)
    # does not validate, so the name can be what no request gets past the schema with.
    valid = ItemCreate(sku=unique("N"), name="x", price=Decimal(1), stock=1, categoryId=1)
    data = valid.model_copy(update={"name": None})
    try:
        async with db.async_session() as session:
            with pytest.raises(IntegrityError) as raised:
                await crud.create_item(session, data)
        assert getattr(raised.value.orig, "sqlstate", None) == "23502"
    finally:
        await db.engine.dispose()


@pytest.mark.anyio
async def test_an_unexpected_integrity_error_is_a_500_logged_without_the_values(
    client: AsyncClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    category: dict[str, Any],
) -> None:
    # crud turns the violations it expects into domain errors; an IntegrityError that gets past
    # it is one nobody expected (here NOT NULL), so a bug rather than a conflict. PostgreSQL
    # raises it for real: the error holds the statement's parameters, and the driver's error the
    # failing row, both made of the request's values, which the log must not show.
    create_item = crud.create_item

    async def create_nameless_item(session: AsyncSession, data: ItemCreate) -> Item:
        return await create_item(session, data.model_copy(update={"name": None}))

    monkeypatch.setattr(crud, "create_item", create_nameless_item)
    sku = unique("SECRET")
    body = {"sku": sku, "name": "x", "price": 4242.42, "stock": 424242, "categoryId": category["id"]}

    with caplog.at_level(logging.ERROR, logger="app.core.errors"):
        problem = assert_problem(await send_json(client, "POST", "/items", body), 500)

    assert problem["detail"] == "the server failed to handle the request"
    assert sku not in str(problem)
    assert "IntegrityError" in caplog.text
    assert "INSERT INTO item" in caplog.text
    for value in (sku, "4242.42", "424242"):
        assert value not in caplog.text


@pytest.mark.anyio
async def test_an_unavailable_database_is_503(client: AsyncClient, monkeypatch: pytest.MonkeyPatch) -> None:
    async def shut_down(*_: Any) -> None:
        raise as_sqlalchemy_error(postgres_error("57P01"))

    monkeypatch.setattr(crud, "get_item", shut_down)

    assert_problem(await client.get("/items/1"), 503)


@pytest.mark.anyio
async def test_a_canceled_query_is_a_500_not_a_503(
    client: AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def cancel(*_: Any) -> None:
        raise as_sqlalchemy_error(postgres_error("57014"))

    monkeypatch.setattr(crud, "get_item", cancel)

    assert_problem(await client.get("/items/1"), 500)
