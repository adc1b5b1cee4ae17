"""One rounding for results.md and the page: the report's `fmt` and the page's (site.js, `fmt`:
toLocaleString in en-US) print every figure alike, a half rounded away from zero on the float's
shortest decimal form."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from bench.report.figures import fmt
from bench.report.site import ASSETS

# Ties, near-ties a binary float cannot hold exactly, thousands, negatives, zeros.
FIGURES = [
    (50.5, 0),
    (51.5, 0),
    (0.125, 2),
    (1.005, 2),
    (2.675, 2),
    (0.945, 2),
    (12706.5, 0),
    (1234567.891, 1),
    (0.0005, 3),
    (-2.5, 0),
    (0.0, 1),
    (99.95, 1),
]


def test_a_half_is_rounded_away_from_zero_on_the_shortest_decimal_form():
    assert fmt(50.5) == "51", "Python's format would say 50"
    assert fmt(0.125, 2) == "0.13"
    # 1.005 is 1.00499999999999989... as a float, and 1.005 as the page reads it: the half.
    assert fmt(1.005, 2) == "1.01"
    assert fmt(12706.5) == "12,707" and fmt(1234567.891, 1) == "1,234,567.9"
    assert fmt(None) == "–" and fmt(float("inf"), 2) == "∞"
    assert fmt(2 << 20, 0, 1 << 20) == "2"


def test_the_page_prints_every_figure_as_results_md_does():
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node here to run the page's fmt")
    script = (ASSETS / "site.js").read_text()
    found = re.search(r"  function fmt\(value, digits\) \{.*?\n  \}\n", script, re.DOTALL)
    assert found, "site.js has no fmt(value, digits) for this test to run"
    program = found.group(0) + f"console.log(JSON.stringify({json.dumps(FIGURES)}.map(([v, d]) => fmt(v, d))));"
    printed = json.loads(subprocess.run([node, "-e", program], capture_output=True, text=True, check=True).stdout)
    assert printed == [fmt(value, digits) for value, digits in FIGURES]
