"""Paths only a fuzzer sends that read the same in both dialects: a segment holding an encoded
slash, backslash or NUL (spec/API.md, "Inputs only a fuzzer sends"). No id holds one, and a
servlet container refuses such a path before the application runs, so any 4xx or a closed
connection will do; never a 5xx, a hang or a dead process."""

import pytest

from helpers import assert_never_5xx, assert_still_serving, fuzzer_only

pytestmark = pytest.mark.code_only


@pytest.mark.parametrize("path", ["/items/%2F", "/items/%5C", "/items/%00", "/categories/1%5C", "/categories/%2F/items",
                                  "/items/1%5C2"])
def test_an_encoded_slash_backslash_or_nul_in_a_path_never_5xx(client, path):
    assert_never_5xx(fuzzer_only(client, "GET", path), f"GET {path}")
    assert_never_5xx(fuzzer_only(client, "DELETE", path), f"DELETE {path}")
    assert_still_serving(client)
