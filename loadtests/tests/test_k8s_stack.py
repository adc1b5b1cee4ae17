"""A stack's Kubernetes manifests are written from its compose service (bench.k8s_stack), so a
contributor states its environment, caps and healthcheck once, in compose.yaml."""

import shutil

import pytest
import yaml

from bench import k8s_stack, manifest, paths
from bench.errors import BenchError

SERVICE = {
    "build": "./kotlin-ktor",
    "cpus": 2,
    "mem_limit": "1g",
    "environment": {
        "DATABASE_URL": "postgres://bench:bench@postgres:5432/bench",
        "DB_POOL_SIZE": "10",
        "DEBUG": "true",
    },
    "healthcheck": {"interval": "10s", "timeout": "2s", "retries": 3, "start_period": "1m5s"},
}


def test_the_committed_manifests_are_what_compose_yaml_says():
    assert k8s_stack.stale(paths.ROOT, [s.name for s in manifest.discover()]) == []


def test_caps_environment_and_probes_come_from_the_service():
    written = k8s_stack.manifests("kotlin-ktor", SERVICE)
    assert "- kotlin-ktor.yaml" in written["kustomization.yaml"]
    service, deployment = yaml.safe_load_all(written["kotlin-ktor.yaml"])
    assert service["kind"] == "Service" and service["metadata"]["name"] == "kotlin-ktor"
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert container["image"] == "kotlin-ktor"
    # Every value a string, as Kubernetes requires of env, "true" included.
    assert container["env"] == [
        {"name": "DATABASE_URL", "value": "postgres://bench:bench@postgres:5432/bench"},
        {"name": "DB_POOL_SIZE", "value": "10"},
        {"name": "DEBUG", "value": "true"},
    ]
    two_cpus_1gib = {"cpu": "2", "memory": "1Gi"}
    assert container["resources"] == {"requests": two_cpus_1gib, "limits": two_cpus_1gib}
    # 65 s of start period at a 10 s interval: 7 start-up probes may fail.
    assert container["startupProbe"] == {
        "httpGet": {"path": "/health", "port": "http"},
        "periodSeconds": 10,
        "timeoutSeconds": 2,
        "failureThreshold": 7,
    }
    assert container["livenessProbe"]["failureThreshold"] == 3


@pytest.mark.parametrize(("text", "expected"), [("5s", 5), ("90s", 90), ("1m30s", 90), ("2m", 120), ("1h", 3600)])
def test_compose_durations_in_seconds(text, expected):
    assert k8s_stack.seconds(text, "interval") == expected


@pytest.mark.parametrize("text", ["", "5", "5ms", "soon"])
def test_a_duration_it_cannot_read_is_named(text):
    with pytest.raises(BenchError, match="is not a duration like 5s"):
        k8s_stack.seconds(text, "go-gin's healthcheck interval")


def test_a_service_without_healthcheck_timing_says_what_is_missing():
    with pytest.raises(BenchError, match="healthcheck has no interval, start_period"):
        k8s_stack.manifests("x", {**SERVICE, "healthcheck": {"timeout": "2s", "retries": 3}})


def test_missing_or_edited_manifests_are_named_with_the_command_that_writes_them(tmp_path):
    shutil.copy(paths.ROOT / "compose.yaml", tmp_path / "compose.yaml")
    (tmp_path / "go-gin").mkdir()
    assert k8s_stack.stale(tmp_path, ["go-gin"]) == [
        "deploy/k8s/stacks/go-gin/kustomization.yaml is missing: run `./bench k8s go-gin`",
        "deploy/k8s/stacks/go-gin/go-gin.yaml is missing: run `./bench k8s go-gin`",
    ]
    written = k8s_stack.write(tmp_path, ["go-gin"])
    assert sorted(p.name for p in written) == ["go-gin.yaml", "kustomization.yaml"]
    assert k8s_stack.stale(tmp_path, ["go-gin"]) == [] and k8s_stack.write(tmp_path, ["go-gin"]) == []
    workload = tmp_path / "deploy" / "k8s" / "stacks" / "go-gin" / "go-gin.yaml"
    workload.write_text(workload.read_text().replace("memory: 512Mi", "memory: 2Gi"))
    assert k8s_stack.stale(tmp_path, ["go-gin"]) == [
        "deploy/k8s/stacks/go-gin/go-gin.yaml differs from what compose.yaml says: run `./bench k8s go-gin`"
    ]
    with pytest.raises(BenchError, match=r"compose\.yaml has no service for rust-axum-2"):
        k8s_stack.write(tmp_path, ["rust-axum-2"])
