"""The stock service of the outbound scenario (loadtests/upstream, bench.upstream): its Go tests,
and the binary the runner builds, started and asked over HTTP."""

import os
import subprocess
import time

import httpx
import pytest

from bench import paths, ports, upstream


@pytest.fixture(scope="module")
def service():
    with upstream.running(ports.free_port(), delay_ms="20-30", seed=3) as started:
        yield started


def test_its_own_go_tests_pass():
    done = subprocess.run(
        ["go", "test", "./..."], cwd=upstream.SOURCE, capture_output=True, text=True, env=dict(os.environ)
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_it_answers_the_quantity_of_an_item_after_the_delay(service):
    elapsed = []
    with httpx.Client(timeout=5) as client:
        for _ in range(5):
            started = time.monotonic()
            response = client.get(f"{service.url}/stock/12345")
            elapsed.append(time.monotonic() - started)
            assert response.status_code == 200 and response.json() == {"itemId": 12345, "quantity": 55}
            assert response.headers["content-type"] == "application/json"
    # Every answer waits out its 20-30 ms; the quickest shows it waits no longer (a slower one
    # may have waited for a core: ./bench test runs these tests beside the stacks' rows).
    assert min(elapsed) >= 0.020 and min(elapsed) < 0.5, elapsed


def test_an_item_it_does_not_know_is_a_404(service):
    assert httpx.get(f"{service.url}/stock/100001", timeout=5).status_code == 404
    assert httpx.get(f"{service.url}/stock/x", timeout=5).status_code == 404


def test_it_is_rebuilt_only_when_its_source_changed():
    first = upstream.build()
    stamp = (paths.BIN / f"{upstream.BINARY}.sha256").stat().st_mtime_ns
    assert upstream.build() == first
    assert (paths.BIN / f"{upstream.BINARY}.sha256").stat().st_mtime_ns == stamp
