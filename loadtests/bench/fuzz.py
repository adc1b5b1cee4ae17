"""Fuzzing a running stack with schemathesis, driven by spec/openapi.yaml.

schemathesis's stable Python API in 4.x is its pytest plugin; its engine is internal. So the
runner drives the `st run` command line in a child process of its own (a process group that a
time budget or Ctrl-C can always stop) and reads the NDJSON event report it writes: one JSON
object a line, each ScenarioFinished carrying every request sent, its response and the result
of every check. schemathesis is pinned exactly in loadtests/requirements.in, so that format is
fixed for a given lock; `test_fuzz.py` runs it end to end against tiny servers so that a
version bump that changes it fails the runner's tests.

What counts as a failure:
- a check fails: `not_a_server_error` (any 5xx), `status_code_conformance` (a status the
  operation does not document), `content_type_conformance`, `response_schema_conformance`,
  `response_headers_conformance` (e.g. `Location` on a 201);
- a request gets no response within `request_timeout_s` (a hang) or the connection drops;
- the server stops answering altogether (schemathesis stops the run);
- schemathesis itself reports an error (it could not do its job, so the stack is not cleared).
Reaching the time budget is not a failure in itself: the run stops and reports what it found
(but a run that sent no request at all is one).

Bounds: `max_examples` cases per operation and phase, one pass through the phases (examples,
coverage, fuzzing, stateful) and `seconds` of testing, which schemathesis splits between the
operations itself (`--max-time`), each scenario cut by it still reporting what it found.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bench import paths, procs

SPEC = paths.SPEC_DIR / "openapi.yaml"

CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
)
PHASES = ("examples", "coverage", "fuzzing", "stateful")
REQUEST_TIMEOUT_S = 10.0
# Bodies longer than this are written to a file beside the log and sent with `--data-binary @FILE`.
INLINE_BODY_LIMIT = 2048
# After the budget, schemathesis gets this long to finish its reports after SIGINT.
STOP_GRACE_S = 15.0

CONFIG_TOML = """\
# Written by the runner for one fuzz run: no state carried from one run to the next.
[cache]
enabled = false
"""


# -- what a run found --------------------------------------------------------------------------

@dataclass
class Request:
    """One HTTP request as it was sent: enough to send it again."""

    method: str
    path: str  # path and query, as sent (percent-encoded)
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    # Where the body was also written, for bodies too long to read on a command line.
    body_file: Path | None = field(default=None, compare=False)

    @classmethod
    def from_url(cls, method: str, url: str, headers: dict[str, str] | None = None,
                 body: bytes | None = None) -> Request:
        parts = urlsplit(url)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return cls(method=method, path=path, headers=dict(headers or {}), body=body)

    def curl(self, base_url: str) -> str:
        """A bash command that sends this request again and shows the answer."""
        argv = ["curl", "-sS", "-i"]
        if self.method.upper() == "HEAD":
            argv.append("--head")
        elif self.method.upper() != "GET" or self.body is not None:
            argv += ["-X", self.method]
        words = [shlex.join(argv)]
        for name, value in self.headers.items():
            words.append("-H " + _shell_quote(f"{name}: {value}".encode()))
        if self.body is not None and not any(n.lower() == "content-type" for n in self.headers):
            words.append("-H 'Content-Type:'")  # sent without one: stop curl adding its form type
        if self.body is not None:
            if self.body_file is not None:
                words.append("--data-binary " + shlex.quote(f"@{self.body_file}"))
            elif b"\0" in self.body:
                # bash cannot hold a NUL byte in a word; printf can write one.
                words.append("--data-binary @<(printf %b " + shlex.quote(_printf_escape(self.body)) + ")")
            else:
                words.append("--data-binary " + _shell_quote(self.body))
        words.append(shlex.quote(base_url.rstrip("/") + self.path))
        return " ".join(words)

    def describe(self) -> str:
        return f"{self.method} {self.path}"


@dataclass
class Finding:
    """One distinct failure: what went wrong and a request that shows it."""

    operation: str  # "POST /items", as the spec names it
    # a schemathesis check, or "request_timeout", "connection_error", "server_unavailable",
    # "fuzzer_crash", "error"
    check: str
    title: str
    message: str
    request: Request | None = None
    status: int | None = None  # of the response, when there was one
    response_body: str | None = None  # the start of it
    phase: str | None = None
    # Requests of the same stateful scenario that came before the failing one, oldest first.
    steps: list[Request] = field(default_factory=list)
    occurrences: int = 1

    def key(self) -> tuple[str, str, str, str]:
        return (self.operation, self.check, self.title, _normalise(self.message))

    def render(self, base_url: str) -> str:
        """Several lines: what failed, then the curl command(s) that reproduce it."""
        times = f" ({self.occurrences}×)" if self.occurrences > 1 else ""
        lines = [f"{self.operation} · {self.check}: {self.title}{times}"]
        lines += [f"    {line}" for line in self.message.strip().splitlines()[:12] if line.strip()]
        if self.status is not None:
            answer = f"    answered {self.status}"
            if self.response_body:
                answer += ": " + _one_line(self.response_body, 300)
            lines.append(answer)
        for step in self.steps:
            lines.append("    after: " + step.curl(base_url))
        if self.request is not None:
            lines.append("    reproduce: " + self.request.curl(base_url))
        return "\n".join(lines)


@dataclass
class FuzzResult:
    ok: bool
    cases: int  # requests sent and answered or timed out
    failures: list[Finding]
    base_url: str = ""
    stop_reason: str = "completed"  # completed, budget (wall time spent), server_unavailable, error, …
    seed: str | None = None
    elapsed_s: float = 0.0
    log: Path | None = None
    report: Path | None = None  # the NDJSON events
    operations: int = 0  # operations that got at least one request
    exit_code: int | None = None

    @property
    def fuzzer_crashed(self) -> bool:
        """Failed only because schemathesis crashed: it says nothing about the stack either way."""
        return bool(self.failures) and all(f.check == "fuzzer_crash" for f in self.failures)

    def summary(self) -> str:
        verdict = "ok" if self.ok else f"{len(self.failures)} failure(s)"
        budget = ", stopped at the time budget" if self.stop_reason == "budget" else ""
        return f"{verdict}: {self.cases} requests in {self.elapsed_s:.0f} s{budget}"

    def render(self) -> str:
        head = self.summary() + (f" (seed {self.seed})" if self.seed else "")
        return "\n".join([head, *(f.render(self.base_url) for f in self.failures)])


def aggregate(findings: Iterable[Finding]) -> list[Finding]:
    """Distinct findings in the order first seen, each with how often it recurred.

    Two findings are the same when operation, check, title and message agree once numbers and
    quoted values are taken out of the message (a 500 on every id is one bug, not fifty).
    The request kept is the shortest of those that showed it.
    """
    merged: dict[tuple[str, str, str, str], Finding] = {}
    for finding in findings:
        key = finding.key()
        seen = merged.get(key)
        if seen is None:
            merged[key] = finding
            continue
        seen.occurrences += finding.occurrences
        if finding.request is not None and (seen.request is None or _size(finding) < _size(seen)):
            finding.occurrences = seen.occurrences
            merged[key] = finding
    return list(merged.values())


def _size(finding: Finding) -> int:
    request = finding.request
    if request is None:
        return 1 << 62
    return len(request.path) + len(request.body or b"") + len(finding.steps) * 1000


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|-?\d+(\.\d+)?(e[+-]?\d+)?", re.IGNORECASE)


def _normalise(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else ""
    return _QUOTED.sub("…", first)


# -- reading schemathesis's NDJSON report ------------------------------------------------------

@dataclass
class _Parsed:
    findings: list[Finding] = field(default_factory=list)
    cases: int = 0
    operations: set[str] = field(default_factory=set)
    stop_reason: str | None = None
    seed: str | None = None
    errors: list[Finding] = field(default_factory=list)


def read_events(report: Path) -> Iterator[tuple[str, dict]]:
    """(event name, payload) for each complete line; a line cut short by a kill is skipped."""
    try:
        handle = open(report, encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return
    with handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and len(record) == 1:
                (name, payload), = record.items()
                if isinstance(payload, dict):
                    yield name, payload


def parse_report(report: Path) -> _Parsed:
    parsed = _Parsed()
    for name, event in read_events(report):
        if name == "Initialize":
            seed = event.get("seed")
            parsed.seed = None if seed is None else str(seed)
        elif name == "ScenarioFinished":
            _read_scenario(event, parsed)
        elif name == "NonFatalError":
            parsed.errors.append(_read_error(event))
        elif name == "FatalError":
            exc = event.get("exception") or {}
            parsed.errors.append(Finding("(run)", "error", "schemathesis failed",
                                         f"{exc.get('type', '')}: {exc.get('message', '')}".strip(": ")))
        elif name == "EngineFinished":
            parsed.stop_reason = event.get("stop_reason") or "completed"
            for failure in event.get("failures") or []:  # checks that run once after the run
                if isinstance(failure, dict):
                    parsed.findings.append(Finding(failure.get("operation") or "(run)", str(failure.get("type", "check")),
                                                   failure.get("title") or "failure", failure.get("message") or ""))
    return parsed


def _decode_body(raw) -> bytes | None:
    if raw is None:
        return None
    if isinstance(raw, dict) and "$base64" in raw:
        return base64.b64decode(raw["$base64"])
    if isinstance(raw, str):
        return raw.encode()
    return json.dumps(raw).encode()


def _request(interaction: dict | None) -> Request | None:
    if not interaction or not isinstance(interaction.get("request"), dict):
        return None
    sent = interaction["request"]
    headers = {}
    for header, value in (sent.get("headers") or {}).items():
        headers[header] = value[0] if isinstance(value, list) and value else str(value)
    return Request.from_url(sent.get("method", "GET"), sent.get("uri", "/"), headers, _decode_body(sent.get("body")))


def _response(interaction: dict | None) -> tuple[int | None, str | None]:
    response = (interaction or {}).get("response")
    if not isinstance(response, dict):
        return None, None
    body = _decode_body(response.get("content"))
    text = body.decode("utf-8", errors="replace")[:2000] if body else None
    return response.get("status_code"), text


def _chain(cases: dict, interactions: dict, case_id: str) -> list[Request]:
    """The requests of the scenario's earlier steps that led to `case_id`, oldest first."""
    steps: list[Request] = []
    seen = {case_id}
    parent = (cases.get(case_id) or {}).get("parent_id")
    while parent and parent not in seen:
        seen.add(parent)
        request = _request(interactions.get(parent))
        if request is not None:
            steps.append(request)
        parent = (cases.get(parent) or {}).get("parent_id")
    return list(reversed(steps))


def _read_scenario(event: dict, parsed: _Parsed) -> None:
    recorder = event.get("recorder") or {}
    label = recorder.get("label") or "?"
    cases = recorder.get("cases") or {}
    checks = recorder.get("checks") or {}
    interactions = recorder.get("interactions") or {}
    phase = event.get("phase")
    if interactions and re.match(r"[A-Z]+ /", label):
        parsed.operations.add(label)
    parsed.cases += len(interactions)
    failed_ids = set()
    for case_id, results in checks.items():
        failed = [c for c in results or [] if isinstance(c, dict) and c.get("status") == "failure"]
        if any(c.get("name") == "not_a_server_error" for c in failed):
            # A 5xx is also an undocumented status: one bug, reported once.
            failed = [c for c in failed if c.get("name") != "status_code_conformance"]
        for check in failed:
            failure = (check.get("failure_info") or {}).get("failure") or {}
            failed_ids.add(case_id)
            interaction = interactions.get(failure.get("case_id") or case_id) or interactions.get(case_id)
            status, body = _response(interaction)
            parsed.findings.append(Finding(
                operation=failure.get("operation") or _operation_of(cases, case_id, label),
                check=check.get("name") or failure.get("type") or "check",
                title=failure.get("title") or "check failed",
                message=failure.get("message") or "",
                request=_request(interaction),
                status=status,
                response_body=body,
                phase=phase,
                steps=_chain(cases, interactions, case_id),
            ))
    for case_id, interaction in interactions.items():
        if case_id in failed_ids or not isinstance(interaction, dict) or interaction.get("response") is not None:
            continue
        # Sent, never answered: a timeout or a dropped connection. The matching NonFatalError
        # (when schemathesis raised one) says which; this keeps the request.
        parsed.findings.append(Finding(
            operation=_operation_of(cases, case_id, label), check="no_response",
            title="no response", message="the request got no response",
            request=_request(interaction), phase=phase, steps=_chain(cases, interactions, case_id)))


def _operation_of(cases: dict, case_id: str, label: str) -> str:
    value = (cases.get(case_id) or {}).get("value") or {}
    method, path = value.get("method"), value.get("path")
    return f"{method} {path}" if method and path else label


_TIMEOUT = re.compile(r"timeout|timed out", re.IGNORECASE)

# Errors raised inside the fuzzer's own Python, whatever the stack answered: CI once saw
# "SystemError: AST constructor recursion depth mismatch" from Python 3.11's ast module, which
# python/cpython#106905 describes as spurious, seen rarely and in threaded programs
# (schemathesis runs its phases in threads).
FUZZER_CRASHES = frozenset({"SystemError"})


def _read_error(event: dict) -> Finding:
    value = event.get("value") or {}
    kind = str(value.get("type") or "Error")
    message = str(value.get("message") or "")
    label = event.get("label") or "(run)"
    if _TIMEOUT.search(kind) or _TIMEOUT.search(message):
        check, title = "request_timeout", "no response within the request timeout (a hang)"
    elif "Connection" in kind:
        check, title = "connection_error", "the connection failed or was dropped"
    elif kind in FUZZER_CRASHES:
        check, title = "fuzzer_crash", f"schemathesis itself crashed ({kind}), not on an answer of the stack"
    else:
        check, title = "error", f"schemathesis could not test this ({kind})"
    return Finding(operation=label, check=check, title=title, message=message, phase=event.get("phase"))


def _merge_errors(parsed: _Parsed) -> list[Finding]:
    """Findings plus errors; requests that got no answer are folded into the timeout or
    connection error schemathesis raised for their operation (the shortest one kept)."""
    unanswered = [f for f in parsed.findings if f.check == "no_response"]
    findings = [f for f in parsed.findings if f.check != "no_response"]
    for error in parsed.errors:
        if error.check in ("request_timeout", "connection_error"):
            mine = [f for f in unanswered if f.operation == error.operation]
            if mine:
                shortest = min(mine, key=_size)
                error.request, error.steps, error.occurrences = shortest.request, shortest.steps, len(mine)
                unanswered = [f for f in unanswered if f.operation != error.operation]
        findings.append(error)
    for left in unanswered:
        left.check, left.title = "request_timeout", "no response (a hang or a dropped connection)"
        findings.append(left)
    return findings


# -- running it --------------------------------------------------------------------------------

def st_command(base_url: str, *, spec: Path, report: Path, config: Path, max_examples: int,
               max_time_s: int, request_timeout_s: float, checks: Iterable[str], phases: Iterable[str],
               seed: int | None, workers: int) -> list[str]:
    command = [
        sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "--no-color",
        "run", str(spec),
        "--url", base_url,
        "--checks", ",".join(checks),
        "--phases", ",".join(phases),
        "--max-examples", str(max_examples),
        "--max-time", str(max_time_s),
        "--request-timeout", f"{request_timeout_s:g}",
        # Never follow a redirect: /avatar points at a host outside this machine.
        "--max-redirects", "0",
        "--workers", str(workers),
        "--continue-on-failure",
        "--suppress-health-check", "all",
        "--generation-database", "none",
        "--output-sanitize", "false",
        "--report", "ndjson",
        "--report-ndjson-path", str(report),
        "--warnings", "off",
    ]
    if seed is not None:
        command += ["--seed", str(seed)]
    return command


def fuzz_stack(base_url: str, *, max_examples: int, seconds: float, log: Path, spec: Path = SPEC,
               request_timeout_s: float = REQUEST_TIMEOUT_S, checks: Iterable[str] = CHECKS,
               phases: Iterable[str] = PHASES, seed: int | None = None, workers: int = 1) -> FuzzResult:
    """Fuzzes the stack at `base_url` with every operation of `spec` and returns what failed.

    Bounds: at most `max_examples` generated cases per operation and phase, one pass through
    the phases, and `seconds` of testing. schemathesis keeps the time budget itself (split
    between operations, each scenario finishing with what it found); left alone it would spend
    the rest of the budget on further fuzzing and stateful passes, so the run is stopped when a
    second pass starts. Loading the spec and winding down come on top of `seconds` (a few
    seconds); past `seconds` + `request_timeout_s` + STOP_GRACE_S it is interrupted regardless.

    Writes schemathesis's console output to `log`, its NDJSON events beside it (`.ndjson`), the
    distinct failures with curl commands to `.failures.txt`, and request bodies too long for a
    command line to `.bodies/`. Everything it starts is stopped before it returns, also on
    Ctrl-C.
    """
    phases = tuple(phases)
    log.parent.mkdir(parents=True, exist_ok=True)
    report = log.with_suffix(".ndjson")
    report.unlink(missing_ok=True)
    started = time.monotonic()
    hard_deadline = started + seconds + request_timeout_s + STOP_GRACE_S
    ended_by_us: str | None = None
    with tempfile.TemporaryDirectory(prefix="bench-fuzz-") as work:
        # schemathesis keeps state in the working directory (.schemathesis): a fresh one per
        # run keeps runs independent and leaves nothing behind.
        config = Path(work) / "schemathesis.toml"
        config.write_text(CONFIG_TOML)
        command = st_command(base_url, spec=spec, report=report, config=config, max_examples=max_examples,
                             max_time_s=max(1, int(seconds)), request_timeout_s=request_timeout_s,
                             checks=checks, phases=phases, seed=seed, workers=workers)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", NO_COLOR="1", COLUMNS="120",
                   # Loopback only: no proxy between schemathesis and the stack.
                   NO_PROXY="*", no_proxy="*",
                   # Hypothesis caches its Unicode tables there (seconds to rebuild on every run);
                   # its example database is off (--generation-database none).
                   HYPOTHESIS_STORAGE_DIRECTORY=str(paths.HOME / "hypothesis"))
        proc = procs.spawn("exec " + shlex.join(command), cwd=Path(work), env=env, log=log)
        watcher = _PassWatcher(report, [p for p in phases if p in ELASTIC_PHASES])
        try:
            while proc.poll() is None:
                if watcher.second_pass_started():
                    ended_by_us = "pass"
                elif time.monotonic() > hard_deadline:
                    ended_by_us = "budget"
                if ended_by_us:
                    _interrupt(proc)
                    break
                time.sleep(0.1)
        finally:
            code = procs.stop(proc)
    parsed = parse_report(report)
    findings = aggregate(_merge_errors(parsed))
    stop_reason = parsed.stop_reason or "error"
    if ended_by_us == "pass":
        stop_reason = "completed"
    elif ended_by_us == "budget" or stop_reason == "max_time":
        stop_reason = "budget"
    elif parsed.stop_reason is None or code not in (0, 1):
        # No EngineFinished, or st failed before or around the run: say why, from its output.
        findings.append(Finding("(run)", "error", f"schemathesis exited with code {code} without finishing",
                                procs.tail(log, 15)))
        stop_reason = "error"
    if stop_reason == "server_unavailable":
        findings.append(Finding("(run)", "server_unavailable", "the server stopped answering",
                                "schemathesis stopped: connections were refused or reset"))
    elif parsed.cases == 0 and stop_reason != "error":
        # A pass that sent nothing proves nothing.
        findings.append(Finding("(run)", "error", "no request was sent",
                                f"schemathesis stopped ({stop_reason}) before testing any operation; "
                                f"see {log}"))
    if ended_by_us:
        with open(log, "a") as handle:
            handle.write("\nbench: " + ("interrupted schemathesis as it began a second pass: one pass is the budget"
                                        if ended_by_us == "pass" else
                                        f"interrupted schemathesis past its time budget ({seconds:g} s)") + "\n")
    result = FuzzResult(ok=not findings, cases=parsed.cases, failures=findings, base_url=base_url,
                        stop_reason=stop_reason, seed=parsed.seed, elapsed_s=time.monotonic() - started,
                        log=log, report=report, operations=len(parsed.operations), exit_code=code)
    _write_failures(result, log)
    return result


ELASTIC_PHASES = ("fuzzing", "stateful")  # the phases schemathesis repeats while time is left


class _PassWatcher:
    """Follows the NDJSON report as it is written and tells when a second pass starts: a
    PhaseStarted of a repeating phase that has already finished once."""

    def __init__(self, report: Path, elastic: list[str]) -> None:
        self.report = report
        self.elastic = set(elastic)
        self.offset = 0
        self.partial = b""
        self.finished: set[str] = set()

    def second_pass_started(self) -> bool:
        try:
            with open(self.report, "rb") as handle:
                handle.seek(self.offset)
                chunk = handle.read()
        except FileNotFoundError:
            return False
        self.offset += len(chunk)
        lines = (self.partial + chunk).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            # Only the small phase events are parsed; scenario lines can be megabytes.
            if not line.startswith((b'{"PhaseStarted"', b'{"PhaseFinished"')):
                continue
            try:
                (kind, event), = json.loads(line).items()
                name = event["phase"]["name"]
            except (ValueError, KeyError, TypeError):
                continue
            if name not in self.elastic:
                continue
            if kind == "PhaseFinished":
                self.finished.add(name)
            elif name in self.finished:
                return True
        return False


def _interrupt(proc: subprocess.Popen) -> None:
    """SIGINT, as Ctrl-C: schemathesis finishes its reports and exits; killed if it does not."""
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except (ProcessLookupError, PermissionError):
        return
    try:
        proc.wait(timeout=STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        pass


def _write_failures(result: FuzzResult, log: Path) -> None:
    """Writes `.failures.txt`, and the bodies too long for a command line to `.bodies/`."""
    bodies = log.with_suffix(".bodies")
    if bodies.exists():
        for old in bodies.iterdir():
            old.unlink()
    number = 0
    for finding in result.failures:
        for request in [*finding.steps, *([finding.request] if finding.request else [])]:
            if request.body is not None and len(request.body) > INLINE_BODY_LIMIT:
                number += 1
                bodies.mkdir(parents=True, exist_ok=True)
                request.body_file = bodies / f"{number:03d}.body"
                request.body_file.write_bytes(request.body)
    log.with_suffix(".failures.txt").write_text(result.render() + "\n")


# -- shell quoting -----------------------------------------------------------------------------

_PLAIN = re.compile(rb"^[\x20-\x7e\t\n]*$")


def _shell_quote(data: bytes) -> str:
    """A bash word that is exactly `data` (no NUL): plain quoting when printable, else $'…'."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and (_PLAIN.match(data) or all(ch.isprintable() or ch in "\t\n" for ch in text)):
        return shlex.quote(text)
    out = []
    for byte in data:
        char = chr(byte)
        if char == "\\":
            out.append("\\\\")
        elif char == "'":
            out.append("\\'")
        elif 0x20 <= byte < 0x7f:
            out.append(char)
        else:
            out.append(f"\\x{byte:02x}")
    return "$'" + "".join(out) + "'"


def _printf_escape(data: bytes) -> str:
    """`data` for printf's %b: printable ASCII as is, every other byte as a 3-digit octal escape."""
    out = []
    for byte in data:
        if byte == 0x5C:
            out.append("\\\\")
        elif 0x20 <= byte < 0x7F:
            out.append(chr(byte))
        else:
            out.append(f"\\0{byte:03o}")
    return "".join(out)


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "…"
