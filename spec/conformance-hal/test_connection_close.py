"""The API suite's case of a client that closes after its last request, loaded from its file
(spec/conformance/test_connection_close.py): a kept-alive GET read to its end, then a GET with
`Connection: close` on the same connection, answered in full before the server closes. Both
dialects serve `/categories/{id}` and `/items/{id}` with the `id` and `sku` it checks."""

from __future__ import annotations

import importlib.util
from pathlib import Path

# Both suites have a module named test_connection_close, so it cannot be imported by name.
_API_CASE = Path(__file__).resolve().parent.parent / "conformance" / "test_connection_close.py"
_spec = importlib.util.spec_from_file_location("conformance_connection_close", _API_CASE)
assert _spec is not None and _spec.loader is not None, _API_CASE
_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_api)

test_a_closing_request_after_a_kept_alive_one_is_answered = (
    _api.test_a_closing_request_after_a_kept_alive_one_is_answered)
