from decimal import Decimal

import pytest
from httpx import AsyncClient

from tests.utils import assert_problem

pytestmark = pytest.mark.anyio


async def test_item_has_the_seeded_values_and_its_category(client: AsyncClient) -> None:
    response = await client.get("/items/12345")

    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    item = response.json()
    assert item["sku"] == "SKU-012345"
    assert item["name"] == "Item 12345"
    # A JSON number, not the string Pydantic would write for a Decimal.
    assert item["price"] == 600.55
    assert item["stock"] == 345
    assert item["categoryId"] == 345
    assert item["category"] == {"id": 345, "code": "CAT-0345", "name": "Category 345"}
    assert item["updatedAt"] == "2026-01-01T03:25:45Z"
    assert item["description"].startswith("Description of item 12345.")


async def test_every_seeded_price_survives_as_a_number(client: AsyncClient) -> None:
    content = (await client.get("/items?page=3&size=100")).json()["content"]

    for item in content:
        expected = Decimal((item["id"] * 7919) % 100000) / 100
        assert Decimal(str(item["price"])) == expected


async def test_category_has_the_seeded_values(client: AsyncClient) -> None:
    response = await client.get("/categories/42")

    assert response.json() == {
        "id": 42,
        "code": "CAT-0042",
        "name": "Category 42",
        "updatedAt": "2026-01-01T00:00:42Z",
    }


async def test_item_page_is_ordered_and_counted(client: AsyncClient) -> None:
    body = (await client.get("/items?page=2&size=3")).json()

    assert [item["id"] for item in body["content"]] == [7, 8, 9]
    assert body["page"] == {"size": 3, "number": 2, "totalElements": 100000, "totalPages": 33334}


async def test_default_paging_is_page_0_of_20(client: AsyncClient) -> None:
    body = (await client.get("/categories")).json()

    assert [category["id"] for category in body["content"]] == list(range(1, 21))
    assert body["page"] == {"size": 20, "number": 0, "totalElements": 2000, "totalPages": 100}


async def test_page_past_the_end_is_empty_even_when_the_offset_overflows(client: AsyncClient) -> None:
    for page in (5000, 9223372036854775807):
        body = (await client.get(f"/items?page={page}&size=100")).json()
        assert body["content"] == []
        assert body["page"]["totalElements"] == 100000


async def test_items_filtered_by_category(client: AsyncClient) -> None:
    body = (await client.get("/items?categoryId=7&size=100")).json()

    assert body["page"]["totalElements"] == 50
    assert {item["categoryId"] for item in body["content"]} == {7}
    assert [item["id"] for item in body["content"][:3]] == [7, 2007, 4007]


async def test_unknown_category_filter_is_an_empty_page(client: AsyncClient) -> None:
    body = (await client.get("/items?categoryId=999999")).json()

    assert body == {"content": [], "page": {"size": 20, "number": 0, "totalElements": 0, "totalPages": 0}}


async def test_category_items_of_an_absent_category_is_404(client: AsyncClient) -> None:
    body = assert_problem(await client.get("/categories/999999/items"), 404)

    assert body["detail"] == "category 999999 not found"


async def test_lists_fetch_categories_with_their_items_never_one_query_per_item(
    client: AsyncClient, statements: list[str]
) -> None:
    await client.get("/items?size=100")
    assert len(statements) == 2  # the count, then the page joined with its categories

    statements.clear()
    await client.get("/categories/3/items?size=50")
    assert len(statements) == 2  # the category's existence and item count, then the page

    statements.clear()
    await client.get("/items/3")
    assert len(statements) == 1


async def test_absent_ids_are_404_and_valid_negative_ids_too(client: AsyncClient) -> None:
    assert_problem(await client.get("/items/999999999"), 404)
    assert_problem(await client.get("/categories/0"), 404)
    assert_problem(await client.get("/items/-5"), 404)
