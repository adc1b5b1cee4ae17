"""Training runs: a variant that trains (its [variants] table's `train`, an AOT cache) is built
with its stack's build, then started once on a database of its own, walked through the API, and
stopped with SIGTERM; the file it writes at its exit is what its run reads (docs/method.md,
"Variants that train").

The walk is not a scenario of the benchmark: every endpoint of the stack's dialect in turn, one
request at a time, writes and the stock call included, and two error answers, `ROUNDS` times. So
the training sees what a deployment's first traffic is made of, and none of the load it is
measured under. How it went (its time, the file's size, the runtime) is written beside the file
and copied into each record of the variant (bench.records.Training).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import httpx

from bench import paths, ports, postgres, procs, stacks, upstream
from bench.console import console
from bench.errors import BenchError
from bench.manifest import Stack, Training
from bench.measure.load.dialects import JSON, prepare_probe
from bench.records import Training as TrainingRecord

DATABASE = "training"
# The walk's length: each endpoint this many times, enough for the JIT to compile the request
# path of each (and for JEP 515's profiles to be kept), in 10 to 30 s of a JVM stack.
ROUNDS = 200
ENDPOINTS = (
    "categories_page",
    "category_by_id",
    "category_items",
    "items_page",
    "items_by_category",
    "item_by_id",
    "item_create",
    "item_replace",
    "item_delete",
    "category_create",
    "item_stock",
    "avatar",
)
# A JVM writes its AOT cache at its exit: a second JVM assembles it, 5 to 60 s on a busy machine.
EXIT_GRACE_S = 300.0
CLEAN_EXIT = (0, 143)  # 143: a JVM's status after SIGTERM


def build(stack: Stack, *, force: bool = False) -> bool:
    """The stack's build (bench.stacks.build), then its training where it has one, unless its
    artifact is up to date. Returns True when it built or trained."""
    built = stacks.build(stack, force=force)
    if stack.training is None:
        return built
    # A new build is a new jar: a cache made from the old one would be used with it unchecked.
    return train(stack, force=force or built) or built


def _record_path(stack: Stack) -> Path:
    path = stack.training_record
    if path is None:
        raise BenchError(f"{stack.name} has no training (its [variants] table has no `train`)")
    return path


def _stamp(stack: Stack) -> Path:
    return paths.HOME / "build" / f"{stack.name}.training.sha256"


def runtime_version(stack: Stack, training: Training) -> str:
    done = subprocess.run(
        ["bash", "-c", training.runtime], cwd=stack.directory, env=stack.environment(), capture_output=True, text=True
    )
    lines = [line.strip() for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    if done.returncode != 0 or not lines:
        raise BenchError(
            f"{stack.name}: `{training.runtime}` (its [variants] train.runtime) failed (exit {done.returncode}): "
            "it names the runtime the training's artifact belongs to"
        )
    return "; ".join(lines)


def _fingerprint(stack: Stack, training: Training, runtime: str) -> str:
    digest = hashlib.sha256(stacks.source_fingerprint(stack).encode())
    digest.update(training.command.encode() + b"\0" + runtime.encode())
    return digest.hexdigest()


def up_to_date(stack: Stack) -> bool:
    training = stack.training
    if training is None:
        return True
    stamp = _stamp(stack)
    return (
        stamp.exists()
        and (stack.directory / training.artifact).exists()
        and _record_path(stack).exists()
        and stamp.read_text() == _fingerprint(stack, training, runtime_version(stack, training))
    )


def train(stack: Stack, *, force: bool = False) -> bool:
    """Trains the variant unless its artifact is up to date. Returns True when it trained."""
    training = stack.training
    if training is None or (not force and up_to_date(stack)):
        return False
    runtime = runtime_version(stack, training)
    # Taken before the training: a file changed while it runs is not in its artifact.
    fingerprint = _fingerprint(stack, training, runtime)
    artifact = stack.directory / training.artifact
    _stamp(stack).unlink(missing_ok=True)
    artifact.unlink(missing_ok=True)
    _record_path(stack).unlink(missing_ok=True)
    with postgres.session() as cluster:
        cluster.reset(DATABASE)
        try:
            with upstream.running(delay_ms="0", log_name=f"{stack.name}-training-upstream.log") as stock:
                requests, seconds, log = _run(stack, training, cluster.url(DATABASE), stock.url)
        finally:
            cluster.drop(DATABASE)
    if not artifact.is_file():
        raise BenchError(
            f"{stack.name}: the training run exited without writing {training.artifact}; log {log}:\n"
            f"{procs.tail(log, 20)}"
        )
    record = TrainingRecord(
        workload=f"the runner's walk of {len(ENDPOINTS)} endpoints and 2 error answers, {ROUNDS} rounds, "
        "one request at a time (bench.training)",
        requests=requests,
        seconds=round(seconds, 1),
        artifact=training.artifact,
        artifact_bytes=artifact.stat().st_size,
        runtime=runtime,
        trained_at=datetime.now(UTC),
    )
    _record_path(stack).write_text(json.dumps(record.model_dump(mode="json"), indent=2) + "\n")
    _stamp(stack).parent.mkdir(parents=True, exist_ok=True)
    _stamp(stack).write_text(fingerprint)
    return True


def _run(stack: Stack, training: Training, database_url: str, stock_url: str) -> tuple[int, float, Path]:
    """The training process: started, walked, stopped. Returns the requests sent, its wall time
    from start to exit, and its log."""
    started = time.monotonic()
    with console.status(f"{stack.name}: starting the training run"):
        running = stacks.start(
            stack,
            port=ports.free_port(),
            database_url=database_url,
            stock_url=stock_url,
            log_name=f"{stack.name}-training.log",
            command=training.command,
        )
    try:
        with console.status(f"{stack.name}: training") as status:
            requests = walk(
                stack,
                running.base_url,
                on_round=lambda n: status.update(f"{stack.name}: training, round {n} of {ROUNDS}"),
            )
    except BaseException:
        running.stop()
        raise
    with console.status(f"{stack.name}: writing {training.artifact} (the training run's exit)"):
        code = procs.stop(running.proc, grace_s=EXIT_GRACE_S)
    if code not in CLEAN_EXIT:
        raise BenchError(
            f"{stack.name}: the training run ended with exit {code}; log {running.log}:\n{procs.tail(running.log, 20)}"
        )
    return requests, time.monotonic() - started, running.log


def walk(stack: Stack, base_url: str, *, on_round: Callable[[int], None] | None = None) -> int:
    """Every endpoint in turn, ROUNDS times, and a 404 and a 422 each round. Returns the requests
    sent; a 5xx (or a request that fails) ends the training: the cache would hold its error path."""
    sent = 0
    with httpx.Client(base_url=base_url, timeout=10.0) as client:
        for round_number in range(1, ROUNDS + 1):
            if on_round is not None:
                on_round(round_number)
            for endpoint in ENDPOINTS:
                _expect(stack, endpoint, prepare_probe(endpoint, client, stack.dialect)())
                sent += 2 if endpoint == "item_delete" else 1
            _expect(stack, "an unknown item", client.get("/items/0"), status=404)
            _expect(stack, "an invalid item", client.post("/items", content='{"sku": ""}', headers=JSON), status=422)
            sent += 2
    return sent


def _expect(stack: Stack, what: str, response: httpx.Response, *, status: int | None = None) -> None:
    if (status is None and response.status_code >= 400) or (status is not None and response.status_code != status):
        raise BenchError(
            f"{stack.name}: the training walk's {what} answered {response.status_code} "
            f"{'instead of ' + str(status) if status else ''}; run the conformance suite (./bench test {stack.name})"
        )


def read_record(stack: Stack) -> TrainingRecord | None:
    """The record of the variant's last training; None for a stack that does not train, or one
    not trained yet."""
    path = stack.training_record
    if path is None or not path.is_file():
        return None
    return TrainingRecord.model_validate_json(path.read_text())


def summary(stack: Stack) -> str | None:
    """`trained in 38 s (12,834 requests), java-spring.aot 61.2 MiB`, or None."""
    record = read_record(stack)
    if record is None:
        return None
    return (
        f"trained in {record.seconds:.0f} s ({record.requests:,} requests), "
        f"{Path(record.artifact).name} {record.artifact_bytes / (1 << 20):.1f} MiB"
    )
