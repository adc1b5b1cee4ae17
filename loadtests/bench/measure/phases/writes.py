"""The lost-write check after a write scenario, id by id.

k6 logs the id of every create and delete that got a 2xx, and of every delete before it is sent
(loadtests/k6/lib/common.js, RECORD_WRITES=1): a delete sent without a 2xx logged was answered
otherwise, or not at all when its run was stopped with the request in flight (the steady-state
warm-up's k6 run is stopped once settled). After the run each is looked up: a 2xx create
whose row is missing or a 2xx delete whose row is still there is a lost write. Writes made by a
request that got no 2xx (new rows no 2xx create names, rows gone whose delete was not
answered 204) are counted apart: that is what a commit looks like when its answer never reached
the client (PostgreSQL stopped after the commit, the stack answered 503), which loses nothing.
Row counts alone cannot tell those apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
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
    """Ids that got a 2xx, from k6's logs of one run."""

    items_created: set[int] = field(default_factory=set)
    items_deleted: set[int] = field(default_factory=set)
    items_delete_sent: set[int] = field(default_factory=set)
    categories_created: set[int] = field(default_factory=set)

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
        for name in COUNTED:
            logged = len(getattr(self, name))
            if logged < counted[name]:
                raise BenchError(
                    f"k6 counted {counted[name]} {name.replace('_', ' ')} with a 2xx but logged "
                    f"{logged} distinct ids; the write check cannot run"
                )


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
    """The tables after a run: rows made during it (ids past the baseline), seeded rows left."""

    new_items: set[int]
    new_categories: set[int]
    seeded_items: int
    seeded_categories: int


def check(cluster: Cluster, before: Baseline, log: WriteLog, counted: dict[str, int]) -> LostWrites:
    """Every logged write looked up; the figures a raw result keeps under `lost_writes`."""
    log.agrees_with(counted)
    with cluster.connect("bench") as conn:
        new_items = {r[0] for r in conn.execute("SELECT id FROM item WHERE id > %s", (before.max_item_id,))}
        new_categories = {
            r[0] for r in conn.execute("SELECT id FROM category WHERE id > %s", (before.max_category_id,))
        }
        seeded = conn.execute(
            "SELECT (SELECT count(*) FROM item WHERE id <= %s), (SELECT count(*) FROM category WHERE id <= %s)",
            (before.max_item_id, before.max_category_id),
        ).fetchone()
    if seeded is None:
        raise BenchError("the working database answered no row counts")
    return judge(before, After(new_items, new_categories, *seeded), log, counted)


def judge(before: Baseline, after: After, log: WriteLog, counted: dict[str, int]) -> LostWrites:
    kept = log.items_created - log.items_deleted - log.items_delete_unconfirmed
    figures = {
        **counted,
        "item_rows_delta": len(after.new_items) + after.seeded_items - before.items,
        "category_rows_delta": len(after.new_categories) + after.seeded_categories - before.categories,
        # Losses: each is a write the client was told succeeded.
        "items_missing": len(kept - after.new_items),
        "items_deleted_present": len(log.items_deleted & after.new_items),
        "categories_missing": len(log.categories_created - after.new_categories),
        # Nothing deletes seeded rows, so any gone is lost data.
        "seeded_rows_missing": (before.items - after.seeded_items) + (before.categories - after.seeded_categories),
        # Not losses: writes made by a request whose answer was not a 2xx.
        "items_unacknowledged": len(after.new_items - log.items_created)
        + len(log.items_delete_unconfirmed - after.new_items),
        "categories_unacknowledged": len(after.new_categories - log.categories_created),
    }
    figures["lost_writes"] = (
        figures["items_missing"]
        + figures["items_deleted_present"]
        + figures["categories_missing"]
        + figures["seeded_rows_missing"]
    )
    return LostWrites.model_validate(figures)
