"""What a stack costs a month at a reader's load, on the results page at a laptop's and a phone's
width: every price against a sum done here from the fixture's raw files (expected_load) and the
price file read as TOML, on every offer and at two utilisations; the prices follow the rate, the
offer and the utilisation; the page names the offer's date and source; a box holding no
percentage prices nothing."""

import tomllib
from typing import Any

import publication
import pytest
from browser import VIEWPORTS, chromium, emulate, open_page, severe_entries
from expected_load import Expected, cells, expected_at
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from bench.report.prices import PRICES_PATH
from bench.report.site import write_site

# A year's hours over twelve months, as the page says.
HOURS = 730
PRICE_LIST: dict[str, Any] = tomllib.loads(PRICES_PATH.read_text())
OFFERS = {offer["id"]: offer for offer in PRICE_LIST["offers"]}

MONEY_TABLE = """
return [...document.querySelectorAll('#load tbody tr:not(.unmeasured)')].map((tr) => {
  const cell = (key) => tr.querySelector(`td[data-key="${key}"]`);
  const read = (td) => ({text: td.firstChild ? td.firstChild.textContent : '', value: td.dataset.value === undefined
    ? null : Number(td.dataset.value), instance: td.dataset.instance || null});
  return {stack: tr.dataset.stack, app: read(cell('app_month')), postgres: read(cell('postgres_month'))};
});
"""


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("publication")
    files = publication.write(root / "results" / "raw" / "quick")
    return write_site(files[0].parent, root / "results" / "site"), cells(files)


def set_load(driver, scenario: str, rate: float, offer: str, utilisation: str) -> None:
    """As a reader picks them: the change and input events the page listens to."""
    driver.execute_script(
        "const s = document.getElementById('load-scenario'); if (s.value !== arguments[0]) {"
        " s.value = arguments[0]; s.dispatchEvent(new Event('change')); }"
        " const r = document.getElementById('load-rate'); r.value = arguments[1]; r.dispatchEvent(new Event('input'));"
        " const o = document.getElementById('load-offer'); o.value = arguments[2];"
        " o.dispatchEvent(new Event('change'));"
        " const u = document.getElementById('load-utilisation'); u.value = arguments[3];"
        " u.dispatchEvent(new Event('input'));",
        scenario,
        f"{rate:g}",
        offer,
        utilisation,
    )


def priced(offer: dict[str, Any], vcpus: float, gib: float) -> tuple[float | None, str | None]:
    """A month of `vcpus` and `gib` on the offer: exactly that on a per-resource one, else the
    cheapest instance with at least as many of both."""
    if offer["kind"] == "per-resource":
        return HOURS * (vcpus * offer["per_vcpu_hour"] + gib * offer["per_gib_hour"]), None
    fitting = [i for i in offer["instances"] if i["vcpus"] >= vcpus and i["memory_gib"] >= gib]
    if not fitting:
        return None, None
    cheapest = min(fitting, key=lambda i: (i["per_hour"], i["vcpus"], i["memory_gib"]))
    return HOURS * cheapest["per_hour"], cheapest["name"]


def expected_bill(want: Expected, offer: dict[str, Any], utilisation: float) -> dict[str, Any] | None:
    """None where the page must give no price: a stack that does not hold the rate in every run."""
    figures = want.figures
    if not want.holds or figures is None or figures["app_cores"] is None or figures["memory_mib"] is None:
        return None
    postgres = figures["postgres_cores"]
    return {
        "app": priced(offer, figures["app_cores"] / utilisation, figures["memory_mib"] / 1024 / utilisation),
        "postgres": None if postgres is None else priced(offer, postgres / utilisation, 0.0),
    }


def shown_money(text: str) -> float:
    return float(text.removeprefix("$").replace(",", ""))


def check_prices(shown: list[dict], expected: dict[str, Expected], offer: dict[str, Any], utilisation: float) -> int:
    """Each row's two prices against the sum done here; returns how many prices it compared."""
    assert {row["stack"] for row in shown} == set(expected)
    compared = 0
    for row in shown:
        bill = expected_bill(expected[row["stack"]], offer, utilisation)
        for part in ("app", "postgres"):
            cell, where = row[part], (row["stack"], part, offer["id"], utilisation)
            want = None if bill is None else bill[part]
            if want is None:
                assert (cell["text"], cell["value"]) == ("–", None), where
                continue
            monthly, instance = want
            assert monthly is not None, where
            assert cell["value"] == pytest.approx(monthly, rel=1e-9), where
            assert cell["instance"] == instance, where
            # Cents, rounded half away from zero on the page: half a cent either way.
            assert abs(shown_money(cell["text"]) - monthly) <= 0.005 + 1e-9, (where, cell["text"])
            compared += 1
    return compared


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_every_price_at_your_load_is_the_raw_files_priced_on_the_price_file(browser, fixture_site, name):
    emulate(browser, name)
    try:
        index, raw = fixture_site
        open_page(browser, index)
        # The default offer and utilisation, as the price file and the page's note give them.
        assert browser.execute_script("return document.getElementById('load-offer').value") == PRICE_LIST["default"]
        assert browser.execute_script("return document.getElementById('load-utilisation').value") == "60"
        compared = 0
        for scenario, rates in (("join-filter", (250.0, 1000.0)), ("heavy-body", (300.0,))):
            ladders = {label: found for (label, s), found in raw.items() if s == scenario}
            for rate in rates:
                expected = {label: expected_at(found, rate) for label, found in ladders.items()}
                for offer_id, offer in OFFERS.items():
                    for utilisation in ("60", "25"):
                        set_load(browser, scenario, rate, offer_id, utilisation)
                        shown = browser.execute_script(MONEY_TABLE)
                        compared += check_prices(shown, expected, offer, int(utilisation) / 100)
                        note = browser.find_element(By.ID, "load-prices")
                        assert str(offer["read_on"]) in note.text, offer_id
                        sources = [a.get_attribute("href") for a in note.find_elements(By.TAG_NAME, "a")]
                        assert offer["source"] in sources, offer_id
        assert compared > 50
        assert browser.execute_script("return document.documentElement.scrollWidth") <= VIEWPORTS[name][0]
        assert severe_entries(browser) == []
    finally:
        emulate(browser, None)


def test_the_prices_follow_the_rate_the_offer_and_the_utilisation(browser, fixture_site):
    index, _ = fixture_site
    open_page(browser, index)

    def app_price(rate: float, offer: str, utilisation: str, stack: str = "go-gin") -> dict[str, Any]:
        set_load(browser, "join-filter", rate, offer, utilisation)
        row = next(r for r in browser.execute_script(MONEY_TABLE) if r["stack"] == stack)
        found: dict[str, Any] = row["app"]
        return found

    at_250 = app_price(250, "aws-fargate-x86", "60")
    assert at_250["value"] is not None
    assert app_price(1000, "aws-fargate-x86", "60")["value"] != at_250["value"]
    # Half the utilisation, twice the size: a per-resource price doubles.
    assert app_price(250, "aws-fargate-x86", "30")["value"] == pytest.approx(2 * at_250["value"], rel=1e-9)
    on_ec2 = app_price(250, "aws-ec2-m6i", "60")
    assert on_ec2["instance"] == "m6i.large" and on_ec2["value"] == pytest.approx(HOURS * 0.096, rel=1e-9)
    # python-fastapi held 281 to 298 req/s: a price at 250, none at 400.
    assert app_price(250, "aws-fargate-x86", "60", "python-fastapi")["value"] is not None
    assert app_price(400, "aws-fargate-x86", "60", "python-fastapi")["text"] == "–"
    Select(browser.find_element(By.ID, "load-offer")).select_by_value("gcp-gce-e2-standard")
    headings = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#load thead th")]
    assert "app $ a month" in headings and "PostgreSQL $ a month" in headings
    assert severe_entries(browser) == []


def test_a_utilisation_that_is_no_percentage_prices_nothing_and_says_why(browser, fixture_site):
    index, _ = fixture_site
    open_page(browser, index)
    for typed in ("abc", "0", "150"):
        set_load(browser, "join-filter", 250, "aws-fargate-x86", typed)
        rows = browser.execute_script(MONEY_TABLE)
        assert rows and all(row[part]["text"] == "–" for row in rows for part in ("app", "postgres")), typed
        assert f'"{typed}" is not a utilisation' in browser.find_element(By.ID, "load-prices").text
        # The rest of the answer stands: cores are not the utilisation's.
        cores = browser.find_element(By.CSS_SELECTOR, '#load tr[data-stack="go-gin"] td[data-key="app_cores"]').text
        assert cores not in ("", "–"), typed
    set_load(browser, "join-filter", 250, "aws-fargate-x86", "60%")
    assert browser.execute_script(MONEY_TABLE)[0]["app"]["value"] is not None
    assert "is not a utilisation" not in browser.find_element(By.ID, "load-prices").text
    assert severe_entries(browser) == []
