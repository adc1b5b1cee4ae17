"""Variants that train (bench.training): the manifest's `train`, the training run on a database
of its own, its record beside the artifact and in the variant's records, and when it runs again."""

import contextlib
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from test_manifest import VALID, write_stack

from bench import manifest, paths, postgres, training
from bench.errors import BenchError
from bench.measure.run.stack_run import stack_info

FAKES = Path(__file__).with_name("fakes")
# The fake stack, standing in for a JVM that writes its AOT cache at exit: on SIGTERM the shell
# stops the app, then writes the artifact, as -XX:AOTCacheOutput does.
TRAIN = (
    f"{sys.executable} {FAKES / 'app.py'} & app=$!; "
    "trap 'kill -TERM $app; wait $app; echo cache > app.aot; exit 0' TERM; wait $app"
)
VARIANT = f"""
[variants.aot-cache]
description = "the fake's cache"
scenarios = ["join-filter"]
run = "exec {sys.executable} {FAKES / "app.py"}"
train = {{ command = "{TRAIN}", artifact = "app.aot", runtime = "cat runtime.txt" }}
"""


@pytest.fixture
def variant(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "LOGS", tmp_path / "logs")
    monkeypatch.setattr(paths, "HOME", tmp_path / "home")
    directory = write_stack(tmp_path, text=VALID + VARIANT)
    (directory / "runtime.txt").write_text("fake 1.0\n")
    # Its source fingerprint, and so whether it trains again, comes from git's view of the files:
    # what the build and the training write is ignored, as a stack's target/ is.
    (directory / ".gitignore").write_text("out\n*.aot\n*.aot.training.json\n")
    subprocess.run(["git", "init", "-q"], cwd=directory, check=True)
    return manifest.load(directory).with_variant("aot-cache")


def test_a_variant_with_a_training_shares_its_stack_s_build(tmp_path):
    stack = manifest.load(write_stack(tmp_path, text=VALID + VARIANT))
    varied = stack.with_variant("aot-cache")
    assert varied.training is not None and varied.training.artifact == "app.aot"
    assert varied.build_key == "demo" and stack.training is None


def test_a_training_without_its_runtime_is_refused_with_the_key_named():
    text = VALID + VARIANT.replace(', runtime = "cat runtime.txt"', "")
    with pytest.raises(BenchError, match=r"\[variants.aot-cache.train\] `runtime` is missing: add it"):
        manifest.parse(tomllib.loads(text), "impl.toml")


@pytest.fixture
def on_test_cluster(pg_cluster, monkeypatch):
    @contextlib.contextmanager
    def session():
        yield pg_cluster

    monkeypatch.setattr(postgres, "session", session)
    monkeypatch.setattr(training, "ROUNDS", 3)
    return pg_cluster


@pytest.mark.postgres
def test_the_training_walks_the_api_and_records_its_artifact_once(variant, on_test_cluster):
    assert training.build(variant)
    record = json.loads((variant.directory / "app.aot.training.json").read_text())
    # 12 endpoints (the delete after its own create) and 2 error answers, each of 3 rounds.
    assert record["requests"] == 3 * (12 + 1 + 2)
    assert (record["artifact"], record["artifact_bytes"], record["runtime"]) == ("app.aot", 6, "fake 1.0")
    assert record["seconds"] > 0
    recorded = stack_info(variant).training
    assert recorded is not None and recorded.requests == 45 and recorded.artifact_bytes == 6
    # Its own database is gone again; the runner's was never touched.
    assert training.DATABASE not in on_test_cluster.databases()
    assert "trained in" in (training.summary(variant) or "")

    assert not training.build(variant), "nothing changed: no second training"
    (variant.directory / "runtime.txt").write_text("fake 2.0\n")
    assert training.build(variant), "another runtime ignores the cache: it trains again"
    assert json.loads((variant.directory / "app.aot.training.json").read_text())["runtime"] == "fake 2.0"
    (variant.directory / "out").unlink()
    assert training.build(variant), "a new build is a new jar: it trains again"


@pytest.mark.postgres
def test_a_training_that_writes_nothing_fails_with_its_log(variant, on_test_cluster):
    silent = variant.model_copy()
    assert variant.training is not None
    silent._training = variant.training.model_copy(update={"artifact": "elsewhere.aot"})
    with pytest.raises(BenchError, match=r"exited without writing elsewhere\.aot; log .*training\.log"):
        training.build(silent)


def test_a_stack_s_record_has_no_training_key(tmp_path):
    stack = manifest.load(write_stack(tmp_path))
    assert "training" not in stack_info(stack).model_dump(exclude_unset=True)
