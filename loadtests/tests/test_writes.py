import pytest

from bench.errors import BenchError
from bench.measure.phases import writes


def write_log(tmp_path, *lines):
    path = tmp_path / "w.log"
    path.write_text("\n".join(lines) + "\n")
    log = writes.WriteLog()
    log.read(path)
    return log


def test_the_log_keeps_ids_by_kind_and_skips_k6s_own_lines(tmp_path):
    log = write_log(
        tmp_path,
        "bench-write item_created 100001",
        "bench-write item_created 100002",
        'Request Failed error="read: connection reset by peer"',
        "bench-write item_delete_sent 100001",
        "bench-write item_deleted 100001",
        "bench-write item_delete_sent 100002",
        "bench-write category_created 2001",
        "bench-write item_created 12x",
    )
    assert log.items_created == {100001, 100002}
    assert (log.items_deleted, log.items_delete_unconfirmed, log.categories_created) == ({100001}, {100002}, {2001})
    log.read(tmp_path / "missing.log")  # a stage that wrote nothing leaves no file
    assert len(log.items_created) == 2


def test_every_write_k6_counted_must_be_logged(tmp_path):
    log = write_log(tmp_path, "bench-write item_created 7", "bench-write item_created 8")
    log.agrees_with({"items_created": 2, "items_deleted": 0, "categories_created": 0})
    # A stopped run can log a write after its summary's count was closed: looked up all the same.
    log.agrees_with({"items_created": 1, "items_deleted": 0, "categories_created": 0})
    with pytest.raises(BenchError, match=r"counted 3 items created .* logged 2"):
        log.agrees_with({"items_created": 3, "items_deleted": 0, "categories_created": 0})


BEFORE = writes.Baseline(max_item_id=100, max_category_id=10, items=100, categories=10)
COUNTED = {"items_created": 4, "items_deleted": 1, "categories_created": 1}


def rows(*ids):
    """New item rows, each with a sku of its own."""
    return {i: f"K6-{i}" for i in ids}


def judged(tmp_path, after):
    log = write_log(
        tmp_path,
        *[f"bench-write item_created {i}" for i in (101, 102, 103, 104)],
        "bench-write item_delete_sent 101",
        "bench-write item_deleted 101",
        "bench-write item_delete_sent 102",
        "bench-write category_created 11",
    )
    return writes.judge(BEFORE, after, log, COUNTED)


def test_every_2xx_write_found_is_no_loss(tmp_path):
    # 102's delete got no 204 (answered otherwise, or in flight when k6 was stopped) but was
    # made; 105 was created by a request answered 503.
    figures = judged(tmp_path, writes.After(rows(103, 104, 105), {11: "K-11"}, 100, 10))
    assert figures.lost_writes == 0
    assert (figures.items_unacknowledged, figures.categories_unacknowledged) == (2, 0)
    assert (figures.item_rows_delta, figures.category_rows_delta) == (3, 1)


def test_a_missing_create_a_surviving_delete_and_a_lost_seeded_row_are_losses(tmp_path):
    figures = judged(tmp_path, writes.After(rows(101, 102, 104), {}, 99, 10))
    assert (
        figures.items_missing,
        figures.items_deleted_present,
        figures.categories_missing,
        figures.seeded_rows_missing,
    ) == (1, 1, 1, 1)
    assert figures.lost_writes == 4
    # 102 was still there though its delete was not confirmed: neither loss nor extra write.
    assert figures.items_unacknowledged == 0


def by_key(**sets):
    """A log of vegeta's writes: the rows made for its deletes by id (101, 102), its creates by key."""
    log = writes.WriteLog(items_created={101, 102}, item_keys={"VM-a", "VM-b"}, category_keys={"VC-a"})
    for name, values in sets.items():
        getattr(log, name).update(values)
    return log


COUNTED_BY_KEY = {"items_created": 4, "items_deleted": 1, "categories_created": 1}


def test_creates_acknowledged_by_key_are_found_by_their_sku_and_code():
    log = by_key(items_deleted={101}, items_delete_sent={101})
    # 101 deleted; 102 kept; the creates by key made 103 and 104; 105 came from a create answered 503.
    after = writes.After({102: "VM-p", 103: "VM-a", 104: "VM-b", 105: "VM-c"}, {11: "VC-a"}, 100, 10)
    figures = writes.judge(BEFORE, after, log, COUNTED_BY_KEY)
    assert figures.lost_writes == 0
    assert (figures.items_unacknowledged, figures.categories_unacknowledged) == (1, 0)


def test_a_create_acknowledged_by_key_whose_row_is_missing_is_a_loss():
    log = by_key(items_deleted={101}, items_delete_sent={101})
    after = writes.After({102: "VM-p", 103: "VM-a"}, {}, 100, 10)
    figures = writes.judge(BEFORE, after, log, COUNTED_BY_KEY)
    assert (figures.items_missing, figures.categories_missing, figures.lost_writes) == (1, 1, 2)


def test_a_delete_acknowledged_whose_row_is_still_there_is_a_loss():
    log = by_key(items_deleted={101}, items_delete_sent={101})
    after = writes.After({101: "VM-o", 102: "VM-p", 103: "VM-a", 104: "VM-b"}, {11: "VC-a"}, 100, 10)
    figures = writes.judge(BEFORE, after, log, COUNTED_BY_KEY)
    assert (figures.items_deleted_present, figures.lost_writes) == (1, 1)


def test_the_logs_of_k6_and_vegeta_are_checked_as_one(tmp_path):
    k6 = write_log(tmp_path, "bench-write item_created 7")
    log, counted = writes.combined(
        [
            (k6, {"items_created": 1, "items_deleted": 0, "categories_created": 0}),
            (by_key(items_deleted={101}), COUNTED_BY_KEY),
        ]
    )
    assert log.items_created == {7, 101, 102} and log.item_keys == {"VM-a", "VM-b"}
    assert counted == {"items_created": 5, "items_deleted": 1, "categories_created": 1}
    log.agrees_with(counted)
