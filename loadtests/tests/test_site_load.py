"""The results page's answer at a reader's load, in a real browser at a laptop's and a phone's
width, on raw files shaped like a publication (publication.py) and on the published ones: every
answer and figure, and the chart of them, against what expected_load computes from the raw JSON on
its own; links into the page, the fixed stack column of a wide table, and the filters."""

import itertools
import shutil
from pathlib import Path

import publication
import pytest
from browser import VIEWPORTS, chromium, click, emulate, open_page, screenshot, severe_entries
from expected_load import Expected, cells, expected_at, rates_to_check
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from bench import paths
from bench.report.site import write_site

PUBLISHED = paths.ROOT / "results" / "raw" / "quick"
DIGITS = {"app_cores": 2, "postgres_cores": 2, "p99": 1, "memory_mib": 0}

LOAD_TABLE = """
return [...document.querySelectorAll('#load tbody tr:not(.unmeasured)')].map((tr) => ({
  stack: tr.dataset.stack,
  holds: tr.dataset.holds === 'true',
  held: Number(tr.dataset.held),
  runs: Number(tr.dataset.runs),
  ofRuns: Number(tr.dataset.ofRuns),
  probe: tr.dataset.probe === 'true',
  answer: tr.querySelector('td').firstChild.textContent,
  figures: Object.fromEntries([...tr.querySelectorAll('td[data-key]')].map((td) =>
    [td.dataset.key, (td.querySelector('a') || td).textContent])),
}));
"""

LOAD_CHARTS = """
const read = (id) => {
  const chart = Chart.getChart(id);
  return {
    labels: chart.data.labels,
    data: chart.data.datasets.map((d) => d.data),
    // Each bar's length on the canvas, in pixels: drawn, not only in the data.
    lengths: chart.getDatasetMeta(0).data.map((bar) => Math.abs(bar.x - bar.base)),
    title: chart.options.plugins.title.text,
    shown: chart.canvas.offsetParent !== null && chart.canvas.getBoundingClientRect().width > 150,
  };
};
return {cores: read('load-cores'), memory: read('load-memory')};
"""


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


@pytest.fixture
def screen(browser):
    yield lambda name: emulate(browser, name)
    emulate(browser, None)


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory) -> tuple[Path, list[Path]]:
    root = tmp_path_factory.mktemp("publication")
    files = publication.write(root / "results" / "raw" / "quick")
    return write_site(files[0].parent, root / "results" / "site"), files


def set_load(driver, scenario: str, rate: float) -> None:
    """As a reader picks them: the change and input events the page listens to."""
    driver.execute_script(
        "const s = document.getElementById('load-scenario'); if (s.value !== arguments[0]) {"
        " s.value = arguments[0]; s.dispatchEvent(new Event('change')); }"
        " const r = document.getElementById('load-rate'); r.value = arguments[1];"
        " r.dispatchEvent(new Event('input'));",
        scenario,
        f"{rate:g}",
    )


def fmt(value: float) -> str:
    return f"{value:,.0f}"


def check_rows(shown: list[dict], expected: dict[str, Expected]) -> int:
    """Each row of the table against the raw files; returns how many figures it compared."""
    assert {row["stack"] for row in shown} == set(expected)
    compared = 0
    for row in shown:
        want = expected[row["stack"]]
        where = (row["stack"], row["answer"])
        assert (row["holds"], row["held"], row["runs"]) == (want.holds, want.held, want.runs), where
        if want.holds:
            assert row["answer"] == "yes", where
        elif want.held_no_rate == want.runs:
            assert row["answer"] == "no: held no rate", where
        elif want.not_offered == want.runs:
            # No run was offered the rate: a lower bound, not a no (issue 69).
            assert row["answer"].startswith("not offered"), where
        elif want.generator_bound and want.not_offered + want.generator_bound == want.runs:
            # Offered it, but the load generator bound the step: not the stack's no either.
            assert row["answer"].startswith("unknown: the load generator"), where
        else:
            assert f"{want.held} of {want.runs} run" in row["answer"], where
        if want.figures is None:
            assert set(row["figures"].values()) == {"–"}, where
            continue
        assert (row["ofRuns"], row["probe"]) == (want.of_runs, want.probe), where
        for key, digits in DIGITS.items():
            text, value = row["figures"][key], want.figures[key]
            if value is None:
                assert text == "–", (where, key)
                continue
            assert text.startswith("≈ ") == want.interpolated, (where, key, text)
            # The page rounds half away from zero, Python's format to even: half a unit either way.
            number = float(text.removeprefix("≈ ").replace(",", ""))
            assert abs(number - value) <= 0.5 * 10**-digits + 1e-9, (where, key, text, value)
            compared += 1
    return compared


def check_charts(drawn: dict, expected: dict[str, Expected], rate: float) -> None:
    """A bar for every stack that holds the rate, cheapest first, its figures the raw files'; the
    others after them, without a bar."""
    holders = {label: e.figures for label, e in expected.items() if e.holds and e.figures is not None}
    cores, memory = drawn["cores"], drawn["memory"]
    assert cores["shown"] and memory["shown"]
    assert fmt(rate) in cores["title"] and fmt(rate) in memory["title"]
    assert cores["labels"] == memory["labels"] and set(cores["labels"]) == set(expected)
    bars = cores["labels"][: len(holders)]
    assert set(bars) == set(holders)
    totals = []
    for index, label in enumerate(cores["labels"]):
        app, postgres, mib = cores["data"][0][index], cores["data"][1][index], memory["data"][0][index]
        if label not in holders:
            assert (app, postgres, mib) == (None, None, None), label
            continue
        figures = holders[label]
        assert app == pytest.approx(figures["app_cores"], rel=1e-9), label
        assert postgres == pytest.approx(figures["postgres_cores"], rel=1e-9), label
        assert mib == pytest.approx(figures["memory_mib"], rel=1e-9), label
        assert cores["lengths"][index] > 1 and memory["lengths"][index] > 1, label
        totals.append(app + (postgres or 0.0))
    assert totals == sorted(totals)


def fixture_rates(ladders: list[list[dict]]) -> list[float]:
    """Every rate of the ladder, one between each two, every run's capacity and the rate above it,
    300 req/s, which java-spring holds in 2 of its 3 runs of heavy-body, and 860 req/s, between two
    rates java-jersey's runs share and one only one of them has (publication.py)."""
    rates = ladders[0][0]["rates"]
    capacities = {lad["capacity_rps"] for runs in ladders for lad in runs if lad["capacity_rps"] is not None}
    between = (float(round((a + b) / 2)) for a, b in itertools.pairwise(rates))
    # A capacity and the rate just above it: where a run stops holding.
    return sorted({*rates, *between, *capacities, *(c + 1 for c in capacities), 300.0, 860.0})


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_every_answer_figure_and_bar_at_your_load_is_the_raw_files(browser, screen, fixture_site, name):
    screen(name)
    index, files = fixture_site
    open_page(browser, index)
    raw = cells(files)
    compared = 0
    seen: set[str] = set()
    for scenario in sorted({s for _, s in raw}):
        ladders = {label: found for (label, s), found in raw.items() if s == scenario}
        for rate in fixture_rates(list(ladders.values())):
            set_load(browser, scenario, rate)
            expected = {label: expected_at(found, rate) for label, found in ladders.items()}
            shown = browser.execute_script(LOAD_TABLE)
            compared += check_rows(shown, expected)
            check_charts(browser.execute_script(LOAD_CHARTS), expected, rate)
            seen |= {row["answer"].split(",")[0] for row in shown}
            seen |= {"probe" for row in shown if row["probe"]} | {"≈" for e in expected.values() if e.interpolated}
    # The rows a publication has: held in every run, in 2 of 3, in none; a probe's figures, interpolated ones.
    not_offered = "not offered: every run held all it was offered"
    assert {"yes", "2 of 3 runs", "no: held no rate", not_offered, "probe", "≈"} <= seen
    assert compared > 300
    set_load(browser, "heavy-body", 300)
    browser.execute_script("document.getElementById('load-section').scrollIntoView()")
    screenshot(browser, f"at-your-load-{name}.png")
    assert severe_entries(browser) == []


def test_the_chart_follows_the_rate_the_scenario_and_the_filters(browser, fixture_site):
    index, _ = fixture_site
    open_page(browser, index)

    def bar(drawn: dict, label: str) -> float | None:
        value: float | None = drawn["cores"]["data"][0][drawn["cores"]["labels"].index(label)]
        return value

    set_load(browser, "join-filter", 250)
    at_250 = browser.execute_script(LOAD_CHARTS)
    set_load(browser, "join-filter", 400)
    at_400 = browser.execute_script(LOAD_CHARTS)
    assert "250" in at_250["cores"]["title"] and "400" in at_400["cores"]["title"]
    assert bar(at_400, "go-gin") != bar(at_250, "go-gin")
    # python-fastapi held 281 to 298 req/s: a bar at 250, none at 400.
    assert bar(at_250, "python-fastapi") is not None and bar(at_400, "python-fastapi") is None
    click(browser, browser.find_element(By.CSS_SELECTOR, '#filter-language input[value="Java"]'))
    without_java = browser.execute_script(LOAD_CHARTS)
    assert not any(label.startswith("java-") for label in without_java["cores"]["labels"])
    Select(browser.find_element(By.ID, "load-scenario")).select_by_value("heavy-body")
    assert "heavy-body" in browser.execute_script(LOAD_CHARTS)["cores"]["title"]
    assert severe_entries(browser) == []


# Where a section starts on the screen, less where the contents bar above it ends: 0 when it
# opens right under the bar, neither hidden behind it nor below a gap.
SECTION_TOP = (
    "return document.getElementById(arguments[0]).getBoundingClientRect().top"
    " - document.getElementById('contents').getBoundingClientRect().bottom"
)


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_a_link_to_a_section_opens_at_it_and_only_the_reader_changes_the_address(browser, screen, fixture_site, name):
    screen(name)
    index, _ = fixture_site
    for section in ("summary-section", "charts-section", "load-section"):
        open_page(browser, index, f"#{section}")
        assert abs(browser.execute_script(SECTION_TOP, section)) <= 1, section
        assert browser.execute_script("return window.location.hash") == f"#{section}"
    open_page(browser, index, "#compare=go-gin,java-spring")
    assert abs(browser.execute_script(SECTION_TOP, "compare-section")) <= 1
    open_page(browser, index)
    assert browser.execute_script("return window.location.hash") == ""
    # On a phone the filters start folded.
    browser.execute_script("document.getElementById('filters-box').open = true")
    click(browser, browser.find_element(By.CSS_SELECTOR, '#filter-language input[value="Go"]'))
    assert browser.execute_script("return window.location.hash") == ""
    Select(browser.find_element(By.ID, "compare-b")).select_by_value("python-fastapi")
    assert browser.execute_script("return window.location.hash").endswith(",python-fastapi")
    assert severe_entries(browser) == []


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_contents_stay_on_the_screen_and_reach_every_section(browser, screen, fixture_site, name):
    screen(name)
    index, _ = fixture_site
    open_page(browser, index)
    links = [a for a in browser.find_elements(By.CSS_SELECTOR, "#contents a") if a.is_displayed()]
    targets = [a.get_attribute("hash")[1:] for a in links]
    assert {"tiers-section", "summary-section", "claims-section", "compare-section"} <= set(targets)
    # Down the page and back up, so that every link is clicked with the page scrolled elsewhere.
    for target in [*targets, *reversed(targets)]:
        link = browser.find_element(By.CSS_SELECTOR, f'#contents a[href="#{target}"]')
        # On a phone the bar scrolls sideways; a reader swipes it to the link first.
        browser.execute_script("arguments[0].scrollIntoView({block: 'nearest', inline: 'nearest'})", link)
        link.click()
        assert abs(browser.execute_script(SECTION_TOP, target)) <= 1, (name, target)
        bar = browser.execute_script("return document.getElementById('contents').getBoundingClientRect().top")
        assert bar == 0, (name, target)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= VIEWPORTS[name][0]
    assert severe_entries(browser) == []


STICKY = """
const box = document.getElementById(arguments[0]).closest('.scroll');
box.scrollLeft = box.scrollWidth;
box.dispatchEvent(new Event('scroll'));
// Rows of figures: an unmeasured stack's one cell spans them all, and scrolls under the stack column.
const rows = [...box.querySelectorAll('tbody tr:not(.unmeasured)')].filter((tr) => tr.children.length > 1);
// Each row on the screen in turn (the window scrolls, not the box), to find what is drawn there.
const look = (tr) => {
  window.scrollTo(0, window.scrollY + tr.getBoundingClientRect().top - 100);
  return tr;
};
return {
  wide: box.scrollWidth > box.clientWidth,
  scrolled: box.scrollLeft,
  cue: !box.previousElementSibling.hidden && box.previousElementSibling.classList.contains('scroll-cue'),
  atEnd: box.classList.contains('at-end'),
  rows: rows.map((tr) => {
    look(tr);
    const first = tr.firstElementChild;
    const frame = box.getBoundingClientRect();
    const last = tr.lastElementChild.getBoundingClientRect();
    const own = first.getBoundingClientRect();
    const seen = document.elementFromPoint(own.left + 5, own.top + own.height / 2);
    return {
      label: first.textContent,
      visible: own.left >= frame.left - 0.5 && own.right <= frame.right && first.contains(seen),
      lastShown: last.right <= frame.right + 1 && last.left >= own.right - 1,
      position: getComputedStyle(first).position,
    };
  }),
};
"""


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_a_wide_table_keeps_its_stack_column_and_says_that_it_scrolls(browser, screen, fixture_site, name):
    screen(name)
    index, _ = fixture_site
    open_page(browser, index)
    set_load(browser, "heavy-body", 300)
    for table in ("summary", "load", "compare"):
        browser.execute_script(f"document.getElementById('{table}').scrollIntoView()")
        found = browser.execute_script(STICKY, table)
        assert found["rows"], table
        assert {row["position"] for row in found["rows"]} == {"sticky"}, table
        if name == "phone":
            # On a phone each is wider than its box: scrolled to its last column, every row still
            # shows whose it is, and the cue above said that it scrolls.
            assert found["wide"] and found["scrolled"] > 0 and found["cue"] and found["atEnd"], table
            assert all(row["visible"] and row["lastShown"] for row in found["rows"]), (table, found["rows"])
        else:
            assert found["cue"] == found["wide"], table
    browser.execute_script("document.getElementById('summary').scrollIntoView()")
    screenshot(browser, f"summary-scrolled-{name}.png")
    assert severe_entries(browser) == []


def test_tiers_and_the_comparison_follow_the_filters(browser, fixture_site):
    index, _ = fixture_site
    open_page(browser, index)
    tiers = {li.get_attribute("data-scenario"): li.text for li in browser.find_elements(By.CSS_SELECTOR, "#tiers li")}
    # python-fastapi held no rate of heavy-body in any run: its tier says so, as the summary does.
    assert "python-fastapi (none held)" in tiers["heavy-body"] and "(0 req/s)" not in tiers["heavy-body"]
    summary = browser.find_element(By.CSS_SELECTOR, '#summary tr[data-stack="python-fastapi"]').text
    assert "none held" in summary
    # java-spring's second run of join-filter held none: its median hides it, so its cell says it
    # in results.md's words.
    spring = browser.find_element(By.CSS_SELECTOR, '#summary tr[data-stack="java-spring"]').text
    assert spring.count("held no rate in 1 of 3 runs") == 1
    offered = [o.get_attribute("value") for o in Select(browser.find_element(By.ID, "compare-a")).options]
    assert set(offered) == {"go-gin", "java-jersey", "java-spring", "python-fastapi"}
    click(browser, browser.find_element(By.CSS_SELECTOR, '#filter-language input[value="Java"]'))
    left = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#tiers li")]
    assert left and not any("java-" in text for text in left)
    for side in ("compare-a", "compare-b"):
        offered = [o.get_attribute("value") for o in Select(browser.find_element(By.ID, side)).options]
        assert offered == ["go-gin", "python-fastapi"], side
    header = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#compare thead th")]
    assert set(header[1:3]) == {"go-gin", "python-fastapi"}
    click(browser, browser.find_element(By.CSS_SELECTOR, '#filter-stack input[value="python-fastapi"]'))
    heavy = next(li.text for li in browser.find_elements(By.CSS_SELECTOR, "#tiers li") if "heavy-body" in li.text)
    assert "python-fastapi" not in heavy and "go-gin" in heavy
    assert severe_entries(browser) == []


Y_TITLES = """
return Object.values(Chart.instances).filter((chart) => chart.canvas.dataset.scenario).map((chart) => {
  const scale = chart.scales.y;
  chart.ctx.save();
  chart.ctx.font = Chart.helpers.toFont(scale.options.title.font).string;
  const width = chart.ctx.measureText(scale.options.title.text).width;
  chart.ctx.restore();
  return {scenario: chart.canvas.dataset.scenario, text: scale.options.title.text, width,
          room: scale.bottom - scale.top};
});
"""


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_every_charts_y_axis_title_fits_its_axis(browser, screen, fixture_site, name):
    screen(name)
    index, _ = fixture_site
    open_page(browser, index)
    browser.execute_script("document.getElementById('filters-box').open = true")
    for metric in ("p99", "cores", "postgres"):
        Select(browser.find_element(By.ID, "metric")).select_by_value(metric)
        titles = browser.execute_script(Y_TITLES)
        assert titles, metric
        for title in titles:
            assert 0 < title["width"] <= title["room"], (metric, title)
    assert severe_entries(browser) == []


def test_the_published_page_gives_what_the_published_raw_files_give_at_three_rates_per_scenario(browser, tmp_path):
    files = sorted(PUBLISHED.glob("*.json"))
    if not files:
        pytest.skip(f"no published raw files in {PUBLISHED}")
    raw_dir = tmp_path / "results" / "raw" / "quick"
    shutil.copytree(PUBLISHED, raw_dir)
    index = write_site(raw_dir, tmp_path / "results" / "site")
    emulate(browser, "laptop")
    try:
        open_page(browser, index)
        raw = cells(files)
        answers = compared = 0
        for scenario in sorted({s for _, s in raw}):
            ladders = {label: found for (label, s), found in raw.items() if s == scenario}
            for rate in rates_to_check(list(ladders.values())):
                set_load(browser, scenario, rate)
                expected = {label: expected_at(found, rate) for label, found in ladders.items()}
                compared += check_rows(browser.execute_script(LOAD_TABLE), expected)
                check_charts(browser.execute_script(LOAD_CHARTS), expected, rate)
                answers += len(expected)
        assert answers == 3 * len(raw)
        assert compared >= 2 * answers
        assert severe_entries(browser) == []
    finally:
        emulate(browser, None)
