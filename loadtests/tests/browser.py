"""The results page's tests in a real browser: Debian's Chromium, headless, driven by selenium
through Debian's chromedriver (tests/test_site.py, tests/test_site_load.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from bench import paths, system

VIEWPORTS = {"laptop": (1440, 900), "phone": (390, 844)}
# Kept after the run, to look at what the tests saw.
SCREENSHOTS = paths.LOGS / "site"


@contextmanager
def chromium() -> Iterator[webdriver.Chrome]:
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


def click(driver: webdriver.Chrome, element: Any) -> None:
    """Clicks `element` as a reader would: scrolled to the middle of the screen first. chromedriver
    scrolls only an element outside the window, and one inside it may sit under the contents bar."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
    element.click()


def emulate(driver: webdriver.Chrome, name: str | None) -> None:
    """The screen of a laptop or a phone (VIEWPORTS); None: the window's own."""
    if name is None:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return
    width, height = VIEWPORTS[name]
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": name == "phone"},
    )


def open_page(driver: webdriver.Chrome, index: Path, fragment: str = "") -> None:
    """Loads the page and waits for its script; with a fragment, anew (a new fragment alone would
    not reload it)."""
    if fragment:
        driver.get("about:blank")
    driver.get(index.as_uri() + fragment)
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert driver.execute_script("return typeof window.Chart === 'function' && !!window.BENCH_RESULTS")


def severe_entries(driver: webdriver.Chrome) -> list[dict[str, Any]]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def site_data(index: Path) -> dict[str, Any]:
    text = (index.parent / "data.js").read_text()
    data: dict[str, Any] = json.loads(text.split("window.BENCH_RESULTS = ", 1)[1].rstrip().removesuffix(";"))
    return data


def screenshot(driver: webdriver.Chrome, name: str) -> Path:
    """The page as the driver shows it now, saved as SCREENSHOTS/`name`."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / name
    assert driver.save_screenshot(str(shot)), shot
    return shot
