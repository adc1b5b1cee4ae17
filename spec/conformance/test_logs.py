"""Rows that PostgreSQL rejects, each carrying a marker in its values, so that the runner can look
for the marker in the stack's log afterwards (spec/API.md, "Start-up, health and logging": a
stack never logs SQL parameters; PostgreSQL's DETAIL of a unique or foreign-key violation repeats
the row's key as well). The suite sends the requests and checks their answers; the log is the
runner's to read, as only it holds the stack's output.

The marker comes from CONFORMANCE_LOG_MARKER (`./bench test` sets a fresh one for each run); by
hand, the case makes one of its own and prints it, to look for in the stack's output."""

from __future__ import annotations

import os

import pytest

from helpers import post, put, unique

LOG_MARKER_VARIABLE = "CONFORMANCE_LOG_MARKER"
# An unknown category, well-formed: PostgreSQL's foreign key rejects it, a 422 on `categoryId`.
ABSENT_CATEGORY_ID = 9_000_000_000


@pytest.fixture(scope="module")
def marker() -> str:
    value = os.environ.get(LOG_MARKER_VARIABLE) or unique("logmarker")
    assert len(value) <= 24, f"{LOG_MARKER_VARIABLE} must leave room in a 32-character code: {value!r}"
    print(f"row values carry {value!r}: the stack's log must not")
    return value


def test_rows_postgresql_rejects_carry_a_marker_for_the_runner_to_look_for_in_the_log(client, dialect, marker):
    category = dialect.assert_document(post(client, "/categories", {"code": marker, "name": f"name {marker}"}), 201)
    other = dialect.create_category(client)
    item = dialect.assert_document(
        post(client, "/items", dialect.item_body(category["id"], sku=marker, name=f"name {marker}",
                                                 description=f"description {marker}")), 201)

    rejected = [
        # unique violations: PostgreSQL's DETAIL names the taken key, the statement's parameters hold the rest
        (post(client, "/categories", {"code": marker, "name": f"again {marker}"}), 409),
        (put(client, f"/categories/{other['id']}", {"code": marker, "name": f"taken {marker}"}), 409),
        (post(client, "/items", dialect.item_body(category["id"], sku=marker, name=f"again {marker}")), 409),
    ]
    if dialect.name == "api":
        # A foreign-key violation. (Spring Data REST resolves an item's category URI itself and
        # answers an unknown one before any SQL: spec/hal.md.)
        orphan = dialect.item_body(ABSENT_CATEGORY_ID, sku=f"{marker}-2", name=f"orphan {marker}")
        rejected.append((post(client, "/items", orphan), 422))
    for response, status in rejected:
        dialect.assert_error(response, status)

    # Left as found: the rows made here are deleted again.
    for path in (f"/items/{item['id']}", f"/categories/{category['id']}", f"/categories/{other['id']}"):
        assert client.delete(path).status_code in (200, 204), path
