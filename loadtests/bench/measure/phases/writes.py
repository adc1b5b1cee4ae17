"""The lost-write check after a write scenario: every write that got a 2xx looked up, by id or
by key.

Two load generators write. vegeta sends the ladder's steps and the steady-state windows
(bench.measure.phases.vegeta_runs) from requests prepared ahead: each create carries a key (an
item's sku, a category's code) no row has yet, so a create answered 201 is known by its key; the
rows its deletes remove are made before the step, through the stack's API, so they are
acknowledged creates known by id, and each delete names its row. k6 sends the closed-model stages
and logs the id of every create and delete that got a 2xx, and of every delete before it is sent
(loadtests/k6/lib/common.js, RECORD_WRITES=1). A delete sent without a 2xx was answered
otherwise, or not at all.

After the run each is looked up: a 2xx create whose row is missing or a 2xx delete whose row is
still there is a lost write. Writes made by a request that got no 2xx (new rows that no 2xx
create names, rows gone whose delete was not answered 204) are counted apart: that is what a
commit looks like when its answer never reached the client (PostgreSQL stopped after the commit,
the stack answered 503), which loses nothing. Row counts alone cannot tell those apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

from bench.errors import BenchError
from bench.postgres import Cluster
from bench.records import LostWrites

# A logged kind → the WriteLog set it fills.
_SETS = {
    "item_created": "items_created",
    "item_deleted": "items_deleted",
    "item_delete_sent": "items_delete_sent",
    "category_created": "categories_created",
}
_LINE = re.compile(rf"^bench-write ({'|'.join(_SETS)}) (\d+)$")
# The writes k6 also counts itself (its summary's `writes`).
COUNTED = ("items_created", "items_deleted", "categories_created")


@dataclass
class WriteLog:
    """The writes that got a 2xx over one run: ids from k6's logs and from the rows made for
    vegeta's deletes, keys of vegeta's creates."""

    items_created: set[int] = field(default_factory=set)
    items_deleted: set[int] = field(default_factory=set)
    items_delete_sent: set[int] = field(default_factory=set)
    categories_created: set[int] = field(default_factory=set)
    item_keys: set[str] = field(default_factory=set)
    """The skus of items created with a 201 whose id the load generator did not read."""
    category_keys: set[str] = field(default_factory=set)
    """The codes of categories created so."""

    @property
    def items_delete_unconfirmed(self) -> set[int]:
        """Deletes sent that got no 2xx: answered otherwise, or never."""
        return self.items_delete_sent - self.items_deleted

    def read(self, path: Path) -> None:
        """Adds the ids logged in `path`; other lines (k6's own warnings) are skipped."""
        try:
            lines = path.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return
        for line in lines:
            match = _LINE.match(line.strip())
            if match:
                getattr(self, _SETS[match[1]]).add(int(match[2]))

    def agrees_with(self, counted: dict[str, int]) -> None:
        """Every write k6 counted must have its id logged, or the check below would prove nothing.
        More ids than counts is allowed: a run stopped while requests were in flight (the
        steady-state warm-up's) can log a 2xx write after k6 has closed the count its summary
        gives (962 ids against 961 counted in one of CI's smoke runs). Such a write is looked up
        like any other."""
        keys = {"items_created": self.item_keys, "categories_created": self.category_keys}
        for name in COUNTED:
            logged = len(getattr(self, name)) + len(keys.get(name, ()))
            if logged < counted[name]:
                raise BenchError(
                    f"the load generators counted {counted[name]} {name.replace('_', ' ')} with a 2xx but "
                    f"logged {logged} distinct ids and keys; the write check cannot run"
                )


def combined(logged: Sequence[tuple[WriteLog, dict[str, int]]]) -> tuple[WriteLog, dict[str, int]]:
    """The writes of every load generator of a run (k6's stages, vegeta's steps) as one log and
    one count."""
    log = WriteLog()
    counted = dict.fromkeys(COUNTED, 0)
    for part, counts in logged:
        for kept in fields(WriteLog):
            getattr(log, kept.name).update(getattr(part, kept.name))
        for name in COUNTED:
            counted[name] += counts[name]
    return log, counted


@dataclass(frozen=True)
class Baseline:
    """The tables before a run: rows up to these ids are the seed (ids only grow)."""

    max_item_id: int
    max_category_id: int
    items: int
    categories: int


def baseline(cluster: Cluster) -> Baseline:
    with cluster.connect("bench") as conn:
        row = conn.execute(
            "SELECT (SELECT coalesce(max(id), 0) FROM item), (SELECT coalesce(max(id), 0) FROM category),"
            " (SELECT count(*) FROM item), (SELECT count(*) FROM category)"
        ).fetchone()
    if row is None:
        raise BenchError("the working database answered no row counts")
    return Baseline(*row)


@dataclass(frozen=True)
class After:
    """The tables after a run: rows made during it (ids past the baseline, each with its sku or
    code), seeded rows left."""

    new_items: dict[int, str]
    new_categories: dict[int, str]
    seeded_items: int
    seeded_categories: int


def check(cluster: Cluster, before: Baseline, log: WriteLog, counted: dict[str, int]) -> LostWrites:
    """Every logged write looked up; the figures a raw result keeps under `lost_writes`."""
    log.agrees_with(counted)
    with cluster.connect("bench") as conn:
        new_items = {r[0]: r[1] for r in conn.execute("SELECT id, sku FROM item WHERE id > %s", (before.max_item_id,))}
        new_categories = {
            r[0]: r[1] for r in conn.execute("SELECT id, code FROM category WHERE id > %s", (before.max_category_id,))
        }
        seeded = conn.execute(
            "SELECT (SELECT count(*) FROM item WHERE id <= %s), (SELECT count(*) FROM category WHERE id <= %s)",
            (before.max_item_id, before.max_category_id),
        ).fetchone()
    if seeded is None:
        raise BenchError("the working database answered no row counts")
    return judge(before, After(new_items, new_categories, *seeded), log, counted)


def judge(before: Baseline, after: After, log: WriteLog, counted: dict[str, int]) -> LostWrites:
    # A row created by key is never deleted: vegeta deletes only the rows made for its deletes.
    kept = log.items_created - log.items_deleted - log.items_delete_unconfirmed
    item_ids, skus = set(after.new_items), set(after.new_items.values())
    category_ids, codes = set(after.new_categories), set(after.new_categories.values())
    figures = {
        **counted,
        "item_rows_delta": len(after.new_items) + after.seeded_items - before.items,
        "category_rows_delta": len(after.new_categories) + after.seeded_categories - before.categories,
        # Losses: each is a write the client was told succeeded.
        "items_missing": len(kept - item_ids) + len(log.item_keys - skus),
        "items_deleted_present": len(log.items_deleted & item_ids),
        "categories_missing": len(log.categories_created - category_ids) + len(log.category_keys - codes),
        # Nothing deletes seeded rows, so any gone is lost data.
        "seeded_rows_missing": (before.items - after.seeded_items) + (before.categories - after.seeded_categories),
        # Not losses: writes made by a request whose answer was not a 2xx.
        "items_unacknowledged": sum(
            1 for i, sku in after.new_items.items() if i not in log.items_created and sku not in log.item_keys
        )
        + len(log.items_delete_unconfirmed - item_ids),
        "categories_unacknowledged": sum(
            1
            for i, code in after.new_categories.items()
            if i not in log.categories_created and code not in log.category_keys
        ),
    }
    figures["lost_writes"] = (
        figures["items_missing"]
        + figures["items_deleted_present"]
        + figures["categories_missing"]
        + figures["seeded_rows_missing"]
    )
    return LostWrites.model_validate(figures)
