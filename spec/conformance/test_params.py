"""Routes, methods, path ids and query parameters: 404, 405 and 400 in API.md's order."""

import pytest

from helpers import JSON, assert_problem

BAD_IDS = ["abc", "1.5", "1e3", "99999999999999999999", "9223372036854775808", "-9223372036854775809", "%20"]


@pytest.mark.parametrize("path", ["/", "/nope", "/item", "/items/", "/categories/", "/items/1/",
                                  "/items/1/category", "/categories/1/items/", "/categories/1/items/1",
                                  "/avatar/", "/health/", "/ITEMS"])
def test_unknown_routes_are_404_problems(client, path):
    assert_problem(client.get(path), 404)


@pytest.mark.parametrize("method,path,allowed", [
    ("DELETE", "/items", {"GET", "POST"}),
    ("PUT", "/items", {"GET", "POST"}),
    ("PATCH", "/items/1", {"GET", "PUT", "DELETE"}),
    ("POST", "/items/1", {"GET", "PUT", "DELETE"}),
    ("PATCH", "/items/abc", {"GET", "PUT", "DELETE"}),
    ("DELETE", "/categories", {"GET", "POST"}),
    ("POST", "/categories/1", {"GET", "PUT", "DELETE"}),
    ("POST", "/categories/1/items", {"GET"}),
    ("DELETE", "/categories/1/items", {"GET"}),
    ("POST", "/avatar", {"GET"}),
    ("PUT", "/health", {"GET"}),
])
def test_wrong_method_is_405_with_allow(client, method, path, allowed):
    response = client.request(method, path, content=b"{}", headers=JSON)
    assert_problem(response, 405)
    listed = {m.strip().upper() for m in response.headers.get("allow", "").split(",") if m.strip()}
    assert allowed <= listed, f"Allow: {response.headers.get('allow')!r} lacks {allowed - listed}"
    assert method not in listed


@pytest.mark.parametrize("bad", BAD_IDS)
@pytest.mark.parametrize("template", ["/items/{}", "/categories/{}", "/categories/{}/items"])
def test_bad_path_id_is_400(client, template, bad):
    assert_problem(client.get(template.format(bad)), 400)


@pytest.mark.parametrize("bad", ["abc", "9223372036854775808"])
def test_bad_path_id_comes_before_content_type_and_body(client, bad):
    assert_problem(client.put(f"/items/{bad}", content=b"not json", headers={"Content-Type": "text/plain"}), 400)
    assert_problem(client.delete(f"/categories/{bad}"), 400)


@pytest.mark.parametrize("query", [
    "page=-1", "page=abc", "page=1.5", "page=", "page=99999999999999999999", "page=9223372036854775808",
    "size=0", "size=101", "size=-1", "size=abc", "size=", "size=1.0", "size=99999999999999999999",
])
@pytest.mark.parametrize("path", ["/items", "/categories", "/categories/1/items"])
def test_bad_paging_is_400(client, path, query):
    assert_problem(client.get(f"{path}?{query}"), 400)


@pytest.mark.parametrize("query", ["categoryId=abc", "categoryId=", "categoryId=1.5",
                                   "categoryId=9223372036854775808", "categoryId=1&size=0"])
def test_bad_category_filter_is_400(client, query):
    assert_problem(client.get(f"/items?{query}"), 400)


def test_bad_query_comes_before_absent_category(client):
    assert_problem(client.get("/categories/2001/items?size=0"), 400)


def test_unknown_query_parameters_are_ignored(client):
    assert client.get("/items?size=2&sort=name,desc&foo=bar").status_code == 200


# Found by fuzzing (./bench fuzz); every stack answers them alike.

@pytest.mark.parametrize("path", ["/items", "/items/1", "/categories/1/items"])
def test_an_unknown_method_on_a_known_path_is_405(client, path):
    assert_problem(client.request("QUERY", path, content=b"{}", headers=JSON), 405)


@pytest.mark.parametrize("query", ["=3", "=&=%09&page=1", "%C3%9C=null&%F2%8E%AA%82=x&size=2", "&&page=0&"])
def test_odd_query_parameters_are_ignored(client, query):
    assert client.get(f"/items?{query}").status_code == 200
    assert client.get(f"/categories?{query}").status_code == 200


@pytest.mark.parametrize("content_type", ["multipart/form-data", "multipart/form-data; boundary=x",
                                          "application/x-www-form-urlencoded", "no/such; =", ";;"])
def test_a_content_type_on_a_read_is_ignored(client, content_type):
    headers = {"Content-Type": content_type}
    assert client.get("/items/1", headers=headers).status_code == 200
    assert client.get("/categories?size=2", headers=headers).status_code == 200
    assert client.get("/health", headers=headers).status_code == 200
    assert client.delete("/items/999999999", headers=headers).status_code == 404
