"""The load generators compared on one read scenario (docs/method.md, The load generators): k6
running the scenario's script at a fixed rate, and oha sending the scenario's URL list at the
same rate, each pinned to the same CPU, in turn. For each run: the requests it sent, the CPU it
spent per request (its own user and system time, from the kernel's accounting of the process),
and the p99 it reports for the stack. A stack must be up already (`./bench serve STACK`).

    cd loadtests && ../.bench/venv/bin/python -m bench.measure.load.generators compare join-filter \\
        http://127.0.0.1:8080 --rate 1000 --seconds 20 --repeat 2

`urls` prints a read scenario's URL list instead (loadtests/oha/read-mix.sh sends it by hand).

Run it on a quiet machine: on a busy one the CPU per request and the p99 say more about the
neighbours than about the generators.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import paths, tools
from bench.errors import BenchError
from bench.measure.load.k6 import k6_command, parse_k6_summary
from bench.measure.load.oha import oha_command, parse_oha, rate_connections
from bench.measure.load.urls import url_list, write_url_list
from bench.records import Dialect
from bench.scenarios import SCENARIOS, Scenario


@dataclass(frozen=True)
class GeneratorRun:
    generator: str
    requests: int
    cpu_s: float
    p99_ms: float | None

    @property
    def cpu_ms_per_request(self) -> float | None:
        return self.cpu_s * 1000 / self.requests if self.requests else None

    def line(self) -> str:
        per_request = f"{self.cpu_ms_per_request:.3f}" if self.cpu_ms_per_request is not None else "-"
        p99 = f"{self.p99_ms:.2f}" if self.p99_ms is not None else "-"
        return f"{self.generator:4}  {self.requests:8,}  {per_request:>12}  {p99:>8}"


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(command: str, log: Path) -> float:
    """Runs `command` (a shell line), its output to `log`: the CPU seconds it spent."""
    before = _children_cpu_s()
    with log.open("w") as out:
        code = subprocess.run(["bash", "-c", command], stdout=out, stderr=subprocess.STDOUT, check=False).returncode
    if code not in (0, 99):  # 99: a k6 threshold, which the scripts' never are
        raise BenchError(f"{command.split()[1]} failed (exit {code}); log {log}")
    return _children_cpu_s() - before


def k6_run(
    k6: Path, scenario: Scenario, base_url: str, dialect: Dialect, *, rate: float, seconds: int, cpu: str, work: Path
) -> GeneratorRun:
    summary = work / "k6.json"
    vus = max(10, round(rate / 10))
    command = k6_command(
        k6,
        scenario,
        base_url=base_url,
        profile="quick",
        stage="rate",
        summary=summary,
        env={
            "DIALECT": dialect,
            "RATE": f"{rate:g}",
            "DURATION": str(seconds),
            "VUS": str(vus),
            "MAX_VUS": str(2 * vus),
        },
    )
    cpu_s = _run(f"taskset -c {cpu} bash -c {_quoted(command)}", work / "k6.log")
    (figures,) = parse_k6_summary(summary).stages
    return GeneratorRun("k6", figures.requests, cpu_s, figures.latency_ms.p99 if figures.latency_ms else None)


def oha_run(
    oha: Path, scenario: Scenario, base_url: str, dialect: Dialect, *, rate: float, seconds: int, cpu: str, work: Path
) -> GeneratorRun:
    output = work / "oha.json"
    url_file = write_url_list(work / "urls.txt", scenario, base_url, dialect)
    connections = rate_connections(rate, scenario.objective_ms)
    command = oha_command(
        oha, base_url, connections=connections, output=output, rate=rate, duration_s=seconds, url_file=url_file
    )
    cpu_s = _run(f"taskset -c {cpu} bash -c {_quoted(command)}", work / "oha.log")
    figures = parse_oha(output, expected_status=200, connections=connections)
    return GeneratorRun("oha", figures.requests, cpu_s, figures.latency_ms.p99 if figures.latency_ms else None)


def _quoted(command: str) -> str:
    return "'" + command.replace("'", "'\\''") + "'"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.measure.load.generators", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    reads = [s.name for s in SCENARIOS.values() if s.read_mix]
    compare = commands.add_parser("compare", help="k6 and oha in turn on one read scenario, at one rate")
    listed = commands.add_parser("urls", help="a read scenario's URL list on stdout (loadtests/oha/read-mix.sh)")
    for command in (compare, listed):
        command.add_argument("scenario", choices=reads)
        command.add_argument("base_url")
        command.add_argument("--dialect", choices=["api", "hal"], default="api")
    compare.add_argument("--rate", type=float, default=1000.0)
    compare.add_argument("--seconds", type=int, default=20)
    compare.add_argument("--repeat", type=int, default=2)
    compare.add_argument("--cpu", default="1", help="the CPU both generators are pinned to (taskset)")
    args = parser.parse_args(argv)
    scenario, base_url = SCENARIOS[args.scenario], args.base_url.rstrip("/")
    if args.command == "urls":
        sys.stdout.writelines(url + "\n" for _, url in url_list(scenario, base_url, args.dialect))
        return
    k6, oha = tools.ensure(tools.K6), tools.ensure(tools.OHA)
    print(f"{scenario.name} at {args.rate:g} req/s for {args.seconds} s, each generator on CPU {args.cpu}")
    print("tool  requests  CPU ms/req    p99 ms")
    with tempfile.TemporaryDirectory(prefix="generators-", dir=paths.HOME) as work:
        for _ in range(args.repeat):
            for run, tool in ((k6_run, k6), (oha_run, oha)):
                measured = run(
                    tool,
                    scenario,
                    base_url,
                    args.dialect,
                    rate=args.rate,
                    seconds=args.seconds,
                    cpu=args.cpu,
                    work=Path(work),
                )
                print(measured.line(), flush=True)
                time.sleep(2)  # the stack's connections from the run before close


if __name__ == "__main__":
    main()
