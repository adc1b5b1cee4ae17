"""Variants beside their stacks and the claims section, from synthetic raw records: the ratios
and their spread over runs, the rate costs are compared at, and a verdict of each kind by the
rule of docs/method.md ("Claims")."""

import copy
import json
import math
from pathlib import Path

import pytest
from test_report import ladder_step, laddered, write

from bench import paths, report
from bench.errors import BenchError
from bench.records import RawResult
from bench.report.claims import Claim, judge, load_claims
from bench.report.figures import Cell
from bench.report.pairs import METRICS, ratio, shared_rate
from bench.report.site import site_data

ROOT = Path(__file__).resolve().parents[2]
RATES = [250.0, 400.0, 630.0, 1000.0]


def run(name, run_number, capacity, *, cpu_ms=0.3, sql=1.7, threads=None, in_use=None, scenario="join-filter"):
    """A record of `name` whose ladder held every rate up to `capacity` and not the next, with the
    given figures at every step."""
    held = [r for r in RATES if r <= capacity] if capacity else []
    failed = next((r for r in RATES if r > (capacity or 0)), None)
    r = laddered(name, run_number, held, failed, cpu_ms=cpu_ms)
    r["scenario"] = scenario
    r["ladder"]["capacity_rps"] = capacity
    for step in r["ladder"]["steps"]:
        step["sql_per_request"] = sql
        if threads is not None:
            step["resources"] = {
                "samples": 20,
                "threads_peak": threads,
                "db_connections_held_peak": 10,
                "db_connections_in_use_peak": in_use,
                "jvm": {"gc_pause_ms_per_s": 2.5, "gc_pauses": 3, "heap_used_peak_bytes": 40 << 20},
                "sampler_cpu_ms": 12.0,
            }
    return r


def cells(records) -> dict[str, dict[str, Cell]]:
    by: dict[str, dict[str, list[RawResult]]] = {}
    for r in records:
        model = RawResult.model_validate(r)
        by.setdefault(model.scenario, {}).setdefault(model.stack.name, []).append(model)
    return {s: {name: Cell(rs) for name, rs in rows.items()} for s, rows in by.items()}


def claim(**fields) -> Claim:
    base = {
        "id": "c",
        "source": "a test",
        "statement": "A is higher than B.",
        "rows": ["a", "b"],
        "scenarios": ["join-filter"],
        "metric": "capacity",
        "expected": "higher",
        "published": "2.0",
    }
    return Claim.model_validate({**base, **fields})


def test_a_ratios_spread_spans_every_pair_of_runs_and_includes_1_when_their_ranges_overlap():
    found = ratio([630.0, 1000.0], [400.0, 630.0])
    assert found is not None
    assert found.median == pytest.approx(815 / 515) and found.low == 1.0 and found.high == 2.5
    # Apart: every run of the one above every run of the other.
    apart = ratio([1000.0, 1000.0], [400.0, 630.0])
    assert apart is not None and apart.low > 1
    # A run of the second that held no rate leaves the ratio unbounded above.
    unbounded = ratio([400.0], [0.0, 250.0])
    assert unbounded is not None and math.isinf(unbounded.high)
    assert ratio([], [1.0]) is None and ratio([1.0], [None]) is None


def test_costs_are_compared_at_the_highest_ladder_rate_both_held_in_every_run():
    found = cells([run("a", 1, 1000.0), run("a", 2, 630.0), run("b", 1, 400.0), run("b", 2, 630.0)])["join-filter"]
    assert shared_rate([found["a"], found["b"]]) == 400.0
    assert shared_rate([]) is None


def test_a_probe_of_the_ladder_counts_but_a_bisection_rate_does_not():
    """A method v3 ladder probes the scenario's rates and runs full-length steps only from the
    bisection's rate up, which differs from run to run: two rows share a ladder rate their probes
    held, and its figures come from the probe unless a full-length step ran there."""
    a, b = run("a", 1, 400.0, cpu_ms=0.5), run("b", 1, 400.0, cpu_ms=0.4)
    for r, bisected in ((a, 520.0), (b, 480.0)):
        steps = r["ladder"]["steps"]
        for step in steps:
            step["probe"] = True
        steps.append(dict(ladder_step(bisected, cpu_ms=0.9), probe=False))
        r["ladder"]["capacity_rps"] = bisected
    found = cells([a, b])["join-filter"]
    assert shared_rate([found["a"], found["b"]]) == 400.0
    assert METRICS["app-cpu"].values(found["a"], 400.0) == [0.5]
    # Where a full-length step ran at the rate too, its figures are the ones compared.
    a["ladder"]["steps"].append(dict(ladder_step(400.0, cpu_ms=0.45), probe=False))
    found = cells([a, b])["join-filter"]
    assert METRICS["app-cpu"].values(found["a"], 400.0) == [0.45]
    # A run that held no rate leaves the pair none to compare at.
    found = cells([a, b, run("b", 2, None)])["join-filter"]
    assert shared_rate([found["a"], found["b"]]) is None


@pytest.mark.parametrize(
    ("fields", "a", "b", "verdict", "why"),
    [
        ({}, [1000.0, 1000.0], [400.0, 630.0], "holds", "lies above 1"),
        ({"expected": "lower"}, [1000.0, 1000.0], [400.0, 630.0], "does not hold", "above 1, against the claim"),
        ({}, [630.0, 1000.0], [400.0, 630.0], "no difference within spread", "includes 1"),
        ({"expected": "same"}, [630.0, 1000.0], [400.0, 630.0], "holds", "includes 1"),
        ({"expected": "same", "within": 0.05}, [1000.0], [400.0], "does not hold", "beyond 5%"),
        ({"expected": "same"}, [1000.0], [400.0], "does not hold", "lies above 1."),
        ({"rows": ["a", "a@missing"]}, [1000.0], [400.0], "cannot be judged (not measured yet)", "a@missing"),
        ({"scenarios": ["outbound"]}, [1000.0], [400.0], "cannot be judged (not measured yet)", "in outbound yet"),
        # A stated size: "about half" is 0.4-0.6.
        ({"expected": "ratio", "bounds": [0.4, 0.6]}, [400.0], [1000.0], "holds", "within the stated 0.40–0.60"),
        (
            {"expected": "ratio", "bounds": [0.4, 0.6]},
            [1000.0],
            [1000.0],
            "does not hold",
            "outside the stated 0.40–0.60 (its nearest run 1.00, 1.7× the bound)",
        ),
        ({"expected": "ratio", "bounds": [0.4, 0.6]}, [400.0, 630.0], [1000.0], "no difference within spread", "both"),
        # "Several times": three or more, an open end.
        ({"expected": "ratio", "bounds": [3.0, math.inf]}, [1000.0], [250.0], "holds", "at least 3.00"),
        ({"expected": "ratio", "bounds": [3.0, math.inf]}, [1000.0], [630.0], "does not hold", "0.5× the bound"),
        # A row that held no rate: a ratio of 0, which "less" or "about half" would take for a measurement.
        ({"expected": "lower"}, [None], [630.0], "cannot be judged (held no rate)", "a held no rate in 1 of 1 runs"),
        ({"expected": "ratio", "bounds": [0.4, 0.6]}, [630.0], [None, 400.0], "cannot be judged (held no rate)", ""),
    ],
)
def test_each_verdict_by_the_rule(fields, a, b, verdict, why):
    records = [run("a", i, c) for i, c in enumerate(a, 1)] + [run("b", i, c) for i, c in enumerate(b, 1)]
    judged = judge(claim(**fields), cells(records))
    assert judged.said == verdict and why in judged.reason, judged.reason


def test_start_up_and_warm_up_are_each_fresh_process_s_own_figures():
    # A cache's claim (docs/claims.toml, aot-cache-*): start-up 1.5–1.7 s against 3.9–4.1 s, and
    # the warm-up 40 s against 40 s; a process that served a scenario before has no start-up here.
    records = []
    for number, (cached, plain) in enumerate([(1.5, 4.1), (1.7, 3.9)], 1):
        a, b = run("a@aot", number, 1000.0), run("a", number, 1000.0)
        a["startup_s"], b["startup_s"] = cached, plain
        for r in (a, b):
            r["served_before"] = []
            r["steady_state"]["time_s"] = 40.0
        records += [a, b]
    later = run("a@aot", 3, 1000.0)
    later["startup_s"], later["served_before"] = 9.0, ["read-heavy"]
    found = cells([*records, later])
    start_up = judge(claim(rows=["a@aot", "a"], metric="startup", expected="lower"), found)
    assert start_up.verdict == "holds"
    assert start_up.measured[0].value is not None
    assert start_up.measured[0].value.median == pytest.approx(1.6 / 4.0)
    warm_up = judge(claim(rows=["a@aot", "a"], metric="steady-state", expected="lower"), found)
    assert warm_up.verdict == "no difference within spread"


def test_a_claim_of_no_difference_holds_within_its_tolerance():
    # 1000 ÷ 985 and 990 ÷ 985: apart, but within 2%.
    found = cells([run("a", 1, 1000.0), run("a", 2, 1000.0), run("b", 1, 1000.0)])
    tight = claim(expected="same", within=0.02)
    assert judge(tight, found).verdict == "holds"


def test_a_figure_of_one_row_within_published_bounds():
    records = [run("a", 1, 630.0), run("a", 2, 1000.0)]
    inside = claim(rows=["a"], expected="within", bounds=[500.0, 1200.0], statement="A holds 500 to 1,200.")
    straddles = claim(rows=["a"], expected="within", bounds=[800.0, 1200.0], statement="A holds 800 to 1,200.")
    outside = claim(rows=["a"], expected="within", bounds=[2000.0, 3000.0], statement="A holds 2,000.")
    found = cells(records)
    assert judge(inside, found).verdict == "holds"
    assert judge(straddles, found).verdict == "no difference within spread"
    assert judge(outside, found).verdict == "does not hold"


def test_a_claim_over_several_scenarios_fails_where_one_fails_and_says_which_were_not_measured():
    records = [run("a", 1, 1000.0), run("b", 1, 400.0)]
    records += [run("a", 1, 250.0, scenario="read-heavy"), run("b", 1, 630.0, scenario="read-heavy")]
    judged = judge(claim(scenarios=["join-filter", "read-heavy", "outbound"]), cells(records))
    assert judged.verdict == "does not hold" and judged.reason.startswith("on read-heavy")
    assert "(outbound: cannot be judged, not measured yet)" in judged.reason


def test_per_request_figures_are_compared_at_the_shared_rate_and_need_those_figures():
    records = [run("a", 1, 1000.0, sql=22.0, threads=210), run("b", 1, 630.0, sql=2.0, threads=30)]
    judged = judge(claim(metric="sql"), cells(records))
    assert judged.verdict == "holds" and judged.measured[0].rate == 630.0
    assert judged.measured[0].value is not None and judged.measured[0].value.median == pytest.approx(11.0)
    assert judge(claim(metric="threads"), cells(records)).verdict == "holds"
    # Records written before the sampler have no threads: not measured, and said why.
    old = judge(claim(metric="threads"), cells([run("a", 1, 1000.0), run("b", 1, 630.0)]))
    assert old.said == "cannot be judged (not measured yet)" and "have no peak threads" in old.reason


def test_a_row_that_held_no_rate_is_measured_but_not_compared_per_request():
    records = [run("a", 1, 630.0), run("b", 1, None), run("b", 2, 400.0)]
    judged = judge(claim(metric="sql"), cells(records))
    assert judged.said == "cannot be judged (no rate both held)"
    assert judged.reason == "a and b held no rate in common in join-filter."
    # Nor is its capacity: a run that held no rate has no capacity to divide by (it read 0 req/s,
    # and a claim that b serves less took that for a measurement).
    capacity = judge(claim(), cells(records))
    assert capacity.said == "cannot be judged (held no rate)"
    assert capacity.reason == "b held no rate in 1 of 2 runs of join-filter."
    # Beside a scenario that was measured, the one without a rate is named with its reason.
    records += [run("a", 1, 630.0, sql=3.0, scenario="read-heavy"), run("b", 1, 250.0, scenario="read-heavy")]
    both = judge(claim(metric="sql", scenarios=["join-filter", "read-heavy"]), cells(records))
    assert both.verdict == "holds" and "(join-filter: cannot be judged, no rate both held)" in both.reason


def test_claims_are_data_and_a_broken_one_is_named(tmp_path):
    path = tmp_path / "claims.toml"
    path.write_text(
        '[[claim]]\nid = "x"\nsource = "s"\nstatement = "t"\nrows = ["a", "b"]\nscenarios = ["avatar"]\n'
        'metric = "capacity"\nexpected = "higher"\npublished = "1"\nnotes = "misspelt"\n'
    )
    with pytest.raises(BenchError, match=r"claims.toml, x: notes: Extra inputs are not permitted"):
        load_claims(path)
    path.write_text(path.read_text().replace("notes", "note").replace('"capacity"', '"speed"'))
    with pytest.raises(BenchError, match="metric 'speed' is not one of capacity"):
        load_claims(path)


def test_the_committed_claims_load_and_name_stacks_of_this_repository():
    claims = load_claims()
    assert len(claims) >= 20
    stacks = {d.name for d in ROOT.iterdir() if (d / "impl.toml").is_file()}
    for found in claims:
        for row in found.rows:
            assert row.partition("@")[0] in stacks, f"{found.id}: {row} is not a stack of this repository"
    ids = {c.id for c in claims}
    # The study's eight ratios, T4, and each companion the claims name.
    assert {"study-read-heavy-mvc-jersey", "study-heavy-body-data-rest-jersey", "study-t4-n-plus-one"} <= ids
    assert {"webflux-jdbc-below-r2dbc", "jersey-locator-as-method", "avatar-zgc-halves", "vertx-over-webflux"} <= ids
    assert {"rest-template-below-rest-client", "webclient-blocking-as-rest-client"} <= ids


def variant_records():
    stack = [run("app", 1, 1000.0, cpu_ms=0.3, sql=2.0, threads=30, in_use=4)]
    stack += [run("app", 2, 630.0, cpu_ms=0.3, sql=2.0, threads=32, in_use=6)]
    lazy = [run("app@lazy", 1, 400.0, cpu_ms=0.9, sql=22.0, threads=31, in_use=10)]
    lazy += [run("app@lazy", 2, 400.0, cpu_ms=0.9, sql=22.0, threads=31, in_use=10)]
    other = [run("other", i, 630.0) for i in (1, 2)]
    return stack + lazy + other


def test_a_variant_is_its_own_row_under_its_stack_with_its_ratios(tmp_path):
    write(tmp_path / "raw", variant_records())
    text = report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts").read_text()
    section = text[text.index("## Variants") : text.index("## Stacks")]
    assert "### app" in section
    row = next(line for line in section.splitlines() if line.startswith("| @lazy"))
    cells_ = [c.strip() for c in row.split("|")[1:-1]]
    # Capacity 815 (630–1,000) → 400: 0.49, from 400 ÷ 1,000 to 400 ÷ 630; costs at 400 req/s.
    assert cells_[:5] == ["@lazy", "join-filter", "815 → 400", "0.49 (0.40–0.63)", "400"]
    assert cells_[5:9] == ["0.300 → 0.900", "3.00", "0.200 → 0.200", "2.00 → 22.00"]
    assert cells_[10:] == ["31 → 31", "5 (10) → 10 (10)", "2.5 · 40 → 2.5 · 40"]
    # Not a stack: the summary, the tiers and the scenario's ladder table leave it out.
    ladder = text[text.index("### join-filter: fixed-rate ladder") : text.index("### join-filter: closed-model")]
    assert "app@lazy" not in text[: text.index("## Claims")] and "app@lazy" not in ladder
    assert "| app |" in ladder and "| other |" in ladder


def test_old_records_render_with_the_figures_they_lack_shown_as_dashes(tmp_path):
    records = variant_records()
    for r in records:
        for step in r["ladder"]["steps"]:
            step.pop("resources", None)
    write(tmp_path / "raw", records)
    text = report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| @lazy"))
    assert row.rstrip().endswith("| 2.00 → 22.00 | 1,000 → 1,000 | – | – | – |")


def test_the_claims_section_is_in_results_md_with_every_claim_of_the_file(tmp_path):
    records = variant_records()
    write(tmp_path / "raw", records)
    claims = tmp_path / "claims.toml"
    claims.write_text(
        '[[claim]]\nid = "lazy-more-sql"\nsource = "a test"\nstatement = "Lazy loading runs more statements."\n'
        'rows = ["app@lazy", "app"]\nscenarios = ["join-filter"]\nmetric = "sql"\nexpected = "higher"\n'
        'published = "N+1"\n\n'
        '[[claim]]\nid = "clients"\nsource = "a test"\nstatement = "Not measured."\nrows = ["app@client", "app"]\n'
        'scenarios = ["outbound"]\nmetric = "capacity"\nexpected = "lower"\npublished = "0.91"\n'
    )
    text = report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts", claims=claims).read_text()
    section = text[text.index("## Claims") : text.index("## Variants")]
    lazy = next(line for line in section.splitlines() if "lazy-more-sql" in line)
    assert "join-filter: 11.00 at 400 req/s" in lazy and "| holds |" in lazy
    clients = next(line for line in section.splitlines() if "**clients**" in line)
    assert "_cannot be judged_ (not measured yet)" in clients
    assert "no raw file holds app@client or app in outbound yet." in clients
    assert "Verdicts: holds 1, cannot be judged 1." in section


def test_the_page_has_the_variants_and_the_claims_with_links_to_their_raw_files(tmp_path):
    raw = tmp_path / "results" / "raw" / "quick"
    write(raw, variant_records())
    found = [(p, RawResult.read(p)) for p in sorted(raw.glob("*.json"))]
    data = site_data(found, tmp_path / "results" / "site")
    assert [s["label"] for s in data["stacks"]] == ["app", "other"]
    (lazy,) = data["variants"]
    assert (lazy["stack"], lazy["variant"], lazy["scenario"], lazy["rate"]) == ("app", "app@lazy", "join-filter", 400.0)
    assert lazy["ratios"]["capacity"] == {
        "value": pytest.approx(400 / 815),
        "low": 0.4,
        "high": pytest.approx(400 / 630),
    }
    stack_side, variant_side = lazy["figures"]["threads"]
    assert (stack_side["value"], variant_side["value"]) == (31.0, 31.0)
    assert variant_side["href"] == "../raw/quick/app@lazy--join-filter--run1.json"
    assert len(lazy["files"]) == 4
    claims = {c["id"]: c for c in data["claims"]}
    assert claims["study-t4-n-plus-one"]["verdict"] == "cannot be judged"
    assert claims["study-t4-n-plus-one"]["said"] == "cannot be judged (not measured yet)"
    json.dumps(data, allow_nan=False)


def test_the_published_raw_files_render_and_answer_the_study_s_ratios(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    for path in sorted((paths.ROOT / "results" / "raw" / "quick").glob("*.json")):
        raw.joinpath(path.name).write_text(path.read_text())
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    section = text[text.index("## Claims") :]
    row = next(line for line in section.splitlines() if "study-read-heavy-mvc-jersey" in line)
    assert "read-heavy: " in row and "not measured yet" not in row
    # The publication measured every row of every claim made before it, variants included; a claim
    # on a stack added since (docs/claims.toml's fastify-over-express) waits for the next one.
    published = {path.name.partition("--")[0] for path in raw.glob("*.json")}
    for claim in load_claims():
        line = next(line for line in section.splitlines() if f"**{claim.id}**" in line)
        if set(claim.rows) <= published:
            assert "(not measured yet)" not in line, claim.id
        # No claim whose row held no rate reads "holds"; every claim that states a size is judged
        # against it.
        if "(held no rate)" in line:
            assert "| holds |" not in line, claim.id
        if claim.expected == "ratio" and "cannot be judged" not in line:
            assert "the stated" in line or "both sides of" in line, claim.id
    assert section.count("| **") >= len(load_claims())
    variants = text[text.index("## Variants") :]
    assert "| @n-plus-one: " in variants and "| @jdbc-bounded-elastic: " in variants


def test_a_record_with_its_resources_conforms_to_the_schema():
    from bench import schema

    record = copy.deepcopy(variant_records()[0])
    assert schema.validate_raw(record) == []
    record["ladder"]["steps"][0]["resources"]["threads_peak"] = -1
    assert schema.validate_raw(record) != []
