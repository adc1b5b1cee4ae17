"""Data access: the only module that talks to the database.

Constraint violations are caught from the database (checking first would race) and raised as
the domain errors below, recognised by SQLSTATE and the operation that caused them; any other
integrity error propagates as it is (a bug, answered 500). Absent rows come back as None or
False for the caller to decide. Nothing here knows HTTP statuses or JSON field names.
"""

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import ColumnElement, CursorResult, Result, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value

from app.models import Category, Item, utcnow
from app.schemas import CategoryCreate, CategoryUpdate, ItemCreate, ItemUpdate

UNIQUE_VIOLATION = "23505"
FOREIGN_KEY_VIOLATION = "23503"


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


# The embedded category comes in the same query as its items, never one query per item.
_WITH_CATEGORY = joinedload(Item.category, innerjoin=True)


def _sqlstate(error: IntegrityError) -> str | None:
    return getattr(error.orig, "sqlstate", None)


def _row_count(result: Result[Any]) -> int:
    # AsyncSession.execute() is typed to return a Result whatever the statement; a DELETE's is the
    # CursorResult that carries the number of rows it matched.
    return cast(CursorResult[Any], result).rowcount


# -- categories --------------------------------------------------------------------------------


async def list_categories(session: AsyncSession, offset: int, limit: int) -> tuple[Sequence[Category], int]:
    total = await session.scalar(select(func.count()).select_from(Category)) or 0
    if offset >= total:
        return [], total
    rows = await session.scalars(select(Category).order_by(Category.id).offset(offset).limit(limit))
    return rows.all(), total


async def get_category(session: AsyncSession, category_id: int) -> Category | None:
    return await session.get(Category, category_id)


async def create_category(session: AsyncSession, data: CategoryCreate) -> Category:
    category = Category(**data.model_dump())
    session.add(category)
    await _flush_category(session, data)
    await session.commit()
    return category


async def update_category(session: AsyncSession, category_id: int, data: CategoryUpdate) -> Category | None:
    # Locked, so that a concurrent delete waits rather than leaving this UPDATE with no row.
    category = await session.get(Category, category_id, with_for_update=True)
    if category is None:
        return None
    category.code = data.code
    category.name = data.name
    category.updated_at = utcnow()
    await _flush_category(session, data)
    await session.commit()
    return category


async def _flush_category(session: AsyncSession, data: CategoryCreate) -> None:
    try:
        await session.flush()
    except IntegrityError as error:
        if _sqlstate(error) == UNIQUE_VIOLATION:
            raise DuplicateKeyError(f"code {data.code} already exists") from error
        raise


async def delete_category(session: AsyncSession, category_id: int) -> bool:
    try:
        result = await session.execute(delete(Category).where(Category.id == category_id))
    except IntegrityError as error:
        if _sqlstate(error) == FOREIGN_KEY_VIOLATION:
            raise CategoryInUseError(f"category {category_id} still has items") from error
        raise
    await session.commit()
    return _row_count(result) > 0


# -- items -------------------------------------------------------------------------------------


async def list_items(
    session: AsyncSession, offset: int, limit: int, category_id: int | None = None
) -> tuple[Sequence[Item], int]:
    where = [] if category_id is None else [Item.category_id == category_id]
    total = await session.scalar(select(func.count()).select_from(Item).where(*where)) or 0
    return await _item_page(session, where, offset, limit, total), total


async def list_category_items(
    session: AsyncSession, category_id: int, offset: int, limit: int
) -> tuple[Sequence[Item], int] | None:
    """The page of a category's items, or None when the category does not exist."""
    where = [Item.category_id == category_id]
    # One query says both whether the category exists (a row or none) and how many items it has.
    item_count = select(func.count()).select_from(Item).where(*where).scalar_subquery()
    total = await session.scalar(select(item_count).where(Category.id == category_id))
    if total is None:
        return None
    return await _item_page(session, where, offset, limit, total), total


async def _item_page(
    session: AsyncSession, where: list[ColumnElement[bool]], offset: int, limit: int, total: int
) -> Sequence[Item]:
    if offset >= total:
        return []
    query = select(Item).options(_WITH_CATEGORY).where(*where).order_by(Item.id).offset(offset).limit(limit)
    return (await session.scalars(query)).all()


async def get_item(session: AsyncSession, item_id: int) -> Item | None:
    return await session.get(Item, item_id, options=[_WITH_CATEGORY])


async def create_item(session: AsyncSession, data: ItemCreate) -> Item:
    item = Item(**data.model_dump())
    session.add(item)
    await _flush_item(session, item, data)
    await session.commit()
    return item


async def update_item(session: AsyncSession, item_id: int, data: ItemUpdate) -> Item | None:
    # Locked, so that a concurrent delete waits rather than leaving this UPDATE with no row.
    item = await session.get(Item, item_id, with_for_update=True)
    if item is None:
        return None
    for field, value in data.model_dump().items():
        setattr(item, field, value)
    # Set even when nothing else changed: a PUT is a write, and an unchanged row would
    # otherwise not be updated at all.
    item.updated_at = utcnow()
    await _flush_item(session, item, data)
    await session.commit()
    return item


async def _flush_item(session: AsyncSession, item: Item, data: ItemCreate) -> None:
    try:
        await session.flush()
    except IntegrityError as error:
        # PostgreSQL checks unique indexes as it writes the row and foreign keys at the end of
        # the statement, so a taken sku is reported before an unknown category.
        if _sqlstate(error) == UNIQUE_VIOLATION:
            raise DuplicateKeyError(f"sku {data.sku} already exists") from error
        if _sqlstate(error) == FOREIGN_KEY_VIOLATION:
            raise UnknownCategoryError(f"category {data.category_id} does not exist") from error
        raise
    # The row's foreign key is checked by now, so the category exists. Loaded by its key in one
    # SELECT; refresh(item, ["category"]) would select the item row again before loading it.
    set_committed_value(item, "category", await session.get(Category, item.category_id))


async def delete_item(session: AsyncSession, item_id: int) -> bool:
    result = await session.execute(delete(Item).where(Item.id == item_id))
    await session.commit()
    return _row_count(result) > 0


# -- health ------------------------------------------------------------------------------------


async def ping(session: AsyncSession) -> None:
    await session.execute(select(1))
