"""The URL list oha sends a read scenario from: its mix is the scenario's, and the scenario's is
the k6 script's (loadtests/k6/*.js, which people run by hand): the same endpoints, weights and
parameter ranges."""

import collections
import re
from urllib.parse import urlsplit

import pytest

from bench.measure.load import urls
from bench.measure.load.k6 import K6_DIR
from bench.scenarios import SCENARIOS, Scenario

READ_SCENARIOS = [s for s in SCENARIOS.values() if s.read_mix]
# A request of a k6 script: one of a weighted list, as
# `[70, () => get(paths.itemsByCategory(uniform(1, SEEDED_CATEGORIES)), 'items_by_category')],`,
# or a script's only one, as `get(itemStock(uniform(1, SEEDED_ITEMS)), 'item_stock');`.
K6_REQUEST = re.compile(r"(?:\[(\d+), \(\) => )?get\((?:paths\.)?\w+\(uniform\((\w+), (\w+)\)\), '(\w+)'\)(?:\]|;)")
K6_CONSTANTS = {"SEEDED_ITEMS": urls.SEEDED_ITEMS, "SEEDED_CATEGORIES": urls.SEEDED_CATEGORIES}


def _k6_requests(scenario: Scenario) -> list[tuple[int | None, int, int, str]]:
    """(weight, lowest, highest parameter, endpoint) of each request its k6 script picks from; the
    weight None where the script sends one request only."""
    assert scenario.k6_script is not None
    script = (K6_DIR / scenario.k6_script).read_text()
    return [
        (int(weight) if weight else None, int(K6_CONSTANTS.get(low, low)), int(K6_CONSTANTS.get(high, high)), endpoint)
        for weight, low, high, endpoint in K6_REQUEST.findall(script)
    ]


def test_the_read_scenarios_are_read_heavy_join_filter_and_outbound():
    assert [s.name for s in READ_SCENARIOS] == ["read-heavy", "join-filter", "outbound"]
    assert all(s.ladder_tool == "oha" for s in READ_SCENARIOS)
    assert SCENARIOS["mixed"].ladder_tool == SCENARIOS["heavy-body"].ladder_tool == "vegeta"


@pytest.mark.parametrize("scenario", READ_SCENARIOS, ids=lambda s: s.name)
def test_the_read_mix_is_the_k6_scripts(scenario):
    requests = _k6_requests(scenario)
    if len(requests) == 1 and requests[0][0] is None:
        # A script of one request: any weight is all of it.
        assert [endpoint for endpoint, _ in scenario.read_mix] == [requests[0][3]]
        return
    assert [(endpoint, weight) for weight, _, _, endpoint in requests] == list(scenario.read_mix)


@pytest.mark.parametrize("scenario", READ_SCENARIOS, ids=lambda s: s.name)
@pytest.mark.parametrize("dialect", ["api", "hal"])
def test_the_url_lists_mix_matches_the_scenarios_weights_within_one_percent(scenario, dialect):
    pairs = urls.url_list(scenario, "http://127.0.0.1:8080", dialect)
    counts = collections.Counter(endpoint for endpoint, _ in pairs)
    total = sum(weight for _, weight in scenario.read_mix)
    for endpoint, weight in scenario.read_mix:
        assert counts[endpoint] / len(pairs) == pytest.approx(weight / total, abs=0.01)
    # Whole weights of a 20,000-line list: exact, not only within 1%.
    assert counts == {endpoint: len(pairs) * weight // total for endpoint, weight in scenario.read_mix}


@pytest.mark.parametrize("scenario", READ_SCENARIOS, ids=lambda s: s.name)
def test_a_step_of_2000_requests_drawn_from_the_list_keeps_the_mix(scenario):
    """oha draws each request's URL uniformly from the list: a step's mix varies around the
    list's by sampling alone (at most 1.1 points in 2,000 requests, 3 standard deviations)."""
    import random

    pairs = urls.url_list(scenario, "http://127.0.0.1:8080")
    total = sum(weight for _, weight in scenario.read_mix)
    draws = collections.Counter(endpoint for endpoint, _ in random.Random(7).choices(pairs, k=2000))
    for endpoint, weight in scenario.read_mix:
        assert draws[endpoint] / 2000 == pytest.approx(weight / total, abs=0.033)


@pytest.mark.parametrize("scenario", READ_SCENARIOS, ids=lambda s: s.name)
def test_each_endpoints_parameters_are_drawn_over_the_k6_scripts_range(scenario):
    pairs = urls.url_list(scenario, "http://127.0.0.1:8080")
    for _, low, high, endpoint in _k6_requests(scenario):
        values = {
            int(re.findall(r"\d+", urlsplit(url).path + "?" + urlsplit(url).query)[-1])
            for e, url in pairs
            if e == endpoint
        }
        # Drawn uniformly over the script's range: inside it, and across nearly all of it.
        assert low <= min(values) and max(values) <= high
        assert max(values) - min(values) >= 0.95 * (high - low)


def test_the_list_is_seeded_and_speaks_the_stacks_dialect(tmp_path):
    join = SCENARIOS["join-filter"]
    assert urls.url_list(join, "http://h:1") == urls.url_list(join, "http://h:1")
    assert urls.url_list(join, "http://h:1", seed=1) != urls.url_list(join, "http://h:1")
    api = dict(urls.url_list(join, "http://h:1"))
    hal = dict(urls.url_list(join, "http://h:1", "hal"))
    assert re.fullmatch(r"http://h:1/items\?categoryId=\d+", api["items_by_category"])
    assert re.fullmatch(r"http://h:1/items/search/byCategory\?categoryId=\d+", hal["items_by_category"])
    assert re.fullmatch(r"http://h:1/items/\d+\?projection=inlineCategory", hal["item_by_id"])
    written = urls.write_url_list(tmp_path / "urls.txt", join, "http://h:1").read_text().splitlines()
    assert written == [url for _, url in urls.url_list(join, "http://h:1")]


def test_the_outbound_list_asks_every_dialect_the_same_stock_path():
    outbound = SCENARIOS["outbound"]
    api = urls.url_list(outbound, "http://h:1")
    assert api == urls.url_list(outbound, "http://h:1", "hal")
    assert all(re.fullmatch(r"http://h:1/items/\d+/stock", url) for _, url in api)


def test_shares_add_up_to_the_list_whatever_the_rounding():
    assert urls.shares((("a", 1), ("b", 1), ("c", 1)), 100) == {"a": 34, "b": 33, "c": 33}
    assert sum(urls.shares((("a", 7), ("b", 3)), 99).values()) == 99


def test_a_scenario_without_a_read_mix_has_no_list():
    with pytest.raises(ValueError, match="no read mix"):
        urls.url_list(SCENARIOS["mixed"], "http://h:1")


def test_the_list_by_hand_is_the_runners(capsys):
    from bench.measure.load import generators

    generators.main(["urls", "join-filter", "http://h:1/", "--dialect", "hal"])
    printed = capsys.readouterr().out.splitlines()
    assert printed == [url for _, url in urls.url_list(SCENARIOS["join-filter"], "http://h:1", "hal")]


def test_a_generators_cpu_per_request():
    from bench.measure.load.generators import GeneratorRun

    assert GeneratorRun("oha", 20_000, 1.4, 1.3).cpu_ms_per_request == pytest.approx(0.07)
    assert GeneratorRun("k6", 0, 0.5, None).cpu_ms_per_request is None
