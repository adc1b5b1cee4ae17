"""The Dockerfile rules (bench.checks.dockerfiles) and image references (bench.checks.images),
without Docker."""

from __future__ import annotations

import textwrap

import pytest
from docker_roots import GO, GOOD_DOCKERFILE, one_problem, write_dockerfile

from bench.checks import dockerfiles
from bench.checks.dockerfiles import dockerfile_problems
from bench.checks.images import image_pin_problem, matches
from bench.manifest import Docker

# --------------------------------------------------------------------------- image references


@pytest.mark.parametrize(
    "ref",
    [
        "postgres:15.18-bookworm",
        "golang:1.26.8-bookworm",
        "debian:12.12-slim",
        "node:20.20.2-bookworm-slim",
        "python:3.11.14-slim-bookworm",
        "eclipse-temurin:25.0.3_9-jre-noble",
        "eclipse-temurin:25_36-jre",
        "maven:3.9.11-eclipse-temurin-25-noble",
        "grafana/k6:1.8.1",
        "scratch",
        "ubuntu:24.04",
        "gcr.io/distroless/cc-debian12@sha256:" + "a" * 64,
        "localhost:5000/rust:1.91.1-slim",
    ],
)
def test_pinned_images(ref):
    assert image_pin_problem(ref, ["node", "python", "golang", "rust", "eclipse-temurin", "maven"]) is None


@pytest.mark.parametrize(
    "ref,fragment",
    [
        ("node:20", "moving tag"),
        ("node:20.20", "moving tag"),
        ("debian:12-slim", "moving tag"),
        ("debian:bookworm-slim", "names no version"),
        ("rust:latest", "latest"),
        ("rust", "no tag"),
        ("gcr.io/distroless/cc-debian12:nonroot", "names no version"),
        ("eclipse-temurin:25-jre", "moving tag"),
        ("golang:${GO}", "variable"),
        ("localhost:5000/rust", "no tag"),
        ("alpine:3.22", "moving tag"),
    ],
)
def test_unpinned_images(ref, fragment):
    problem = image_pin_problem(ref, ["node", "eclipse-temurin"])
    assert problem is not None and fragment in problem


def test_a_two_part_tag_is_exact_unless_the_stack_says_its_image_has_three():
    assert image_pin_problem("golang:1.26") is None
    assert "moving tag" in (image_pin_problem("golang:1.26", ["golang"]) or "")


@pytest.mark.parametrize(
    "ref,patterns,expected",
    [
        ("golang:1.26.8-bookworm", ["golang"], True),
        ("docker.io/library/golang:1.26.8", ["golang"], True),
        ("mcr.microsoft.com/dotnet/sdk:9.0.306", ["dotnet/sdk"], True),
        ("mcr.microsoft.com/dotnet/aspnet:9.0.10", ["dotnet/sdk"], False),
        ("eclipse-temurin:25.0.3_9-jdk-noble", ["maven", "*:*jdk*"], True),
        ("eclipse-temurin:25.0.3_9-jre-noble", ["maven", "*:*jdk*"], False),
        ("python:3.11.14-bookworm", ["python", "!python:*slim*"], True),
        ("python:3.11.14-slim-bookworm", ["python", "!python:*slim*"], False),
        ("debian:12.12-slim", ["golang"], False),
    ],
)
def test_image_patterns_read_like_dockerignore_lines(ref, patterns, expected):
    assert matches(ref, patterns) is expected


# --------------------------------------------------------------------------- reading


def test_read_joins_continuations_substitutes_global_args_and_chains_stages():
    stages = dockerfiles.read(
        textwrap.dedent("""\
        # escape=`
        ARG GO_VERSION=1.26.8
        FROM golang:${GO_VERSION}-bookworm AS build
        RUN apt-get update `
        # a comment inside the continuation
            && true
        FROM debian:12.12-slim AS base
        ENV HOST=0.0.0.0 PORT=8080
        FROM base
        ENV PORT=9090
        USER 10001
    """)
    )
    assert [(s.line, s.base, s.name) for s in stages] == [
        (3, "golang:1.26.8-bookworm", "build"),
        (7, "debian:12.12-slim", "base"),
        (9, "base", None),
    ]
    run = stages[0].instructions[0]
    assert (run.line, run.keyword, run.value.split()) == (4, "RUN", ["apt-get", "update", "&&", "true"])
    assert stages[2].parent is stages[1] and stages[2].root_base() == "debian:12.12-slim"
    assert stages[2].env() == {"HOST": "0.0.0.0", "PORT": "9090"}


def test_instruction_words_flags_and_operands():
    copy = dockerfiles.Instruction(1, "COPY", '--from=build --chown=app "/out/my server" /app/')
    assert copy.flags() == [("from", "build"), ("chown", "app")]
    assert copy.operands() == ["/out/my server", "/app/"]
    assert dockerfiles.Instruction(1, "COPY", '["a b", "/c"]').operands() == ["a b", "/c"]


# --------------------------------------------------------------------------- the rules


def problems_of(tmp_path, text, docker: Docker | None = GO):
    return dockerfile_problems(write_dockerfile(tmp_path, text), "demo/Dockerfile", docker)


def test_a_good_dockerfile_passes(tmp_path):
    assert problems_of(tmp_path, GOOD_DOCKERFILE) == []


def test_the_rules_follow_args_stage_parents_and_bind_mounts(tmp_path):
    assert (
        problems_of(
            tmp_path,
            """\
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
    """,
        )
        == []
    )


def variant(old, new):
    assert old in GOOD_DOCKERFILE
    return GOOD_DOCKERFILE.replace(old, new)


@pytest.mark.parametrize(
    "text,fragments",
    [
        pytest.param(
            variant("FROM golang:1.26.8-bookworm AS build", "FROM golang:latest AS build"),
            ["FROM golang:latest is not pinned"],
            id="latest",
        ),
        pytest.param(
            variant("FROM debian:12.12-slim", "FROM debian:bookworm-slim"),
            ["FROM debian:bookworm-slim", "names no version"],
            id="codename",
        ),
        pytest.param(
            variant("FROM golang:1.26.8-bookworm AS build", "FROM golang:1.26 AS build"),
            ["FROM golang:1.26", "moving tag"],
            id="minor-only",
        ),
        pytest.param(variant("USER 10001\n", ""), ["runs as root: add a USER"], id="no-user"),
        pytest.param(variant("USER 10001\n", "USER root\n"), ["runs as root: USER root"], id="root-user"),
        pytest.param(variant("USER 10001\n", "USER 0:0\n"), ["runs as root: USER 0:0"], id="uid-0"),
        pytest.param(variant("EXPOSE 8080\n", "EXPOSE 3000\n"), ["does not EXPOSE 8080"], id="expose"),
        pytest.param(
            variant("ENV HOST=0.0.0.0 \\\n    PORT=8080", "ENV PORT=8080"),
            ["does not set ENV HOST=0.0.0.0"],
            id="no-host",
        ),
        pytest.param(
            variant("ENV HOST=0.0.0.0 \\\n    PORT=8080", "ENV HOST 127.0.0.1"),
            ["does not set ENV HOST=0.0.0.0 (it is '127.0.0.1')"],
            id="loopback-host",
        ),
        pytest.param(
            variant("COPY --from=build /out/server /app/server", "COPY server /app/server"),
            ["copies nothing from a build stage"],
            id="no-copy-from",
        ),
        pytest.param(
            variant(
                "RUN useradd",
                "RUN apt-get update && apt-get install -y --no-install-recommends gcc=4:12.2.0-3 libpq-dev && useradd",
            ),
            ["installs build tools (gcc, libpq-dev)"],
            id="compiler-in-final",
        ),
        pytest.param(
            variant("RUN useradd", "RUN apk add --no-cache build-base && useradd"),
            ["installs build tools (build-base)"],
            id="apk-build-base",
        ),
        pytest.param(
            variant("RUN useradd", "RUN apt-get install -y golang-1.22 && useradd"),
            ["installs build tools (golang-1.22)"],
            id="ecosystem-package",
        ),
        pytest.param(
            variant("RUN useradd", "RUN CGO_ENABLED=0 go  build ./... && useradd"),
            ["the final stage builds (go  build)"],
            id="ecosystem-command",
        ),
        pytest.param(
            variant("FROM debian:12.12-slim", "FROM golang:1.26.8-bookworm"),
            ["based on golang:1.26.8-bookworm"],
            id="build-image-final",
        ),
        pytest.param(
            variant("COPY go.mod go.sum ./\nRUN go mod download\n", ""),
            ["no dependency layer", "go.mod, go.sum"],
            id="no-dependency-layer",
        ),
        pytest.param(
            variant(
                "COPY go.mod go.sum ./\nRUN go mod download\nCOPY cmd ./cmd\n",
                "COPY cmd ./cmd\nCOPY go.mod go.sum ./\nRUN go mod download\n",
            ),
            ["dependency files are copied after the source (line 4)"],
            id="manifest-after-source",
        ),
        pytest.param(
            variant("COPY go.mod go.sum ./\n", "COPY go.mod go.sum cmd ./\n"),
            ["no dependency layer"],
            id="manifest-with-source",
        ),
        pytest.param(
            variant("RUN go mod download\n", "RUN <<EOF\ngo mod download\nEOF\n"),
            ["demo/Dockerfile:5: a heredoc (<<EOF)", "dockerfile-parse#145"],
            id="heredoc",
        ),
    ],
)
def test_broken_dockerfiles(tmp_path, text, fragments):
    problem = one_problem(problems_of(tmp_path, text), *fragments)
    assert problem.startswith("demo/Dockerfile:")


def test_a_single_stage_build_image(tmp_path):
    problems = problems_of(
        tmp_path,
        """\
        FROM golang:1.26.8-bookworm
        COPY go.mod go.sum ./
        RUN go mod download
        COPY . .
        RUN go build -o /server . && useradd app
        ENV HOST=0.0.0.0
        EXPOSE 8080
        USER app
    """,
    )
    assert len(problems) == 3, problems
    assert "demo/Dockerfile:1: a single stage" in problems[0]
    assert "demo/Dockerfile:1: the final stage is based on golang:1.26.8-bookworm" in problems[1]
    assert "demo/Dockerfile:5: the final stage builds (go build)" in problems[2]


@pytest.mark.parametrize(
    "files,fetch,dependency_files",
    [
        ("pom.xml", "mvn -B dependency:go-offline", ["pom.xml"]),
        ("Cargo.toml Cargo.lock", "cargo fetch --locked", ["Cargo.toml", "Cargo.lock"]),
        ("package.json package-lock.json", "npm ci --omit=dev", ["package.json", "package-lock.json"]),
        ("requirements*.txt", "pip install -r requirements.txt", ["requirements*.txt"]),
        ("Api.csproj packages.lock.json", "dotnet restore --locked-mode", ["*.csproj", "packages.lock.json"]),
    ],
)
def test_the_dependency_files_come_from_the_stack(tmp_path, files, fetch, dependency_files):
    text = variant("COPY go.mod go.sum ./\nRUN go mod download\n", f"COPY {files} ./\nRUN {fetch}\n")
    docker = GO.model_copy(update={"dependency_files": dependency_files})
    assert problems_of(tmp_path, text, docker) == [], files
    one_problem(problems_of(tmp_path, text, GO), "no dependency layer")


def test_without_a_docker_section_the_ecosystem_rules_are_named_as_unchecked(tmp_path):
    one_problem(problems_of(tmp_path, GOOD_DOCKERFILE, None), "no [docker] section", "go unchecked")
