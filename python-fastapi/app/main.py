from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api.main import api_router
from app.core import db
from app.core.errors import EXCEPTION_HANDLERS

VERSION = "1.0.0"


@asynccontextmanager
async def lifespan(_: FastAPI) -> AsyncIterator[None]:
    yield
    # The server has stopped accepting and finished in-flight requests by now.
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
