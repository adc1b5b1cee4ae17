"""The seed of db/seed.sql, computed again here so tests can assert exact values."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal

CATEGORIES = 2000
ITEMS = 100_000
EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)
_FILLER = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
           "tempor incididunt ut labore et dolore magna aliqua. ") * 9


def category(cid: int) -> dict:
    return {"id": cid, "code": f"CAT-{cid:04d}", "name": f"Category {cid}",
            "updatedAt": EPOCH + timedelta(seconds=cid)}


def item(iid: int) -> dict:
    cid = (iid - 1) % CATEGORIES + 1
    description = (f"Description of item {iid}. " + _FILLER)[: 300 + (iid * 37) % 601]
    return {
        "id": iid,
        "sku": f"SKU-{iid:06d}",
        "name": f"Item {iid}",
        "price": Decimal((iid * 7919) % 100_000) / 100,
        "stock": iid % 500,
        "description": description,
        "categoryId": cid,
        "category": {"id": cid, "code": f"CAT-{cid:04d}", "name": f"Category {cid}"},
        "updatedAt": EPOCH + timedelta(seconds=iid),
    }


def items_of_category(cid: int) -> list[int]:
    return list(range(cid, ITEMS + 1, CATEGORIES))
