"""The results page (bench.report.site) in a real browser: Debian's Chromium, headless, driven by
selenium through Debian's chromedriver, on pages written from committed raw files into a
temporary results/ tree laid out like the published one (site/ beside raw/quick/)."""

import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from browser import VIEWPORTS, chromium, click, emulate, open_page, screenshot, severe_entries, site_data
from click.testing import CliRunner
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from test_first_minute import three_runs_and_a_variant

from bench import cli, manifest, paths
from bench.records import stack_label
from bench.report.site import DOCS, write_site

# Four Java stacks (one of them HAL) in all five scenarios, one run each.
JAVA = paths.EXPERIMENTS / "2026-11-24-java" / "raw" / "quick"
# The database ceiling and java-spring on join-filter, three runs each.
SPREAD = paths.EXPERIMENTS / "2026-11-24-spread" / "raw" / "quick"
# Its go-gin and both ceilings give a page two languages and ceilings beside the Java stacks.
LADDER = paths.EXPERIMENTS / "2026-11-24-ladder" / "raw" / "quick"
# The published memory ladder: java-jersey and java-spring among its stacks.
MEM_LADDER = paths.ROOT / "results" / "raw" / "quick-mem-ladder"

CHARTS = """
return Object.values(Chart.instances).filter((chart) => chart.canvas.dataset.scenario).map((chart) => {
  const canvas = chart.canvas;
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let painted = 0;
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted += 1;
  return {
    scenario: canvas.dataset.scenario,
    shown: canvas.offsetParent !== null,
    width: canvas.width,
    height: canvas.height,
    painted,
    stacks: chart.data.datasets.filter((d) => d.stackLabel).map((d) => d.stackLabel),
    hrefs: chart.data.datasets.flatMap((d) => d.data.filter((p) => p.step).map((p) => p.step.href)),
    yTitle: chart.options.scales.y.title.text,
  };
});
"""


def build(tmp_path: Path, files: list[Path]) -> Path:
    """results/raw/quick/ holding copies of `files`, and results/site/ written from it."""
    raw = tmp_path / "results" / "raw" / "quick"
    raw.mkdir(parents=True)
    for file in files:
        shutil.copy(file, raw / file.name)
    return write_site(raw, tmp_path / "results" / "site")


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def java_site(tmp_path_factory):
    return build(tmp_path_factory.mktemp("java"), sorted(JAVA.glob("*.json")))


def requested(driver) -> list[str]:
    """The URLs the browser asked for since the last call."""
    events = [json.loads(entry["message"])["message"] for entry in driver.get_log("performance")]
    return [e["params"]["request"]["url"] for e in events if e["method"] == "Network.requestWillBeSent"]


def charts(driver) -> dict[str, dict]:
    return {chart["scenario"]: chart for chart in driver.execute_script(CHARTS)}


# The summary's and the rate picker's rows of stacks with figures (a stack of the repository that no
# raw file holds has a row too, marked unmeasured).
SUMMARY_ROWS = "#summary tbody tr:not(.unmeasured)"
LOAD_ROWS = "#load tbody tr:not(.unmeasured)"


def rows(driver) -> list[str]:
    return [row.get_attribute("data-stack") for row in driver.find_elements(By.CSS_SELECTOR, SUMMARY_ROWS)]


def mean_tiers(driver) -> list[tuple[str, float | None]]:
    """The summary's mean tier per stack row, in the page's order."""
    shown = [
        (row.get_attribute("data-stack"), row.find_element(By.CLASS_NAME, "derived").text)
        for row in driver.find_elements(By.CSS_SELECTOR, f"{SUMMARY_ROWS}:not(.ceiling)")
    ]
    return [(label, None if text == "–" else float(text)) for label, text in shown]


def expected_mean_tiers(data: dict, shown_rows: list[str], scenarios: list[str]) -> list[tuple[str, object]]:
    """The same, computed from data.js (each stack's tiers over `scenarios`, lowest mean first), to
    the page's one decimal."""
    found = {}
    for stack in data["stacks"]:
        if stack["ceiling"] or stack["label"] not in shown_rows:
            continue
        tiers = [f["tier"] for name, f in stack["scenarios"].items() if name in scenarios and f["tier"] is not None]
        found[stack["label"]] = sum(tiers) / len(tiers) if tiers else None
    order = sorted(found, key=lambda label: (found[label] is None, found[label] or 0.0, label))
    return [(label, None if found[label] is None else pytest.approx(found[label], abs=0.051)) for label in order]


def toggle(driver, fieldset: str, value: str) -> None:
    click(driver, driver.find_element(By.CSS_SELECTOR, f'#{fieldset} input[value="{value}"]'))


def test_the_page_loads_with_no_console_error_and_requests_only_its_own_files(browser, java_site):
    requested(browser)  # what earlier pages asked for
    open_page(browser, java_site)
    assert severe_entries(browser) == []
    loaded = requested(browser)
    site = java_site.parent.as_uri() + "/"
    # The favicon is an empty data: URL, so that the browser does not look for one beside the page.
    assert [url for url in loaded if not url.startswith(site) and url != "data:,"] == []
    assert {url.removeprefix(site) for url in loaded} >= {
        "index.html",
        "site.css",
        "site.js",
        "data.js",
        "vendor/chart.js-4.6.1/chart.umd.min.js",
    }


def test_a_chart_is_drawn_for_every_scenario_with_every_stack_a_line(browser, java_site):
    open_page(browser, java_site)
    records = [json.loads(f.read_text()) for f in JAVA.glob("*.json")]
    scenarios = {r["scenario"] for r in records}
    labels = {r["stack"]["name"] + (" (HAL)" if r["stack"].get("dialect") == "hal" else "") for r in records}
    drawn = charts(browser)
    assert set(drawn) == scenarios and len(scenarios) == 5
    for scenario, chart in drawn.items():
        assert chart["shown"], scenario
        assert chart["width"] > 200 and chart["height"] > 200, scenario
        # Axes, lines and points: far more than a blank canvas (0) or the axes alone.
        assert chart["painted"] > 0.02 * chart["width"] * chart["height"], scenario
        assert set(chart["stacks"]) == labels, scenario
        assert chart["yTitle"].startswith("p99 latency")
    assert severe_entries(browser) == []


def test_filters_and_the_metric_change_what_is_shown(browser, java_site):
    open_page(browser, java_site)
    hal = "java-spring-data-rest (HAL)"
    assert set(rows(browser)) == {"java-jersey", "java-spring", "java-spring-webflux", hal}

    toggle(browser, "filter-stack", "java-spring")
    assert "java-spring" not in rows(browser)
    assert all("java-spring" not in chart["stacks"] for chart in charts(browser).values())
    assert len(rows(browser)) == 3

    toggle(browser, "filter-dialect", "hal")
    assert hal not in rows(browser)
    assert all(hal not in chart["stacks"] for chart in charts(browser).values())

    toggle(browser, "filter-scenario", "mixed")
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#summary thead th")]
    assert not any(h.startswith("mixed") for h in headers)
    assert not charts(browser)["mixed"]["shown"]
    assert charts(browser)["avatar"]["shown"]

    Select(browser.find_element(By.ID, "metric")).select_by_value("cores")
    assert "cores per 1,000 req/s" in browser.find_element(By.CSS_SELECTOR, "#summary caption").text
    # The axis's title in full, or shortened where the axis is too short for it.
    assert all(
        chart["yTitle"].startswith(("app cores per 1,000", "cores per 1k")) for chart in charts(browser).values()
    )

    toggle(browser, "filter-stack", "java-spring")
    assert "java-spring" in rows(browser)
    assert all("java-spring" in chart["stacks"] for chart in charts(browser).values())
    assert severe_entries(browser) == []


def test_the_comparison_shows_two_stacks_side_by_side(browser, java_site):
    open_page(browser, java_site)
    Select(browser.find_element(By.ID, "compare-a")).select_by_value("java-jersey")
    Select(browser.find_element(By.ID, "compare-b")).select_by_value("java-spring-webflux")
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#compare thead th")]
    assert headers[1:3] == ["java-jersey", "java-spring-webflux"]
    # The pair is kept in the address, so that the comparison can be linked.
    assert browser.execute_script("return window.location.hash") == "#compare=java-jersey,java-spring-webflux"
    body = browser.find_elements(By.CSS_SELECTOR, "#compare tbody tr")
    # Per scenario: four figures, what stopped the ladder and what bound it; then the mean tier,
    # memory (idle, peak, smallest cap), start-up and steady state.
    assert len(body) == 5 * 6 + 1 + 5
    capacity = browser.find_element(
        By.XPATH, "//table[@id='compare']//tr[th[text()='avatar: capacity at objective, req/s']]"
    )
    cells = [td.text for td in capacity.find_elements(By.TAG_NAME, "td")]
    # From the raw files: java-jersey held 5,000 req/s on avatar, java-spring-webflux 5,000; the
    # last column says which way, in words.
    assert cells == ["5,000", "5,000", "java-jersey holds 1.00× java-spring-webflux's rate"]
    assert severe_entries(browser) == []


def test_every_figure_links_to_a_raw_file_and_every_document_named_to_the_document(browser, java_site):
    open_page(browser, java_site)
    site = java_site.parent
    # A price's source (class external) is the one link that leaves the repository.
    figures = "main a[href]:not(.doc):not(.external)"
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, figures)]
    assert len(links) > 50
    for link in links:
        target = Path(unquote(urlparse(link).path))
        assert target.is_file(), link
        assert target.parent == site.parent / "raw" / "quick", link
    written = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#summary a")]
    assert all(href.endswith(".json") for href in written)
    relative = browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((a) => a.getAttribute('href'))", figures
    )
    assert all(href.startswith("../raw/quick/") for href in relative)
    # The method, the study and the claims, wherever the page names them: relative links into the
    # repository, as the raw files' are.
    documents = browser.execute_script(
        "return [...document.querySelectorAll('a.doc')].map((a) => [a.textContent, a.getAttribute('href')])"
    )
    assert {Path(href).name for _, href in documents} == set(DOCS.values())
    for _, href in documents:
        assert not href.startswith(("/", "file:", "http")), href
        assert (site / href).resolve() == paths.ROOT / "docs" / Path(href).name
    # A figure shown without a link would be a figure whose file the reader cannot open.
    unlinked = browser.execute_script(
        "return [...document.querySelectorAll('td.figure')].filter(td => td.textContent.trim() !== '–'"
        " && !td.querySelector('a')).map(td => td.textContent)"
    )
    assert unlinked == []
    for chart in charts(browser).values():
        assert chart["hrefs"]
        assert all((site / href).resolve().is_file() for href in chart["hrefs"])


def test_a_screenshot_of_the_summary_is_saved(browser, java_site, capsys):
    open_page(browser, java_site)
    browser.execute_script("window.scrollTo(0, 0)")
    shot = screenshot(browser, "summary.png")
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000
    with capsys.disabled():
        print(f"\nresults page: screenshot of the summary in {shot}")


def test_ceilings_are_shown_apart_and_other_languages_filter(browser, tmp_path):
    others = [f for f in sorted(LADDER.glob("*.json")) if not f.name.startswith("java-")]
    index = build(tmp_path, [*JAVA.glob("*.json"), *others])
    open_page(browser, index)
    assert severe_entries(browser) == []
    ceilings = browser.find_elements(By.CSS_SELECTOR, "#summary tbody tr.ceiling")
    assert {row.get_attribute("data-stack") for row in ceilings} == {"ceiling-db", "ceiling-http"}
    assert all(row.find_element(By.CLASS_NAME, "derived").text == "ceiling" for row in ceilings)
    tiers = [td.text for td in browser.find_elements(By.CSS_SELECTOR, f"{SUMMARY_ROWS}:not(.ceiling) td.derived")]
    assert tiers[0] == "1.0" and tiers == sorted(tiers)
    assert set(rows(browser)[:2]) == {"ceiling-db", "ceiling-http"}
    assert "ceiling-db" in charts(browser)["join-filter"]["stacks"]

    toggle(browser, "filter-language", "Go")
    assert "go-gin" not in rows(browser)
    assert "ceiling-db" in rows(browser)
    # The order is the mean tier over the scenarios shown, and unchecking a scenario recomputes it.
    data = site_data(index)
    assert mean_tiers(browser) == expected_mean_tiers(data, rows(browser), [s["name"] for s in data["scenarios"]])
    toggle(browser, "filter-scenario", "avatar")
    shown = [s["name"] for s in data["scenarios"] if s["name"] != "avatar"]
    assert mean_tiers(browser) == expected_mean_tiers(data, rows(browser), shown)
    toggle(browser, "filter-scenario", "avatar")
    assert "go-gin" not in charts(browser)["avatar"]["stacks"]
    browser.execute_script("window.scrollTo(0, 0)")
    screenshot(browser, "summary-with-ceilings.png")
    assert severe_entries(browser) == []


def test_medians_over_runs_are_said_and_linked_to_the_median_run(browser, tmp_path):
    index = build(tmp_path, sorted(SPREAD.glob("*.json")))
    capacity = next(s for s in site_data(index)["stacks"] if s["name"] == "java-spring")["scenarios"]["join-filter"]
    # The three runs held 250, 630 and 1,000 req/s.
    assert capacity["capacity"] == {
        "value": 630.0,
        "low": 250.0,
        "high": 1000.0,
        "count": 3,
        "of": "run",
        "href": "../raw/quick/java-spring--join-filter--run2.json",
    }
    open_page(browser, index)
    assert "the median of 3 runs" in browser.find_element(By.ID, "provenance").text
    cell = browser.find_element(By.CSS_SELECTOR, '#summary tr[data-stack="java-spring"] td.figure')
    assert cell.text.split() == ["630", "(250–1,000)", "T1"]
    assert "median of 3 runs" in cell.find_element(By.TAG_NAME, "a").get_attribute("title")
    assert severe_entries(browser) == []


def test_bench_report_writes_the_site_beside_results_md(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "HOME", tmp_path)
    raw = tmp_path / "results" / "raw" / "smoke"
    raw.mkdir(parents=True)
    for file in JAVA.glob("*.json"):
        shutil.copy(file, raw / file.name)
    result = CliRunner().invoke(cli.cli, ["report", "--profile", "smoke"])
    assert result.exit_code == 0, result.output
    site = tmp_path / "results" / "site"
    assert (tmp_path / "results" / "results.md").is_file()
    assert {"index.html", "data.js", "site.js", "site.css"} <= {f.name for f in site.iterdir()}
    assert (site / "vendor" / "chart.js-4.6.1" / "chart.umd.min.js").is_file()
    assert (site / "vendor" / "chart.js-4.6.1" / "LICENSE.md").is_file()
    assert site_data(site / "index.html")["raw_dir"] == "../raw/smoke"


def test_the_smallest_cap_links_to_the_memory_ladder_file_at_that_cap(tmp_path):
    raw = tmp_path / "results" / "raw" / "quick"
    shutil.copytree(JAVA, raw)
    shutil.copytree(MEM_LADDER, raw.parent / "quick-mem-ladder")
    index = write_site(raw, tmp_path / "results" / "site")
    caps = {s["name"]: s["smallest_cap_mib"] for s in site_data(index)["stacks"]}
    linked = {name: cap for name, cap in caps.items() if cap["value"] is not None}
    assert linked, "no stack of the page has a smallest clean cap"
    for name, cap in linked.items():
        assert cap["href"].startswith("../raw/quick-mem-ladder/")
        record = json.loads((index.parent / cap["href"]).read_text())
        assert record["stack"]["name"] == name and record["mem_ladder_mib"] == cap["value"]


# -- as a reader sees it: two screens, the rate picker, every control -----------------------------


LAYOUT = """
const tiers = [...document.querySelectorAll('#tiers li')];
const covered = (node) => {
  const box = node.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
  return top !== null && !node.contains(top) && !top.contains(node);
};
return {
  inner: window.innerWidth,
  height: window.innerHeight,
  scroll: document.documentElement.scrollWidth,
  tierBottoms: tiers.map((li) => li.getBoundingClientRect().bottom),
  // Anything wider than the screen scrolls inside its own box.
  boxes: [...document.querySelectorAll('.scroll, .chart-card, #filters-box, section')]
    .filter((node) => node.offsetParent !== null)
    .map((node) => node.getBoundingClientRect().right),
  coveredTiers: tiers.filter(covered).length,
  filters: getComputedStyle(document.getElementById('filters-box')).position,
};
"""


@pytest.fixture
def viewport(browser):
    yield lambda name: emulate(browser, name)
    emulate(browser, None)


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_page_fits_the_screen_and_opens_with_the_tiers(browser, java_site, viewport, name):
    viewport(name)
    open_page(browser, java_site)
    layout = browser.execute_script(LAYOUT)
    assert layout["inner"] == VIEWPORTS[name][0]
    assert layout["scroll"] <= layout["inner"], f"the page is {layout['scroll']} px wide on a {name}"
    assert max(layout["boxes"]) <= layout["inner"] + 0.5
    assert layout["coveredTiers"] == 0 and layout["filters"] == "static"
    # The first screen: every scenario's tiers on a laptop, at least the first on a phone.
    bottoms = layout["tierBottoms"]
    assert len(bottoms) == 5
    shown = bottoms if name == "laptop" else bottoms[:1]
    assert all(bottom <= layout["height"] for bottom in shown), (name, bottoms, layout["height"])
    # On a phone the filters start folded, on a laptop open.
    assert browser.find_element(By.ID, "filters-box").get_attribute("open") == ("true" if name == "laptop" else None)
    screenshot(browser, f"first-screen-{name}.png")
    assert severe_entries(browser) == []


def pick_load(driver, scenario: str, rate: float) -> dict[str, tuple[str, dict[str, str]]]:
    """The rate picker set to `rate` of `scenario`: per stack row, its answer and its figures by key."""
    Select(driver.find_element(By.ID, "load-scenario")).select_by_value(scenario)
    box = driver.find_element(By.ID, "load-rate")
    box.clear()
    box.send_keys(f"{rate:g}")
    rows = driver.find_elements(By.CSS_SELECTOR, LOAD_ROWS)
    return {
        row.get_attribute("data-stack"): (
            row.find_elements(By.TAG_NAME, "td")[0].text,
            {td.get_attribute("data-key"): td.text for td in row.find_elements(By.CSS_SELECTOR, "td[data-key]")},
        )
        for row in rows
    }


def test_every_control_changes_what_it_says(browser, java_site):
    open_page(browser, java_site)
    heading = "#load thead th:nth-child(2)"
    pick_load(browser, "join-filter", 400)
    assert browser.find_element(By.CSS_SELECTOR, heading).text == "holds 400 req/s at p99 ≤ 100 ms?"
    assert browser.find_element(By.ID, "load-objective").text == "p99 objective: 100 ms"
    pick_load(browser, "join-filter", 5000)
    answers = [td.text for td in browser.find_elements(By.CSS_SELECTOR, f"{LOAD_ROWS} td:nth-of-type(1)")]
    assert answers and all(answer == "no: 0 of 1 run" for answer in answers), answers
    # The stack filter takes its row out of the rate picker too.
    toggle(browser, "filter-stack", "java-jersey")
    assert "java-jersey" not in pick_load(browser, "join-filter", 400)
    toggle(browser, "filter-stack", "java-jersey")
    # The compare selectors change the table and the address.
    assert browser.execute_script("return window.location.hash") == ""
    Select(browser.find_element(By.ID, "compare-b")).select_by_value("java-spring-webflux")
    assert browser.execute_script("return window.location.hash").endswith(",java-spring-webflux")
    # Unchecking every scenario leaves a word, not an empty table.
    for scenario in ("read-heavy", "join-filter", "mixed", "heavy-body", "avatar"):
        toggle(browser, "filter-scenario", scenario)
    assert browser.find_element(By.ID, "empty").is_displayed()
    assert not browser.find_element(By.ID, "summary").is_displayed()
    for scenario in ("read-heavy", "join-filter", "mixed", "heavy-body", "avatar"):
        toggle(browser, "filter-scenario", scenario)
    assert not browser.find_element(By.ID, "empty").is_displayed()
    assert severe_entries(browser) == []


def test_a_linked_comparison_opens_on_its_pair(browser, java_site):
    browser.get("about:blank")  # else only the address's fragment would change, with no new page
    browser.get(java_site.as_uri() + "#compare=java-spring,java-jersey")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert Select(browser.find_element(By.ID, "compare-a")).first_selected_option.text == "java-spring"
    assert Select(browser.find_element(By.ID, "compare-b")).first_selected_option.text == "java-jersey"


FIRST_MINUTE_CHARTS = """
return Object.values(Chart.instances)
  .filter((chart) => chart.canvas.closest('#first-minute-charts'))
  .map((chart) => {
    const canvas = chart.canvas;
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted += 1;
    return {
      label: canvas.getAttribute('aria-label'),
      shown: canvas.offsetParent !== null,
      painted: painted / (canvas.width * canvas.height),
      lines: chart.data.datasets.filter((d) => !d.band).map((d) => d.label),
      bands: chart.data.datasets.filter((d) => d.band).length,
      first: chart.data.datasets.filter((d) => !d.band).map((d) => d.data[0]),
    };
  });
"""


@pytest.fixture(scope="module")
def first_minute_site(tmp_path_factory):
    source = tmp_path_factory.mktemp("first-minute-raw")
    files = []
    for r in three_runs_and_a_variant():
        path = source / f"{r['stack']['name']}--{r['scenario']}--run{r['run']}.json"
        path.write_text(json.dumps(r))
        files.append(path)
    return build(tmp_path_factory.mktemp("first-minute"), files)


def test_the_first_minute_is_drawn_a_line_per_stack_and_variant_with_its_range(browser, first_minute_site):
    open_page(browser, first_minute_site)
    drawn = browser.execute_script(FIRST_MINUTE_CHARTS)
    assert [c["label"] for c in drawn] == [
        "join-filter: p99, ms (log scale) over the first minute",
        "join-filter: app CPU ms per request (log scale) over the first minute",
    ]
    for chart in drawn:
        assert chart["shown"] and chart["painted"] > 0.02, chart["label"]
        assert chart["lines"] == ["go-gin", "java-spring", "java-spring@aot-cache"]
        # Each line's range over its runs: two datasets, the second filled to the first.
        assert chart["bands"] == 6
    p99, cpu = drawn
    # java-spring's first window: the median of its three runs, with their range (tests/test_first_minute.py).
    assert p99["first"][1] == {"x": 3, "y": 900, "low": 900, "high": 900, "runs": 3}
    assert cpu["first"][1] == pytest.approx({"x": 3, "y": 9.0, "low": 4.5, "high": 13.5, "runs": 3})
    note = browser.find_element(By.ID, "first-minute-note").text
    assert note.startswith("A new process of each stack, from its first request")
    # Hiding java-spring hides its variant with it.
    toggle(browser, "filter-stack", "java-spring")
    assert [c["lines"] for c in browser.execute_script(FIRST_MINUTE_CHARTS)] == [["go-gin"], ["go-gin"]]
    assert severe_entries(browser) == []


def test_a_page_without_a_first_minute_says_what_it_waits_for(browser, java_site):
    open_page(browser, java_site)
    assert browser.execute_script(FIRST_MINUTE_CHARTS) == []
    assert browser.find_element(By.ID, "first-minute-note").text.startswith("Not measured yet: no raw file here")


def test_the_claims_tally_is_results_mds(browser, java_site):
    open_page(browser, java_site)
    results = java_site.parents[1] / "results.md"
    from bench import report

    report.render(java_site.parents[1] / "raw" / "quick", results, java_site.parents[1] / "charts")
    line = next(s for s in results.read_text().splitlines() if s.startswith("Every published claim"))
    assert browser.find_element(By.ID, "claims-tally").text == line[line.index("Verdicts: ") :]


def test_a_rate_box_that_holds_no_rate_says_what_it_needs_and_shows_no_table(browser, java_site):
    open_page(browser, java_site)
    assert pick_load(browser, "join-filter", 400)
    box = browser.find_element(By.ID, "load-rate")
    box.clear()
    box.send_keys("abc")
    assert browser.find_elements(By.CSS_SELECTOR, "#load tbody tr") == []
    assert browser.find_element(By.ID, "load-note").text.startswith('"abc" is not a rate')
    box.clear()
    box.send_keys("1,000")
    assert browser.find_element(By.CSS_SELECTOR, "#load thead th:nth-child(2)").text.startswith("holds 1,000 req/s")


CLAIMS_SHAPE = """
const table = document.getElementById('claims');
const box = table.closest('.scroll').getBoundingClientRect();
const rows = [...table.querySelectorAll('tbody tr')];
// A cell is as tall as its row: its text's own height says how many lines it takes.
const lines = (cell) => {
  const text = document.createRange();
  text.selectNodeContents(cell);
  return Math.round(text.getBoundingClientRect().height / parseFloat(getComputedStyle(cell).lineHeight));
};
return {
  headings: [...table.querySelectorAll('thead th')].map((th) => th.textContent),
  // How far right the verdict column ends, against the box the table scrolls in.
  verdictEnd: Math.max(...rows.map((tr) => tr.children[1].getBoundingClientRect().right)) - box.left,
  boxWidth: box.width,
  verdictLines: Math.max(...rows.map((tr) => lines(tr.children[1]))),
  measuredWidth: Math.min(...rows.map((tr) => tr.children[2].getBoundingClientRect().width)),
  foldedOpen: rows.filter((tr) => tr.querySelector('td.why details').open).length,
};
"""


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_claims_lead_with_their_verdict_and_figure_and_fold_their_reasons(browser, java_site, viewport, name):
    viewport(name)
    open_page(browser, java_site)
    shape = browser.execute_script(CLAIMS_SHAPE)
    assert shape["headings"][:3] == ["claim", "verdict", "measured here (A ÷ B)"]
    # The verdict is on the table's first screen (on a laptop on one line), and the figure beside it
    # has room: a ratio, its spread, its rate and its files' links, not a word a line.
    assert shape["verdictEnd"] <= shape["boxWidth"], shape
    assert shape["verdictLines"] <= (1 if name == "laptop" else 4), shape
    assert shape["measuredWidth"] >= (14 if name == "laptop" else 11) * 15 - 1, shape
    assert shape["foldedOpen"] == 0
    browser.execute_script("document.getElementById('claims-section').scrollIntoView()")
    screenshot(browser, f"claims-{name}.png")
    # Unfolded, the reason is there to read.
    click(browser, browser.find_element(By.CSS_SELECTOR, "#claims tbody tr td.why summary"))
    assert browser.find_element(By.CSS_SELECTOR, "#claims tbody tr td.why p").is_displayed()


def test_every_stack_of_the_repository_is_in_the_filters_and_the_tables_measured_or_not(browser, java_site):
    open_page(browser, java_site)
    repository = {stack_label(stack.name, stack.dialect) for stack in manifest.discover()}
    measured = set(rows(browser))
    assert measured and repository - measured, "the fixture measures some of the repository's stacks, not all"
    filters = {box.get_attribute("value") for box in browser.find_elements(By.CSS_SELECTOR, "#filter-stack input")}
    assert repository <= filters
    unmeasured = {
        row.get_attribute("data-stack"): row.find_element(By.CSS_SELECTOR, "td.absent").text
        for row in browser.find_elements(By.CSS_SELECTOR, "#summary tbody tr.unmeasured")
    }
    assert set(unmeasured) == repository - measured
    assert set(unmeasured.values()) == {"not measured yet"}
    pick_load(browser, "join-filter", 400)
    at_load = {
        row.get_attribute("data-stack"): row.find_element(By.CSS_SELECTOR, "td.absent").text
        for row in browser.find_elements(By.CSS_SELECTOR, "#load tbody tr.unmeasured")
    }
    assert at_load == unmeasured
    # The filters take an unmeasured stack out as they do a measured one.
    toggle(browser, "filter-stack", "java-quarkus")
    assert not browser.find_elements(By.CSS_SELECTOR, '#summary tr[data-stack="java-quarkus"]')
    toggle(browser, "filter-stack", "java-quarkus")
    # It is listed, not compared: the comparison offers what was measured.
    offered = {option.get_attribute("value") for option in Select(browser.find_element(By.ID, "compare-a")).options}
    assert not offered & set(unmeasured)
    assert severe_entries(browser) == []


def test_the_first_screen_names_the_method_and_links_to_reading_the_results(browser, java_site):
    open_page(browser, java_site)
    lede = browser.find_element(By.ID, "lede")
    assert lede.text.startswith("Measured by a method before v4")
    assert lede.rect["y"] + lede.rect["height"] < 200
    links = {a.text: a.get_attribute("href") for a in lede.find_elements(By.CSS_SELECTOR, "a.doc")}
    assert links["reading the results"].endswith("/docs/reading-results.md")
    assert links["the method"].endswith("/docs/method.md")


HEADINGS_OVER_FIGURES = """
const table = document.getElementById('summary');
const right = (node) => {
  const text = document.createRange();
  text.selectNodeContents(node);
  return text.getBoundingClientRect().right;
};
return [...table.querySelectorAll('thead th[data-key]')].filter((th) => th.dataset.key !== 'stack').map((th) => {
  const column = [...th.parentElement.children].indexOf(th);
  const cells = [...table.querySelectorAll('tbody tr:not(.unmeasured)')].map((tr) => tr.children[column]);
  return {key: th.dataset.key, heading: right(th.querySelector('button')), figures: cells.map(right)};
});
"""


def test_the_summarys_headings_end_where_their_figures_end(browser, java_site):
    open_page(browser, java_site)
    columns = browser.execute_script(HEADINGS_OVER_FIGURES)
    assert len(columns) >= 5
    for column in columns:
        assert all(abs(column["heading"] - edge) <= 2 for edge in column["figures"]), column


def test_an_answer_at_your_load_carries_one_count_of_runs(browser, java_site):
    """Its own ("2 of 3 runs"), or none where every run held it; the figures' runs are in their title."""
    import re

    open_page(browser, java_site)
    seen = 0
    for scenario, rate in [("join-filter", 400), ("join-filter", 900), ("read-heavy", 130), ("mixed", 120)]:
        pick_load(browser, scenario, rate)
        for cell in browser.find_elements(By.CSS_SELECTOR, f"{LOAD_ROWS} td:nth-of-type(1)"):
            assert len(re.findall(r"\bof \d+ runs?\b", cell.text)) <= 1, (scenario, rate, cell.text)
            seen += 1
        for figure in browser.find_elements(By.CSS_SELECTOR, f"{LOAD_ROWS} td.measured, {LOAD_ROWS} td.interpolated"):
            assert re.search(r"\bof \d+ runs?\b", figure.get_attribute("title")), figure.get_attribute("title")
    assert seen
