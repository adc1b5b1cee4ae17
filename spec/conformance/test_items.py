"""Item writes: create, replace, delete, conflicts, the category reference and field validation."""

from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

from helpers import JSON, assert_json, assert_problem, exact_json, instant, number, post, put, totals, unique

# spec/API.md's dialect only: run when CONFORMANCE_DIALECT=api (the default).
pytestmark = pytest.mark.api


def valid_item(category_id: int, **overrides) -> dict:
    body = {"sku": unique("SKU"), "name": "A fine item", "price": 19.99, "stock": 7,
            "description": "Sturdy.", "categoryId": category_id}
    body.update(overrides)
    return body


def assert_recent(text: str) -> None:
    assert abs(instant(text) - datetime.now(timezone.utc)) < timedelta(minutes=1), text


def test_create_item(client, category):
    sent = valid_item(category["id"], id=1, updatedAt="1999-01-01T00:00:00Z", category={"id": 1}, unknown=[1])
    response = post(client, "/items", sent)
    body = assert_json(response, 201)
    assert set(body) == {"id", "sku", "name", "price", "stock", "description", "categoryId", "category", "updatedAt"}
    assert body["id"] > 100000
    assert (body["sku"], body["name"], body["stock"], body["description"]) == (
        sent["sku"], sent["name"], sent["stock"], sent["description"])
    assert number(body["price"]) == Decimal("19.99")
    assert body["categoryId"] == category["id"]
    assert body["category"] == {"id": category["id"], "code": category["code"], "name": category["name"]}
    assert_recent(body["updatedAt"])
    location = response.headers["location"]
    assert location.endswith(f"/items/{body['id']}")
    assert assert_json(client.get(location), 200) == body


def test_created_item_is_listed_in_its_category(client, item):
    page = assert_json(client.get(f"/items?categoryId={item['categoryId']}"), 200)
    assert page["content"] == [item] and page["page"]["totalElements"] == 1
    page = assert_json(client.get(f"/categories/{item['categoryId']}/items"), 200)
    assert page["content"] == [item]


def test_description_is_optional_and_nullable(client, category):
    without = assert_json(post(client, "/items", {k: v for k, v in valid_item(category["id"]).items()
                                                  if k != "description"}), 201)
    assert without["description"] is None
    explicit = assert_json(post(client, "/items", valid_item(category["id"], description=None)), 201)
    assert explicit["description"] is None
    for blank in ("", "   "):
        assert assert_json(post(client, "/items", valid_item(category["id"], description=blank)), 201)[
            "description"] == blank


def test_replace_item_is_a_full_replacement(client, item, category):
    other = assert_json(post(client, "/categories", {"code": unique("C2"), "name": "Other"}), 201)
    sent = {"sku": unique("R"), "name": "Replaced", "price": 1, "stock": 0, "categoryId": other["id"]}
    body = assert_json(put(client, f"/items/{item['id']}", sent), 200)
    assert body["id"] == item["id"] and body["sku"] == sent["sku"] and body["name"] == "Replaced"
    assert number(body["price"]) == 1 and body["stock"] == 0
    assert body["description"] is None, "PUT without description sets it to null"
    assert body["categoryId"] == other["id"] and body["category"]["code"] == other["code"]
    assert instant(body["updatedAt"]) >= instant(item["updatedAt"])
    assert_recent(body["updatedAt"])
    assert assert_json(client.get(f"/items/{item['id']}"), 200) == body


def test_replace_keeping_its_own_sku(client, item):
    body = assert_json(put(client, f"/items/{item['id']}", valid_item(item["categoryId"], sku=item["sku"])), 200)
    assert body["sku"] == item["sku"]


def test_replace_seeded_item(client):
    body = assert_json(put(client, "/items/99998", valid_item(5, sku="SKU-099998", price=0.1)), 200)
    assert number(body["price"]) == Decimal("0.1") and body["category"]["code"] == "CAT-0005"


def test_delete_item(client, item):
    response = client.delete(f"/items/{item['id']}")
    assert response.status_code == 204 and response.content == b""
    assert_problem(client.get(f"/items/{item['id']}"), 404)
    assert_problem(client.delete(f"/items/{item['id']}"), 404)


def test_delete_absent_item_is_404(client):
    assert_problem(client.delete("/items/999999999"), 404)


def test_category_emptied_of_items_can_be_deleted(client, item):
    assert_problem(client.delete(f"/categories/{item['categoryId']}"), 409)
    assert client.delete(f"/items/{item['id']}").status_code == 204
    assert client.delete(f"/categories/{item['categoryId']}").status_code == 204


def test_duplicate_sku_is_409(client, item):
    before = totals(client)
    assert_problem(post(client, "/items", valid_item(item["categoryId"], sku=item["sku"])), 409)
    assert_problem(post(client, "/items", valid_item(1, sku="SKU-000001")), 409)
    assert totals(client) == before


def test_replace_with_a_taken_sku_is_409_and_changes_nothing(client, item):
    assert_problem(put(client, f"/items/{item['id']}", valid_item(item["categoryId"], sku="SKU-000002")), 409)
    assert assert_json(client.get(f"/items/{item['id']}"), 200) == item


@pytest.mark.parametrize("category_id", [987654321, 999999999, 0, -1, 9223372036854775807])
def test_unknown_category_is_422_on_category_id(client, item, category_id):
    before = totals(client)
    assert_problem(post(client, "/items", valid_item(category_id)), 422, {"categoryId"})
    assert_problem(put(client, f"/items/{item['id']}", valid_item(category_id)), 422, {"categoryId"})
    assert totals(client) == before
    assert assert_json(client.get(f"/items/{item['id']}"), 200) == item


# 0 and negative ids are well-formed ids that name no category: judged like any unknown one.
@pytest.mark.parametrize("category_id", [999999999, 0, -1])
def test_taken_sku_comes_before_unknown_category(client, category_id):
    assert_problem(post(client, "/items", valid_item(category_id, sku="SKU-000003")), 409)


def test_constraint_violations_answer_by_what_was_written(client, item):
    """spec/API.md, "Database errors": a taken sku is 409 on an item write, an unknown category
    422 on an item write and 409 on a category delete, whichever constraint PostgreSQL names."""
    own = valid_item(987654321, sku=item["sku"])
    assert_problem(put(client, f"/items/{item['id']}", own), 422, {"categoryId"})
    assert_problem(post(client, "/items", valid_item(item["categoryId"], sku=item["sku"])), 409)
    assert_problem(client.delete(f"/categories/{item['categoryId']}"), 409)
    other = assert_json(post(client, "/categories", {"code": unique("MOVE"), "name": "moved to"}), 201)
    moved = assert_json(put(client, f"/items/{item['id']}", valid_item(other["id"], sku=item["sku"])), 200)
    assert moved["category"]["id"] == other["id"]
    assert client.delete(f"/categories/{item['categoryId']}").status_code == 204
    assert_problem(client.delete(f"/categories/{other['id']}"), 409)
    assert assert_json(client.get(f"/items/{item['id']}"), 200) == moved


@pytest.mark.code_only
def test_invalid_body_comes_before_absent_item(client):
    assert_problem(put(client, "/items/999999999", {"sku": "x"}), 422, {"name", "price", "stock", "categoryId"})


@pytest.mark.parametrize("category_id", [999999999, 0, -1])
def test_absent_item_comes_before_unknown_category_and_taken_sku(client, category_id):
    assert_problem(put(client, "/items/999999999", valid_item(category_id)), 404)
    assert_problem(put(client, "/items/999999999", valid_item(1, sku="SKU-000004")), 404)


@pytest.mark.parametrize("price", [0, 0.01, 1.5, 1.230, 99999999.99, 100, 1e2, 5.10])
def test_valid_prices(client, category, price):
    body = assert_json(post(client, "/items", valid_item(category["id"], price=price)), 201)
    assert number(body["price"]) == Decimal(str(price))


@pytest.mark.parametrize("raw_price", ["1.230", "1.2300000", "12e-1", "0.10"])
def test_prices_are_judged_by_value(client, category, raw_price):
    body = valid_item(category["id"])
    raw = ('{"sku": "%s", "name": "n", "price": %s, "stock": 1, "categoryId": %d}'
           % (body["sku"], raw_price, category["id"]))
    created = assert_json(client.post("/items", content=raw, headers={"Content-Type": "application/json"}), 201)
    assert number(created["price"]) == Decimal(raw_price)


def raw_item(sku: str, category_id: int, raw_price: str) -> bytes:
    """An item body whose price is written exactly as given, as JSON number text."""
    return ('{"sku": "%s", "name": "n", "price": %s, "stock": 1, "categoryId": %d}'
            % (sku, raw_price, category_id)).encode()


# spec/API.md, "price": judged by the exact decimal value of the number's text, never a binary double.
@pytest.mark.parametrize("raw_price,value", [
    ("1e2", "100"), ("1E2", "100"), ("1e+2", "100"), ("125E-2", "1.25"), ("1.10000000000000000000", "1.1"),
    ("1.230", "1.23"), ("0", "0"), ("0.0", "0"), ("0e5", "0"), ("99999999.99", "99999999.99"),
    ("9999999999e-2", "99999999.99"), ("0.01", "0.01"), ("1000000.5000", "1000000.5"),
])
def test_a_price_is_judged_and_returned_by_its_exact_value(client, category, raw_price, value):
    sku = unique("EXACT")
    response = client.post("/items", content=raw_item(sku, category["id"], raw_price), headers=JSON)
    assert_json(response, 201)
    created = exact_json(response)
    assert isinstance(created["price"], (int, Decimal)) and not isinstance(created["price"], bool), created["price"]
    assert Decimal(created["price"]) == Decimal(value), f"price {raw_price} came back as {created['price']}"
    read = exact_json(client.get(f"/items/{created['id']}"))
    assert Decimal(read["price"]) == Decimal(value), f"price {raw_price} was read back as {read['price']}"
    listed = exact_json(client.get(f"/items?categoryId={category['id']}&size=100"))["content"]
    assert [Decimal(i["price"]) for i in listed if i["sku"] == sku] == [Decimal(value)]
    replaced = client.put(f"/items/{created['id']}", content=raw_item(sku, category["id"], raw_price), headers=JSON)
    assert_json(replaced, 200)
    assert Decimal(exact_json(replaced)["price"]) == Decimal(value)


@pytest.mark.parametrize("raw_price", [
    "1.00000000000000001", "99999999.995", "99999999.991", "1.234", "0.001", "1e-3", "-0.01", "-1",
    "100000000", "1e8", "99999999.990000000001", "1e400", "1e-400", "-1e400", "12345678901234567890",
    "0.0000000000000000000000000000001",
])
@pytest.mark.code_only
def test_a_price_outside_the_rule_by_its_exact_value_is_422(client, item, raw_price):
    before = totals(client)
    response = client.post("/items", content=raw_item(unique("EXACT"), item["categoryId"], raw_price), headers=JSON)
    assert_problem(response, 422, {"price"})
    response = client.put(f"/items/{item['id']}", content=raw_item(item["sku"], item["categoryId"], raw_price),
                          headers=JSON)
    assert_problem(response, 422, {"price"})
    assert totals(client) == before
    assert assert_json(client.get(f"/items/{item['id']}"), 200) == item


def test_price_is_returned_as_a_json_number(client, item):
    raw = client.get(f"/items/{item['id']}").text
    assert '"price":"' not in raw.replace(" ", ""), raw


VALID_BASE = {"sku": "V", "name": "n", "price": 1, "stock": 1, "categoryId": 1}


@pytest.mark.parametrize("changes,fields", [
    ({"price": -0.01}, {"price"}),
    ({"price": 100000000}, {"price"}),
    ({"price": 99999999.991}, {"price"}),
    ({"price": 1.234}, {"price"}),
    ({"price": 0.001}, {"price"}),
    ({"price": "9.99"}, {"price"}),
    ({"price": None}, {"price"}),
    ({"price": True}, {"price"}),
    ({"price": [1]}, {"price"}),
    ({"stock": -1}, {"stock"}),
    ({"stock": 2147483648}, {"stock"}),
    ({"stock": 1.5}, {"stock"}),
    ({"stock": "3"}, {"stock"}),
    ({"stock": None}, {"stock"}),
    ({"stock": False}, {"stock"}),
    ({"categoryId": "1"}, {"categoryId"}),
    ({"categoryId": 1.5}, {"categoryId"}),
    ({"categoryId": None}, {"categoryId"}),
    ({"categoryId": 99999999999999999999}, {"categoryId"}),
    ({"categoryId": True}, {"categoryId"}),
    ({"sku": ""}, {"sku"}),
    ({"sku": "  "}, {"sku"}),
    ({"sku": None}, {"sku"}),
    ({"sku": 5}, {"sku"}),
    ({"sku": "S" * 65}, {"sku"}),
    ({"sku": "S\u0000"}, {"sku"}),
    ({"name": ""}, {"name"}),
    ({"name": "\t\n"}, {"name"}),
    ({"name": "n" * 129}, {"name"}),
    ({"description": "d" * 16385}, {"description"}),
    ({"description": 5}, {"description"}),
    ({"description": "with \u0000 NUL"}, {"description"}),
    ({"sku": "", "name": None, "price": "x", "stock": -5, "categoryId": "c", "description": 1},
     {"sku", "name", "price", "stock", "categoryId", "description"}),
])
@pytest.mark.code_only
def test_invalid_item_is_422(client, changes, fields):
    body = dict(VALID_BASE, sku=unique("V"))
    body.update(changes)
    before = totals(client)
    assert_problem(post(client, "/items", body), 422, fields)
    assert_problem(put(client, "/items/1", body), 422, fields)
    assert totals(client) == before
    assert client.get("/items/1").json()["sku"] == "SKU-000001"


@pytest.mark.code_only
@pytest.mark.parametrize("missing", ["sku", "name", "price", "stock", "categoryId"])
def test_missing_required_field_is_422(client, missing):
    body = {k: v for k, v in dict(VALID_BASE, sku=unique("V")).items() if k != missing}
    assert_problem(post(client, "/items", body), 422, {missing})


def test_limits_are_accepted(client, category):
    sku = unique("MAX")
    body = valid_item(category["id"], sku=sku + "s" * (64 - len(sku)), name="n" * 128, stock=2147483647,
                      price=99999999.99, description="d" * 16384)
    created = assert_json(post(client, "/items", body), 201)
    assert len(created["sku"]) == 64 and len(created["description"]) == 16384
    assert created["stock"] == 2147483647


def test_unicode_description_round_trip(client, category):
    description = "Beschreibung: größer — 価格 💶 \"quoted\" \\ \u2028 line separator " + "ü" * 16000
    created = assert_json(post(client, "/items", valid_item(category["id"], description=description)), 201)
    assert created["description"] == description
    assert assert_json(client.get(f"/items/{created['id']}"), 200)["description"] == description
