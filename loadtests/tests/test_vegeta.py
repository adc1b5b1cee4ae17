"""The write scenarios' requests as vegeta sends them (bench.measure.load.vegeta): their mix is the
k6 scripts' (loadtests/k6/mixed.js, heavy-body.js, which people run by hand), their parameters and
bodies are the scripts', and what vegeta reports is read back per operation, latency from each
request's scheduled start."""

import base64
import collections
import csv
import json
import re

import pytest

from bench.measure.load import step_requests, vegeta
from bench.measure.load.k6 import K6_DIR
from bench.scenarios import SCENARIOS, Scenario

WRITE_SCENARIOS = [s for s in SCENARIOS.values() if s.writes]
# A request of a write script's weighted list → the endpoint it sends.
K6_FUNCTIONS = {
    "createItem": "item_create",
    "create": "item_create",
    "replaceItem": "item_replace",
    "replace": "item_replace",
    "remove": "item_delete",
    "addCategory": "category_create",
}
ROWS = range(200_001, 300_001)


def k6_mix(script: str) -> dict[str, int]:
    """Each endpoint's weight in a script's `const requests = [...]`: a `get(..., 'endpoint')` or
    the function it calls first."""
    found = re.search(r"const requests = \[(.*?)\n\];", script, re.DOTALL)
    assert found is not None
    weights: dict[str, int] = collections.Counter()
    for weight, entry in re.findall(r"^  \[(\d+), (.*?)(?=^  \[|\Z)", found.group(1), re.MULTILINE | re.DOTALL):
        named = re.search(r"get\(.*?'(\w+)'\)", entry)
        called = re.search(r"\b(" + "|".join(K6_FUNCTIONS) + r")\b", entry)
        if named is not None:
            weights[named.group(1)] += int(weight)
        else:
            assert called is not None, entry
            weights[K6_FUNCTIONS[called.group(1)]] += int(weight)
    return dict(weights)


def operations(requests):
    return [r for r in requests if r.endpoint not in step_requests.EXTRA_ENDPOINTS.values()]


@pytest.mark.parametrize("scenario", WRITE_SCENARIOS, ids=lambda s: s.name)
def test_the_scenarios_mix_is_the_k6_scripts(scenario):
    script = (K6_DIR / scenario.k6_script).read_text()
    assert k6_mix(script) == dict(scenario.mix)


@pytest.mark.parametrize("scenario", WRITE_SCENARIOS, ids=lambda s: s.name)
@pytest.mark.parametrize("dialect", ["api", "hal"])
@pytest.mark.parametrize("count", [2_000, 20_000])
def test_a_steps_requests_keep_the_k6_scripts_mix_within_one_percent(scenario, dialect, count):
    weights = k6_mix((K6_DIR / scenario.k6_script).read_text())
    total = sum(weights.values())
    requests = operations(step_requests.RequestMix(scenario, dialect).requests(count, ROWS))
    counts = collections.Counter(r.endpoint for r in requests)
    assert len(requests) == count
    for endpoint, weight in weights.items():
        assert counts[endpoint] / count == pytest.approx(weight / total, abs=0.01)


def test_a_step_sends_nearly_all_of_its_list():
    """vegeta sends rate × seconds requests from the list: the spare it leaves unsent is at most
    1% and ten requests, so the step's mix is the list's."""
    mix = step_requests.RequestMix(SCENARIOS["mixed"], "api")
    assert mix.request_count(400, 10) == 4_050
    assert mix.request_count(125, 3) == 389


def test_every_stack_gets_the_same_requests_and_every_run_keys_of_its_own():
    first = step_requests.RequestMix(SCENARIOS["mixed"], "api", stamp="a").requests(500, ROWS)
    again = step_requests.RequestMix(SCENARIOS["mixed"], "api", stamp="a").requests(500, ROWS)
    other = step_requests.RequestMix(SCENARIOS["mixed"], "api", stamp="b").requests(500, ROWS)
    assert first == again
    assert [r.path for r in first] == [r.path for r in other]
    assert {r.key for r in first if r.key} & {r.key for r in other if r.key} == set()


def test_keys_are_unique_across_a_runs_steps_and_fit_their_columns():
    mix = step_requests.RequestMix(SCENARIOS["mixed"], "api")
    keys = [r.key for step in range(3) for r in mix.requests(3_000, ROWS) if r.key is not None]
    keys += [key for _ in range(10) if (key := mix.item_to_delete().key) is not None]
    assert len(keys) == len(set(keys))
    # db/schema.sql: sku varchar(64), code varchar(32); at ten million keys too.
    mix.keys = 10_000_000
    assert len(mix.item_to_delete().key or "") <= 64 and len(mix._key(step_requests.CATEGORY_PREFIX)) <= 32


@pytest.mark.parametrize("scenario", WRITE_SCENARIOS, ids=lambda s: s.name)
def test_a_create_carries_its_key_and_the_scripts_body(scenario):
    mix = step_requests.RequestMix(scenario, "api")
    (create,) = [r for r in mix.requests(100, ROWS) if r.endpoint == "item_create"][:1]
    body = json.loads(create.body)
    assert (create.method, create.path, create.content_type) == ("POST", "/items", "application/json")
    assert body["sku"] == create.key and body["name"] == step_requests.BODIES[scenario.name].name
    assert body["description"] == step_requests.text(step_requests.BODIES[scenario.name].description_bytes)
    assert len(body["description"]) == (5 * 1024 if scenario.name == "heavy-body" else 1024)
    assert 1 <= body["categoryId"] <= 2_000 and 0 <= body["stock"] <= 500 and 0 <= body["price"] <= 99_999.99


def test_a_replace_keeps_its_seeded_items_sku_and_in_hal_moves_it_to_the_bodys_category():
    api = step_requests.RequestMix(SCENARIOS["heavy-body"], "api").requests(200, ROWS)
    hal = step_requests.RequestMix(SCENARIOS["heavy-body"], "hal").requests(200, ROWS)
    replace = next(r for r in api if r.endpoint == "item_replace")
    item_id = int(replace.path.rsplit("/", 1)[1])
    assert replace.method == "PUT" and 1 <= item_id <= 100_000
    assert json.loads(replace.body)["sku"] == f"SKU-{item_id:06d}"
    assert all(r.endpoint != "item_replace_category" for r in api)
    for index, request in enumerate(hal):
        if request.endpoint == "item_replace":
            move = hal[index + 1]
            assert move.endpoint == "item_replace_category" and move.path == f"{request.path}/category"
            assert move.content_type == "text/uri-list"
            assert move.body.decode() == json.loads(request.body)["category"]
            assert re.fullmatch(r"/categories/\d+", move.body.decode())
    assert step_requests.request_rate(100, hal) == pytest.approx(150, rel=0.1)


def test_each_delete_takes_a_row_made_for_it_once():
    mix = step_requests.RequestMix(SCENARIOS["mixed"], "api")
    deletes = mix.deletes(1_000)
    assert deletes == 100
    made = list(range(500_001, 500_001 + deletes))
    requests = mix.requests(1_000, made)
    deleted = [r.item_id for r in requests if r.endpoint == "item_delete" and r.item_id is not None]
    assert sorted(deleted) == made
    assert all(r.path == f"/items/{r.item_id}" and r.method == "DELETE" for r in requests if r.item_id)
    with pytest.raises(ValueError, match="100 deletes need as many rows"):
        mix.requests(1_000, made[:-1])
    assert step_requests.RequestMix(SCENARIOS["heavy-body"], "api").deletes(1_000) == 0


def test_the_reads_are_drawn_over_the_seeded_rows():
    requests = step_requests.RequestMix(SCENARIOS["mixed"], "api").requests(20_000, ROWS)
    ranges = {"item_by_id": (1, 100_000), "items_page": (0, 49), "category_by_id": (1, 2_000)}
    for endpoint, (low, high) in ranges.items():
        values = [int(re.findall(r"\d+", r.path)[-1]) for r in requests if r.endpoint == endpoint]
        assert low <= min(values) and max(values) <= high
        assert max(values) - min(values) >= 0.99 * (high - low)


def test_a_target_is_vegetas_json_with_its_index_as_the_fragment(tmp_path):
    mix = step_requests.RequestMix(SCENARIOS["mixed"], "api")
    requests = mix.requests(50, ROWS)
    path = step_requests.write_targets(tmp_path / "t.jsonl", requests, "http://127.0.0.1:8080")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == len(requests)
    for index, (line, request) in enumerate(zip(lines, requests, strict=True)):
        assert line["url"] == f"http://127.0.0.1:8080{request.path}#{index}" and line["method"] == request.method
        if request.body:
            assert base64.b64decode(line["body"]) == request.body
            assert line["header"] == {"Content-Type": [request.content_type]}
        else:
            assert "body" not in line


def test_the_attack_keeps_no_bodies_and_sets_no_worker_limit(tmp_path):
    command = vegeta.vegeta_command(
        tmp_path / "vegeta", targets=tmp_path / "t", rate=447.4, seconds=10, output=tmp_path / "r"
    )
    assert "-rate=447/1s" in command and "-duration=10s" in command and "-max-body=0" in command
    assert "-format=json" in command and "max-workers" not in command and "-lazy" not in command


HEADERS = base64.b64encode(b"Content-Length: 120\r\nContent-Type: application/json\r\n\r\n").decode()


def result_line(seq, index, code, *, at_ms, took_ms, method="GET", url="http://x/items/1"):
    return [at_ms * 1_000_000, code, took_ms * 1_000_000, 0, 0, "", "", "", seq, method, f"{url}#{index}", HEADERS]


def test_the_results_csv_is_read_back(tmp_path):
    path = tmp_path / "r.csv"
    with path.open("w", newline="") as out:
        csv.writer(out).writerow(result_line(4, 17, 201, at_ms=1_000, took_ms=3, method="POST"))
    (result,) = vegeta.read_results(path)
    assert result == vegeta.Result(
        timestamp_ns=1_000_000_000, code=201, latency_ns=3_000_000, seq=4, index=17, content_length=120
    )


def results(*lines):
    return [
        vegeta.Result(timestamp_ns=a * 1_000_000, code=c, latency_ns=t * 1_000_000, seq=s, index=i, content_length=100)
        for s, i, c, a, t in lines
    ]


def test_latency_is_from_each_requests_scheduled_start():
    """At 100 requests/s, request n is due 10 ms after n - 1. The third was taken up 25 ms late
    (vegeta itself behind): its 2 ms become 27."""
    sent = results((0, 0, 200, 10, 2), (1, 1, 200, 20, 2), (2, 2, 200, 55, 2))
    assert vegeta.scheduled_latencies_ns(sent, 100) == [2_000_000, 2_000_000, 27_000_000]
    # Timed from when vegeta took them up, whatever the attack's start.
    assert vegeta.scheduled_latencies_ns(results((0, 0, 200, 1_000, 2)), 100) == [2_000_000]


def test_a_step_is_read_back_per_operation_with_its_writes_acknowledged():
    requests = [
        step_requests.Request("item_create", "POST", "/items", b"{}", "application/json", key="VM-a"),
        step_requests.Request("item_create", "POST", "/items", b"{}", "application/json", key="VM-b"),
        step_requests.Request("item_delete", "DELETE", "/items/7", item_id=7),
        step_requests.Request("item_delete", "DELETE", "/items/8", item_id=8),
        step_requests.Request("category_create", "POST", "/categories", b"{}", "application/json", key="VC-a"),
        step_requests.Request("item_by_id", "GET", "/items/3"),
        step_requests.Request("item_delete", "DELETE", "/items/9", item_id=9),  # in the spare: never sent
    ]
    sent = results(
        (0, 0, 201, 10, 1),
        (1, 1, 503, 20, 1),
        (2, 2, 204, 30, 1),
        (3, 3, 0, 40, 1),
        (4, 4, 201, 50, 1),
        (5, 5, 200, 60, 4),
    )
    step = vegeta.parse_results(sent, requests, rate=100, request_rate=100, seconds=1)
    figures = step.figures
    assert (figures.requests, figures.requests_sent, figures.offered_rps, figures.dropped_iterations) == (6, 6, 100, 0)
    assert figures.errors == {"503": 1, "0": 1} and figures.error_count == 2
    assert figures.latency_ms is not None and figures.latency_ms.max == 4 and figures.latency_ms.min == 1
    assert figures.endpoints is not None and figures.endpoints["item_delete"].requests == 2
    assert figures.bytes_received == 600 and figures.vus == 1
    acknowledged = step.acknowledged
    assert acknowledged.item_keys == {"VM-a"} and acknowledged.category_keys == {"VC-a"}
    assert (acknowledged.items_deleted, acknowledged.items_delete_unconfirmed) == ({7}, {8})


def test_a_hal_replace_is_one_operation_of_two_requests():
    requests = [
        step_requests.Request("item_replace", "PUT", "/items/5", b"{}", "application/json"),
        step_requests.Request("item_replace_category", "PUT", "/items/5/category", b"/categories/2", "text/uri-list"),
        step_requests.Request("item_create", "POST", "/items", b"{}", "application/json", key="VM-a"),
    ]
    # Answered out of order: the move's result comes first.
    sent = results((1, 1, 204, 20, 3), (0, 0, 200, 10, 5), (2, 2, 201, 30, 1))
    step = vegeta.parse_results(sent, requests, rate=100, request_rate=100, seconds=1)
    assert step.figures.requests == step.figures.requests_sent == 2 and step.requests_sent == 3
    assert step.figures.latency_ms is not None and step.figures.latency_ms.max == pytest.approx(8)
    assert step.figures.endpoints is not None
    assert set(step.figures.endpoints) == {"item_replace", "item_replace_category", "item_create"}


def test_a_result_without_its_index_is_refused(tmp_path):
    path = tmp_path / "r.csv"
    with path.open("w", newline="") as out:
        csv.writer(out).writerow([*result_line(0, 0, 200, at_ms=1, took_ms=1)[:10], "http://x/items/1", HEADERS])
    with pytest.raises(ValueError, match="without its request's index"):
        vegeta.read_results(path)


def test_a_mix_without_a_url_list_is_vegetas_and_its_reads_are_the_scripts_paths():
    lookup = Scenario("item-lookup", "lookup", "k6", (40,), (("item_by_id", 80), ("category_by_id", 20)))
    assert lookup.ladder_tool == "vegeta" and SCENARIOS["join-filter"].ladder_tool == "oha"
    requests = step_requests.RequestMix(lookup, "hal").requests(100, [])
    assert {r.endpoint for r in requests} == {"item_by_id", "category_by_id"} and all(
        r.method == "GET" for r in requests
    )
    assert all(r.path.endswith("?projection=inlineCategory") for r in requests if r.endpoint == "item_by_id")


def test_a_scenario_vegeta_cannot_send_is_refused_by_name():
    writer = Scenario("bulk", "bulk", "k6", (40,), (("item_create", 100),), writes=True)
    with pytest.raises(ValueError, match="bulk writes items: give its body"):
        step_requests.RequestMix(writer, "api")
    with pytest.raises(ValueError, match="no request of avatar"):
        step_requests.RequestMix(SCENARIOS["avatar"], "api")


def test_a_list_sent_twice_over_is_refused():
    requests = [step_requests.Request("item_create", "POST", "/items", b"{}", "application/json", key="VM-a")]
    sent = results((0, 0, 201, 10, 1), (1, 0, 409, 20, 1))
    with pytest.raises(ValueError, match="2 results for 1 requests"):
        vegeta.parse_results(sent, requests, rate=100, request_rate=100, seconds=1)
