"""A stack's month priced on an offer (bench.report.money), and results.md's table of prices: each
stack at each scenario's common rate on the default offer, against a sum done here from the raw
files (expected_load) and the price file read as TOML."""

import itertools
import re
import tomllib
from datetime import date

import publication
import pytest
from expected_load import cells, expected_at
from test_site_money import HOURS, expected_bill

from bench.report.at_rate import reading_at
from bench.report.money import bill_at, money, price_of
from bench.report.prices import PRICES_PATH, Instance, Offer
from bench.report.render import load, render

FARGATE = Offer(
    id="per-resource",
    provider="P",
    offer="containers",
    kind="per-resource",
    region="r",
    currency="USD",
    read_on=date(2026, 1, 1),
    source="https://example.org/prices",
    per_vcpu_hour=0.04,
    per_gib_hour=0.005,
)
FAMILY = Offer(
    id="family",
    provider="P",
    offer="VMs",
    kind="instances",
    region="r",
    currency="EUR",
    read_on=date(2026, 1, 1),
    source="https://example.org/prices",
    instances=(
        Instance(name="big", vcpus=4, memory_gib=16, per_hour=0.2),
        Instance(name="small", vcpus=2, memory_gib=4, per_hour=0.1),
        Instance(name="wide", vcpus=2, memory_gib=8, per_hour=0.1),
    ),
)


def test_a_per_resource_offer_prices_exactly_the_size():
    found = price_of(FARGATE, 0.5, 0.25)
    assert found.instance is None
    assert found.monthly == pytest.approx(HOURS * (0.5 * 0.04 + 0.25 * 0.005))


def test_a_family_prices_the_cheapest_instance_with_both_and_none_past_its_largest():
    assert price_of(FAMILY, 1.2, 3.0).instance == "small"
    # Memory decides: 5 GiB does not fit "small"; "wide" costs the same as "small", less than "big".
    assert (price_of(FAMILY, 1.0, 5.0).instance, price_of(FAMILY, 1.0, 5.0).monthly) == ("wide", HOURS * 0.1)
    assert price_of(FAMILY, 2.5, 1.0).instance == "big"
    assert price_of(FAMILY, 4.1, 1.0).monthly is None
    assert money(1234.565, "EUR") == "1,234.57 EUR" and money(0.5, "USD") == "$0.50"


def test_no_price_where_a_stack_does_not_hold_the_rate_in_every_run(tmp_path):
    records = load(publication.write(tmp_path / "raw")[0].parent)
    spring = [r for r in records if r.stack.name == "java-spring" and r.scenario == "heavy-body"]
    assert reading_at(spring, 300).held == 2 and bill_at(reading_at(spring, 300), FARGATE) is None
    held = bill_at(reading_at(spring, 200), FARGATE)
    assert held is not None and held.app.monthly and held.postgres and held.postgres.monthly
    with pytest.raises(ValueError, match="utilisation"):
        bill_at(reading_at(spring, 200), FARGATE, 0.0)


def test_results_md_prices_every_stack_at_the_common_rate_on_the_default_offer(tmp_path):
    files = publication.write(tmp_path / "results" / "raw" / "quick")
    text = render(files[0].parent, tmp_path / "results" / "results.md", tmp_path / "results" / "charts").read_text()
    price_list = tomllib.loads(PRICES_PATH.read_text())
    offer = next(o for o in price_list["offers"] if o["id"] == price_list["default"])
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| stack |") and "app · PostgreSQL" in line)
    assert f"prices read {offer['read_on']}" in lines[header - 2] and offer["source"] in lines[header - 2]
    scenarios = re.findall(r"\| ([a-z-]+) @ ([\d,]+)/s: app · PostgreSQL", lines[header])
    assert [s for s, _ in scenarios] == ["join-filter", "heavy-body"]
    raw = cells(files)
    rows = list(itertools.takewhile(lambda line: line.startswith("| "), lines[header + 2 :]))
    assert len(rows) == 4
    compared = 0
    for row in rows:
        stack, *shown = [part.strip() for part in row.strip("|").split("|")]
        for (scenario, rate), said in zip(scenarios, shown, strict=True):
            bill = expected_bill(expected_at(raw[(stack, scenario)], float(rate.replace(",", ""))), offer, 0.6)
            if bill is None:
                # The common rate leaves out a run that held no rate; that stack says so, unpriced.
                assert said.startswith("– ("), (stack, scenario, said)
                continue
            prices = [float(p.removeprefix("$").replace(",", "")) for p in said.split(" · ")]
            wanted = [bill["app"][0], bill["postgres"][0]]
            assert prices == pytest.approx(wanted, abs=0.005 + 1e-9), (stack, scenario, said)
            compared += 1
    assert compared >= 6
