"""The fuzzing pass (bench.fuzz and spec/fuzz): the report read alone, then the suite end to end
against tiny in-process servers, broken ones and a correct one."""

from __future__ import annotations

import contextlib
import copy
import http.server
import json
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bench import fuzz
from bench.fuzz import Finding, FuzzResult

# -- the report and its rendering --------------------------------------------------------------

CURL = "curl -X POST -H 'Content-Type: application/json' -d '{\"name\": {}}' http://127.0.0.1:9/things"
LONG_FAILURE = "\n".join(
    [
        "Schemathesis found 1 distinct failure",
        "",
        "- ST108 Response violates schema",
        "",
        *(f"    schema line {i}" for i in range(60)),
        "",
        "[200] OK:",
        "",
        '    `{"id": "1"}`',
        "",
        "Reproduce with:",
        "",
        f"    {CURL}",
    ]
)


def test_a_long_failure_is_abridged_on_the_console_but_keeps_its_answer_and_curl_command():
    text = Finding("GET /things/{id}", "FailureGroup", LONG_FAILURE).render(limit=20)
    lines = text.splitlines()
    assert lines[0] == "GET /things/{id} · FailureGroup"
    assert "        schema line 10" in lines and "        schema line 59" not in lines
    assert any("more lines in the .failures.txt file" in line for line in lines)
    assert "    [200] OK:" in lines and lines[-1] == f"        {CURL}"
    assert "schema line 59" in Finding("GET /things/{id}", "FailureGroup", LONG_FAILURE).render()


def write_report(path: Path, tests: list[dict[str, Any]], exit_status: int = 0) -> Path:
    path.write_text(json.dumps({"seed": 7, "exit_status": exit_status, "tests": tests}))
    return path


def test_read_report_turns_failed_tests_into_findings(tmp_path):
    report = write_report(
        tmp_path / "r.json",
        [
            {"test": "GET /things/{id}", "outcome": "passed", "requests": 40},
            {
                "test": "POST /things",
                "outcome": "failed",
                "requests": 3,
                "error": "FailureGroup",
                "message": "Schemathesis found 1 distinct failure\n\n- ST101 Server error",
            },
            {"test": "stateful scenarios", "outcome": "passed", "requests": 20, "ran_out": True},
        ],
        exit_status=1,
    )
    result = fuzz.read_report(report, tmp_path / "log", 1)
    assert (result.ok, result.cases, result.passed, result.failed) == (False, 63, 2, 1)
    assert result.failures[0].operation == "POST /things"
    assert result.failures[0].title == "Schemathesis found 1 distinct failure"
    assert result.ran_out == ["stateful scenarios"]


def test_reaching_the_time_budget_is_a_pass_that_says_so(tmp_path):
    """A test whose share of the budget ran out ends skipped (spec/fuzz/harness.py): the bounded
    pass of `./bench test` passes, and its summary says where the budget stopped it."""
    spent = "its share of the time budget is spent, after 7 requests"
    report = write_report(
        tmp_path / "r.json",
        [
            {"test": "GET /things/{id}", "outcome": "passed", "requests": 40},
            {"test": "POST /things", "outcome": "skipped", "requests": 7, "ran_out": True, "message": spent},
        ],
    )
    result = fuzz.read_report(report, tmp_path / "log", 0)
    assert (result.ok, result.failures, result.passed, result.cases) == (True, [], 2, 47)
    assert result.ran_out == ["POST /things"] and result.stopped == []
    assert result.summary() == "ok: 47 requests in 0 s, time budget reached in 1 test(s)"


def test_a_test_stopped_for_another_reason_is_no_failure_but_is_said(tmp_path):
    why = "stopped after 96 requests: Hypothesis could not replay a case the same way"
    report = write_report(
        tmp_path / "r.json",
        [
            {"test": "GET /things/{id}", "outcome": "passed", "requests": 40},
            {"test": "stateful scenarios", "outcome": "skipped", "requests": 96, "message": why},
        ],
    )
    result = fuzz.read_report(report, tmp_path / "log", 0)
    assert result.ok and result.passed == 2 and result.stopped == [("stateful scenarios", why)]
    assert "1 stopped early" in result.summary()
    assert f"stateful scenarios · stopped early: {why}" in result.render().splitlines()


def test_a_suite_that_did_not_report_is_a_failure_with_its_log(tmp_path):
    log = tmp_path / "fuzz.log"
    log.write_text("ERROR collecting test_fuzz.py\nInvalidSchema: no paths\n")
    result = fuzz.read_report(tmp_path / "none.json", log, 2)
    assert not result.ok
    [finding] = result.failures
    assert "exited with code 2 without a report" in finding.message and "InvalidSchema" in finding.message
    assert "did not finish in time" in fuzz.read_report(tmp_path / "none.json", log, 124).failures[0].message


def test_a_pass_that_sent_nothing_fails(tmp_path):
    report = write_report(tmp_path / "r.json", [{"test": "GET /x", "outcome": "passed", "requests": 0}])
    [finding] = fuzz.read_report(report, tmp_path / "log", 0).failures
    assert "no request was sent" in finding.message


def test_a_crash_inside_the_fuzzer_is_told_apart_from_a_finding():
    crash = Finding("stateful scenarios", "SystemError", "SystemError: AST constructor recursion depth mismatch")
    server_error = Finding("GET /items", "FailureGroup", "Schemathesis found 1 distinct failure")
    assert FuzzResult(ok=False, cases=10, failures=[crash]).fuzzer_crashed
    assert not FuzzResult(ok=False, cases=10, failures=[crash, server_error]).fuzzer_crashed
    assert not FuzzResult(ok=True, cases=10, failures=[]).fuzzer_crashed


# -- end to end against tiny servers -----------------------------------------------------------

PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
THING = {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}
TINY_SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "tiny", "version": "1"},
    "paths": {
        "/things": {
            "post": {
                "operationId": "createThing",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 10}},
                            }
                        }
                    },
                },
                "responses": {
                    "201": {
                        "description": "created",
                        "content": THING,
                        "links": {"GetThing": {"operationId": "getThing", "parameters": {"id": "$response.body#/id"}}},
                    },
                    **{code: {"description": "problem", "content": PROBLEM} for code in ("400", "415", "422")},
                },
            }
        },
        "/things/{id}": {
            "get": {
                "operationId": "getThing",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "integer", "format": "int64"}}
                ],
                "responses": {
                    "200": {"description": "the thing", "content": THING},
                    **{code: {"description": "problem", "content": PROBLEM} for code in ("400", "404")},
                },
            }
        },
    },
    "components": {
        "schemas": {
            "Thing": {
                "type": "object",
                "required": ["id", "name"],
                "additionalProperties": False,
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            },
            "Problem": {"type": "object", "required": ["status"], "properties": {"status": {"type": "integer"}}},
        }
    },
}


class TinyHandler(http.server.BaseHTTPRequestHandler):
    """The tiny API done right. `broken`: POST /things answers 500 to a body without a string
    `name`. `chain_broken`: only a thing created by POST is read back in the wrong shape."""

    broken = False
    chain_broken = False
    created: ClassVar[set[int]] = set()
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms stall each

    def log_message(self, *args: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        if name.startswith("do_"):  # any other method: 405, as a careful server says
            return self.method_not_allowed
        raise AttributeError(name)

    def send(self, status: int, body: Any, content_type: str = "application/json") -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        if status == 405:
            self.send_header("Allow", "GET" if self.path.startswith("/things/") else "POST")
        self.end_headers()
        self.wfile.write(data)

    def problem(self, status: int) -> None:
        self.send(status, {"status": status}, "application/problem+json")

    def read_body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def method_not_allowed(self) -> None:
        self.read_body()
        path = self.path.split("?")[0]
        self.problem(405 if path == "/things" or re.fullmatch(r"/things/[^/]+", path) else 404)

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        match = re.fullmatch(r"/things/([^/]*)", path)
        if path == "/things":
            return self.method_not_allowed()
        if not match:
            return self.problem(404)
        raw = match.group(1)
        if not re.fullmatch(r"-?[0-9]{1,19}", raw) or not -(2**63) <= int(raw) < 2**63:
            return self.problem(400)
        number = int(raw)
        if number in self.created:
            shape = {"id": raw, "label": "thing"} if self.chain_broken else {"id": number, "name": "new"}
            return self.send(200, shape)
        if not 1 <= number <= 100:
            return self.problem(404)
        if self.broken:
            return self.send(200, {"id": raw, "label": "thing"})  # id a string, name missing
        return self.send(200, {"id": number, "name": f"thing {raw}"})

    def do_POST(self) -> None:
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
        number = 1000 + len(self.created)
        self.created.add(number)
        return self.send(201, {"id": number, "name": name})


class SlowHandler(TinyHandler):
    def do_GET(self) -> None:
        time.sleep(2)
        with contextlib.suppress(OSError):  # the client gave up long ago
            self.send(200, {})


@contextmanager
def tiny_server(handler: type[http.server.BaseHTTPRequestHandler] = TinyHandler, **flags: bool) -> Iterator[str]:
    handler = type("Handler", (handler,), {**flags, "created": set()})
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
def tiny_spec(tmp_path: Path) -> Path:
    spec = tmp_path / "tiny.json"
    spec.write_text(json.dumps(TINY_SPEC))
    return spec


def run_fuzz(base_url: str, spec: Path, log: Path, **kwargs: Any) -> FuzzResult:
    options: dict[str, Any] = {"max_examples": 5, "seconds": 60, "seed": 1, **kwargs}
    return fuzz.fuzz_stack(base_url, log=log, spec=spec, **options)


def status_of(curl: str) -> str:
    """Runs a curl command as printed, and says which status it got."""
    return subprocess.run(
        ["bash", "-c", curl + " -s -o /dev/null -w '%{http_code}'"], capture_output=True, text=True, check=True
    ).stdout


def reproduce_line(message: str) -> str:
    return message.split("Reproduce with:")[1].split("\n\n")[1].strip()


@pytest.mark.timeout(300)
def test_fuzz_finds_a_500_and_a_wrong_shape_with_a_curl_command_that_reproduces_it(tiny_spec, tmp_path):
    log = tmp_path / "broken.log"
    with tiny_server(broken=True) as base_url:
        result = run_fuzz(base_url, tiny_spec, log)
        assert not result.ok and result.cases > 0
        failed = {f.operation: f for f in result.failures}
        assert {"POST /things", "GET /things/{id}"} <= set(failed), result.render()
        server_error = failed["POST /things"]
        assert "Server error" in server_error.message and "Undocumented status code" in server_error.message
        assert "Response violates schema" in failed["GET /things/{id}"].message
        assert status_of(reproduce_line(server_error.message)) == "500"
    text = log.with_suffix(".failures.txt").read_text()
    assert "Reproduce with:" in text and "POST /things · FailureGroup" in text


@pytest.mark.timeout(300)
def test_a_stateful_failure_shows_the_requests_before_it(tiny_spec, tmp_path):
    # Only a thing that POST created is read back wrong: the per-operation tests pass.
    with tiny_server(chain_broken=True) as base_url:
        result = run_fuzz(base_url, tiny_spec, tmp_path / "chain.log", max_examples=10)
    assert [f.operation for f in result.failures] == ["stateful scenarios"], result.render()
    message = result.failures[0].message
    assert "Response violates schema" in message
    before = message.split("After these requests of the same scenario:")[1]
    assert "curl -X POST" in before and "/things" in before


@pytest.mark.timeout(300)
def test_fuzz_passes_a_correct_server(tiny_spec, tmp_path):
    with tiny_server() as base_url:
        result = run_fuzz(base_url, tiny_spec, tmp_path / "ok.log")
    assert result.ok, result.render()
    assert result.passed == 3 and result.cases > 10 and not result.ran_out


SLOW_SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "slow", "version": "1"},
    "paths": {
        "/slow": {
            "get": {
                "parameters": [{"name": "q", "in": "query", "schema": {"type": "integer"}}],
                "responses": {
                    "200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}},
                    "400": {"description": "bad query", "content": PROBLEM},
                },
            }
        }
    },
    "components": copy.deepcopy(TINY_SPEC["components"]),
}


@pytest.mark.timeout(300)
def test_a_hang_is_a_failure_with_a_curl_command(tmp_path):
    spec = tmp_path / "slow.json"
    spec.write_text(json.dumps(SLOW_SPEC))
    with tiny_server(SlowHandler) as base_url:
        result = run_fuzz(base_url, spec, tmp_path / "slow.log", max_examples=1000, seconds=5, request_timeout_s=0.5)
    [hang] = [f for f in result.failures if f.operation == "GET /slow"]
    assert "no response within 0.5 s (a hang)" in hang.message, result.render()
    curl = reproduce_line(hang.message)
    assert curl.startswith("curl -X GET") and f"{base_url}/slow" in curl


@pytest.mark.timeout(300)
def test_the_time_budget_holds(tiny_spec, tmp_path):
    with tiny_server(SlowHandler) as base_url:
        # Every GET takes 2 s: 1,000 examples would take an hour; the budget is 4 s.
        result = run_fuzz(base_url, tiny_spec, tmp_path / "budget.log", max_examples=1000, seconds=4)
    assert result.ran_out, result.render()
    # The suite's own start (loading the spec) comes on top of the budget, and one request may
    # be under way when it ends.
    assert result.elapsed_s < 4 + 2 + fuzz.STARTUP_ALLOWANCE_S / 3, result.render()


# -- the description each dialect is fuzzed from -----------------------------------------------


def test_each_dialect_is_fuzzed_from_its_own_description():
    import typing

    from bench import manifest, paths

    dialects = typing.get_args(manifest.Manifest.model_fields["dialect"].annotation)
    assert set(fuzz.SPECS) == set(dialects)
    assert fuzz.spec_for("api") == fuzz.SPEC == paths.SPEC_DIR / "openapi.yaml"
    assert fuzz.spec_for("hal") == paths.SPEC_DIR / "hal-openapi.yaml"
    assert all(spec.is_file() for spec in fuzz.SPECS.values())


def test_the_hal_description_has_the_operations_of_spec_hal_md():
    import schemathesis
    from schemathesis.core.result import Err, Ok

    schema = schemathesis.openapi.from_path(fuzz.spec_for("hal"))
    results = list(schema.get_all_operations())
    assert [r.err() for r in results if isinstance(r, Err)] == []
    operations = {f"{op.method.upper()} {op.path}" for op in (r.ok() for r in results if isinstance(r, Ok))}
    assert operations == {
        "GET /categories",
        "POST /categories",
        "GET /categories/{id}",
        "PUT /categories/{id}",
        "DELETE /categories/{id}",
        "GET /categories/{id}/items",
        "GET /items",
        "POST /items",
        "GET /items/{id}",
        "PUT /items/{id}",
        "DELETE /items/{id}",
        "GET /items/{id}/category",
        "PUT /items/{id}/category",
        "GET /items/{id}/stock",
        "GET /items/search/byCategory",
        "GET /avatar",
        "GET /health",
    }
    # The API's path of a category's items is no path of this dialect: its 404 is described, and
    # the 400 Tomcat gives a path it refuses before any routing (an encoded backslash).
    unknown = schema["/categories/{id}/items"]["GET"]
    assert unknown.responses.status_codes == ("400", "404")
    # Success bodies in the HAL types, every status hal.md's table gives the item resource.
    replace = schema["/items/{id}"]["PUT"]
    assert set(replace.responses.status_codes) == {"200", "400", "405", "409", "415", "503"}
    assert "application/vnd.hal+json" in replace.definition.raw["responses"]["200"]["content"]
    get_item = schema["/items/{id}"]["GET"]
    assert [p["name"] for p in get_item.definition.raw.get("parameters", [])] == ["projection"]


def test_a_process_that_exited_during_the_pass_is_a_finding(tmp_path):
    server_log = tmp_path / "server.log"
    server_log.write_text("java.lang.OutOfMemoryError: Java heap space\n")
    result = FuzzResult(ok=True, cases=10, failures=[])
    fuzz.note_exit(result, 137, server_log)
    assert not result.ok and not result.fuzzer_crashed
    [finding] = result.failures
    assert finding.operation == "(process)" and "exit code 137" in finding.message
    assert "OutOfMemoryError" in finding.message
