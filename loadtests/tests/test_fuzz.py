"""The fuzzing pass (bench.fuzz): curl lines and aggregation alone, then schemathesis end to end
against tiny in-process servers, one deliberately broken and one correct."""

import http.server
import json
import re
import subprocess
import threading
import time
from contextlib import contextmanager

import pytest

from bench import fuzz
from bench.fuzz import Finding, Request

# -- curl lines --------------------------------------------------------------------------------


def run_bash(command: str) -> str:
    return subprocess.run(["bash", "-c", command], capture_output=True, check=True).stdout.decode()


def test_curl_of_a_get_has_no_method_flag_and_keeps_the_query():
    request = Request.from_url("GET", "http://127.0.0.1:9/items?page=0&size=%00", {})
    assert request.path == "/items?page=0&size=%00"
    assert request.curl("http://127.0.0.1:8091") == "curl -sS -i 'http://127.0.0.1:8091/items?page=0&size=%00'"


def test_curl_of_a_post_quotes_headers_and_body():
    request = Request("POST", "/items", {"Content-Type": "application/json"}, b'{"name": "it\'s"}')
    line = request.curl("http://h:1/")
    assert line == ("curl -sS -i -X POST -H 'Content-Type: application/json' "
                    "--data-binary '{\"name\": \"it'\"'\"'s\"}' http://h:1/items")


@pytest.mark.parametrize("body", [
    b'{"code": "\\u0000"}',  # JSON-escaped NUL: printable, plain quoting
    "{\"name\": \"caf\u00e9 \u2603\"}".encode(),  # UTF-8 text
    b"\x01\x02\xff\xfe '\\ \x1b[0m",  # not UTF-8, control bytes, quote and backslash
    b"a\x00b\x000\\x",  # raw NUL bytes, one followed by a digit
])
def test_curl_body_survives_bash_byte_for_byte(body, tmp_path):
    line = Request("PUT", "/x", {"Content-Type": "application/json"}, body).curl("http://h")
    prefix, suffix = "curl -sS -i -X PUT -H 'Content-Type: application/json' --data-binary ", " http://h/x"
    assert line.startswith(prefix) and line.endswith(suffix), line
    word = line[len(prefix):-len(suffix)]
    # What curl would send: the file named after @, or the word itself.
    command = f"cat {word[1:]}" if word.startswith("@") else f"printf %s {word}"
    out = tmp_path / "out"
    subprocess.run(["bash", "-c", f"{command} > {out}"], check=True)
    assert out.read_bytes() == body


def test_curl_of_a_body_without_content_type_sends_none():
    line = Request("POST", "/items", {}, b"{}").curl("http://h")
    assert line == "curl -sS -i -X POST -H 'Content-Type:' --data-binary '{}' http://h/items"


def test_curl_names_the_body_file_when_there_is_one(tmp_path):
    request = Request("POST", "/items", {"Content-Type": "application/json"}, b"x" * 5000,
                      body_file=tmp_path / "001.body")
    assert request.curl("http://h").endswith(f"--data-binary @{tmp_path}/001.body http://h/items")


def test_finding_renders_what_failed_and_how_to_reproduce():
    finding = Finding("GET /items/{id}", "response_schema_conformance", "Response violates schema",
                      "'name' is a required property\n\nSchema: …", Request("GET", "/items/5"),
                      status=200, response_body='{"id": 5}',
                      steps=[Request("POST", "/items", {"Content-Type": "application/json"}, b"{}")])
    text = finding.render("http://127.0.0.1:8091")
    assert text.splitlines()[0] == "GET /items/{id} · response_schema_conformance: Response violates schema"
    assert "'name' is a required property" in text
    assert 'answered 200: {"id": 5}' in text
    assert text.index("after: curl -sS -i -X POST") < text.index("reproduce: curl -sS -i http://127.0.0.1:8091/items/5")


# -- aggregation and the NDJSON report ---------------------------------------------------------


def test_aggregate_merges_the_same_failure_and_keeps_the_smallest_request():
    long = Finding("GET /items/{id}", "not_a_server_error", "Server error", "Received 500 for id 123456",
                   Request("GET", "/items/123456"))
    short = Finding("GET /items/{id}", "not_a_server_error", "Server error", "Received 500 for id 7",
                    Request("GET", "/items/7"))
    other = Finding("GET /items/{id}", "status_code_conformance", "Undocumented status", "418",
                    Request("GET", "/items/8"))
    merged = fuzz.aggregate([long, other, short])
    assert [(f.check, f.occurrences) for f in merged] == [("not_a_server_error", 2), ("status_code_conformance", 1)]
    assert merged[0].request.path == "/items/7"


def _line(name, payload):
    return json.dumps({name: payload})


def test_parse_report_reads_failures_timeouts_and_a_line_cut_short(tmp_path):
    def interaction(method, uri, status=None, body=None):
        sent = {"method": method, "uri": uri, "headers": {"Content-Type": ["application/json"]}}
        if body is not None:
            sent["body"] = {"$base64": __import__("base64").b64encode(body).decode()}
        answer = None if status is None else {"status_code": status, "headers": {},
                                              "content": {"$base64": "eyJ4IjogMX0="}}
        return {"request": sent, "response": answer}

    scenario = {"phase": "stateful", "status": "failure", "recorder": {
        "label": "POST /items -> GET /items/{id}",
        "cases": {"a": {"value": {"method": "POST", "path": "/items"}},
                  "b": {"value": {"method": "GET", "path": "/items/{id}"}, "parent_id": "a"},
                  "c": {"value": {"method": "GET", "path": "/items/{id}"}}},
        "checks": {"a": [{"name": "not_a_server_error", "status": "success"}],
                   "b": [{"name": "not_a_server_error", "status": "failure",
                          "failure_info": {"failure": {"operation": "GET /items/{id}", "title": "Server error",
                                                       "message": "500", "case_id": "b"}}}]},
        "interactions": {"a": interaction("POST", "http://h/items", 201, b'{"sku": "x"}'),
                         "b": interaction("GET", "http://h/items/100001", 500),
                         "c": interaction("GET", "http://h/items/5")}}}
    report = tmp_path / "r.ndjson"
    report.write_text("\n".join([
        _line("Initialize", {"seed": 42}),
        _line("ScenarioFinished", scenario),
        _line("NonFatalError", {"label": "GET /items/{id}", "phase": "fuzzing",
                                "value": {"type": "ReadTimeout", "message": "Read timed out. (read timeout=10)"}}),
        _line("EngineFinished", {"stop_reason": "completed"}),
        '{"ScenarioFinished": {"recorder": {"label": "cut sh',
    ]))
    parsed = fuzz.parse_report(report)
    assert (parsed.seed, parsed.cases, parsed.stop_reason) == ("42", 3, "completed")
    findings = fuzz.aggregate(fuzz._merge_errors(parsed))
    assert [(f.operation, f.check) for f in findings] == [("GET /items/{id}", "not_a_server_error"),
                                                          ("GET /items/{id}", "request_timeout")]
    server_error, timeout = findings
    assert server_error.status == 500 and server_error.request.path == "/items/100001"
    assert [s.describe() for s in server_error.steps] == ["POST /items"]
    assert server_error.steps[0].body == b'{"sku": "x"}'
    assert timeout.request.path == "/items/5" and "read timeout" in timeout.message


def test_a_missing_report_parses_as_nothing(tmp_path):
    parsed = fuzz.parse_report(tmp_path / "none.ndjson")
    assert (parsed.cases, parsed.findings, parsed.stop_reason) == (0, [], None)


def test_a_crash_inside_schemathesis_is_told_apart_from_a_finding(tmp_path):
    crash = _line("NonFatalError", {"label": "Stateful tests", "phase": "stateful", "value": {
        "type": "SystemError", "message": "AST constructor recursion depth mismatch (before=39, after=127)"}})
    report = tmp_path / "crash.ndjson"
    report.write_text("\n".join([crash, _line("EngineFinished", {"stop_reason": "completed"})]))
    [finding] = fuzz._merge_errors(fuzz.parse_report(report))
    assert finding.check == "fuzzer_crash" and "SystemError" in finding.title
    assert fuzz.FuzzResult(ok=False, cases=10, failures=[finding]).fuzzer_crashed
    server_error = fuzz.Finding("GET /items", "not_a_server_error", "Server error", "500")
    assert not fuzz.FuzzResult(ok=False, cases=10, failures=[finding, server_error]).fuzzer_crashed
    assert not fuzz.FuzzResult(ok=True, cases=10, failures=[]).fuzzer_crashed


# -- end to end against tiny servers -----------------------------------------------------------

PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
TINY_SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "tiny", "version": "1"},
    "paths": {
        "/things": {"post": {
            "operationId": "createThing",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["name"],
                "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 10}}}}}},
            "responses": {
                "201": {"description": "created",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                **{code: {"description": "problem", "content": PROBLEM} for code in ("400", "415", "422")},
            }}},
        "/things/{id}": {"get": {
            "operationId": "getThing",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "integer", "format": "int64"}}],
            "responses": {
                "200": {"description": "the thing",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                **{code: {"description": "problem", "content": PROBLEM} for code in ("400", "404")},
            }}},
    },
    "components": {"schemas": {
        "Thing": {"type": "object", "required": ["id", "name"], "additionalProperties": False,
                  "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}},
        "Problem": {"type": "object", "required": ["status"], "properties": {"status": {"type": "integer"}}},
    }},
}


class TinyHandler(http.server.BaseHTTPRequestHandler):
    """The tiny API done right; `broken` makes POST /things 500 on a body without a string
    `name` and GET /things/{id} answer the wrong shape."""

    broken = False
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms stall each

    def log_message(self, *args):
        pass

    def __getattr__(self, name):
        if name.startswith("do_"):  # any other method: 405, as a careful server says
            return self.method_not_allowed
        raise AttributeError(name)

    def send(self, status, body, content_type="application/json"):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        if status == 405:
            self.send_header("Allow", "GET" if self.path.startswith("/things/") else "POST")
        self.end_headers()
        self.wfile.write(data)

    def problem(self, status):
        self.send(status, {"status": status}, "application/problem+json")

    def read_body(self):
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def method_not_allowed(self):
        self.read_body()
        path = self.path.split("?")[0]
        if path == "/things" or re.fullmatch(r"/things/[^/]+", path):
            self.problem(405)
        else:
            self.problem(404)

    def do_GET(self):
        path = self.path.split("?")[0]
        match = re.fullmatch(r"/things/([^/]*)", path)
        if path == "/things":
            return self.method_not_allowed()
        if not match:
            return self.problem(404)
        raw = match.group(1)
        if not re.fullmatch(r"-?[0-9]{1,19}", raw) or not -(2**63) <= int(raw) < 2**63:
            return self.problem(400)
        if not 1 <= int(raw) <= 100:
            return self.problem(404)
        if self.broken:
            return self.send(200, {"id": raw, "label": "thing"})  # id a string, name missing
        return self.send(200, {"id": int(raw), "name": f"thing {raw}"})

    def do_POST(self):
        body = self.read_body()
        if self.path.split("?")[0] != "/things":
            return self.method_not_allowed()
        if self.headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
            return self.problem(415)
        try:
            data = json.loads(body)
        except ValueError:
            return self.problem(400)
        name = data.get("name") if isinstance(data, dict) else None
        if self.broken and not isinstance(name, str):
            return self.problem(500)
        if not isinstance(name, str) or not 1 <= len(name) <= 10:
            return self.problem(422)
        return self.send(201, {"id": 1, "name": name})


@contextmanager
def tiny_server(broken: bool):
    handler = type("Handler", (TinyHandler,), {"broken": broken})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def tiny_spec(tmp_path):
    spec = tmp_path / "tiny.json"
    spec.write_text(json.dumps(TINY_SPEC))
    return spec


def run_fuzz(base_url, spec, log, **kwargs):
    return fuzz.fuzz_stack(base_url, max_examples=5, seconds=60, log=log, spec=spec, seed=1,
                           phases=("coverage", "fuzzing"), **kwargs)


@pytest.mark.timeout(120)
def test_fuzz_finds_a_500_and_a_wrong_shape(tiny_spec, tmp_path):
    log = tmp_path / "broken.log"
    with tiny_server(broken=True) as base_url:
        result = run_fuzz(base_url, tiny_spec, log)
    assert not result.ok
    assert result.cases > 0 and result.stop_reason == "completed"
    found = {(f.operation, f.check) for f in result.failures}
    assert ("POST /things", "not_a_server_error") in found, result.render()
    assert ("GET /things/{id}", "response_schema_conformance") in found, result.render()
    # The 500 is also an undocumented status: reported once, as a server error.
    assert ("POST /things", "status_code_conformance") not in found
    server_error = next(f for f in result.failures if f.check == "not_a_server_error")
    assert server_error.status == 500 and server_error.request.method == "POST"
    # The printed curl line reproduces it against the same kind of server.
    with tiny_server(broken=True) as again:
        answer = run_bash(server_error.request.curl(again))
    assert answer.startswith("HTTP/1.1 500"), answer
    text = log.with_suffix(".failures.txt").read_text()
    assert "reproduce: curl" in text and "not_a_server_error" in text


@pytest.mark.timeout(120)
def test_fuzz_passes_a_correct_server_and_leaves_nothing_running(tiny_spec, tmp_path):
    with tiny_server(broken=False) as base_url:
        result = run_fuzz(base_url, tiny_spec, tmp_path / "ok.log")
    assert result.ok, result.render()
    assert result.cases > 10 and result.failures == []
    # One pass through the phases, not a repeat until the time budget is spent.
    assert result.stop_reason == "completed" and result.elapsed_s < 30


SLOW_SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "slow", "version": "1"},
    "paths": {"/slow": {"get": {
        "parameters": [{"name": "q", "in": "query", "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}},
                      "400": {"description": "bad query", "content": PROBLEM}}}}},
    "components": TINY_SPEC["components"],
}


class SlowHandler(TinyHandler):
    def do_GET(self):
        time.sleep(2)
        try:
            self.send(200, {})
        except OSError:  # the client gave up long ago
            pass


@pytest.mark.timeout(120)
def test_a_hang_is_a_failure_and_the_time_budget_holds(tmp_path):
    spec = tmp_path / "slow.json"
    spec.write_text(json.dumps(SLOW_SPEC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SlowHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    started = time.monotonic()
    try:
        result = fuzz.fuzz_stack(f"http://127.0.0.1:{server.server_address[1]}", max_examples=100_000, seconds=3,
                                 log=tmp_path / "slow.log", spec=spec, seed=1, phases=("fuzzing",),
                                 request_timeout_s=0.5)
    finally:
        server.shutdown()
        server.server_close()
    assert time.monotonic() - started < 3 + 10
    assert result.stop_reason == "budget"
    assert not result.ok
    hang = next(f for f in result.failures if f.check == "request_timeout")
    assert hang.operation == "GET /slow" and hang.request.path.startswith("/slow"), result.render()
