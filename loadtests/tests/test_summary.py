"""results.md's answer first: the summary, the analysis's quoted figures, the original study's ratios,
the latency charts, and the commit and date under every table."""

import json

import pytest
from test_report import laddered, record, write

from bench import paths, report
from bench.errors import BenchError
from bench.records import RawResult
from bench.report.figures import Cell
from bench.report.quotes import bare_figures
from bench.report.summary import bound_of


def join(name, run, held, failed, **extra):
    return laddered(name, run, held, failed, **extra)


def in_scenario(record, scenario):
    record["scenario"] = scenario
    return record


def suite(tmp_path, analysis=None):
    """Three stacks in two scenarios, two runs each; java-jersey and java-spring so that the study's
    ratios have something to stand beside."""
    records = []
    for run in (1, 2):
        records += [
            join("java-jersey", run, [250.0, 400.0, 630.0], 1000.0, cpu_ms=0.5),
            join("java-spring", run, [250.0, 400.0], 630.0, cpu_ms=0.8, steady=60.0, reached=False),
            join("go-gin", run, [250.0, 400.0, 630.0, 1000.0], None, cpu_ms=0.2),
            in_scenario(join("java-jersey", run, [250.0], 400.0, cpu_ms=1.0), "heavy-body"),
            in_scenario(join("java-spring", run, [250.0], 400.0, cpu_ms=0.9), "heavy-body"),
            in_scenario(join("go-gin", run, [250.0, 400.0], 630.0, cpu_ms=0.3), "heavy-body"),
        ]
    write(tmp_path / "raw", records)
    md = report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts", analysis=analysis)
    return md.read_text()


def rows(text, heading_start, heading_end):
    part = text[text.index(heading_start) : text.index(heading_end)]
    return {
        line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
        for line in part.splitlines()
        if line.startswith("| ") and "---" not in line and not line.startswith("| stack")
    }


def test_the_summary_comes_first_with_a_row_per_stack_in_order_of_its_tiers(tmp_path):
    text = suite(tmp_path)
    first_screen = "\n".join(text.splitlines()[:40])
    assert "## Summary" in first_screen and "| go-gin |" in first_screen
    assert text.index("## Summary") < text.index("## join-filter") < text.index("## Environment")
    capacity = rows(text, "## Summary", "At a rate every stack held")
    # Mean tier: go-gin 1, java-jersey 2, java-spring (3 + 2) / 2.
    assert list(capacity) == ["go-gin", "java-jersey", "java-spring"]
    assert capacity["go-gin"][:2] == ["1,000 (T1)", "400 (T1)"]
    assert capacity["java-jersey"][:2] == ["630 (T2)", "250 (T2)"]
    assert capacity["java-spring"][:2] == ["400 (T3)", "250 (T2)"]
    assert "relative" not in first_screen
    # Its cap hits show beside its time to steady state.
    assert "at cap" in capacity["java-spring"][-2]
    # And its warm-up classes are counted: a warm-up that reached the cap is not settled.
    assert capacity["java-spring"][-1] == "2 not settled"
    assert "median of 2 runs" in first_screen


def test_the_summary_names_each_scenarios_tiers_and_the_pairs_it_separates(tmp_path):
    text = suite(tmp_path)
    summary = text[text.index("## Summary") : text.index("At a rate every stack held")]
    assert (
        "- **join-filter** (3 of 3 pairs separated): 1: go-gin (1,000 req/s); 2: java-jersey (630 req/s); "
        "3: java-spring (400 req/s)." in summary
    )
    assert (
        "- **heavy-body** (2 of 3 pairs separated): 1: go-gin (400 req/s); 2: java-jersey, java-spring (250 req/s)."
        in summary
    )


def test_the_summary_gives_the_cost_at_the_common_rate_of_each_scenario(tmp_path):
    text = suite(tmp_path)
    assert "join @ 400/s" in text and "heavy @ 250/s" in text
    cost = rows(text, "At a rate every stack held", "What that costs a month")
    # app cores per 1,000 req/s · PostgreSQL ms per request · p99 ms
    assert cost["go-gin"] == ["0.20 · 0.20 · 20.0", "0.30 · 0.20 · 20.0"]
    assert cost["java-jersey"][1] == "1.00 · 0.20 · 20.0"


def test_the_summary_says_what_bound_each_scenario(tmp_path):
    text = suite(tmp_path)
    bounds = text[text.index("What bounds each scenario") :].split("\n\n")[0]
    assert "- **join-filter** (400–1,000 req/s): the app at its core for 2; every rate held for 1." in bounds
    assert "- **heavy-body** (250–400 req/s): the app at its core for 3." in bounds


def test_runs_bound_by_different_roles_in_equal_numbers_give_the_first_runs_bound():
    """Three runs, three bounds: the first run's, in every rendering (a set's order changes with
    each process's string hashing)."""
    runs = []
    for number, bound in enumerate(["postgres+loadgen", "app", "none"], 1):
        r = laddered("java-jersey", number, [250.0], 400.0)
        r["ladder"]["steps"][-1]["cpu"]["bound_by"] = [] if bound == "none" else [bound]
        runs.append(RawResult.model_validate(r))
    assert bound_of(Cell(runs)) == "postgres+loadgen"
    assert bound_of(Cell(runs[1:])) == "app"


def test_the_study_ratios_stand_beside_ours(tmp_path):
    text = suite(tmp_path)
    study = text[text.index("## Beside the original study") :]
    # The study's join-filter: 997 / 1,010; ours: closed model 900 / 900, capacity 400 / 630. The
    # closed-model stages here carry no CPU figures, so nothing says what bound them.
    assert "| Spring MVC ÷ Jersey | join-filter | 0.99 | 1.00 | 0.63 | – / – |" in study
    assert "| Spring MVC ÷ Jersey | heavy-body | 0.98 | 1.00 | 1.00 | – / – |" in study


def test_every_table_names_the_commit_and_date_of_its_runs(tmp_path):
    text = suite(tmp_path)
    for heading in ("## Stacks", "## join-filter", "## heavy-body", "## Memory, start-up and steady state"):
        after = text[text.index(heading) :].splitlines()
        assert after[2] == "_Measured at `000000000000` on 2026-11-21._", heading
    assert "Measured at `000000000000` on 2026-11-21" in text[: text.index("## Beside")]


def test_latency_against_offered_load_is_charted_per_scenario(tmp_path):
    text = suite(tmp_path)
    for scenario in ("join-filter", "heavy-body"):
        assert (tmp_path / "charts" / f"latency-{scenario}.png").stat().st_size > 1000
        assert f"charts/latency-{scenario}.png" in text


def test_the_analysis_quotes_figures_through_placeholders_filled_from_the_raw_files(tmp_path):
    analysis = tmp_path / "analysis.md"
    analysis.write_text(
        "## Analysis\n\njava-spring held {{capacity java-spring join-filter}} req/s against "
        "{{capacity java-jersey join-filter}}, a ratio of {{ratio-capacity java-spring java-jersey join-filter}} "
        "(the study: {{study java-spring java-jersey join-filter}}); at {{common join-filter}} req/s it used "
        "{{cores java-spring join-filter}} cores per 1,000 req/s over {{runs}} runs, and idled at "
        "{{idle go-gin}} MiB.\n"
    )
    text = suite(tmp_path, analysis)
    assert (
        "java-spring held 400 req/s against 630, a ratio of 0.63 (the study: 0.99); at 400 req/s it used "
        "0.80 cores per 1,000 req/s over 2 runs, and idled at 20 MiB." in text
    )


def quoted(tmp_path, records, text):
    """results.md rendered from `records` with `text` as its analysis, all under a new `tmp_path`."""
    write(tmp_path / "raw", records)
    analysis = tmp_path / "analysis.md"
    analysis.write_text(text)
    return report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts", analysis=analysis).read_text()


def test_the_analysis_quotes_ranges_tiers_and_variants(tmp_path):
    """A comparison holds across the runs only if the ranges say so: `{{range}}` and `{{tier}}` are
    the summary's, and a variant is quoted like its stack without being ranked."""
    records = []
    for run, (gin, jersey) in enumerate([(1000.0, 630.0), (630.0, 400.0)], start=1):
        records += [
            join("go-gin", run, [r for r in (250.0, 400.0, 630.0, 1000.0) if r <= gin], 1600.0, cpu_ms=0.2),
            join("java-jersey", run, [r for r in (250.0, 400.0, 630.0) if r <= jersey], 1000.0, cpu_ms=0.5),
            join("java-spring", run, [250.0], 400.0, cpu_ms=0.8),
            join("java-spring@n-plus-one", run, [250.0, 400.0], 630.0, cpu_ms=0.9),
        ]
    text = quoted(
        tmp_path,
        records,
        "go-gin {{range go-gin join-filter}} ({{tier go-gin join-filter}}), java-jersey "
        "{{range java-jersey join-filter}} ({{tier java-jersey join-filter}}), java-spring "
        "{{range java-spring join-filter}} ({{tier java-spring join-filter}}): {{tiers join-filter}} tiers, "
        "{{separated join-filter}} pairs apart; the variant {{capacity java-spring@n-plus-one join-filter}}.\n",
    )
    assert (
        "go-gin 630–1,000 (T1), java-jersey 400–630 (T1), java-spring 250 (T2): 2 tiers, "
        "2 of 3 pairs apart; the variant 400." in text
    )
    with pytest.raises(BenchError, match="only stacks with a ladder are ranked"):
        quoted(tmp_path / "again", records, "{{tier java-spring@n-plus-one join-filter}}\n")


def test_the_analysis_quotes_lower_bounds_efficiency_and_warm_up_classes(tmp_path):
    """A capacity that is a lower bound in some runs, a stack's share of its block's ceiling and
    its runs' warm-up classes, each as the tables print it, so that no sentence states them by hand."""
    records = []
    for run, (gin, jersey) in enumerate([(1000.0, 630.0), (630.0, 400.0)], start=1):
        ceiling = join("ceiling-db", run, [250.0, 400.0, 630.0], 1000.0)
        ceiling["kind"] = "ceiling"
        ceiling["stages"] = []
        bounded = join("go-gin", run, [r for r in (250.0, 400.0, 630.0, 1000.0) if r <= gin], None)
        bounded["ladder"]["capacity_lower_bound"] = run == 1
        warming = join("java-jersey", run, [r for r in (250.0, 400.0, 630.0) if r <= jersey], 1000.0)
        warming["warmup_class"] = "steady" if run == 1 else "still-warming"
        records += [ceiling, bounded, warming]
    text = quoted(
        tmp_path,
        records,
        "go-gin: a lower bound in {{bounded go-gin join-filter}}; java-jersey at "
        "{{efficiency java-jersey join-filter}} of the ceiling ({{efficiency ceiling-db join-filter}}), "
        "{{classes java-jersey join-filter}}.\n",
    )
    assert (
        "go-gin: a lower bound in 1 of 2 runs; java-jersey at 82% (63–100%) of the ceiling (the ceiling), "
        "1 steady, 1 still warming." in text
    )


@pytest.mark.parametrize(
    "placeholder,said",
    [
        ("{{capacity rust-axum join-filter}}", "no runs of rust-axum in join-filter"),
        ("{{speed go-gin}}", "unknown placeholder"),
        ("{{study go-gin java-jersey mixed}}", "the study has no ratio of go-gin"),
    ],
)
def test_a_placeholder_the_raw_files_cannot_fill_is_a_clear_error(tmp_path, placeholder, said):
    analysis = tmp_path / "analysis.md"
    analysis.write_text(f"Some text {placeholder}.\n")
    with pytest.raises(BenchError, match=said) as raised:
        suite(tmp_path, analysis)
    assert placeholder in str(raised.value) and "{{capacity STACK SCENARIO}}" in str(raised.value)


def test_figures_typed_in_by_hand_are_found():
    text = "Held {{capacity a b}} req/s, 1,200 by hand, 0.54 too, 12% and `3.5` in code, [x](y/1.5.md), 2 cores."
    assert bare_figures(text) == ["1,200", "0.54", "12%"]


def test_the_committed_analysis_quotes_every_figure_from_the_raw_files():
    """results/analysis.md types no figure in by hand: each comes from a placeholder, which
    `./bench report` fills from the committed raw files (and fails on one it cannot fill)."""
    analysis = paths.ROOT / "results" / "analysis.md"
    assert bare_figures(analysis.read_text()) == []


def test_a_stack_that_held_no_rate_leaves_the_others_a_common_rate(tmp_path):
    """python-fastapi held no rate of join-filter: the others are still compared at 400 req/s."""
    records = []
    for run in (1, 2):
        records += [
            join("java-jersey", run, [250.0, 400.0, 630.0], 1000.0, cpu_ms=0.5),
            join("go-gin", run, [250.0, 400.0], 630.0, cpu_ms=0.2),
            join("python-fastapi", run, [], 250.0, cpu_ms=3.0),
        ]
    write(tmp_path / "raw", records)
    text = report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts").read_text()
    assert "join @ 400/s" in text
    cost = rows(text, "At a rate every stack held", "What that costs a month")
    assert cost["go-gin"] == ["0.20 · 0.20 · 20.0"]
    assert cost["python-fastapi"] == ["held no rate"]
    assert "at 400 req/s, the highest rate every stack held in every run that held one" in text
    assert "1 of 3 stacks held no rate" in text


def test_the_analysis_quotes_the_memory_ladder_and_the_fault_run(tmp_path):
    """`{{cap}}` is the summary's smallest cap (every scenario clean), `{{serving-again}}` the fault table's."""
    ladder = tmp_path / "raw-mem-ladder"
    ladder.mkdir()
    steps = {
        ("go-gin", "join-filter"): {256: False, 128: False, 64: False},
        ("go-gin", "avatar"): {256: False, 128: False, 64: True},  # an OOM kill at 64 MiB
        ("java-spring", "join-filter"): {256: True},
    }
    for (name, scenario), caps in steps.items():
        for mib, oom in caps.items():
            r = record(name, scenario, 1, [(50, 300.0)], mem_ladder_mib=mib)
            r["stages"][0]["oom"] = oom
            (ladder / f"{name}--{scenario}--mem{mib}--run1.json").write_text(json.dumps(r))
    fault = tmp_path / "raw-fault"
    fault.mkdir()
    r = record(
        "go-gin", "mixed", 1, [(50, 300.0)], fault={"stopped_at_s": 4.0, "outage_s": 5.0, "recovered_within_s": 1.34}
    )
    (fault / "go-gin--mixed--run1.json").write_text(json.dumps(r))
    analysis = tmp_path / "analysis.md"
    analysis.write_text(
        "go-gin served under {{cap go-gin}} MiB, java-spring under {{cap java-spring}}; "
        "go-gin served again {{serving-again go-gin}} s after the restart.\n"
    )
    text = suite(tmp_path, analysis)
    assert "go-gin served under 128 MiB, java-spring under none of the caps; " in text
    assert "go-gin served again 1.34 s after the restart." in text
    analysis.write_text("{{serving-again java-jersey}}\n")
    with pytest.raises(BenchError, match="no fault run of java-jersey"):
        suite(tmp_path / "again", analysis)


def test_a_run_that_held_no_rate_counts_as_0_in_the_summary_and_leaves_a_claim_unjudged(tmp_path):
    """One rule (docs/method.md, "A run that held no rate"): the summary's median counts it as
    0 req/s; a claim on capacity cannot be judged with it (docs/method.md, "Claims"), so results.md
    never prints a ratio of 0 as a measurement."""
    records = []
    for run in (1, 2, 3):
        records.append(join("java-jersey", run, [250.0, 400.0, 630.0], 1000.0))
        # java-spring's second run held nothing; its others held 630.
        records.append(
            join("java-spring", run, [] if run == 2 else [250.0, 400.0, 630.0], 250.0 if run == 2 else 1000.0)
        )
    write(tmp_path / "raw", records)
    text = report.render(tmp_path / "raw", tmp_path / "results.md", tmp_path / "charts").read_text()
    capacity = rows(text, "## Summary", "At a rate every stack held")
    # The median of 0, 630 and 630 is 630 either way: the cell says which run it hides, as the
    # ladder table does.
    assert capacity["java-spring"][0] == "630 (T1; held no rate in 1 of 3 runs)"
    assert capacity["java-jersey"][0] == "630 (T1)"
    ladder_row = next(line for line in text.splitlines() if line.startswith("| java-spring | 630 (0–630) |"))
    assert ladder_row.endswith("held no rate in 1 of 3 runs |")
    claim = next(line for line in text.splitlines() if line.startswith("| **study-join-filter-mvc-jersey**"))
    assert "_cannot be judged_ (held no rate)" in claim
    assert "java-spring held no rate in 1 of 3 runs of join-filter." in claim
