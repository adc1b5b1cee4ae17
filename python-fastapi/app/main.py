from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TypedDict

import httpx
from fastapi import FastAPI

from app import stock
from app.api.main import api_router
from app.core import db
from app.core.config import get_settings
from app.core.errors import EXCEPTION_HANDLERS

VERSION = "1.0.0"


class State(TypedDict):
    """What the lifespan gives every request, as `request.state`."""

    stock_client: httpx.AsyncClient


@asynccontextmanager
async def lifespan(_: FastAPI) -> AsyncIterator[State]:
    async with stock.new_client(get_settings().STOCK_URL) as stock_client:
        yield {"stock_client": stock_client}
    # The server has stopped accepting and finished in-flight requests by now, and the stock
    # client's connections are closed.
    await db.engine.dispose()


app = FastAPI(
    title="python-fastapi",
    version=VERSION,
    lifespan=lifespan,
    exception_handlers=EXCEPTION_HANDLERS,
    # Production: no interactive docs or schema routes; paths are exact, so /items/ is a 404
    # rather than a redirect to /items.
    docs_url=None,
    redoc_url=None,
    openapi_url=None,
    redirect_slashes=False,
)
app.include_router(api_router)
