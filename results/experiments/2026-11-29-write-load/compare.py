"""The write scenarios' load generators compared (issue 53): k6 running the scenario's script at a
fixed rate (what the runner used), k6 sending requests prepared ahead (prepared.js), and vegeta
sending the same prepared requests (bench.measure.load.step_requests and vegeta, what the runner uses now), each
pinned to the same CPU, in turn, against one stack that is up already (`./bench serve STACK`).
For each run: the requests it sent, the CPU it spent per request (its own user and system time,
start-up included, from the kernel's accounting of the process; vegeta's read-back of its
results, which the runner does after the step outside the load generator's cgroup, apart), the
p99 it reports for the stack, the answers that were not the expected status, and the load
average when it started.

    cd loadtests && ../.bench/venv/bin/python ../results/experiments/2026-11-29-write-load/compare.py \\
        http://127.0.0.1:8080 --rates 150 300 --seconds 20 --repeat 2

Run it on a quiet machine: on a busy one the CPU per request and the p99 say more about the
neighbours than about the generators.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

EXPERIMENT = Path(__file__).resolve().parent
sys.path.insert(0, str(EXPERIMENT.parents[2] / "loadtests"))

from bench import paths, tools  # noqa: E402
from bench.errors import BenchError  # noqa: E402
from bench.measure.load import step_requests, vegeta  # noqa: E402
from bench.measure.load.generators import k6_run  # noqa: E402
from bench.measure.phases.vegeta_runs import make_rows  # noqa: E402
from bench.records import Dialect  # noqa: E402
from bench.scenarios import SCENARIOS  # noqa: E402

WRITE_SCENARIOS = ("mixed", "heavy-body")


@dataclass(frozen=True)
class Measured:
    generator: str
    requests: int
    cpu_s: float
    p99_ms: float | None
    unexpected: int
    load: float
    read_back_s: float | None = None

    def line(self, scenario: str, rate: float) -> str:
        per_request = self.cpu_s * 1000 / self.requests if self.requests else float("nan")
        p99 = f"{self.p99_ms:.2f}" if self.p99_ms is not None else "-"
        read_back = f"  read-back {self.read_back_s * 1000 / self.requests:.3f}" if self.read_back_s else ""
        return (
            f"{scenario:10}  {rate:6g}  {self.generator:11}  {self.requests:8,}  {per_request:11.3f}  {p99:>8}  "
            f"{self.unexpected:6}  {self.load:5.2f}{read_back}"
        )


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: list[str], log: Path, env: dict[str, str] | None = None) -> float:
    """Runs `argv` to completion, its output to `log`: the CPU seconds it spent."""
    before = _children_cpu_s()
    with log.open("w") as out:
        code = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, env=env, check=False).returncode
    if code not in (0, 99):  # 99: a k6 threshold, which the scripts' never are
        raise BenchError(f"{argv[0]} failed (exit {code}); log {log}")
    return _children_cpu_s() - before


def _prepared(
    mix: step_requests.RequestMix, base_url: str, rate: float, seconds: int, work: Path
) -> list[step_requests.Request]:
    """A step's requests as the runner draws them, the rows its deletes remove made first."""
    count = mix.request_count(rate, seconds)
    rows = make_rows(base_url, [mix.item_to_delete() for _ in range(mix.deletes(count))], mix.dialect)
    requests = mix.requests(count, rows)
    step_requests.write_targets(work / "targets.jsonl", requests, base_url)
    return requests


def vegeta_run(
    tool: Path, mix: step_requests.RequestMix, base_url: str, *, rate: float, seconds: int, cpu: str, work: Path
) -> Measured:
    requests = _prepared(mix, base_url, rate, seconds, work)
    request_rate = step_requests.request_rate(rate, requests)
    load = os.getloadavg()[0]
    attack = vegeta.vegeta_command(
        tool, targets=work / "targets.jsonl", rate=request_rate, seconds=seconds, output=work / "results.bin"
    )
    cpu_s = _run(["taskset", "-c", cpu, "bash", "-c", attack], work / "vegeta.log")
    encode = vegeta.encode_command(tool, results=work / "results.bin", output=work / "results.csv")
    read_back_s = _run(["taskset", "-c", cpu, "bash", "-c", encode], work / "encode.log")
    step = vegeta.parse_results(
        vegeta.read_results(work / "results.csv"), requests, rate=rate, request_rate=request_rate, seconds=seconds
    )
    figures = step.figures
    p99 = figures.latency_ms.p99 if figures.latency_ms else None
    return Measured("vegeta", step.requests_sent, cpu_s, p99, figures.error_count, load, read_back_s)


def k6_prepared_run(
    k6: Path, mix: step_requests.RequestMix, base_url: str, *, rate: float, seconds: int, cpu: str, work: Path
) -> Measured:
    requests = _prepared(mix, base_url, rate, seconds, work)
    request_rate = step_requests.request_rate(rate, requests)
    summary = work / "k6-prepared.json"
    load = os.getloadavg()[0]
    env = dict(
        os.environ,
        TARGETS=str(work / "targets.jsonl"),
        RATE=f"{round(request_rate)}",
        DURATION=str(seconds),
        VUS=str(max(10, round(request_rate / 10))),
        SUMMARY=str(summary),
    )
    argv = ["taskset", "-c", cpu, str(k6), "run", "--no-color", "--no-usage-report", "--quiet"]
    cpu_s = _run([*argv, str(EXPERIMENT / "prepared.js")], work / "k6-prepared.log", env)
    data = json.loads(summary.read_text())
    return Measured("k6-prepared", int(data["requests"]), cpu_s, data["p99_ms"], int(data["failed"]), load)


def k6_script_run(
    k6: Path, scenario_name: str, base_url: str, dialect: Dialect, *, rate: float, seconds: int, cpu: str, work: Path
) -> Measured:
    load = os.getloadavg()[0]
    run = k6_run(
        k6,
        SCENARIOS[scenario_name],
        base_url,
        dialect,
        rate=rate,
        seconds=seconds,
        cpu=cpu,
        work=work,
    )
    (figures,) = json.loads((work / "k6.json").read_text())["stages"]
    return Measured("k6-script", run.requests, run.cpu_s, run.p99_ms, int(figures["error_count"]), load)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url")
    parser.add_argument("--scenarios", nargs="+", choices=WRITE_SCENARIOS, default=list(WRITE_SCENARIOS))
    parser.add_argument("--rates", nargs="+", type=float, default=[150.0, 300.0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--dialect", choices=["api", "hal"], default="api")
    parser.add_argument("--cpu", default="1", help="the CPU every generator is pinned to (taskset)")
    args = parser.parse_args()
    base_url = args.base_url.rstrip("/")
    k6, tool = tools.ensure(tools.K6), tools.ensure(tools.VEGETA)
    print(f"each generator on CPU {args.cpu}, {args.seconds} s a run; CPU ms per request over every request sent")
    print("scenario      rate  generator    requests  CPU ms/req    p99 ms  errors  load1")
    with tempfile.TemporaryDirectory(prefix="write-load-", dir=paths.HOME) as directory:
        work = Path(directory)
        for name in args.scenarios:
            mix = step_requests.RequestMix(SCENARIOS[name], args.dialect)
            for rate in args.rates:
                for _ in range(args.repeat):
                    for measured in each_generator(args, k6, tool, name, mix, base_url, rate, work):
                        print(measured.line(name, rate), flush=True)


def each_generator(
    args: argparse.Namespace,
    k6: Path,
    tool: Path,
    name: str,
    mix: step_requests.RequestMix,
    base_url: str,
    rate: float,
    work: Path,
) -> Iterator[Measured]:
    """The three generators in turn at one rate, a pause after each for the stack's connections
    from the run before to close."""
    yield k6_script_run(k6, name, base_url, args.dialect, rate=rate, seconds=args.seconds, cpu=args.cpu, work=work)
    time.sleep(2)
    yield k6_prepared_run(k6, mix, base_url, rate=rate, seconds=args.seconds, cpu=args.cpu, work=work)
    time.sleep(2)
    yield vegeta_run(tool, mix, base_url, rate=rate, seconds=args.seconds, cpu=args.cpu, work=work)
    time.sleep(2)


if __name__ == "__main__":
    main()
