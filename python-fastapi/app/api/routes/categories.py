from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Response

from app import crud
from app.api.deps import CategoryId, Paging, ReadSessionDep, SessionDep, json_body
from app.schemas import CategoryCreate, CategoryPublic, CategoryUpdate, ItemPublic, Page, PageMeta

router = APIRouter(prefix="/categories", tags=["categories"])

CategoryCreateBody = Annotated[CategoryCreate, Depends(json_body(CategoryCreate))]
CategoryUpdateBody = Annotated[CategoryUpdate, Depends(json_body(CategoryUpdate))]


def _not_found(category_id: int) -> HTTPException:
    return HTTPException(status_code=404, detail=f"category {category_id} not found")


@router.get("", response_model=Page[CategoryPublic])
async def read_categories(paging: Paging, session: ReadSessionDep) -> Any:
    categories, total = await crud.list_categories(session, paging.offset, paging.size)
    return Page[CategoryPublic](content=categories, page=PageMeta.of(paging.number, paging.size, total))


@router.post("", status_code=201, response_model=CategoryPublic)
async def create_category(category_in: CategoryCreateBody, session: SessionDep, response: Response) -> Any:
    category = await crud.create_category(session, category_in)
    response.headers["Location"] = f"/categories/{category.id}"
    return category


@router.get("/{category_id}", response_model=CategoryPublic)
async def read_category(category_id: CategoryId, session: ReadSessionDep) -> Any:
    category = await crud.get_category(session, category_id)
    if category is None:
        raise _not_found(category_id)
    return category


@router.put("/{category_id}", response_model=CategoryPublic)
async def update_category(
    category_id: CategoryId, category_in: CategoryUpdateBody, session: SessionDep
) -> Any:
    category = await crud.update_category(session, category_id, category_in)
    if category is None:
        raise _not_found(category_id)
    return category


@router.delete("/{category_id}", status_code=204, response_class=Response)
async def delete_category(category_id: CategoryId, session: SessionDep) -> None:
    if not await crud.delete_category(session, category_id):
        raise _not_found(category_id)


@router.get("/{category_id}/items", response_model=Page[ItemPublic])
async def read_category_items(category_id: CategoryId, paging: Paging, session: ReadSessionDep) -> Any:
    found = await crud.list_category_items(session, category_id, paging.offset, paging.size)
    if found is None:
        raise _not_found(category_id)
    items, total = found
    return Page[ItemPublic](content=items, page=PageMeta.of(paging.number, paging.size, total))
