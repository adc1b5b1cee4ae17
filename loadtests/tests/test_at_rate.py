"""A stack at a rate (bench.report.at_rate), the rule results.md and the results page quote every
rate by, held to a computation of its own from the raw JSON (expected_load): on raw files shaped
like a publication (publication.py) and on the published ones, which `./bench test` checks too."""

import itertools
import json
from pathlib import Path

import publication
import pytest
from expected_load import Expected, cells, expected_at, rates_to_check

from bench import paths
from bench.records import RawResult
from bench.report.at_rate import Piece, Reading, pieces, reading_at, said_at

PUBLISHED = paths.ROOT / "results" / "raw" / "quick"


@pytest.fixture(scope="module")
def fixture_files(tmp_path_factory) -> list[Path]:
    return publication.write(tmp_path_factory.mktemp("publication") / "raw" / "quick")


def read_cells(files: list[Path]) -> dict[tuple[str, str], list[RawResult]]:
    """The same cells as expected_load.cells, as the report reads them."""
    found: dict[tuple[str, str], list[RawResult]] = {}
    wanted = set(cells(files))
    for file in files:
        record = RawResult.read(file)
        key = (record.stack.label, record.scenario)
        if key in wanted and not record.failed and record.ladder is not None:
            found.setdefault(key, []).append(record)
    return found


def same(reading: Reading, expected: Expected, where: object) -> int:
    """Asserts the two agree; returns how many figures were compared."""
    assert (reading.holds, reading.held, reading.runs) == (expected.holds, expected.held, expected.runs), where
    assert reading.held_no_rate == expected.held_no_rate, where
    assert (reading.unmeasured, reading.generator_bound) == (expected.not_offered, expected.generator_bound), where
    figures = reading.figures() if reading.low is not None else None
    assert (figures is None) == (expected.figures is None), where
    if figures is None or expected.figures is None:
        return 0
    assert (reading.of_runs, reading.probe, reading.interpolated) == (
        expected.of_runs,
        expected.probe,
        expected.interpolated,
    ), where
    for key, value in expected.figures.items():
        assert figures[key] == pytest.approx(value, rel=1e-9, abs=1e-12), (where, key)
    return len(expected.figures)


def every_rate_of(ladders: list[dict]) -> list[float]:
    """Each rate a run stepped at, a rate between each two, one just above each run's capacity, and
    one below and one above them all."""
    stepped = sorted({s["offered_rps"] for ladder in ladders for s in ladder["steps"]})
    between = [(a + b) / 2 for a, b in itertools.pairwise(stepped)]
    above = [ladder["capacity_rps"] + 0.5 for ladder in ladders if ladder["capacity_rps"] is not None]
    return [stepped[0] / 2, *stepped, *between, *above, stepped[-1] * 1.5]


def test_the_fixture_is_shaped_like_a_publication(fixture_files):
    raw = cells(fixture_files)
    assert all(len(ladders) == 3 for ladders in raw.values())
    spring = raw[("java-spring", "join-filter")]
    assert [ladder["capacity_rps"] for ladder in spring].count(None) == 1
    # A rate every run held by a probe alone.
    assert expected_at(raw[("go-gin", "join-filter")], 400.0).probe
    assert all(
        {s["probe"] for s in ladder["steps"] if s["offered_rps"] == 400.0} == {True}
        for ladder in raw[("go-gin", "join-filter")]
    )
    at_300 = expected_at(raw[("java-spring", "heavy-body")], 300.0)
    assert (at_300.held, at_300.runs) == (2, 3)
    # Between 794 and 891, which both runs holding 860 held a step at, lies 841, which one of them did.
    jersey = raw[("java-jersey", "join-filter")]
    held = [{s["offered_rps"] for s in ladder["steps"] if s["held"]} for ladder in jersey[:2]]
    assert {794.0, 891.0} <= held[0] & held[1] and 841.0 in held[0] - held[1]
    assert expected_at(jersey, 860.0).interpolated and expected_at(jersey, 860.0).of_runs == 2


def test_every_rate_reads_as_the_raw_files_give_it(fixture_files):
    found = read_cells(fixture_files)
    compared = 0
    for key, ladders in cells(fixture_files).items():
        for rate in every_rate_of(ladders):
            compared += same(reading_at(found[key], rate), expected_at(ladders, rate), (key, rate))
    assert compared > 300


def piece_of(found: list[Piece], rate: float) -> Piece:
    """As the page finds it (site.js, pieceAt)."""
    return next(
        p for p in found if (rate == p.start if p.point else p.start < rate and (p.end is None or rate < p.end))
    )


def test_the_pieces_the_page_reads_hold_the_reading_of_every_rate_in_them(fixture_files):
    for key, records in read_cells(fixture_files).items():
        found = pieces(records)
        for rate in every_rate_of([r.ladder.model_dump() for r in records if r.ladder is not None]):
            piece, reading = piece_of(found, rate).reading, reading_at(records, rate)
            assert (piece.held, piece.runs, piece.unmeasured, piece.generator_bound, piece.answer()) == (
                reading.held,
                reading.runs,
                reading.unmeasured,
                reading.generator_bound,
                reading.answer(),
            ), (key, rate)
            assert (piece.low, piece.high) == (reading.low, reading.high), (key, rate)


def test_a_rate_not_every_run_held_says_how_many_did(fixture_files):
    found = read_cells(fixture_files)
    spring = found[("java-spring", "heavy-body")]
    assert reading_at(spring, 300.0).answer() == "2 of 3 runs"
    assert said_at(reading_at(spring, 300.0)).endswith("(2 of 3 runs)")
    assert reading_at(found[("java-spring", "join-filter")], 400.0).answer() == "2 of 3 runs, 1 held no rate"
    assert reading_at(found[("python-fastapi", "heavy-body")], 125.0).answer() == "no: held no rate"
    # go-gin held every rate of heavy-body: above them no run was offered anything, so no run said no.
    not_offered = "not offered: every run held all it was offered, below this rate"
    assert reading_at(found[("go-gin", "heavy-body")], 2000.0).answer() == not_offered
    assert reading_at(found[("go-gin", "heavy-body")], 1250.0).answer() == "yes"


def test_the_published_raw_files_read_at_three_rates_per_scenario_as_they_give_them():
    files = sorted(PUBLISHED.glob("*.json"))
    if not files:
        pytest.skip(f"no published raw files in {PUBLISHED}")
    raw = cells(files)
    found = read_cells(files)
    scenarios = sorted({scenario for _, scenario in raw})
    answers = compared = 0
    for scenario in scenarios:
        mine = {label: ladders for (label, s), ladders in raw.items() if s == scenario}
        for rate in rates_to_check(list(mine.values())):
            for label, ladders in mine.items():
                reading = reading_at(found[(label, scenario)], rate)
                compared += same(reading, expected_at(ladders, rate), (scenario, rate, label))
                answers += 1
    # Every stack of every scenario at three rates, and four figures for most of those answers.
    assert answers == 3 * len(raw)
    assert compared >= 2 * answers


def test_the_summary_quotes_the_common_rate_by_the_rule(fixture_files):
    from bench import report

    raw_dir = fixture_files[0].parent
    text = report.render(raw_dir, raw_dir.parent / "results.md", raw_dir.parent / "charts").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| java-spring | ") and "·" in line)
    ladders = cells(fixture_files)[("java-spring", "join-filter")]
    rates = json.loads(fixture_files[0].read_text())["ladder"]["rates"]
    header = next(line for line in text.splitlines() if line.startswith("| stack | join @"))
    common = float(header.split("join @ ")[1].split("/s")[0].replace(",", ""))
    assert common in rates
    expected = expected_at(ladders, common)
    assert expected.figures is not None and expected.held == 2
    figures = {key: value for key, value in expected.figures.items() if value is not None}
    cell = row.split(" | ")[1]
    assert cell.endswith("(2 of 3 runs, 1 held no rate)") and "†" in cell
    app, postgres, p99 = cell.split(" †")[0].split(" · ")
    assert float(app) == pytest.approx(figures["app_cores"] * 1000 / common, abs=0.005)
    assert float(postgres) == pytest.approx(figures["postgres_cores"] * 1000 / common, abs=0.005)
    assert float(p99) == pytest.approx(figures["p99"], abs=0.05)


def test_a_run_the_load_generator_bound_is_neither_a_no_nor_held_everything():
    """go-gin's outbound runs of the publication at 72fa9f4: each offered 5,000 req/s at most and
    stopped there, its step bound by the load generator (capacity a lower bound)."""
    files = sorted(PUBLISHED.glob("go-gin--outbound--run*.json"))
    if len(files) < 3:
        pytest.skip(f"no published go-gin outbound runs in {PUBLISHED}")
    runs = [RawResult.read(path) for path in files]
    assert reading_at(runs, 5000.0).answer() == (
        "unknown: the load generator, not the stack, bound every run offered this rate"
    )
    assert reading_at(runs, 6000.0).answer() == (
        "not offered: every run stopped below this rate, 3 of 3 where the load generator bound it"
    )
    assert "bound by the load generator" in reading_at(runs, 4000.0).answer()
