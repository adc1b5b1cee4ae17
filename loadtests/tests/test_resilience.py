"""The resilience case of `./bench test` (bench.testing.resilience): its judgements on synthetic
readings, and its clients against tiny local servers. No assertion here depends on how fast a
busy machine runs: the servers close on what they read, not on a clock, and every time limit is
far beyond what a test needs."""

import asyncio
import contextlib
import json
import resource
import shlex
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench import paths, procs, tools
from bench.errors import BenchError
from bench.measure.host import cgroups
from bench.testing import StackResult, prefetch
from bench.testing.prefetch import Prefetch
from bench.testing.resilience import burst as burst_client
from bench.testing.resilience import clients, step, verdict
from bench.testing.resilience.verdict import (
    BODY_WRITE_ERROR,
    Burst,
    Health,
    Ordinary,
    Oversized,
    Slow,
    SlowConnection,
    judge_burst,
    judge_oversized,
    judge_slow,
)

MIB = 1 << 20
WELL = Health(alive=True, oom_kills=0, peak_bytes=200 * MIB)


def burst(statuses, errors=None, *, size=None, health=WELL, serves_again_s=0.1):
    errors = errors or {}
    total = size if size is not None else sum(statuses.values()) + sum(errors.values())
    return Burst(total, statuses, errors, 3.0, health, serves_again_s)


# -- the bursts -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dialect, statuses",
    [
        ("api", {422: 1000}),
        ("api", {422: 600, 503: 400}),
        ("api", {503: 1000}),
        ("hal", {400: 1000}),
        ("hal", {400: 10, 503: 990}),
    ],
)
def test_a_burst_answered_by_the_field_rule_or_503_passes(dialect, statuses):
    assert judge_burst(burst(statuses), dialect=dialect, cap_mib=512) == []


@pytest.mark.parametrize(
    "dialect, statuses, named",
    [
        ("api", {422: 990, 500: 10}, "500 × 10"),
        # A body under the limit is no 413, whatever the load.
        ("api", {422: 999, 413: 1}, "413 × 1"),
        ("api", {400: 1000}, "400 × 1,000"),
        ("hal", {422: 1000}, "422 × 1,000"),
        ("api", {422: 999, 408: 1}, "408 × 1"),
    ],
)
def test_any_other_status_fails_a_burst(dialect, statuses, named):
    [problem] = judge_burst(burst(statuses), dialect=dialect, cap_mib=512)
    assert named in problem and problem.startswith(f"burst of {sum(statuses.values()):,}: answered")


def test_write_errors_are_excused_up_to_the_503s_that_may_have_closed_them():
    assert judge_burst(burst({422: 500, 503: 499}, {BODY_WRITE_ERROR: 1}), dialect="api", cap_mib=512) == []
    assert judge_burst(burst({503: 2}, {BODY_WRITE_ERROR: 2}), dialect="api", cap_mib=512) == []
    [problem] = judge_burst(burst({422: 997, 503: 1}, {BODY_WRITE_ERROR: 2}), dialect="api", cap_mib=512)
    assert "2 connections closed while their body was sent, more than the 1 503s" in problem
    # Without a single 503, no closed connection was a 503's.
    [problem] = judge_burst(burst({422: 999}, {BODY_WRITE_ERROR: 1}), dialect="api", cap_mib=512)
    assert "more than the 0 503s" in problem


@pytest.mark.parametrize(
    "error",
    ["closed without an answer", "reset without an answer", "no answer in time", "connection refused"],
)
def test_other_transport_errors_fail_a_burst_even_beside_503s(error):
    [problem] = judge_burst(burst({503: 990}, {error: 10}), dialect="api", cap_mib=512)
    assert problem == f"burst of 1,000: {error} × 10"


def test_the_kernels_listen_queues_are_named_beside_transport_errors():
    kernel = {"ListenOverflows": 897, "SyncookiesFailed": 41}
    reset = Burst(1000, {422: 959}, {BODY_WRITE_ERROR: 41}, 6.3, WELL, 0.3, kernel)
    assert judge_burst(reset, dialect="api", cap_mib=512)[-1] == (
        "burst of 1,000: meanwhile the kernel, machine-wide: listen-queue overflows 897, "
        "failed SYN cookies (each a reset) 41"
    )
    # Without errors, what the rest of the machine did is nobody's business.
    assert judge_burst(Burst(1000, {422: 1000}, {}, 6.3, WELL, 0.3, kernel), dialect="api", cap_mib=512) == []


def test_the_kernels_counters_are_read_from_netstat(tmp_path):
    netstat = tmp_path / "netstat"
    netstat.write_text(
        "TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed ListenOverflows ListenDrops\n"
        "TcpExt: 10 20 3 40 40\n"
        "IpExt: InNoRoutes\n"
        "IpExt: 0\n"
    )
    assert verdict.kernel_counters(netstat) == {"ListenOverflows": 40, "SyncookiesFailed": 3}
    assert verdict.kernel_counters(tmp_path / "missing") == {}


def test_requests_the_burst_client_did_not_account_for_fail_a_burst():
    [problem] = judge_burst(burst({422: 900}, size=1000), dialect="api", cap_mib=512)
    assert problem == "burst of 1,000: the burst client accounted for 900 of 1,000 requests"


def test_an_oom_kill_fails_a_burst_and_comes_first():
    killed = Health(alive=False, oom_kills=1, peak_bytes=512 * MIB, exit_code=-9)
    problems = judge_burst(burst({422: 40}, {"connection error": 960}, health=killed), dialect="api", cap_mib=512)
    assert problems[:2] == [
        "burst of 1,000: OOM-killed 1 time(s) at its 512 MiB cap",
        "burst of 1,000: the process died (exit -9)",
    ]
    # A dead process is not also said not to serve again.
    assert len(problems) == 3 and "connection error" in problems[2]


def test_an_oom_kill_the_process_survived_fails_a_burst():
    survived = Health(alive=True, oom_kills=2, peak_bytes=512 * MIB)
    assert judge_burst(burst({422: 1000}, health=survived), dialect="api", cap_mib=512) == [
        "burst of 1,000: OOM-killed 2 time(s) at its 512 MiB cap"
    ]


def test_a_stack_that_does_not_serve_again_after_a_burst_fails_it():
    assert judge_burst(burst({503: 1000}, serves_again_s=None), dialect="api", cap_mib=512) == [
        "burst of 1,000: /health and /items/1 not both 200 within 5 s after it"
    ]


def test_the_burst_clients_output_is_read(tmp_path):
    output = tmp_path / "burst.json"
    output.write_text(
        json.dumps({"statuses": {"422": 3990, "503": 5}, "errors": {BODY_WRITE_ERROR: 5}, "seconds": 4.25})
    )
    assert verdict.read_burst(output) == ({422: 3990, 503: 5}, {BODY_WRITE_ERROR: 5}, 4.25)
    output.write_text("{}")
    assert verdict.read_burst(output) == ({}, {}, None)
    output.write_text("not json")
    with pytest.raises(BenchError, match="could not be read"):
        verdict.read_burst(output)


def test_a_burst_is_one_burst_client_run_in_the_load_generators_group(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "LOGS", tmp_path)
    (tmp_path / "resilience").mkdir()
    commands: list[str] = []

    def run(command, **kwargs):
        commands.append(command)
        words = shlex.split(command.split("exec ", 1)[1])
        output = next(w.split("=", 1)[1] for w in words if w.startswith("--output="))
        Path(output).write_text(json.dumps({"statuses": {"422": 990, "503": 10}, "errors": {}, "seconds": 2.0}))
        return 0

    monkeypatch.setattr(procs, "run", run)
    monkeypatch.setattr(step, "_serves_again", lambda running: 0.3)
    readings = iter([{"ListenOverflows": 5, "SyncookiesFailed": 0}, {"ListenOverflows": 9, "SyncookiesFailed": 0}] * 2)
    monkeypatch.setattr(step, "kernel_counters", lambda: next(readings))
    loadgen = cgroups.Group("v1", tmp_path / "cgroup", "bench-1/loadgen")
    running = SimpleNamespace(base_url="http://127.0.0.1:9", alive=lambda: True)
    body = tmp_path / "body.json"
    result = step._burst(_Stack(), running, loadgen, body, 1000, lambda: WELL)  # type: ignore[arg-type]
    [command] = commands
    assert command.startswith(loadgen.shell_prefix() + "exec ")
    words = shlex.split(command.split("exec ", 1)[1])
    assert words[1:3] == ["-m", "bench.testing.resilience.burst"]
    assert {"--host=127.0.0.1", "--port=9", f"--body={body}", "--size=1000", "--limit-s=60"} <= set(words)
    assert result == Burst(1000, {422: 990, 503: 10}, {}, 2.0, WELL, 0.3, {"ListenOverflows": 4, "SyncookiesFailed": 0})
    monkeypatch.setattr(procs, "run", lambda command, **kwargs: 124)
    with pytest.raises(BenchError, match="the burst client failed \\(exit 124\\) on the burst of 1,000"):
        step._burst(_Stack(), running, loadgen, body, 1000, lambda: WELL)  # type: ignore[arg-type]


def _burst_against(handle, *, size=3, body=b"x" * MIB, limit_s=60.0):
    async def main():
        server, port = await _serve(handle)
        async with server:
            return await burst_client.burst("127.0.0.1", port, "/items", body, size, limit_s)

    return asyncio.run(main())


def test_the_burst_client_counts_the_answers_of_a_server_that_reads_each_body():
    async def reads_all(reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        await reader.readexactly(_length(head))
        writer.write(b"HTTP/1.1 422 Unprocessable Content\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    assert _burst_against(reads_all, size=20) == {422: 20}


def test_a_503_sent_before_the_body_is_read_is_heard_or_excused():
    async def refuses(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.transport.abort()  # the unread body: a reset, which may discard the 503

    outcomes = _burst_against(refuses, size=20, body=b"x" * (8 * MIB))
    assert set(outcomes) <= {503, BODY_WRITE_ERROR} and sum(outcomes.values()) == 20


def test_a_connection_closed_after_its_body_without_an_answer_says_so():
    async def reads_and_closes(reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        await reader.readexactly(_length(head))
        writer.close()

    assert _burst_against(reads_and_closes) == {burst_client.CLOSED_UNANSWERED: 3}


def test_a_server_that_never_answers_runs_out_the_clients_time():
    async def silent(reader, writer):
        await reader.read()

    assert _burst_against(silent, size=2, body=b"{}", limit_s=0.5) == {burst_client.NO_ANSWER_IN_TIME: 2}


def test_nothing_listening_is_a_refused_connection():
    async def main():
        server, port = await _serve(lambda reader, writer: None)
        server.close()
        await server.wait_closed()
        return await burst_client.burst("127.0.0.1", port, "/items", b"{}", 2, 5.0)

    assert asyncio.run(main()) == {burst_client.CONNECT_REFUSED: 2}


def test_every_client_sends_a_piece_in_turn_so_every_head_goes_out_first():
    sent: list[tuple[int, int]] = []

    class Loop:
        async def sock_sendall(self, sock, data):
            sent.append((sock, len(data)))

    async def main():
        request = memoryview(b"h" * (burst_client.SEND_PIECE * 2 + 1))
        await asyncio.gather(*(burst_client._send(Loop(), sock, request) for sock in (1, 2, 3)))  # type: ignore[arg-type]

    asyncio.run(main())
    piece = burst_client.SEND_PIECE
    assert sent == [(1, piece), (2, piece), (3, piece), (1, piece), (2, piece), (3, piece), (1, 1), (2, 1), (3, 1)]


@pytest.mark.parametrize(
    "received, status",
    [
        (b"HTTP/1.1 422 Unprocessable Content\r\n", 422),
        (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Service Unavailable\r\n", 503),
        (b"HTTP/1.1 100 Continue\r\n\r\n", None),
        (b"HTTP/1.1 42", None),
        (b"garbage\r\n", None),
    ],
)
def test_the_status_is_the_final_one(received, status):
    assert burst_client.status_of(received) == status


def test_the_figures_of_the_bursts():
    bursts = [
        burst({422: 1000}, health=Health(True, 0, 100 * MIB)),
        burst({422: 1500, 503: 500}, health=Health(True, 0, 300 * MIB)),
    ]
    assert verdict.bursts_figures(bursts) == "bursts 1,000/2,000: 422 × 2,500, 503 × 500, peak 300 MiB"


# -- the oversized body ---------------------------------------------------------------------------


def oversized(status, error=""):
    return Oversized(status, error, MIB, 0.1, WELL)


def test_the_oversized_body_must_be_413():
    assert judge_oversized(oversized(413), cap_mib=512) == []
    assert judge_oversized(oversized(400), cap_mib=512) == ["64 MiB body: answered 400, not 413"]
    assert judge_oversized(oversized(None, "connection closed without an answer"), cap_mib=512) == [
        "64 MiB body: connection closed without an answer"
    ]
    dead = Oversized(None, "connection closed without an answer", MIB, 0.1, Health(False, 1, 512 * MIB))
    assert judge_oversized(dead, cap_mib=512)[:2] == [
        "64 MiB body: OOM-killed 1 time(s) at its 512 MiB cap",
        "64 MiB body: the process died",
    ]


# -- the slow clients, judged ---------------------------------------------------------------------


def slow(closed_after, ordinary=None, *, answer=None, connected=True, health=WELL):
    connections = [SlowConnection(connected, t if connected else None, answer) for t in closed_after]
    ordinary = ordinary if ordinary is not None else [Ordinary("/items/1", 200, 0.02), Ordinary("/health", 200, 0.01)]
    return Slow(connections, ordinary, 11.0, health)


def test_slow_connections_closed_within_the_limit_pass():
    assert judge_slow(slow([9.99, 10.0, 10.4, 11.5]), cap_mib=512) == []
    # Closed early (a timeout between reads shorter than 5 s) is within the limit too.
    assert judge_slow(slow([4.0, 4.1]), cap_mib=512) == []
    assert judge_slow(slow([10.1], answer=408), cap_mib=512) == []


def test_a_slow_connection_closed_late_fails():
    assert judge_slow(slow([10.0, 11.6, 20.25]), cap_mib=512) == [
        "2 slow connections closed later than 11.5 s after their first byte (the last after 20.2 s)"
    ]


def test_a_slow_connection_never_closed_fails():
    assert judge_slow(slow([10.0, None, None]), cap_mib=512) == ["2 of 3 slow connections still open after 11 s"]


def test_a_slow_connection_never_accepted_fails():
    outcome = slow([10.0, 10.0])
    outcome.connections.append(SlowConnection(False, None))
    assert judge_slow(outcome, cap_mib=512) == ["1 of 3 slow connections not accepted"]


def test_a_slow_connection_answered_other_than_408_fails():
    assert judge_slow(slow([10.0], answer=400), cap_mib=512) == [
        "slow connections answered 400 × 1 (a 408 or no answer is allowed)"
    ]


def test_the_margin_is_a_parameter():
    assert judge_slow(slow([1.2]), cap_mib=512, close_limit_s=1.0) != []
    assert judge_slow(slow([1.2]), cap_mib=512, close_limit_s=1.5) == []


@pytest.mark.parametrize(
    "request_, said",
    [
        (Ordinary("/items/1", 200, 2.5), "GET /items/1: 200 after 2.5 s"),
        (Ordinary("/health", 503, 0.1), "GET /health: 503 after 0.1 s"),
        (Ordinary("/items/1", None, 2.0, "no answer within 2 s"), "GET /items/1: no answer within 2 s after 2.0 s"),
    ],
)
def test_an_ordinary_request_not_200_within_2_s_fails(request_, said):
    ordinary = [Ordinary("/items/1", 200, 0.05), request_]
    [problem] = judge_slow(slow([10.0], ordinary), cap_mib=512)
    assert problem == f"1 of 2 ordinary requests not 200 within 2 s ({said})"


def test_a_process_killed_during_the_slow_clients_fails_first():
    problems = judge_slow(slow([10.0, None], health=Health(False, 1, None)), cap_mib=512)
    assert problems[:2] == ["slow clients: OOM-killed 1 time(s) at its 512 MiB cap", "slow clients: the process died"]


# -- the clients against tiny servers -------------------------------------------------------------


async def _serve(handle):
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def _ordinary_answer(writer, status=200):
    writer.write(f"HTTP/1.1 {status} X\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}".encode())


class HeaderCloser:
    """Answers a request whose headers end at once; closes a slow one after it has read `lines`
    more header lines, with a 408 first when asked: closed on what it read, not on a clock."""

    def __init__(self, lines, answer_408=False):
        self.lines, self.answer_408 = lines, answer_408
        self.slow_lines: list[int] = []

    async def __call__(self, reader, writer):
        try:
            await reader.readline()  # the request line
            await reader.readline()  # Host
            extra = 0
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b""):
                    if line:
                        _ordinary_answer(writer)
                        await writer.drain()
                    return
                extra += 1
                if extra == self.lines:
                    self.slow_lines.append(extra)
                    if self.answer_408:
                        writer.write(b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
                        await writer.drain()
                    return
        finally:
            writer.close()


@pytest.mark.parametrize("answer_408", [False, True])
def test_slow_clients_send_header_lines_until_the_server_closes(answer_408):
    closer = HeaderCloser(lines=3, answer_408=answer_408)

    async def main():
        server, port = await _serve(closer)
        async with server:
            return await clients.slow_clients(
                "127.0.0.1",
                port,
                connections=20,
                line_every_s=0.05,
                hold_s=60,
                connect_s=30,
                ordinary_every_s=0.05,
                ordinary_limit_s=30,
            )

    outcome = asyncio.run(main())
    # Every connection was held until the server closed it on its third line, long before the hold.
    assert closer.slow_lines == [3] * 20
    assert all(c.connected and c.closed_after_s is not None for c in outcome.connections)
    assert {c.answer for c in outcome.connections} == {408 if answer_408 else None}
    assert outcome.held_s < 60
    # The ordinary requests went on meanwhile, each path every interval, and were answered.
    assert {o.path for o in outcome.ordinary} == {"/items/1", "/health"}
    assert {o.status for o in outcome.ordinary} == {200}
    assert judge_slow(outcome, cap_mib=512, close_limit_s=60, ordinary_limit_s=30) == []


def test_a_slow_connection_the_server_keeps_is_still_open_at_the_end_of_the_hold():
    async def never_closes(reader, writer):
        with contextlib.suppress(ConnectionError):
            while await reader.read(1024):
                pass
        writer.close()

    async def main():
        server, port = await _serve(never_closes)
        async with server:
            return await clients.slow_clients(
                "127.0.0.1", port, connections=5, line_every_s=0.1, hold_s=0.5, connect_s=30, ordinary_paths=()
            )

    outcome = asyncio.run(main())
    assert [c.closed_after_s for c in outcome.connections] == [None] * 5
    [problem] = judge_slow(outcome, cap_mib=512)
    assert problem.startswith("5 of 5 slow connections still open after")


def test_a_refused_connection_is_not_accepted():
    async def main():
        server, port = await _serve(HeaderCloser(lines=1))
        server.close()
        await server.wait_closed()
        return await clients.slow_clients("127.0.0.1", port, connections=3, hold_s=5, ordinary_every_s=1)

    outcome = asyncio.run(main())
    assert [c.connected for c in outcome.connections] == [False] * 3
    assert all(o.status is None for o in outcome.ordinary)
    assert judge_slow(outcome, cap_mib=512)[0] == "3 of 3 slow connections not accepted"


def test_an_ordinary_request_reads_a_chunked_answer_to_its_end():
    async def chunked(reader, writer):
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
        await writer.drain()
        await asyncio.sleep(60)  # keeps the connection: the answer's end, not a close, ends the read

    async def main():
        server, port = await _serve(chunked)
        async with server:
            return await clients.ordinary_request("127.0.0.1", port, "/health", 30)

    answered = asyncio.run(main())
    assert (answered.status, answered.error) == (200, "")


def _send(handle, total):
    async def main():
        server, port = await _serve(handle)
        async with server:
            return await clients.send_oversized(
                "127.0.0.1", port, "/items", dialect="api", total_bytes=total, limit_s=60
            )

    return asyncio.run(main())


def _length(head):
    return int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")).split(b":")[1])


def test_an_oversized_body_answered_early_and_closed_is_heard():
    async def early_413(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 413 Content Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.transport.abort()  # unread body: a reset, as a real server's close sends

    status, error, sent = _send(early_413, 64 * MIB)
    assert (status, error) == (413, "") and sent < 64 * MIB


def test_an_oversized_body_read_to_its_end_first_is_sent_whole():
    seen = []

    async def reads_all(reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        body = await reader.readexactly(_length(head))
        seen.append((_length(head), len(body), json.loads(body)["sku"]))
        writer.write(b"HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    status, _, sent = _send(reads_all, 3 * MIB + 17)
    # A JSON object of exactly the length declared.
    assert status == 413 and seen == [(3 * MIB + 17, 3 * MIB + 17, "RESILIENCE-1")] and sent == 3 * MIB + 17


def test_an_oversized_body_closed_without_an_answer_says_so():
    async def closes(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        writer.transport.abort()

    status, error, _ = _send(closes, 8 * MIB)
    assert (status, error) == (None, "connection closed without an answer")


@pytest.mark.parametrize("dialect, status_field", [("api", "categoryId"), ("hal", "category")])
def test_the_near_limit_body_is_valid_json_under_1_mib_with_a_name_past_its_rule(dialect, status_field):
    body = clients.near_limit_body(dialect)
    item = json.loads(body)
    assert len(body) < MIB and len(item["name"]) == clients.NEAR_LIMIT_NAME_CHARS > 128
    assert status_field in item and {"sku", "price", "stock"} <= set(item)


# -- the step's conditions ------------------------------------------------------------------------


def test_open_files_are_raised_for_the_block_and_put_back(monkeypatch):
    limits = {"now": (1024, 65536)}
    monkeypatch.setattr(resource, "getrlimit", lambda which: limits["now"])
    monkeypatch.setattr(resource, "setrlimit", lambda which, value: limits.update(now=value))
    with step.open_files(8192):
        assert limits["now"] == (8192, 65536)
    assert limits["now"] == (1024, 65536)
    limits["now"] = (1024, 4096)
    with pytest.raises(BenchError, match="hard limit here is 4,096"), step.open_files(8192):
        pass


class _Stack:
    name = "tiny"
    dialect = "api"


class _Cluster:
    def reset(self):
        raise AssertionError("no stack may start without its cap")


def test_without_writable_cgroups_the_step_fails_and_says_why(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "LOGS", tmp_path)
    monkeypatch.setattr(cgroups, "detect", lambda root=None: None)
    result = StackResult("tiny")
    step.run_resilience(_Stack(), _Cluster(), result)  # type: ignore[arg-type]
    failed = result.steps["resilience"]
    assert not failed.ok and failed.summary.startswith("needs writable cgroups") and result.failed == 1


def test_the_builds_ahead_make_the_load_generators_for_the_smoke_benchmark_only(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "HOME", tmp_path)
    monkeypatch.setattr(paths, "LOGS", tmp_path / "logs")
    built: list[str] = []
    monkeypatch.setattr(tools, "ensure", lambda tool, on_progress=None: built.append(tool.name))
    Prefetch(smoke=False, docker_stacks=[]).start().wait("the test")
    assert built == []
    Prefetch(smoke=True, docker_stacks=[]).start().wait("the test")
    assert built == [t.name for t in tools.TOOLS] and prefetch.LOG


JAVA_TRACE = """2026-12-02T00:01:02.003+0000 SEVERE bench.catalog.errors.ExceptionMappers$Unexpected: unexpected error
jakarta.ws.rs.ProcessingException: Error reading entity from input stream.
\tat org.glassfish.jersey.message.internal.InboundMessageContext.readEntity(InboundMessageContext.java:889)
\tat org.glassfish.jersey.server.ContainerRequest.readEntity(ContainerRequest.java:290)
Caused by: java.io.EOFException
\tat org.glassfish.grizzly.http.io.InputBuffer.blockingRead(InputBuffer.java:1129)
\t... 23 more
"""
NODE_TRACE = """{"level":50,"msg":"request failed"}
Error: aborted
    at connResetException (node:internal/errors:787:14)
    at abortIncoming (node:_http_server:794:17)
"""
PYTHON_TRACE = """ERROR:    Exception in ASGI application
Traceback (most recent call last):
  File "/app/.venv/lib/python3.11/site-packages/uvicorn/protocols/http/h11_impl.py", line 403, in run_asgi
starlette.requests.ClientDisconnect
"""
GO_PANIC = "http: panic serving 127.0.0.1:5000: runtime error\ngoroutine 42 [running]:\nnet/http.(*conn).serve()\n"
RUST_BACKTRACE = (
    "thread 'tokio-runtime-worker' panicked at src/main.rs:3:5:\nstack backtrace:\n   0: rust_begin_unwind\n"
)


@pytest.mark.parametrize(
    ("log", "first"),
    [
        (JAVA_TRACE, "at org.glassfish.jersey.message.internal.InboundMessageContext.readEntity"),
        (NODE_TRACE, "at connResetException (node:internal/errors:787:14)"),
        (PYTHON_TRACE, "Traceback (most recent call last):"),
        (GO_PANIC, "goroutine 42 [running]:"),
        (RUST_BACKTRACE, "stack backtrace:"),
    ],
    ids=["JVM", "Node.js", "Python", "Go", "Rust"],
)
def test_a_stack_trace_in_the_servers_log_fails_the_case_and_is_quoted(log, first):
    problems = verdict.judge_log("started on 127.0.0.1:8080\n" + log + "a line after it\n")
    assert len(problems) == 1
    assert "1 stack trace(s)" in problems[0] and first in problems[0]


def test_a_trace_with_causes_counts_once_and_two_traces_twice():
    assert "2 stack trace(s)" in verdict.judge_log(JAVA_TRACE + "next line\n" + JAVA_TRACE)[0]


def test_one_line_for_a_client_that_left_passes():
    log = (
        "java-jersey dev listening on 127.0.0.1:8080\n"
        "2026-12-02T00:01:02.003+0000 INFO bench.catalog.errors.ExceptionMappers$UnreadBody toResponse: "
        "request body not read, the client's connection ended: EOFException: null\n"
        '{"level":30,"msg":"request aborted","err":"aborted at readBody"}\n'
    )
    assert verdict.judge_log(log) == []
