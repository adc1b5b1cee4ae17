"""The one place that turns errors into RFC 9457 problem JSON.

Data access raises the domain errors below (never HTTP ones); the exception handlers map them,
FastAPI's and Starlette's HTTP errors, validation errors and database failures to responses.
"""

import logging
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

import asyncpg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

logger = logging.getLogger(__name__)

INTERNAL_ERROR = "the server failed to handle the request"
_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


class DomainError(Exception):
    """Something only the database could tell: a broken rule of the data, not of the request."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class DuplicateKeyError(DomainError):
    """A unique code or sku is already taken."""


class CategoryInUseError(DomainError):
    """A category cannot be deleted while items reference it."""


class UnknownCategoryError(DomainError):
    """An item names a category that does not exist."""


class ProblemResponse(JSONResponse):
    media_type = "application/problem+json"


def problem(
    status: int,
    detail: str,
    *,
    errors: Sequence[dict[str, str]] | None = None,
    headers: dict[str, str] | None = None,
) -> ProblemResponse:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
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


async def duplicate_key_handler(_: Request, exc: DuplicateKeyError) -> ProblemResponse:
    return problem(409, exc.detail)


async def category_in_use_handler(_: Request, exc: CategoryInUseError) -> ProblemResponse:
    return problem(409, exc.detail)


async def unknown_category_handler(_: Request, exc: UnknownCategoryError) -> ProblemResponse:
    return problem(422, exc.detail, errors=[{"field": "categoryId", "message": exc.detail}])


def database_unavailable(exc: BaseException) -> bool:
    """True for failures that mean "no usable database connection", not a bug."""
    if isinstance(exc, PoolTimeoutError | OperationalError | InterfaceError | OSError):
        return True
    if isinstance(exc, DBAPIError):
        # SQLSTATE classes 08 (connection exception) and 57 (operator intervention: shutdown,
        # "the database system is starting up").
        sqlstate = getattr(exc.orig, "sqlstate", None) or ""
        return exc.connection_invalidated or sqlstate[:2] in ("08", "57")
    return isinstance(
        exc,
        asyncpg.PostgresConnectionError | asyncpg.CannotConnectNowError | asyncpg.ConnectionDoesNotExistError,
    )


async def database_error_handler(request: Request, exc: Exception) -> ProblemResponse:
    if database_unavailable(exc):
        if isinstance(exc, PoolTimeoutError):
            return problem(503, "no database connection became free in time")
        return problem(503, "the database is unavailable")
    if isinstance(exc, IntegrityError):
        # Data access translates the violations it expects; any other is still the client's
        # data clashing with existing rows, not a server fault.
        return problem(409, "the request conflicts with existing data")
    logger.error("database error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem(500, INTERNAL_ERROR)


async def internal_error_handler(_: Request, __: Exception) -> ProblemResponse:
    # Starlette re-raises the exception once this response is sent, so the server logs the
    # traceback; the client learns nothing about the cause.
    return problem(500, INTERNAL_ERROR)


def register_exception_handlers(app: FastAPI) -> None:
    app.add_exception_handler(StarletteHTTPException, http_exception_handler)
    app.add_exception_handler(RequestValidationError, validation_exception_handler)
    app.add_exception_handler(DuplicateKeyError, duplicate_key_handler)
    app.add_exception_handler(CategoryInUseError, category_in_use_handler)
    app.add_exception_handler(UnknownCategoryError, unknown_category_handler)
    for database_error in (SQLAlchemyError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
        app.add_exception_handler(database_error, database_error_handler)
    app.add_exception_handler(Exception, internal_error_handler)
