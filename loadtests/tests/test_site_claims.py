"""The results page's claims and variants in a real browser (test_site.py's headless Chromium):
a variant's row under its stack, the scenario filter, and every claim with its verdict."""

from browser import open_page, severe_entries, site_data
from selenium.webdriver.common.by import By
from test_claims import variant_records
from test_report import write
from test_site import browser, toggle  # noqa: F401  (the fixture, by name)

from bench.report.claims import load_claims
from bench.report.site import write_site


def test_variants_sit_under_their_stack_and_every_claim_has_its_verdict(browser, tmp_path):  # noqa: F811
    raw = tmp_path / "results" / "raw" / "quick"
    write(raw, variant_records())
    index = write_site(raw, tmp_path / "results" / "site")
    open_page(browser, index)
    assert severe_entries(browser) == []
    body = browser.find_elements(By.CSS_SELECTOR, "#variants tbody tr")
    assert [row.get_attribute("class") for row in body] == ["group", ""]
    assert body[0].text == "app" and body[1].get_attribute("data-variant") == "app@lazy"
    cells = [td.text for td in body[1].find_elements(By.TAG_NAME, "td")]
    assert cells[1:5] == ["join-filter", "815 → 400", "0.49 (0.40–0.63)", "400"]
    # Every figure links to a raw file of the page's own tree.
    links = [a.get_attribute("href") for a in body[1].find_elements(By.TAG_NAME, "a")]
    assert links and all(link.startswith(raw.as_uri()) for link in links)
    toggle(browser, "filter-scenario", "join-filter")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#variants tbody tr")) == 0
    claims = browser.find_elements(By.CSS_SELECTOR, "#claims tbody tr")
    assert len(claims) == len(load_claims()) == len(site_data(index)["claims"])
    verdicts = {row.get_attribute("data-claim"): row.get_attribute("data-verdict") for row in claims}
    assert verdicts["study-t4-n-plus-one"] == "cannot be judged"
    shown = browser.find_element(By.CSS_SELECTOR, '#claims tr[data-claim="study-t4-n-plus-one"] .verdict')
    assert "verdict-none" in shown.get_attribute("class") and shown.text == "cannot be judged (not measured yet)"


def test_without_variants_the_page_hides_their_section(browser, tmp_path):  # noqa: F811
    raw = tmp_path / "results" / "raw" / "quick"
    write(raw, [r for r in variant_records() if "@" not in r["stack"]["name"]])
    open_page(browser, write_site(raw, tmp_path / "results" / "site"))
    assert not browser.find_element(By.ID, "variants-section").is_displayed()
    assert browser.find_element(By.ID, "claims-section").is_displayed()
    # Nor do the contents name it.
    shown = [a.get_attribute("hash") for a in browser.find_elements(By.CSS_SELECTOR, "#contents a") if a.is_displayed()]
    assert "#variants-section" not in shown and "#claims-section" in shown
