"""The one place that turns errors into RFC 9457 problem JSON.

Data access raises domain errors (app.crud) and leaves database failures as they come; the stock
client raises its own (app.stock); the exception handlers below map those, FastAPI's and
Starlette's HTTP errors and validation errors to a status, a title and, for a 422, the JSON
field. Nothing else names a status or a field.
"""

import logging
import traceback
from collections.abc import Callable, Coroutine, Sequence
from http import HTTPStatus
from typing import Any

import asyncpg
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from app.core.db import database_unavailable
from app.crud import CategoryInUseError, DomainError, DuplicateKeyError, UnknownCategoryError
from app.stock import (
    StockError,
    StockNotFoundError,
    UpstreamBusyError,
    UpstreamFailedError,
    UpstreamTimeoutError,
)

logger = logging.getLogger(__name__)

INTERNAL_ERROR = "the server failed to handle the request"
_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
# RFC 9110's reason phrases. Python 3.11's HTTPStatus still has RFC 7231's for these two
# ("Request Entity Too Large", "Unprocessable Entity"); the others are the same.
_RFC_9110_TITLES = {413: "Content Too Large", 422: "Unprocessable Content"}


class ProblemResponse(JSONResponse):
    media_type = "application/problem+json"


def title(status: int) -> str:
    return _RFC_9110_TITLES.get(status) or HTTPStatus(status).phrase


def problem(
    status: int,
    detail: str,
    *,
    errors: Sequence[dict[str, str]] | None = None,
    headers: dict[str, str] | None = None,
) -> ProblemResponse:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": title(status),
        "status": status,
        "detail": detail,
    }
    if errors is not None:
        body["errors"] = list(errors)
    return ProblemResponse(body, status_code=status, headers=headers)


async def http_exception_handler(request: Request, exc: StarletteHTTPException) -> ProblemResponse:
    headers = dict(exc.headers or {})
    detail = exc.detail
    if exc.status_code == 404 and "route" not in request.scope:
        detail = f"no resource at {request.url.path}"
    elif exc.status_code == 405:
        # The router names only the methods of the first route that matched the path, and a
        # path here has one route per method.
        headers["Allow"] = ", ".join(_allowed_methods(request))
        detail = f"method {request.method} is not allowed on {request.url.path}"
    return problem(exc.status_code, detail, headers=headers)


def _allowed_methods(request: Request) -> list[str]:
    return [
        method
        for method in _METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL
            for route in request.app.router.routes
        )
    ]


async def validation_exception_handler(_: Request, exc: RequestValidationError) -> ProblemResponse:
    errors = exc.errors()
    if any(error["type"] == "json_invalid" for error in errors):
        return problem(400, "request body is not valid JSON")
    # One entry per field (a field can break more than one rule), named as in the JSON body;
    # "" when the body itself is not a JSON object.
    fields: dict[str, str] = {}
    for error in errors:
        location = error["loc"][1:] if error["loc"][:1] == ("body",) else error["loc"]
        message = "must be a JSON object" if error["type"] == "model_type" else error["msg"]
        fields.setdefault(str(location[0]) if location else "", message)
    detail = "request body must be a JSON object" if "" in fields else "invalid fields: " + ", ".join(fields)
    return problem(
        422, detail, errors=[{"field": name, "message": message} for name, message in fields.items()]
    )


# Each domain error's status and, for a 422, the JSON field it is about.
_DOMAIN_ERRORS: dict[type[DomainError], tuple[int, str | None]] = {
    DuplicateKeyError: (409, None),
    CategoryInUseError: (409, None),
    UnknownCategoryError: (422, "categoryId"),
}


async def domain_error_handler(_: Request, exc: DomainError) -> ProblemResponse:
    status, field = _DOMAIN_ERRORS[type(exc)]
    errors = None if field is None else [{"field": field, "message": exc.detail}]
    return problem(status, exc.detail, errors=errors)


# Each stock error's status and detail; a 404 says which item instead.
_STOCK_ERRORS: dict[type[StockError], tuple[int, str]] = {
    StockNotFoundError: (404, ""),
    UpstreamFailedError: (502, "the stock service gave no usable answer"),
    UpstreamTimeoutError: (504, "the stock service did not answer in time"),
    UpstreamBusyError: (503, "no connection to the stock service became free in time"),
}


async def stock_error_handler(request: Request, exc: StockError) -> ProblemResponse:
    status, detail = _STOCK_ERRORS[type(exc)]
    if status == 404:
        return problem(404, exc.reason)
    # The upstream's fault (or a full pool), not a bug here: one line, no traceback.
    logger.warning("stock upstream on %s %s: %s", request.method, request.url.path, exc.reason)
    return problem(status, detail)


async def database_error_handler(request: Request, exc: Exception) -> ProblemResponse:
    if database_unavailable(exc):
        if isinstance(exc, PoolTimeoutError):
            return problem(503, "no database connection became free in time")
        return problem(503, "the database is unavailable")
    # Anything else, an integrity error that data access did not expect included, is a bug. Its
    # traceback is logged without the driver's exception it was raised from: that one carries
    # PostgreSQL's DETAIL, which quotes the request's values ("Failing row contains ..."), as the
    # statement's parameters would if the engine did not hide them.
    trace = "".join(traceback.format_exception(exc, chain=False)).rstrip()
    logger.error("database error on %s %s\n%s", request.method, request.url.path, trace)
    return problem(500, INTERNAL_ERROR)


async def internal_error_handler(_: Request, __: Exception) -> ProblemResponse:
    # Starlette re-raises the exception once this response is sent, so the server logs the
    # traceback; the client learns nothing about the cause.
    return problem(500, INTERNAL_ERROR)


# Given to FastAPI(exception_handlers=...), which types each handler with its own exception class
# (Starlette's add_exception_handler() is typed for handlers of Exception alone). Starlette picks
# the handler of the nearest class in the raised exception's MRO, so the one for Exception answers
# only what no narrower one does.
EXCEPTION_HANDLERS: dict[int | type[Exception], Callable[[Request, Any], Coroutine[Any, Any, Response]]] = {
    StarletteHTTPException: http_exception_handler,
    RequestValidationError: validation_exception_handler,
    DomainError: domain_error_handler,
    StockError: stock_error_handler,
    SQLAlchemyError: database_error_handler,
    OSError: database_error_handler,
    asyncpg.PostgresError: database_error_handler,
    asyncpg.InterfaceError: database_error_handler,
    Exception: internal_error_handler,
}
