"""A stack's dialect (spec/hal.md) through the runner: the load scripts send each dialect's paths
and bodies (loadtests/k6/lib/dialects.js, run by the real k6 against a recording stand-in), the
probes too, the runner passes the manifest's dialect to k6 and records it, and the report marks it
beside the stack's name."""

import json
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from matplotlib.axes import Axes
from test_manifest import VALID, write_stack
from test_orchestration import CAPS, FAKES, setting  # noqa: F401 (a fixture)
from test_report import record, write

from bench import manifest, paths, report
from bench.judgement.verdict import summary_line
from bench.measure import Plan
from bench.measure.load.dialects import prepare_probe
from bench.measure.run.orchestrate import run_plan
from bench.records import CpuSplit, RawResult, stack_label
from bench.scenarios import SCENARIOS

K6 = paths.ROOT / ".bench" / "bin" / "k6"
NEW_ID = 100_001


class Recorder(BaseHTTPRequestHandler):
    """Answers every request with the status its dialect gives it, and records what it was sent."""

    seen: list[tuple[str, str, str, str]]

    def _answer(self, status: int, headers: dict[str, str] | None = None, body: bytes = b"") -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _record(self) -> str:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        self.seen.append((self.command, self.path, self.headers.get("Content-Type") or "", body))
        return body

    def do_GET(self) -> None:
        self._record()
        self._answer(200, {"Content-Type": "application/json"}, b"{}")

    def do_POST(self) -> None:
        self._record()
        location = f"http://{self.headers['Host']}{self.path}/{NEW_ID}"
        self._answer(
            201, {"Location": location, "Content-Type": "application/json"}, json.dumps({"id": NEW_ID}).encode()
        )

    def do_PUT(self) -> None:
        self._record()
        self._answer(204 if self.path.endswith("/category") else 200)

    def do_DELETE(self) -> None:
        self._record()
        self._answer(204)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def recorder():
    # A class of its own, so that each server records into a list of its own.
    handler: type[Recorder] = type("Handler", (Recorder,), {"seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", handler.seen
    server.shutdown()
    server.server_close()


def run_k6(base_url: str, scenario: str, tmp_path: Path, dialect: str | None) -> tuple[dict, list[str]]:
    """One short fixed-rate run of a real script; its summary and the writes it logged."""
    summary, log = tmp_path / f"{scenario}.json", tmp_path / f"{scenario}.log"
    chosen = ["-e", f"DIALECT={dialect}"] if dialect is not None else []
    command = [str(K6), "run", "--no-color", "--no-usage-report", "-q", "-e", "RECORD_WRITES=1"]
    command += ["--log-output", f"file={log}", "--log-format", "raw", *chosen, "-e", f"BASE_URL={base_url}"]
    command += ["-e", "RATE=150", "-e", "DURATION=2", "-e", "VUS=10", "-e", f"SUMMARY={summary}"]
    command.append(str(paths.ROOT / "loadtests" / "k6" / f"{scenario}.js"))
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    return json.loads(summary.read_text()), [line for line in log.read_text().splitlines() if line.startswith("bench-")]


needs_k6 = pytest.mark.skipif(not K6.exists(), reason="k6 is built by ./bench setup into .bench/bin")

# What each dialect's requests look like (spec/API.md; spec/hal.md, "Each operation of the API").
PATHS = {
    "api": [
        r"GET /items/\d+",
        r"GET /items\?page=\d+",
        r"GET /items\?categoryId=\d+",
        r"GET /categories/\d+/items",
        r"GET /categories\?page=\d+",
        r"GET /categories/\d+",
        r"POST /items",
        r"POST /categories",
        r"PUT /items/\d+",
        r"DELETE /items/\d+",
        r"GET /items/\d+/stock",
    ],
    "hal": [
        r"GET /items/\d+\?projection=inlineCategory",
        r"GET /items\?page=\d+",
        r"GET /items/search/byCategory\?categoryId=\d+",
        r"GET /categories\?page=\d+",
        r"GET /categories/\d+",
        r"POST /items",
        r"POST /categories",
        r"PUT /items/\d+",
        r"PUT /items/\d+/category",
        r"DELETE /items/\d+",
        # The outbound call: the same path in both dialects.
        r"GET /items/\d+/stock",
    ],
}


def check_requests(seen: list[tuple[str, str, str, str]], dialect: str) -> None:
    assert seen
    for method, path, content_type, body in seen:
        request = f"{method} {path}"
        assert any(re.fullmatch(p, request) for p in PATHS[dialect]), request
        if method in ("POST", "PUT") and path.startswith("/items") and not path.endswith("/category"):
            item = json.loads(body)
            assert content_type == "application/json"
            if dialect == "hal":
                assert re.fullmatch(r"/categories/\d+", item["category"]) and "categoryId" not in item
            else:
                assert isinstance(item["categoryId"], int) and "category" not in item
        if path.endswith("/category"):
            assert content_type == "text/uri-list" and re.fullmatch(r"/categories/\d+", body)


@needs_k6
@pytest.mark.parametrize("dialect", ["api", "hal", None])
def test_mixed_sends_each_dialects_paths_and_counts_a_replace_as_one_operation(recorder, tmp_path, dialect):
    base_url, seen = recorder
    summary, logged = run_k6(base_url, "mixed", tmp_path, dialect)

    check_requests(seen, dialect or "api")  # by hand, without DIALECT: the API's
    (stage,) = summary["stages"]
    endpoints = stage["endpoints"]
    assert stage["error_count"] == 0
    replaces = endpoints["item_replace"]["requests"]
    moves = sum(1 for method, path, _, _ in seen if method == "PUT" and path.endswith("/category"))
    assert replaces > 0
    if dialect == "hal":
        # Two requests, one operation: the second is shown as its own endpoint, not counted again.
        assert endpoints["item_replace_category"]["requests"] == replaces == moves
        assert stage["requests"] == len(seen) - moves
    else:
        assert "item_replace_category" not in endpoints and moves == 0
        assert stage["requests"] == len(seen)
    operations = sum(figures["requests"] for name, figures in endpoints.items() if name != "item_replace_category")
    assert operations == stage["requests"] == summary["total_requests"]
    # The new id comes from Location in HAL, from the body in the API: the write log has it either way.
    created = [line for line in logged if line.startswith("bench-write item_created ")]
    assert created and all(line == f"bench-write item_created {NEW_ID}" for line in created)
    assert summary["writes"]["items_created"] == len(created)


@needs_k6
@pytest.mark.parametrize("scenario", ["read-heavy", "join-filter", "heavy-body", "outbound"])
def test_every_scenario_sends_the_hal_paths(recorder, tmp_path, scenario):
    base_url, seen = recorder
    summary, _ = run_k6(base_url, scenario, tmp_path, "hal")
    check_requests(seen, "hal")
    assert summary["stages"][0]["error_count"] == 0


def test_an_unknown_dialect_stops_the_script(recorder, tmp_path):
    if not K6.exists():
        pytest.skip("k6 is built by ./bench setup into .bench/bin")
    with pytest.raises(subprocess.CalledProcessError):
        run_k6(recorder[0], "join-filter", tmp_path, "soap")
    # k6 writes its error to the log the runner gives it.
    assert "DIALECT must be one of api, hal, not soap" in (tmp_path / "join-filter.log").read_text()
    assert recorder[1] == []


@pytest.mark.parametrize("dialect", ["api", "hal"])
def test_the_probes_send_the_same_operations_in_each_dialect(dialect):
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.method == "POST":
            return httpx.Response(
                201, json={"id": NEW_ID}, headers={"Location": f"http://x{request.url.path}/{NEW_ID}"}
            )
        return httpx.Response(200, json={})

    endpoints = sorted({e for s in SCENARIOS.values() for e in s.endpoints if e != "avatar"} | {"item_delete"})
    with httpx.Client(base_url="http://stack", transport=httpx.MockTransport(answer)) as client:
        for endpoint in endpoints:
            prepare_probe(endpoint, client, dialect)()
    requests = [
        (r.method, r.url.raw_path.decode(), r.headers.get("Content-Type") or "", r.content.decode()) for r in seen
    ]
    check_requests(requests, dialect)
    # item_delete's create, then one request per endpoint; HAL's replace is two.
    assert len(requests) == len(endpoints) + 1 + (dialect == "hal")
    assert ("DELETE", f"/items/{NEW_ID}", "", "") in requests


@pytest.mark.postgres
def test_the_runner_passes_the_manifests_dialect_to_k6_and_records_it(pg_cluster, setting, tmp_path):  # noqa: F811
    stack, root, tools = setting
    text = VALID.replace('name = "demo"', 'name = "halo"\ndialect = "hal"')
    hal = manifest.load(write_stack(tmp_path, name="halo", text=text.replace("exec sleep 60", stack.run_command)))
    arguments = tmp_path / "k6-arguments"
    tools["k6"].write_text(
        f"#!/bin/sh\necho \"$@\" >> '{arguments}'\nexec '{sys.executable}' '{FAKES / 'k6.py'}' \"$@\"\n"
    )
    plan = Plan(
        [stack, hal],
        [SCENARIOS["join-filter"]],
        "smoke",
        1,
        CpuSplit(app="0", postgres="0", loadgen="0"),
        tmp_path / "out",
        ceilings=False,
        cgroup_root=root,
    )

    records = run_plan(plan, pg_cluster, tools, CAPS)

    assert [(r.stack.name, r.stack.dialect, r.failed) for r in records] == [
        ("demo", "api", None),
        ("halo", "hal", None),
    ]
    runs = [line for line in arguments.read_text().splitlines() if line.startswith("run ")]
    assert runs and all(("-e DIALECT=api " in run) != ("-e DIALECT=hal " in run) for run in runs)
    assert any("-e DIALECT=hal " in run for run in runs) and any("-e DIALECT=api " in run for run in runs)
    written = json.loads((tmp_path / "out" / "raw" / "smoke" / "halo--join-filter--run1.json").read_text())
    assert written["stack"]["dialect"] == "hal"


def test_a_raw_file_without_a_dialect_is_the_apis_and_is_written_back_unchanged():
    old = record("go-gin", "join-filter", 1, [(60, 1000.0)])
    assert "dialect" not in old["stack"]
    loaded = RawResult.model_validate(old)
    assert loaded.stack.dialect == "api" and loaded.stack.label == "go-gin"
    assert "dialect" not in json.loads(loaded.to_json())["stack"]


def test_labels_mark_only_a_dialect_other_than_the_apis():
    assert stack_label("java-spring-data-rest", "hal") == "java-spring-data-rest (HAL)"
    assert stack_label("go-gin", "api") == "go-gin"


def hal_record(*args, **extra):
    r = record(*args, **extra)
    r["stack"]["dialect"] = "hal"
    for stage in r["stages"]:
        latency = dict(stage["endpoints"]["item_by_id"]["latency_ms"], p99=4.0)
        stage["endpoints"]["item_replace_category"] = {"requests": 5, "latency_ms": latency}
    return r


def test_the_report_marks_the_dialect_in_every_table_and_chart_and_links_spec_hal(tmp_path, monkeypatch):
    drawn: list[str] = []
    barh = Axes.barh

    def recording_barh(self, labels, *args, **kwargs):
        drawn.extend(labels)
        return barh(self, labels, *args, **kwargs)

    monkeypatch.setattr(Axes, "barh", recording_barh)
    raw = tmp_path / "raw"
    write(
        raw,
        [
            record("go-gin", "join-filter", 1, [(60, 1000.0), (120, 1100.0)]),
            hal_record("java-spring-data-rest", "join-filter", 1, [(60, 300.0), (120, 310.0)]),
            record("ceiling-db", "join-filter", 1, [(60, 2000.0), (120, 2000.0)], kind="ceiling"),
        ],
    )
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()

    stacks = text[text.index("## Stacks") : text.index("## join-filter")]
    assert "| java-spring-data-rest (HAL) | L 1 | F 2 | S | D | HAL |" in stacks
    assert "| go-gin | L 1 | F 2 | S | D | API |" in stacks
    assert "| ceiling-db | L 1 | F 2 | S | D | – |" in stacks
    assert "A stack marked (HAL)" in stacks and "](spec/hal.md)" in stacks  # results.md outside the repository
    table = text[text.index("## join-filter") :]
    assert "| java-spring-data-rest (HAL) | 120 |" in table and "| go-gin | 120 |" in table
    assert "bytes/resp" in table
    per_endpoint = table[table.index("Per endpoint") :]
    assert "| java-spring-data-rest (HAL) |" in per_endpoint
    # The second request of HAL's replace is shown with its p99; its SQL is counted in the operation's.
    assert "| stack | item_by_id | item_replace_category |" in per_endpoint
    assert "| java-spring-data-rest (HAL) | 3.0 / 1.0 | 4.0 / – |" in per_endpoint
    assert "| go-gin | 3.0 / 1.0 | – / – |" in per_endpoint
    memory = text[text.index("## Memory") :]
    assert "| java-spring-data-rest (HAL) |" in memory
    assert "java-spring-data-rest (HAL)" in drawn and "go-gin" in drawn


def test_the_link_to_spec_hal_is_relative_inside_the_repository(tmp_path, monkeypatch):
    raw = tmp_path / "raw"
    write(raw, [hal_record("java-spring-data-rest", "join-filter", 1, [(60, 300.0)])])
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "SPEC_DIR", tmp_path / "spec")
    (tmp_path / "results").mkdir()
    text = report.render(raw, tmp_path / "results" / "results.md", tmp_path / "results" / "charts").read_text()
    assert "[../spec/hal.md](../spec/hal.md)" in text


def test_the_report_without_a_hal_stack_says_nothing_of_dialects(tmp_path):
    raw = tmp_path / "raw"
    write(raw, [record("go-gin", "join-filter", 1, [(60, 1000.0)])])
    text = report.render(raw, tmp_path / "results.md", tmp_path / "charts").read_text()
    assert "(HAL)" not in text and "spec/hal.md" not in text and "dialect" not in text


def test_the_runners_lines_mark_the_dialect():
    line = summary_line(RawResult.model_validate(hal_record("java-spring-data-rest", "mixed", 1, [(50, 300.0)])))
    assert line.startswith("java-spring-data-rest (HAL) · mixed · run 1")
    assert summary_line(RawResult.model_validate(record("go-gin", "mixed", 1, [(50, 300.0)]))).startswith("go-gin · ")
