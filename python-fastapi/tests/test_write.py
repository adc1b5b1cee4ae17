from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest
from httpx import AsyncClient

from tests.utils import JSON, assert_problem, send_json, unique

pytestmark = pytest.mark.anyio


async def test_item_lifecycle(client: AsyncClient, category: dict[str, Any]) -> None:
    body = {
        "sku": unique("L"),
        "name": "lamp",
        "price": 19.9,
        "stock": 4,
        "description": "bright",
        "categoryId": category["id"],
        "id": 1,
        "updatedAt": "2000-01-01T00:00:00Z",
        "color": "red",
    }

    created = await send_json(client, "POST", "/items", body)
    assert created.status_code == 201
    item = created.json()
    assert created.headers["location"] == f"/items/{item['id']}"
    assert item["id"] != 1 and not item["updatedAt"].startswith("2000")
    assert item["price"] == 19.9
    assert item["category"] == {"id": category["id"], "code": category["code"], "name": category["name"]}
    assert (await client.get(f"/items/{item['id']}")).json() == item

    # Full replacement: the omitted description becomes null; the item keeps its own sku.
    replaced = await send_json(
        client,
        "PUT",
        f"/items/{item['id']}",
        {"sku": body["sku"], "name": "lamp 2", "price": 1.230, "stock": 0, "categoryId": 1},
    )
    assert replaced.status_code == 200
    assert replaced.json()["description"] is None
    assert replaced.json()["price"] == 1.23
    assert replaced.json()["category"]["code"] == "CAT-0001"
    assert datetime.fromisoformat(replaced.json()["updatedAt"]) > datetime.fromisoformat(item["updatedAt"])

    assert (await client.delete(f"/items/{item['id']}")).status_code == 204
    assert_problem(await client.get(f"/items/{item['id']}"), 404)
    assert_problem(await client.delete(f"/items/{item['id']}"), 404)


async def test_an_item_write_loads_its_category_in_one_statement(
    client: AsyncClient, category: dict[str, Any], statements: list[str]
) -> None:
    body = {"sku": unique("S"), "name": "counted", "price": 1, "stock": 1, "categoryId": category["id"]}

    created = await send_json(client, "POST", "/items", body)
    assert created.status_code == 201
    assert len(statements) == 2, statements  # the INSERT, then the category for the response

    statements.clear()
    replaced = await send_json(client, "PUT", f"/items/{created.json()['id']}", body)
    assert replaced.status_code == 200
    assert len(statements) == 3, statements  # the row locked, the UPDATE, the category
    assert replaced.json()["category"]["code"] == category["code"]

    assert (await client.delete(f"/items/{created.json()['id']}")).status_code == 204


async def test_category_lifecycle(client: AsyncClient) -> None:
    code = unique("C")
    created = await send_json(client, "POST", "/categories", {"code": code, "name": "chairs"})
    assert created.status_code == 201
    category = created.json()
    assert created.headers["location"] == f"/categories/{category['id']}"

    replaced = await send_json(
        client, "PUT", f"/categories/{category['id']}", {"code": code, "name": "stools"}
    )
    assert replaced.status_code == 200
    assert replaced.json()["name"] == "stools"

    deleted = await client.delete(f"/categories/{category['id']}")
    assert deleted.status_code == 204
    assert deleted.content == b""
    assert_problem(await client.get(f"/categories/{category['id']}"), 404)


async def test_taken_keys_are_409(client: AsyncClient, item: dict[str, Any]) -> None:
    body = assert_problem(
        await send_json(client, "POST", "/categories", {"code": "CAT-0001", "name": "x"}), 409
    )
    assert body["detail"] == "code CAT-0001 already exists"

    taken_sku = {"sku": "SKU-000001", "name": "x", "price": 1, "stock": 1, "categoryId": item["categoryId"]}
    assert_problem(await send_json(client, "POST", "/items", taken_sku), 409)
    assert_problem(await send_json(client, "PUT", f"/items/{item['id']}", taken_sku), 409)
    # Both a taken sku and an unknown category: the taken key is reported.
    assert_problem(await send_json(client, "POST", "/items", {**taken_sku, "categoryId": 999999}), 409)


async def test_unknown_category_on_an_item_write_is_422_on_category_id(
    client: AsyncClient, item: dict[str, Any]
) -> None:
    body = {"sku": unique("U"), "name": "x", "price": 1, "stock": 1, "categoryId": 999999}

    problem = assert_problem(await send_json(client, "POST", "/items", body), 422, {"categoryId"})
    assert problem["detail"] == "category 999999 does not exist"
    assert_problem(await send_json(client, "PUT", f"/items/{item['id']}", body), 422, {"categoryId"})
    # An absent item is reported before what only the database can tell.
    assert_problem(await send_json(client, "PUT", "/items/999999999", body), 404)


async def test_category_with_items_cannot_be_deleted(client: AsyncClient, item: dict[str, Any]) -> None:
    body = assert_problem(await client.delete(f"/categories/{item['categoryId']}"), 409)

    assert body["detail"] == f"category {item['categoryId']} still has items"
    assert (await client.get(f"/categories/{item['categoryId']}")).status_code == 200


async def test_strings_are_stored_as_given(client: AsyncClient, category: dict[str, Any]) -> None:
    name = "  Ünïcødé 🚀 " + "x" * 114  # 128 code points, more bytes
    body = {
        "sku": unique("S"),
        "name": name,
        "price": 0,
        "stock": 2147483647,
        "description": " \t",
        "categoryId": category["id"],
    }

    created = (await send_json(client, "POST", "/items", body)).json()
    assert (created["name"], created["description"], created["price"]) == (name, " \t", 0)
    await client.delete(f"/items/{created['id']}")


def item_json(sku: str, price: str, category_id: int) -> bytes:
    """An item body with `price` written exactly as given (json.dumps cannot write 1e2 or 1.10...0)."""
    return f'{{"sku":"{sku}","name":"priced","price":{price},"stock":1,"categoryId":{category_id}}}'.encode()


@pytest.mark.parametrize(
    "price",
    ["1e2", "125E-2", "1.10000000000000000000", "1.230", "0", "0.0e5", "99999999.99", "9999999999e-2"],
)
async def test_a_price_is_judged_and_stored_by_its_exact_value(
    client: AsyncClient, item: dict[str, Any], price: str
) -> None:
    response = await client.put(
        f"/items/{item['id']}", content=item_json(item["sku"], price, item["categoryId"]), headers=JSON
    )

    assert response.status_code == 200, response.text
    assert Decimal(str(response.json()["price"])) == Decimal(price)
    stored = (await client.get(f"/items/{item['id']}")).json()["price"]
    assert Decimal(str(stored)) == Decimal(price)


@pytest.mark.parametrize(
    "price",
    [
        "1.00000000000000001",  # a binary double would round it to 1
        "99999999.995",  # and this to 99999999.99
        "99999999.990000000001",
        "1.234",
        "1e-3",
        "-0.01",
        "100000000",
        "1e8",
        "1e400",
        "1e-400",
        "-1e400",
    ],
)
async def test_a_price_outside_the_rule_by_its_exact_value_is_422(
    client: AsyncClient, category: dict[str, Any], price: str
) -> None:
    response = await client.post(
        "/items", content=item_json(unique("P"), price, category["id"]), headers=JSON
    )

    assert_problem(response, 422, {"price"})
