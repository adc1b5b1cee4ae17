"""In-process tests: httpx talks ASGI to the app, the app talks to the database in DATABASE_URL
(the runner passes a freshly seeded one). Tests that write clean up after themselves."""

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient
from sqlalchemy import event

from app.core import db
from app.main import app

# Its assert_problem() should explain failures like a test module's assertions do.
pytest.register_assert_rewrite("tests.utils")
from tests.utils import send_json, unique  # noqa: E402


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client() -> AsyncIterator[AsyncClient]:
    async with AsyncClient(transport=ASGITransport(app=app), base_url="http://test") as client:
        yield client
    # Pooled asyncpg connections belong to this test's event loop.
    await db.engine.dispose()


@pytest.fixture
def statements() -> Iterator[list[str]]:
    """The SQL statements the app sends while the test runs."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", record)
    yield sent
    event.remove(db.engine.sync_engine, "before_cursor_execute", record)


@pytest.fixture
async def category(client: AsyncClient) -> AsyncIterator[dict[str, Any]]:
    response = await send_json(client, "POST", "/categories", {"code": unique("T"), "name": "test category"})
    assert response.status_code == 201, response.text
    created = response.json()
    yield created
    await client.delete(f"/categories/{created['id']}")


@pytest.fixture
async def item(client: AsyncClient, category: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
    body = {"sku": unique("T"), "name": "test item", "price": 12.5, "stock": 3, "categoryId": category["id"]}
    response = await send_json(client, "POST", "/items", body)
    assert response.status_code == 201, response.text
    created = response.json()
    yield created
    await client.delete(f"/items/{created['id']}")
