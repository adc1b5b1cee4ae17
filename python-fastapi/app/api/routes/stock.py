from typing import Any

from fastapi import APIRouter

from app import stock
from app.api.deps import ItemId, StockClientDep
from app.schemas import StockPublic

router = APIRouter(tags=["stock"])


@router.get("/items/{item_id}/stock", response_model=StockPublic)
async def read_stock(item_id: ItemId, client: StockClientDep) -> Any:
    # The upstream alone, no database session: it answers while PostgreSQL is down.
    quantity = await stock.get_quantity(client, item_id)
    return StockPublic(item_id=item_id, quantity=quantity)
