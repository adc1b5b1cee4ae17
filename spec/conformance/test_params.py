"""Routes, methods, path ids and query parameters: 404, 405 and 400 in API.md's order."""

import pytest

import seed
from helpers import (JSON, assert_json, assert_never_5xx, assert_problem, assert_seeded_category,
                     assert_seeded_item, assert_still_serving, fuzzer_only, padded_target, raw_get)

# spec/API.md's dialect only: run when CONFORMANCE_DIALECT=api (the default).
pytestmark = [pytest.mark.api, pytest.mark.code_only]

BAD_IDS = ["abc", "1.5", "1e3", "99999999999999999999", "9223372036854775808", "-9223372036854775809", "%20"]

# spec/API.md, "Integers in paths and query parameters": an optional sign, then ASCII digits, in
# the signed 64-bit range. Each of these is not one, as it reaches the server (percent-escapes
# decoded): Arabic-Indic and fullwidth digits, whitespace anywhere, an underscore (Python's int()
# takes it), a fraction, an exponent, hex, a lone or doubled sign, a sign after the digits.
NOT_INTEGERS = ["%D9%A1%D9%A2", "%EF%BC%95", "%205", "5%20", "%095", "5%0A", "1_0", "1.0", "1e3", "0x10",
                "%2B", "-", "%2B%2B5", "%2B-5", "--5", "5-", "%2B9223372036854775808"]


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


@pytest.mark.parametrize("bad", NOT_INTEGERS + ["5+", "+"])
@pytest.mark.parametrize("template", ["/items/{}", "/categories/{}", "/categories/{}/items"])
def test_path_id_that_is_not_an_ascii_integer_is_400(client, template, bad):
    response = client.get(template.format(bad))
    assert bad in response.request.url.raw_path.decode(), "the client changed the path"
    assert_problem(response, 400)


@pytest.mark.parametrize("written", ["+5", "%2B5", "005", "+005", "0000000000000000000005"])
def test_path_id_with_a_plus_sign_or_leading_zeros_is_the_integer(client, written):
    response = client.get(f"/items/{written}")
    assert response.request.url.raw_path.decode() == f"/items/{written}", "the client changed the path"
    assert_seeded_item(assert_json(response, 200), seed.item(5))
    assert_seeded_category(assert_json(client.get(f"/categories/{written}"), 200), seed.category(5))
    items = assert_json(client.get(f"/categories/{written}/items?size=50"), 200)
    assert [i["id"] for i in items["content"]] == seed.items_of_category(5)


@pytest.mark.parametrize("path", ["/items/+9223372036854775807", "/items/-9223372036854775808",
                                  "/categories/-0", "/categories/+0/items"])
def test_signed_path_ids_in_range_name_nothing(client, path):
    assert_problem(client.get(path), 404)


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


@pytest.mark.parametrize("bad", NOT_INTEGERS)
@pytest.mark.parametrize("name", ["page", "size", "categoryId"])
def test_query_integer_that_is_not_an_ascii_integer_is_400(client, name, bad):
    assert_problem(client.get(f"/items?{name}={bad}"), 400)


@pytest.mark.parametrize("query", ["page=+5", "size=+5", "categoryId=+5", "page=5+", "size=+"])
def test_a_plus_in_a_query_string_is_a_space(client, query):
    # Query strings are form-decoded, as every framework does: `+5` arrives as " 5".
    response = client.get(f"/items?{query}")
    assert "+" in response.request.url.query.decode(), "the client changed the query"
    assert_problem(response, 400)


def test_query_integers_with_a_plus_sign_or_leading_zeros(client):
    body = assert_json(client.get("/items?page=%2B5&size=%2B3"), 200)
    assert body["page"] == {"size": 3, "number": 5, "totalElements": seed.ITEMS,
                            "totalPages": -(-seed.ITEMS // 3)}
    assert [i["id"] for i in body["content"]] == [16, 17, 18]
    body = assert_json(client.get("/items?page=007&size=010"), 200)
    assert (body["page"]["number"], body["page"]["size"]) == (7, 10)
    assert [i["id"] for i in body["content"]] == list(range(71, 81))
    body = assert_json(client.get("/items?categoryId=%2B0042&size=50"), 200)
    assert [i["id"] for i in body["content"]] == seed.items_of_category(42)
    body = assert_json(client.get("/categories/42/items?page=%2B0&size=0050"), 200)
    assert [i["id"] for i in body["content"]] == seed.items_of_category(42)
    body = assert_json(client.get("/categories?page=-0&size=%2B2"), 200)
    assert [c["id"] for c in body["content"]] == [1, 2]


def test_bad_query_comes_before_absent_category(client):
    assert_problem(client.get("/categories/2001/items?size=0"), 400)


def test_unknown_query_parameters_are_ignored(client):
    assert client.get("/items?size=2&sort=name,desc&foo=bar").status_code == 200


def test_a_request_target_of_8000_octets_is_served(client):
    # RFC 9110 asks for URIs of at least 8,000 octets (spec/API.md, "Endpoints").
    page = assert_json(client.get(padded_target(8000)), 200)
    assert [item["id"] for item in page["content"]] == [1, 2]


@pytest.mark.parametrize("octets", [8_200, 66_000, 1_100_000])
def test_a_longer_request_target_never_5xx(client, base_url, octets):
    assert_never_5xx(raw_get(base_url, padded_target(octets)), f"GET of a {octets}-octet request target")
    assert_still_serving(client)


# Found by fuzzing (./bench fuzz); every stack answers them alike.

@pytest.mark.parametrize("path", ["/items", "/items/1", "/categories/1/items"])
def test_an_unknown_method_on_a_known_path_is_405(client, path):
    assert_problem(client.request("QUERY", path, content=b"{}", headers=JSON), 405)


def test_unknown_query_parameters_with_non_ascii_names_are_ignored(client):
    query = "%C3%9C=null&%F2%8E%AA%82=x&size=2"
    assert len(assert_json(client.get(f"/items?{query}"), 200)["content"]) == 2
    assert len(assert_json(client.get(f"/categories?{query}"), 200)["content"]) == 2


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "application/x-www-form-urlencoded"])
def test_a_content_type_on_a_read_is_ignored(client, content_type):
    headers = {"Content-Type": content_type}
    assert client.get("/items/1", headers=headers).status_code == 200
    assert client.get("/categories?size=2", headers=headers).status_code == 200
    assert client.get("/health", headers=headers).status_code == 200
    assert client.delete("/items/999999999", headers=headers).status_code == 404


# Inputs only a fuzzer sends (spec/API.md): the framework's own answer is fine, whatever it is,
# as long as it is not a 5xx, a hang or a dead process.

@pytest.mark.parametrize("query", ["=3", "=&=%09&page=1", "&&page=0&", "&&", "=", "page=%zz", "size=%4",
                                   "%zz=1", "categoryId=%G1"])
def test_empty_parameter_names_and_bad_escapes_never_5xx(client, query):
    for path in ("/items", "/categories", "/categories/1/items"):
        assert_never_5xx(fuzzer_only(client, "GET", f"{path}?{query}"), f"GET {path}?{query}")
    assert_still_serving(client)


@pytest.mark.parametrize("path", ["/items/%zz", "/categories/%zz", "/categories/%zz/items", "/items/%",
                                  "/items/999999999%2"])
def test_bad_escape_in_a_path_never_5xx(client, path):
    assert_never_5xx(fuzzer_only(client, "GET", path), f"GET {path}")
    assert_never_5xx(fuzzer_only(client, "DELETE", path), f"DELETE {path}")
    assert_still_serving(client)


@pytest.mark.parametrize("content_type", ["multipart/form-data", "multipart/form-data; boundary=x",
                                          "no/such; =", ";;", "*/*", "application/*"])
def test_odd_content_types_on_a_read_never_5xx(client, content_type):
    headers = {"Content-Type": content_type}
    for method, path in (("GET", "/items/1"), ("GET", "/categories?size=2"), ("GET", "/health"),
                         ("DELETE", "/items/999999999")):
        assert_never_5xx(fuzzer_only(client, method, path, headers=headers), f"{method} {path} as {content_type}")
    assert_still_serving(client)
