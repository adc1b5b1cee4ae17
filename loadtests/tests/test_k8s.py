"""deploy/k8s/: built with kustomize, checked by kubeconform against the vendored schemas
(bench.checks.k8s), and those schemas' generation from the Kubernetes and k6-operator sources
(bench.checks.k8s_schemas). kustomize and kubeconform are the pinned builds `./bench test` uses."""

import json

import pytest

from bench import manifest, paths, testing, tools
from bench.checks import k8s, k8s_schemas
from bench.compose_file import caps
from bench.testing import runner


@pytest.fixture(scope="module")
def validators():
    return k8s.Validators(tools.ensure(tools.KUSTOMIZE), tools.ensure(tools.KUBECONFORM))


def test_every_kustomization_builds_and_is_valid(validators):
    stack_names = [s.name for s in manifest.discover()]
    count, problems = k8s.check(validators, stack_names, caps(paths.ROOT))
    assert problems == []
    # PostgreSQL, the stock upstream, the scripts, five scenarios and every stack.
    assert count == 3 + 5 + len(stack_names)


def test_a_stack_kustomization_deploys_postgres_the_upstream_and_the_stack(validators):
    manifests, error = k8s.build(validators, k8s.DEPLOY / "stacks" / "java-spring")
    assert manifests is not None, error
    kinds = sorted((d["kind"], d["metadata"]["name"]) for d in k8s.documents(manifests))
    assert ("Deployment", "java-spring") in kinds and ("Service", "java-spring") in kinds
    assert ("StatefulSet", "postgres") in kinds and ("Service", "postgres") in kinds
    assert ("Deployment", "upstream") in kinds and ("Service", "upstream") in kinds
    deployments = {d["metadata"]["name"]: d for d in k8s.documents(manifests) if d["kind"] == "Deployment"}
    (container,) = deployments["java-spring"]["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env["DATABASE_URL"] == "postgres://bench:bench@postgres:5432/bench" and env["PORT"] == "8080"
    assert env["STOCK_URL"] == "http://upstream:8099"
    assert container["readinessProbe"]["httpGet"]["path"] == "/health"
    assert container["livenessProbe"]["httpGet"]["path"] == "/health"


def test_the_upstream_answers_where_stock_url_says_with_compose_s_caps(validators):
    manifests, error = k8s.build(validators, k8s.DEPLOY / "base" / "upstream")
    assert manifests is not None, error
    documents = {(d["kind"], d["metadata"]["name"]): d for d in k8s.documents(manifests)}
    (port,) = documents[("Service", "upstream")]["spec"]["ports"]
    assert port["port"] == 8099
    (container,) = documents[("Deployment", "upstream")]["spec"]["template"]["spec"]["containers"]
    assert container["ports"] == [{"name": "http", "containerPort": 8099}]
    # compose.yaml's caps, which the check holds it to as it holds a stack to its own.
    assert k8s.upstream_caps(paths.ROOT) == {"cpus": 1.0, "mem_bytes": 64 << 20}
    assert k8s.cap_problems("Deployment", "upstream", manifests, 1.0, 64 << 20) == []


def test_the_outbound_testrun_runs_its_script_from_the_scripts_config_map(validators):
    manifests, error = k8s.build(validators, k8s.DEPLOY / "loadtests" / "outbound")
    assert manifests is not None, error
    documents = {d["metadata"]["name"]: d for d in k8s.documents(manifests)}
    assert documents["outbound"]["spec"]["script"]["localFile"] == "/scripts/outbound.js"
    scripts = documents["k6-scripts"]["data"]
    assert "outbound.js" in scripts, "loadtests/k6/kustomization.yaml must list outbound.js"
    assert scripts["outbound.js"] == (paths.ROOT / "loadtests" / "k6" / "outbound.js").read_text()


def test_a_scenario_kustomization_is_a_distributed_testrun_at_the_stack(validators):
    manifests, error = k8s.build(validators, k8s.DEPLOY / "loadtests" / "join-filter")
    assert manifests is not None, error
    documents = {d["metadata"]["name"]: d for d in k8s.documents(manifests)}
    run = documents["join-filter"]
    assert run["kind"] == "TestRun" and run["spec"]["parallelism"] > 1
    assert run["spec"]["script"]["localFile"] == "/scripts/join-filter.js"
    assert documents["bench-target"]["data"]["BASE_URL"] == "http://go-gin:8080"
    scripts = documents["k6-scripts"]["data"]
    assert scripts["join-filter.js"] == (paths.ROOT / "loadtests" / "k6" / "join-filter.js").read_text()


def test_kubeconform_is_strict_about_the_testrun_and_the_builtin_kinds(validators):
    manifests, _ = k8s.build(validators, k8s.DEPLOY / "loadtests" / "join-filter")
    assert manifests is not None
    broken = manifests.replace("parallelism: 4", 'parallelism: "four"').replace("localFile:", "localFil:")
    problems = k8s.kubeconform_problems(validators, broken)
    assert any("TestRun join-filter: /spec/parallelism" in p for p in problems)
    assert any("localFil" in p for p in problems)
    service = "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\nspec:\n  portz: []\n"
    assert any("Service x" in p and "portz" in p for p in k8s.kubeconform_problems(validators, service))
    unknown = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: x\n"
    assert any("Job x" in p for p in k8s.kubeconform_problems(validators, unknown))


def test_caps_that_differ_from_compose_are_named(validators):
    manifests, _ = k8s.build(validators, k8s.DEPLOY / "stacks" / "go-gin")
    assert manifests is not None
    assert k8s.cap_problems("Deployment", "go-gin", manifests, 1.0, 512 << 20) == []
    problems = k8s.cap_problems("Deployment", "go-gin", manifests, 2.0, 256 << 20)
    assert "go-gin: requests.cpu 1 is not compose.yaml's cpus 2" in problems
    assert "go-gin: limits.memory 512Mi is not compose.yaml's mem_limit (256 MiB)" in problems
    assert k8s.cap_problems("Deployment", "nginx", manifests, 1.0, None) == ["builds no Deployment named nginx"]


def test_the_manifests_carry_the_repository_s_own_seed_and_scripts_byte_for_byte(validators):
    # From db/ and loadtests/k6/ themselves (their kustomization.yaml), not from copies.
    manifests, error = k8s.build(validators, k8s.DEPLOY / "stacks" / "go-gin")
    assert manifests is not None, error
    maps = {
        d["metadata"]["name"].rsplit("-", 1)[0]: d["data"] for d in k8s.documents(manifests) if d["kind"] == "ConfigMap"
    }
    assert maps["postgres-init"]["01-schema.sql"] == (paths.ROOT / "db" / "schema.sql").read_text()
    assert maps["postgres-init"]["02-seed.sql"] == (paths.ROOT / "db" / "seed.sql").read_text()
    assert maps["postgres-config"]["postgresql.conf"] == (paths.ROOT / "db" / "postgresql.conf").read_text()
    manifests, error = k8s.build(validators, k8s.DEPLOY / "loadtests" / "mixed")
    assert manifests is not None, error
    (scripts,) = [d["data"] for d in k8s.documents(manifests) if d["metadata"]["name"] == "k6-scripts"]
    k6 = paths.ROOT / "loadtests" / "k6"
    assert scripts["mixed.js"] == (k6 / "mixed.js").read_text()
    assert scripts["lib-common.js"] == (k6 / "lib" / "common.js").read_text()


def test_openapi_definitions_are_inlined_strict_and_take_numbers_where_the_api_does():
    definitions = {
        "Pod": {
            "type": "object",
            "description": "dropped",
            "properties": {"port": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString"}},
            "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Pod"}],
        },
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"type": "string", "format": "int-or-string"},
    }
    schema = k8s_schemas.from_openapi(definitions, "Pod")
    assert schema == {
        "type": "object",
        "properties": {"port": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
        "additionalProperties": False,
    }


def test_a_crd_schema_keeps_open_objects_open_and_closes_the_rest():
    crd = {
        "type": "object",
        "properties": {
            "spec": {"type": "object", "properties": {"n": {"x-kubernetes-int-or-string": True}}},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True, "properties": {}},
        },
    }
    converted = k8s_schemas.from_crd(crd)
    assert converted["additionalProperties"] is False
    assert converted["properties"]["spec"]["additionalProperties"] is False
    assert converted["properties"]["spec"]["properties"]["n"] == {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    assert "additionalProperties" not in converted["properties"]["free"]


def test_the_vendored_schemas_say_where_they_come_from():
    sources = json.loads((k8s_schemas.SCHEMAS / "sources.json").read_text())
    assert sources["kubernetes"]["module"] == f"k8s.io/kubernetes@{k8s_schemas.KUBERNETES_VERSION}"
    assert sources["k6_operator"]["module"] == f"github.com/grafana/k6-operator@{k8s_schemas.K6_OPERATOR_VERSION}"
    assert sources["kubernetes"]["go_sum"].startswith("h1:") and sources["k6_operator"]["go_sum"].startswith("h1:")
    kinds = [*k8s_schemas.KINDS, *k8s_schemas.CRDS.values()]
    for group, version, kind in kinds:
        assert (k8s_schemas.SCHEMAS / k8s_schemas.file_name(group, version, kind)).is_file()
    assert k8s_schemas.file_name("k6.io", "v1alpha1", "TestRun") == "testrun-k6-v1alpha1.json"
    assert k8s_schemas.file_name("apps", "v1", "Deployment") == "deployment-apps-v1.json"


def test_the_check_is_a_step_of_the_runner_row_in_bench_test(validators, monkeypatch):
    result = testing.StackResult("runner")
    runner.check_k8s(result)
    step = result.steps["kubeconform"]
    assert step.ok and step.summary.endswith("kustomizations valid") and (result.passed, result.failed) == (1, 0)
    monkeypatch.setattr(k8s, "check", lambda *args: (3, ["deploy/k8s/stacks/x: missing"]))
    failing = testing.StackResult("runner")
    runner.check_k8s(failing)
    assert not failing.ok and failing.steps["kubeconform"].summary == "1 problems" and failing.failed == 1
