"""The results page (bench.report.site) in a real browser: Debian's Chromium, headless, driven by
selenium through Debian's chromedriver, on pages written from committed raw files into a
temporary results/ tree laid out like the published one (site/ beside raw/quick/)."""

import json
import shutil
import statistics
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from click.testing import CliRunner
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from bench import cli, paths, system
from bench.report.site import write_site

# Four Java stacks (one of them HAL) in all five scenarios, one run each.
JAVA = paths.EXPERIMENTS / "2026-11-24-java" / "raw" / "quick"
# The database ceiling and java-spring on join-filter, three runs each.
SPREAD = paths.EXPERIMENTS / "2026-11-24-spread" / "raw" / "quick"
# Its go-gin and both ceilings give a page two languages and ceilings beside the Java stacks.
LADDER = paths.EXPERIMENTS / "2026-11-24-ladder" / "raw" / "quick"
# The published memory ladder: java-jersey and java-spring among its stacks.
MEM_LADDER = paths.ROOT / "results" / "raw" / "quick-mem-ladder"
SCREENSHOTS = paths.LOGS / "site"

CHARTS = """
return Object.values(Chart.instances).map((chart) => {
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


def site_data(index: Path) -> dict[str, Any]:
    text = (index.parent / "data.js").read_text()
    data: dict[str, Any] = json.loads(text.split("window.BENCH_RESULTS = ", 1)[1].rstrip().removesuffix(";"))
    return data


@pytest.fixture(scope="module")
def browser():
    missing = [str(p) for p in (system.CHROMIUM, system.CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(
            f"{' and '.join(missing)} missing: run `./bench setup`, which installs Debian's chromium and "
            "chromium-driver (the results page's test needs them)",
            pytrace=False,
        )
    options = Options()
    options.binary_location = str(system.CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1500,1100"):
        options.add_argument(argument)
    # The console, and the DevTools network events: every request the page makes, whatever its scheme.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(system.CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def java_site(tmp_path_factory):
    return build(tmp_path_factory.mktemp("java"), sorted(JAVA.glob("*.json")))


def open_page(driver, index: Path) -> None:
    driver.get(index.as_uri())
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert driver.execute_script("return typeof window.Chart === 'function' && !!window.BENCH_RESULTS")


def requested(driver) -> list[str]:
    """The URLs the browser asked for since the last call."""
    events = [json.loads(entry["message"])["message"] for entry in driver.get_log("performance")]
    return [e["params"]["request"]["url"] for e in events if e["method"] == "Network.requestWillBeSent"]


def severe_entries(driver) -> list[dict]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def charts(driver) -> dict[str, dict]:
    return {chart["scenario"]: chart for chart in driver.execute_script(CHARTS)}


def rows(driver) -> list[str]:
    return [row.get_attribute("data-stack") for row in driver.find_elements(By.CSS_SELECTOR, "#summary tbody tr")]


def mean_tiers(driver) -> list[tuple[str, float | None]]:
    """The summary's mean tier per stack row, in the page's order."""
    shown = [
        (row.get_attribute("data-stack"), row.find_element(By.CLASS_NAME, "derived").text)
        for row in driver.find_elements(By.CSS_SELECTOR, "#summary tbody tr:not(.ceiling)")
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
    driver.find_element(By.CSS_SELECTOR, f'#{fieldset} input[value="{value}"]').click()


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
    assert all(chart["yTitle"].startswith("app cores per 1,000") for chart in charts(browser).values())

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


def test_every_figure_links_to_a_raw_file_that_exists(browser, java_site):
    open_page(browser, java_site)
    site = java_site.parent
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "a[href]")]
    assert len(links) > 50
    for link in links:
        target = Path(unquote(urlparse(link).path))
        assert target.is_file(), link
        assert target.parent == site.parent / "raw" / "quick", link
    written = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#summary a")]
    assert all(href.endswith(".json") for href in written)
    relative = browser.execute_script(
        "return [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href'))"
    )
    assert all(href.startswith("../raw/quick/") for href in relative)
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
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "summary.png"
    assert browser.save_screenshot(str(shot))
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
    tiers = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#summary tbody tr:not(.ceiling) td.derived")]
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
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "summary-with-ceilings.png"))
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

VIEWPORTS = {"laptop": (1440, 900), "phone": (390, 844)}

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
    def set_to(name):
        width, height = VIEWPORTS[name]
        browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": name == "phone"},
        )

    yield set_to
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


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
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(SCREENSHOTS / f"first-screen-{name}.png"))
    assert severe_entries(browser) == []


def raw_cells(files: list[Path]) -> dict[tuple[str, str], list[dict]]:
    """Per (stack label, scenario), the ladders of its runs, read straight from the raw files."""
    found: dict[tuple[str, str], list[dict]] = {}
    for file in files:
        record = json.loads(file.read_text())
        if record.get("ladder") is None or record.get("kind") == "ceiling":
            continue
        label = record["stack"]["name"] + (" (HAL)" if record["stack"].get("dialect") == "hal" else "")
        found.setdefault((label, record["scenario"]), []).append(record["ladder"])
    return found


def expected_at(ladders: list[dict], rate: float) -> tuple[bool, dict[str, float | None] | None]:
    """(holds, figures) of a stack at `rate`, computed from its runs' ladders on their own: the
    median over runs of each step, exact at a step's rate, linear between the two steps around
    it, nothing past the median capacity nor below the first step."""
    capacities = [c for c in (ladder["capacity_rps"] for ladder in ladders) if c is not None]
    if not capacities or rate > statistics.median(capacities):
        return False, None
    capacity = statistics.median(capacities)
    by_rate: dict[float, list[dict]] = {}
    for ladder in ladders:
        for step in ladder["steps"]:
            by_rate.setdefault(step["offered_rps"], []).append(step)

    def at(offered: float) -> dict[str, float | None]:
        steps = by_rate[offered]

        def med(values):
            known = [v for v in values if v is not None]
            return statistics.median(known) if known else None

        cores = med(s["cpu_ms_per_request"] for s in steps)
        postgres = med((s.get("cpu") or {}).get("postgres_ms_per_request") for s in steps)
        memory = med(s.get("app_peak_memory_bytes") for s in steps)
        return {
            "app_cores": None if cores is None else cores * rate / 1000,
            "postgres_cores": None if postgres is None else postgres * rate / 1000,
            "p99": med((s.get("latency_ms") or {}).get("p99") for s in steps),
            "memory_mib": None if memory is None else memory / (1 << 20),
        }

    offered = sorted(r for r in by_rate if r <= capacity)
    if rate in offered:
        return True, at(rate)
    lower = [r for r in offered if r < rate]
    upper = [r for r in offered if r > rate]
    if not lower or not upper:
        return True, None
    low, high = at(lower[-1]), at(upper[0])
    share = (rate - lower[-1]) / (upper[0] - lower[-1])
    return True, {
        key: None if low[key] is None or high[key] is None else low[key] + share * (high[key] - low[key])  # type: ignore[operator]
        for key in low
    }


DIGITS = {"app_cores": 2, "postgres_cores": 2, "p99": 1, "memory_mib": 0}


def pick_load(driver, scenario: str, rate: float) -> dict[str, tuple[str, dict[str, str]]]:
    Select(driver.find_element(By.ID, "load-scenario")).select_by_value(scenario)
    box = driver.find_element(By.ID, "load-rate")
    box.clear()
    box.send_keys(f"{rate:g}")
    rows = driver.find_elements(By.CSS_SELECTOR, "#load tbody tr")
    return {
        row.get_attribute("data-stack"): (
            row.find_elements(By.TAG_NAME, "td")[0].text,
            {td.get_attribute("data-key"): td.text for td in row.find_elements(By.CSS_SELECTOR, "td[data-key]")},
        )
        for row in rows
    }


def test_the_rate_picker_gives_what_the_raw_files_give_at_three_rates_per_scenario(browser, java_site):
    open_page(browser, java_site)
    cells = raw_cells(sorted(JAVA.glob("*.json")))
    checked = 0
    for scenario in sorted({s for _, s in cells}):
        ladders = {label: found for (label, s), found in cells.items() if s == scenario}
        rates = next(lad["rates"] for found in ladders.values() for lad in found)
        capacities = [c for found in ladders.values() for lad in found if (c := lad["capacity_rps"]) is not None]
        # A step's own rate, a rate between the first two steps, and one past some stack's capacity
        # (where no stack held a rate, the ladder's last).
        for rate in (rates[0], (rates[0] + rates[1]) / 2, max(capacities, default=rates[-1])):
            shown = pick_load(browser, scenario, rate)
            assert set(shown) == set(ladders), (scenario, rate)
            for label, found in ladders.items():
                holds, figures = expected_at(found, rate)
                answer, values = shown[label]
                assert answer.startswith("yes") == holds, (scenario, rate, label, answer)
                for key, digits in DIGITS.items():
                    expected = None if figures is None else figures[key]
                    text = values[key].removeprefix("≈ ").replace(",", "")
                    if expected is None:
                        assert text == "–", (scenario, rate, label, key, values[key])
                        continue
                    # The page rounds half away from zero, Python's format to even: half a unit either way.
                    assert abs(float(text) - expected) <= 0.5 * 10**-digits + 1e-9, (scenario, rate, label, key)
                    interpolated = rate not in {s["offered_rps"] for lad in found for s in lad["steps"]}
                    assert values[key].startswith("≈ ") == interpolated, (scenario, rate, label, key)
                    checked += 1
    assert checked > 100
    assert severe_entries(browser) == []


def test_every_control_changes_what_it_says(browser, java_site):
    open_page(browser, java_site)
    heading = "#load thead th:nth-child(2)"
    pick_load(browser, "join-filter", 400)
    assert browser.find_element(By.CSS_SELECTOR, heading).text == "holds 400 req/s?"
    pick_load(browser, "join-filter", 5000)
    answers = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#load tbody td:nth-of-type(1)")]
    assert answers and all(answer.startswith("no: holds up to") for answer in answers), answers
    # The stack filter takes its row out of the rate picker too.
    toggle(browser, "filter-stack", "java-jersey")
    assert "java-jersey" not in pick_load(browser, "join-filter", 400)
    toggle(browser, "filter-stack", "java-jersey")
    # The compare selectors change the table and the address.
    Select(browser.find_element(By.ID, "compare-b")).select_by_value("java-spring")
    assert browser.execute_script("return window.location.hash").endswith(",java-spring")
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
