"""The JSON schemas that kubeconform checks deploy/k8s/ against, generated from pinned Go modules.

kubeconform reads one JSON schema per kind. The usual collections of them are downloaded from a
site this project cannot reach, so they are made here from what the Go module proxy serves and
committed under deploy/k8s/schemas/ (no network when `./bench test` validates):

- the built-in kinds from the Kubernetes OpenAPI v2 document, api/openapi-spec/swagger.json of
  the k8s.io/kubernetes module at KUBERNETES_VERSION;
- the k6-operator's TestRun from its CustomResourceDefinition, config/crd/bases/
  k6.io_testruns.yaml of the github.com/grafana/k6-operator module at K6_OPERATOR_VERSION.

Only the kinds the manifests use (KINDS). Each schema is standalone (every $ref inlined) and
strict (an object with declared properties admits no others), as kubeconform's `-strict` runs
expect; descriptions are dropped, which keeps the files small and changes no rule.

    python -m bench.checks.k8s_schemas      # after changing a version or adding a kind
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import yaml

from bench import paths
from bench.errors import BenchError

KUBERNETES_MODULE, KUBERNETES_VERSION = "k8s.io/kubernetes", "v1.37.2"
K6_OPERATOR_MODULE, K6_OPERATOR_VERSION = "github.com/grafana/k6-operator", "v1.3.2"
SCHEMAS = paths.ROOT / "deploy" / "k8s" / "schemas"

# (group, version, kind) of every built-in kind the manifests use.
KINDS = (
    ("", "v1", "ConfigMap"),
    ("", "v1", "Service"),
    ("apps", "v1", "Deployment"),
    ("apps", "v1", "StatefulSet"),
)
CRDS = {"config/crd/bases/k6.io_testruns.yaml": ("k6.io", "v1alpha1", "TestRun")}

# Types whose OpenAPI v2 form says "string" although the API server takes a number too.
INT_OR_STRING = {"oneOf": [{"type": "string"}, {"type": "integer"}]}
QUANTITY = {"oneOf": [{"type": "string"}, {"type": "number"}]}
SPECIAL = {
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": INT_OR_STRING,
    "io.k8s.apimachinery.pkg.api.resource.Quantity": QUANTITY,
}


def file_name(group: str, version: str, kind: str) -> str:
    """kubeconform's `{{ .ResourceKind }}{{ .KindSuffix }}.json`: deployment-apps-v1.json,
    service-v1.json, testrun-k6-v1alpha1.json (the group up to its first dot)."""
    prefix = group.split(".")[0]
    return f"{kind.lower()}{'-' + prefix if prefix else ''}-{version}.json"


def download(module: str, version: str) -> dict[str, str]:
    """`go mod download -json`: the module's directory and its checksum (as go.sum records it)."""
    done = subprocess.run(
        ["go", "mod", "download", "-json", f"{module}@{version}"], capture_output=True, text=True, check=False
    )
    found = json.loads(done.stdout or "{}")
    if done.returncode != 0 or "Dir" not in found:
        raise BenchError(f"go mod download {module}@{version} failed: {found.get('Error') or done.stderr.strip()}")
    return {"dir": found["Dir"], "sum": found["Sum"]}


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    if (
        schema.get("type") == "object"
        and "properties" in schema
        and "additionalProperties" not in schema
        and not schema.get("x-kubernetes-preserve-unknown-fields")
    ):
        schema["additionalProperties"] = False
    return schema


def from_openapi(definitions: dict[str, Any], name: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The definition `name` of an OpenAPI v2 document with its references inlined."""
    if name in SPECIAL:
        return dict(SPECIAL[name])
    if name in seen:
        raise BenchError(f"{name} refers to itself; a standalone schema cannot inline it")
    converted: dict[str, Any] = _convert_openapi(definitions, definitions[name], (*seen, name))
    return converted


def _convert_openapi(definitions: dict[str, Any], node: Any, seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_convert_openapi(definitions, item, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return from_openapi(definitions, node["$ref"].removeprefix("#/definitions/"), seen)
    converted = {
        key: (
            {k: _convert_openapi(definitions, v, seen) for k, v in value.items()}
            if key == "properties"
            else _convert_openapi(definitions, value, seen)
        )
        for key, value in node.items()
        if key != "description" and not key.startswith("x-kubernetes-")
    }
    return _strict(converted)


def from_crd(node: Any) -> Any:
    """A CRD's openAPIV3Schema as a JSON schema: int-or-string made explicit, strict objects."""
    if isinstance(node, list):
        return [from_crd(item) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("x-kubernetes-int-or-string"):
        return dict(INT_OR_STRING)
    converted = {
        key: ({k: from_crd(v) for k, v in value.items()} if key == "properties" else from_crd(value))
        for key, value in node.items()
        if key != "description"
    }
    return _strict(converted)


def _identified(schema: dict[str, Any], group: str, version: str, kind: str) -> dict[str, Any]:
    api_version = f"{group}/{version}" if group else version
    return {"$schema": "http://json-schema.org/draft-07/schema#", "$id": f"{api_version}/{kind}", **schema}


def generate(target: Path = SCHEMAS) -> list[Path]:
    kubernetes = download(KUBERNETES_MODULE, KUBERNETES_VERSION)
    operator = download(K6_OPERATOR_MODULE, K6_OPERATOR_VERSION)
    swagger = json.loads((Path(kubernetes["dir"]) / "api" / "openapi-spec" / "swagger.json").read_text())
    definitions: dict[str, Any] = swagger["definitions"]
    by_kind = {
        (gvk["group"], gvk["version"], gvk["kind"]): name
        for name, definition in definitions.items()
        for gvk in definition.get("x-kubernetes-group-version-kind", [])
    }
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for group, version, kind in KINDS:
        schema = from_openapi(definitions, by_kind[(group, version, kind)])
        written.append(_write(target / file_name(group, version, kind), _identified(schema, group, version, kind)))
    for crd_path, (group, version, kind) in CRDS.items():
        crd = yaml.safe_load((Path(operator["dir"]) / crd_path).read_text())
        (served,) = [v for v in crd["spec"]["versions"] if v["name"] == version]
        schema = from_crd(served["schema"]["openAPIV3Schema"])
        written.append(_write(target / file_name(group, version, kind), _identified(schema, group, version, kind)))
    sources = {
        "generated_by": "python -m bench.checks.k8s_schemas (loadtests/bench/checks/k8s_schemas.py)",
        "kubernetes": {
            "module": f"{KUBERNETES_MODULE}@{KUBERNETES_VERSION}",
            "go_sum": kubernetes["sum"],
            "file": "api/openapi-spec/swagger.json",
            "kinds": [f"{g + '/' if g else ''}{v} {k}" for g, v, k in KINDS],
        },
        "k6_operator": {
            "module": f"{K6_OPERATOR_MODULE}@{K6_OPERATOR_VERSION}",
            "go_sum": operator["sum"],
            "files": sorted(CRDS),
            "kinds": [f"{g}/{v} {k}" for g, v, k in CRDS.values()],
        },
    }
    written.append(_write(target / "sources.json", sources))
    return written


def _write(path: Path, content: dict[str, Any]) -> Path:
    path.write_text(json.dumps(content, indent=1, sort_keys=True) + "\n")
    return path


if __name__ == "__main__":
    for path in generate():
        print(f"wrote {path.relative_to(paths.ROOT)}")
