"""Routes, methods, path ids and query parameters as Spring Data REST reads them (spec/hal.md)."""

import pytest

import seed
from hal import (INLINE, assert_empty, assert_hal, assert_message, assert_page, assert_seeded_item,
                 assert_status)
from helpers import JSON, assert_never_5xx, assert_still_serving, fuzzer_only, padded_target, raw_get

# The HAL dialect only (spec/hal.md): run when CONFORMANCE_DIALECT=hal.
pytestmark = [pytest.mark.hal, pytest.mark.code_only]


@pytest.mark.parametrize("path", ["/nope", "/item", "/items/", "/categories/", "/ITEMS", "/items/1/",
                                  "/categories/1/items", "/items/search/nope"])
def test_unknown_routes_are_404(client, path):
    assert_status(client.get(path), 404)


@pytest.mark.parametrize("method,path", [("PUT", "/items"), ("DELETE", "/items"), ("PATCH", "/items"),
                                         ("PUT", "/categories"), ("DELETE", "/categories"), ("POST", "/items/5"),
                                         ("POST", "/categories/5")])
def test_a_method_a_resource_does_not_map_is_404(client, method, path):
    assert_status(client.request(method, path, content=b"{}", headers=JSON), 404)


@pytest.mark.parametrize("method,path,allowed", [
    ("PATCH", "/items/5", {"GET", "PUT", "DELETE"}),
    ("PATCH", "/categories/5", {"GET", "PUT", "DELETE"}),
    ("DELETE", "/items/5/category", {"GET", "PUT"}),
    ("POST", "/items/5/category", {"GET", "PUT"}),
    ("PATCH", "/items/5/category", {"GET", "PUT"}),
])
def test_methods_this_dialect_does_not_serve_are_405_with_allow(client, method, path, allowed):
    response = client.request(method, path, content=b'{"name": "x"}', headers=JSON)
    assert_empty(response, 405)
    served = {m.strip() for m in response.headers["allow"].split(",")}
    assert allowed <= served and method not in served, served


@pytest.mark.parametrize("path", ["/health", "/avatar"])
def test_plain_controllers_answer_405_with_allow(client, path):
    response = client.post(path, content=b"{}", headers=JSON)
    assert_status(response, 405)
    assert {m.strip() for m in response.headers["allow"].split(",")} >= {"GET"}


@pytest.mark.parametrize("written", ["+5", "%2B5", "005", "+005", "0000000000000000000005"])
def test_path_ids_are_read_as_long_integers(client, written):
    assert_seeded_item(assert_hal(client.get(f"/items/{written}?{INLINE}")), seed.item(5))


@pytest.mark.parametrize("bad", ["abc", "1.5", "1e3", "1_0", "99999999999999999999", "9223372036854775808",
                                 "-9223372036854775809", "%2B", "--5", "5-", "%20", "%09", "%1E", "%1F"])
@pytest.mark.parametrize("template", ["/items/{}", "/categories/{}", "/items/{}/category"])
def test_a_path_id_that_is_not_a_long_is_400(client, template, bad):
    assert_message(client.get(template.format(bad)), 400)


@pytest.mark.parametrize("bad", ["abc", "9223372036854775808", "%20"])
def test_a_bad_path_id_is_400_on_writes_too(client, bad):
    assert_message(client.put(f"/items/{bad}", content=b"{", headers=JSON), 400)
    assert_message(client.delete(f"/categories/{bad}"), 400)
    assert_message(client.put(f"/items/{bad}/category", content=b"/categories/1",
                              headers={"Content-Type": "text/uri-list"}), 400)


@pytest.mark.parametrize("query,number,size", [
    ("page=abc", 0, 20), ("page=-1", 0, 20), ("page=", 0, 20), ("page=1.5", 0, 20),
    ("page=9223372036854775807", 0, 20), ("size=0", 0, 20), ("size=-3", 0, 20), ("size=", 0, 20),
    ("size=abc", 0, 20), ("size=101", 0, 100), ("size=1000", 0, 100), ("page=%2B2&size=%2B3", 2, 3),
    ("page=002&size=007", 2, 7),
])
def test_paging_falls_back_instead_of_failing(client, query, number, size):
    content = assert_page(assert_hal(client.get(f"/items?{query}")), "items", size=size, number=number,
                          total=seed.ITEMS)
    assert [i["id"] for i in content] == list(range(number * size + 1, number * size + size + 1))


@pytest.mark.parametrize("query", ["page=2147483647&size=100", "page=1073741824&size=2", "page=2147483647&size=1"])
@pytest.mark.parametrize("path", ["/items", "/categories", "/items/search/byCategory?categoryId=1&"])
def test_a_page_past_the_largest_offset_or_without_a_next_page_number_is_400(client, path, query):
    """spec/hal.md, "Paging and sorting": page 2147483647 has no next page an int can number."""
    separator = "" if path.endswith("&") else "?"
    assert_message(client.get(f"{path}{separator}{query}"), 400)


def test_the_last_page_an_int_can_follow_is_an_empty_page(client):
    page = assert_hal(client.get("/categories?page=2147483646&size=1"))
    assert assert_page(page, "categories", size=1, number=2147483646, total=seed.CATEGORIES) == []


@pytest.mark.parametrize("query", ["categoryId=abc", "categoryId=1.5", "categoryId=99999999999999999999",
                                   "categoryId=1e3"])
def test_a_category_filter_that_is_not_a_long_is_400(client, query):
    assert_message(client.get(f"/items/search/byCategory?{query}"), 400)


def test_unknown_query_parameters_are_ignored(client):
    content = assert_page(assert_hal(client.get("/items?size=2&categoryId=345&foo=bar")), "items", size=2,
                          number=0, total=seed.ITEMS)
    assert [i["id"] for i in content] == [1, 2]


def test_a_request_target_of_8000_octets_is_served(client):
    # RFC 9110 asks for URIs of at least 8,000 octets (spec/API.md, "Endpoints").
    content = assert_page(assert_hal(client.get(padded_target(8000))), "items", size=2, number=0, total=seed.ITEMS)
    assert [i["id"] for i in content] == [1, 2]


@pytest.mark.parametrize("octets", [8_200, 66_000, 1_100_000])
def test_a_longer_request_target_never_5xx(client, base_url, octets):
    assert_never_5xx(raw_get(base_url, padded_target(octets)), f"GET of a {octets}-octet request target")
    assert_still_serving(client)


@pytest.mark.parametrize("query", ["+=1", "categoryId=1&%20=1", "%1D=x&categoryId=1", "%09=&categoryId=1"])
def test_a_search_parameter_named_only_whitespace_is_400(client, query):
    # A search resource looks every parameter up by name among its method's; elsewhere such a
    # parameter is unknown and ignored (the test above).
    assert_message(client.get(f"/items/search/byCategory?{query}"), 400)
    assert assert_hal(client.get(f"/items?size=1&{query}"))["page"]["totalElements"] == seed.ITEMS


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "application/x-www-form-urlencoded", "text/plain"])
def test_a_content_type_on_a_read_is_ignored(client, content_type):
    headers = {"Content-Type": content_type}
    assert_seeded_item(assert_hal(client.get(f"/items/5?{INLINE}", headers=headers)), seed.item(5))
    assert assert_hal(client.get("/categories?size=2", headers=headers))["page"]["totalElements"] == seed.CATEGORIES
    assert client.get("/health", headers=headers).status_code == 200
    assert_empty(client.delete("/items/999999999", headers=headers), 404)


# Inputs only a fuzzer sends (spec/API.md, spec/hal.md): any answer below 500 or a closed
# connection; never a 5xx, a hang or a dead process.

@pytest.mark.parametrize("query", ["=3", "=&=%09&page=1", "&&page=0&", "&&", "=", "page=%zz", "size=%4",
                                   "%zz=1", "categoryId=%G1", "sort=%zz", "sort=,,", "sort=id,sideways",
                                   "projection=%00"])
def test_empty_parameter_names_and_bad_escapes_never_5xx(client, query):
    for path in ("/items", "/categories", "/items/search/byCategory", "/items/1"):
        assert_never_5xx(fuzzer_only(client, "GET", f"{path}?{query}"), f"GET {path}?{query}")
    assert_still_serving(client)


@pytest.mark.parametrize("path", ["/items/%zz", "/categories/%zz", "/items/%zz/category", "/items/%",
                                  "/items/999999999%2", "/items/%00", "/items/search/%zz"])
def test_bad_escape_in_a_path_never_5xx(client, path):
    assert_never_5xx(fuzzer_only(client, "GET", path), f"GET {path}")
    assert_never_5xx(fuzzer_only(client, "DELETE", path), f"DELETE {path}")
    assert_still_serving(client)


@pytest.mark.parametrize("content_type", ["multipart/form-data", "multipart/form-data; boundary=x",
                                          "no/such; =", ";;", "*/*", "application/*", "application/json; charset"])
def test_odd_content_types_on_a_read_never_5xx(client, content_type):
    headers = {"Content-Type": content_type}
    for method, path in (("GET", "/items/1"), ("GET", "/categories?size=2"), ("GET", "/health"),
                         ("DELETE", "/items/999999999"), ("GET", "/items/search/byCategory?categoryId=1")):
        assert_never_5xx(fuzzer_only(client, method, path, headers=headers), f"{method} {path} as {content_type}")
    assert_still_serving(client)
