"""Dependencies shared by the routes: the session, the stock client, path ids, paging and JSON
bodies.

Path ids and query parameters arrive as strings and are parsed here, because API.md answers a
bad one with 400 (FastAPI's own validation says 422). Bodies are read here rather than by
FastAPI, because API.md checks in an order FastAPI does not: FastAPI reads and parses the body
before it validates path and query parameters, and answers a non-JSON Content-Type with 422.
Declared in the order path id, paging, body, the dependencies check: bad path id or query
parameter (400) → Content-Type (415) → size (413) → unparseable JSON (400) → fields (422). A
body that does not fit in the body budget is not read at all (503).
"""

import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, NoReturn, TypeVar

import httpx
from fastapi import Depends, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import ClientDisconnect

from app.core.config import Settings, get_settings
from app.core.db import new_async_session, new_read_session

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 1024 * 1024
# The body bytes all requests together may be reading and parsing at once: 32 bodies of 1 MiB,
# or thousands of ordinary ones. A body being parsed is held about three times over (the bytes
# read, the text decoded from them, the strings parsed out of it), so bodies keep at most about
# 100 MiB alive however many arrive at once (README.md, "Limits").
BODY_BUDGET_BYTES = 32 * 1024 * 1024
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# An optional sign, then ASCII digits: "+5" and "007" are integers, " 5", "1_0" and "١٢" are not.
_INTEGER = re.compile(r"[+-]?[0-9]+")

SessionDep = Annotated[AsyncSession, Depends(new_async_session)]
ReadSessionDep = Annotated[AsyncSession, Depends(new_read_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


def get_stock_client(request: Request) -> httpx.AsyncClient:
    """The one client the lifespan opened (app.main), from the lifespan's state."""
    client: httpx.AsyncClient = request.state.stock_client
    return client


StockClientDep = Annotated[httpx.AsyncClient, Depends(get_stock_client)]


def _int64(text: str) -> int | None:
    # int() alone would also take " 5", "5_000" and non-ASCII digits.
    if not _INTEGER.fullmatch(text):
        return None
    value = int(text)
    return value if INT64_MIN <= value <= INT64_MAX else None


def _bad_request(detail: str) -> NoReturn:
    raise HTTPException(status_code=400, detail=detail)


def _path_id(kind: str, text: str) -> int:
    value = _int64(text)
    if value is None:
        _bad_request(f"{kind} id must be a 64-bit integer, got {text!r}")
    return value


async def _item_id(item_id: str) -> int:
    return _path_id("item", item_id)


async def _category_id(category_id: str) -> int:
    return _path_id("category", category_id)


ItemId = Annotated[int, Depends(_item_id)]
CategoryId = Annotated[int, Depends(_category_id)]


@dataclass(frozen=True, slots=True)
class PageRequest:
    number: int
    size: int

    @property
    def offset(self) -> int:
        return self.number * self.size


async def _page_request(page: str | None = None, size: str | None = None) -> PageRequest:
    number = 0 if page is None else _int64(page)
    if number is None or number < 0:
        _bad_request("page must be an integer of at least 0")
    page_size = 20 if size is None else _int64(size)
    if page_size is None or not 1 <= page_size <= 100:
        _bad_request("size must be an integer between 1 and 100")
    return PageRequest(number, page_size)


Paging = Annotated[PageRequest, Depends(_page_request)]


async def _category_filter(
    category_id: Annotated[str | None, Query(alias="categoryId")] = None,
) -> int | None:
    if category_id is None:
        return None
    value = _int64(category_id)
    if value is None:
        _bad_request("categoryId must be a 64-bit integer")
    return value


CategoryFilter = Annotated[int | None, Depends(_category_filter)]


class BodyBudget:
    """What is left of the body budget. One event loop runs every request, so taking and giving
    back need no lock."""

    def __init__(self, limit: int) -> None:
        self.available = limit

    @contextmanager
    def take(self, size: int) -> Iterator[None]:
        if size > self.available:
            # The body stays unread, so the connection cannot carry another request.
            raise HTTPException(
                status_code=503,
                detail="the server is busy, try again shortly",
                headers={"Connection": "close"},
            )
        self.available -= size
        try:
            yield
        finally:
            self.available += size


body_budget = BodyBudget(BODY_BUDGET_BYTES)


def _too_large() -> NoReturn:
    raise HTTPException(status_code=413, detail="request body is larger than 1 MiB")


async def _read_body(request: Request) -> bytes:
    # Counted as it arrives, so a chunked body cannot grow past the limit either.
    chunks: list[bytes] = []
    received = 0
    try:
        async for chunk in request.stream():
            received += len(chunk)
            if received > MAX_BODY_BYTES:
                _too_large()
            chunks.append(chunk)
    except ClientDisconnect:
        # The client's doing, not a fault here: one line, no traceback. Left to the catch-all
        # handler, it would be a 500 and a traceback in granian's log. The 400 reaches nobody.
        logger.info(
            "%s %s: the client closed its connection before its whole body arrived (%d bytes read)",
            request.method,
            request.url.path,
            received,
        )
        _bad_request("the connection was closed before the whole body arrived")
    return b"".join(chunks)


def _not_json(constant: str) -> NoReturn:
    raise ValueError(f"{constant} is not JSON")


M = TypeVar("M", bound=BaseModel)


def json_body(model: type[M]) -> Callable[[Request], Awaitable[M]]:
    """A dependency that reads, parses and validates a JSON body as `model`."""

    async def parse(request: Request) -> M:
        media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if media_type != "application/json":
            raise HTTPException(status_code=415, detail="Content-Type must be application/json")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            _too_large()
        # A chunked body may take the whole 1 MiB before it is cut off.
        with body_budget.take(int(declared) if declared.isdigit() else MAX_BODY_BYTES):
            raw = await _read_body(request)
            try:
                # Decimal keeps a number's digits exactly, so a price is judged by its value.
                data = json.loads(raw, parse_float=Decimal, parse_constant=_not_json)
            except (ValueError, RecursionError) as error:
                raise RequestValidationError(
                    [{"type": "json_invalid", "loc": ("body",), "msg": "JSON decode error", "input": None}]
                ) from error
            try:
                return model.model_validate(data)
            except ValidationError as error:
                raise RequestValidationError(
                    [
                        {**e, "loc": ("body", *e["loc"])}
                        for e in error.errors(include_url=False, include_context=False)
                    ]
                ) from error

    return parse
