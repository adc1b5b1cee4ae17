"""The stock upstream: the only module that calls it, over HTTP with httpx.

`GET {STOCK_URL}/stock/{id}` answers an item's quantity. What goes wrong is raised as the errors
below, in the upstream's terms; app.core.errors decides what each means in HTTP.
"""

import httpx
from pydantic import ValidationError

from app.schemas import StockRecord

# The contract's 1 s to connect and 1 s from the request sent to its answer (httpx's read
# timeout covers each wait for bytes, the headers' included); writing a GET and waiting for a
# pooled connection get as long.
TIMEOUT = httpx.Timeout(connect=1.0, read=1.0, write=1.0, pool=1.0)
# The outbound scenario keeps hundreds of requests in flight: each gets a connection, and every
# one stays kept alive for the next (httpx would keep only 20 idle by default).
MAX_CONNECTIONS = 1024
LIMITS = httpx.Limits(max_connections=MAX_CONNECTIONS, max_keepalive_connections=MAX_CONNECTIONS)


class StockError(Exception):
    """The upstream gave no quantity; `reason` says what it did, for the log."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class StockNotFoundError(StockError):
    """The upstream has no stock record for the item (it answered 404)."""


class UpstreamFailedError(StockError):
    """Refused, reset or closed before a whole answer, another status, or a 200 without a
    valid quantity."""


class UpstreamTimeoutError(StockError):
    """No connection within the connect timeout, or no answer within the read timeout."""


class UpstreamBusyError(StockError):
    """All MAX_CONNECTIONS connections stayed busy for the pool timeout: this service's own
    overload, not the upstream's."""


def new_client(base_url: str) -> httpx.AsyncClient:
    """The process's one client for the upstream; the lifespan opens and closes it."""
    return httpx.AsyncClient(
        base_url=base_url,
        headers={"Accept": "application/json"},
        timeout=TIMEOUT,
        limits=LIMITS,
        follow_redirects=False,
        # No proxy or .netrc from the environment: the upstream is a direct neighbour.
        trust_env=False,
    )


async def get_quantity(client: httpx.AsyncClient, item_id: int) -> int:
    """The quantity the upstream keeps for `item_id`, asked by its canonical decimal; whether the
    id names an item is the upstream's answer."""
    try:
        response = await client.get(f"/stock/{item_id}")
    except httpx.PoolTimeout as error:
        raise UpstreamBusyError(f"no connection free within {TIMEOUT.pool} s") from error
    except httpx.TimeoutException as error:
        raise UpstreamTimeoutError(_describe(error)) from error
    except httpx.TransportError as error:
        raise UpstreamFailedError(_describe(error)) from error
    if response.status_code == 404:
        raise StockNotFoundError(f"no stock record for item {item_id}")
    if response.status_code != 200:
        raise UpstreamFailedError(f"answered {response.status_code}")
    try:
        return StockRecord.model_validate_json(response.content).quantity
    except ValidationError as error:
        why = error.errors()[0]["msg"]
        raise UpstreamFailedError(f"answered 200 without a valid quantity ({why})") from error


def _describe(error: httpx.TransportError) -> str:
    # Some of httpx's errors have no message of their own (a connect timeout).
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
