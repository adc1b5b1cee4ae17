"""Where a JVM stack's CPU goes while it warms up at a fixed rate: per 5 s window, the CPU of its
JIT compiler threads, its VM thread (the serial GC) and everything else, from /proc, plus the
length of the compile queue (jcmd Compiler.queue). The experiment tool that wrote this directory
(README.md); not part of the runner.

usage: python3 jit_probe.py STACK LABEL RATE SECONDS [EXTRA JVM FLAGS...]
       PHASES=read-heavy:180:150,join-filter:250:60 python3 jit_probe.py STACK LABEL 0 0

It runs `./bench serve STACK` on port 8181, pins the JVM to CPU 0 and PostgreSQL and k6 to CPU 1
(as the runner does), drives the k6 script at a fixed rate, and writes LABEL's windows here.
"""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
JAVA_HOME = "/usr/lib/jvm/temurin-25-jdk-amd64"
PORT = 8181
WINDOW = 5
TICK = os.sysconf("SC_CLK_TCK")


def threads(pid):
    groups = {"c2": 0, "c1": 0, "vm": 0, "other": 0}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        ticks = int(fields[11]) + int(fields[12])
        if name.startswith("C2 Compiler"):
            groups["c2"] += ticks
        elif name.startswith("C1 Compiler"):
            groups["c1"] += ticks
        elif name == "VM Thread":
            groups["vm"] += ticks
        else:
            groups["other"] += ticks
    return {k: v * 1000 / TICK for k, v in groups.items()}


def queue(pid):
    out = subprocess.run(
        ["taskset", "-c", "1", f"{JAVA_HOME}/bin/jcmd", str(pid), "Compiler.queue"],
        capture_output=True,
        text=True,
    ).stdout
    return len(re.findall(r"^\s*\d+\s+\d+", out, re.MULTILINE))


def main():
    stack, label, rate, seconds, *flags = sys.argv[1:]
    rate, seconds = int(rate), int(seconds)
    out = Path(__file__).resolve().parent / f"{stack}-{label}"
    out.mkdir(parents=True, exist_ok=True)
    env = (
        dict(os.environ, JAVA_TOOL_OPTIONS=" ".join(flags))
        if flags
        else dict(os.environ)
    )
    serve = subprocess.Popen(
        [str(ROOT / "bench"), "serve", stack, "--port", str(PORT)],
        stdout=open(out / "serve.log", "w"),
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    try:
        pid = None
        for _ in range(600):
            time.sleep(0.5)
            if "is serving" in (out / "serve.log").read_text():
                ss = subprocess.run(
                    ["ss", "-ltnpH", f"sport = :{PORT}"], capture_output=True, text=True
                ).stdout
                pid = int(re.search(r"pid=(\d+)", ss).group(1))
                break
            if serve.poll() is not None:
                raise SystemExit(
                    f"serve exited: {(out / 'serve.log').read_text()[-2000:]}"
                )
        subprocess.run(
            ["taskset", "-a", "-p", "-c", "0", str(pid)],
            capture_output=True,
            check=True,
        )
        ss = subprocess.run(
            ["ss", "-ltnpH", "sport = :54329"], capture_output=True, text=True
        ).stdout
        postmaster = int(re.search(r"pid=(\d+)", ss).group(1))
        pg = [postmaster] + [
            int(p)
            for p in subprocess.run(
                ["pgrep", "-P", str(postmaster)], capture_output=True, text=True
            ).stdout.split()
        ]
        for p in pg:
            subprocess.run(
                ["taskset", "-p", "-c", "1", str(p)], capture_output=True, check=False
            )
        k6 = next(Path.home().glob(".cache/bench-tools/k6-*/bin/k6"))
        phases = [
            p.split(":")
            for p in os.environ.get("PHASES", f"join-filter:{rate}:{seconds}").split(
                ","
            )
        ]
        rows: list[dict] = []
        start = time.monotonic()
        for script, rate, seconds in phases:
            rate, seconds = int(rate), int(seconds)
            run_phase(k6, out, script, rate, seconds, pid, rows, start)
        (out / "windows.json").write_text(json.dumps(rows, indent=1))
    finally:
        os.killpg(serve.pid, signal.SIGINT)
        serve.wait(timeout=60)


def run_phase(k6, out, script, rate, seconds, pid, rows, start):
    vus = rate * 100 // 1000 + 10
    load = subprocess.Popen(
        [
            "taskset",
            "-c",
            "1",
            str(k6),
            "run",
            "--no-color",
            "--no-usage-report",
            "-q",
            "-e",
            f"BASE_URL=http://127.0.0.1:{PORT}",
            "-e",
            "PROFILE=quick",
            "-e",
            f"RATE={rate}",
            "-e",
            f"DURATION={seconds}",
            "-e",
            f"VUS={vus}",
            "-e",
            f"MAX_VUS={2 * vus}",
            "-e",
            f"SUMMARY={out / f'k6-{script}.json'}",
            str(ROOT / f"loadtests/k6/{script}.js"),
        ],
        stdout=open(out / f"k6-{script}.log", "w"),
        stderr=subprocess.STDOUT,
    )
    before = threads(pid)
    while load.poll() is None:
        time.sleep(WINDOW - ((time.monotonic() - start) % WINDOW))
        now = threads(pid)
        delta = {k: now[k] - before[k] for k in now}
        before = now
        row = {
            "t": round(time.monotonic() - start),
            "scenario": script,
            **{k: round(v) for k, v in delta.items()},
            "ms_per_req": round(sum(delta.values()) / (rate * WINDOW), 3),
            "queue": queue(pid),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
