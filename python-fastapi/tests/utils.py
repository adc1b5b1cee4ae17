"""Helpers shared by the tests."""

import json
import uuid
from typing import Any

from httpx import AsyncClient, Response

JSON = {"Content-Type": "application/json"}
# RFC 9110's reason phrases, which every problem's title must be word for word.
TITLES = {
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


async def send_json(client: AsyncClient, method: str, path: str, body: Any) -> Response:
    return await client.request(method, path, content=json.dumps(body), headers=JSON)


def assert_problem(response: Response, status: int, fields: set[str] | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["type"] == "about:blank"
    assert body["status"] == status
    assert body["title"] == TITLES[status]
    assert body["detail"]
    if fields is not None:
        assert {error["field"] for error in body["errors"]} == fields, body["errors"]
    return body
