from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Response

from app import crud
from app.api.deps import CategoryFilter, ItemId, Paging, ReadSessionDep, SessionDep, json_body
from app.schemas import ItemCreate, ItemPublic, ItemUpdate, Page, PageMeta

router = APIRouter(prefix="/items", tags=["items"])

ItemCreateBody = Annotated[ItemCreate, Depends(json_body(ItemCreate))]
ItemUpdateBody = Annotated[ItemUpdate, Depends(json_body(ItemUpdate))]


def _not_found(item_id: int) -> HTTPException:
    return HTTPException(status_code=404, detail=f"item {item_id} not found")


@router.get("", response_model=Page[ItemPublic])
async def read_items(category_id: CategoryFilter, paging: Paging, session: ReadSessionDep) -> Any:
    items, total = await crud.list_items(session, paging.offset, paging.size, category_id)
    return Page[ItemPublic](content=items, page=PageMeta.of(paging.number, paging.size, total))


@router.post("", status_code=201, response_model=ItemPublic)
async def create_item(item_in: ItemCreateBody, session: SessionDep, response: Response) -> Any:
    item = await crud.create_item(session, item_in)
    response.headers["Location"] = f"/items/{item.id}"
    return item


@router.get("/{item_id}", response_model=ItemPublic)
async def read_item(item_id: ItemId, session: ReadSessionDep) -> Any:
    item = await crud.get_item(session, item_id)
    if item is None:
        raise _not_found(item_id)
    return item


@router.put("/{item_id}", response_model=ItemPublic)
async def update_item(item_id: ItemId, item_in: ItemUpdateBody, session: SessionDep) -> Any:
    item = await crud.update_item(session, item_id, item_in)
    if item is None:
        raise _not_found(item_id)
    return item


@router.delete("/{item_id}", status_code=204, response_class=Response)
async def delete_item(item_id: ItemId, session: SessionDep) -> None:
    if not await crud.delete_item(session, item_id):
        raise _not_found(item_id)
