"""The price list (docs/prices.toml, bench.report.prices): every offer sourced and dated."""

import re

import pytest

from bench.errors import BenchError
from bench.report.prices import PRICES_PATH, load_prices


def test_the_committed_price_list_is_sourced_and_dated():
    prices = load_prices()
    assert prices.offers and prices.default in {offer.id for offer in prices.offers}
    assert {offer.kind for offer in prices.offers} == {"per-resource", "instances"}


@pytest.mark.parametrize(
    ("key", "said"),
    [("source", r"aws-fargate-x86\.source: Field required"), ("read_on", r"aws-fargate-x86\.read_on: Field required")],
)
def test_an_offer_without_a_source_or_a_date_is_refused_by_name(tmp_path, key, said):
    text = PRICES_PATH.read_text()
    first = text.index("\n[[offers]]\n")
    end = text.index("\n[[offers]]\n", first + 1)
    table = re.sub(rf"^{key} = .*$", "", text[first:end], count=1, flags=re.M)
    broken = tmp_path / "prices.toml"
    broken.write_text(text[:first] + table + text[end:])
    with pytest.raises(BenchError, match=said):
        load_prices(broken)
