"""Repository roots for the Docker checks' tests: a compose.yaml, stacks and a stock upstream that
pass every rule, for a test to break one thing of."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import yaml
from test_manifest import VALID

from bench.manifest import Docker

ROOT = Path(__file__).resolve().parents[2]

GO = Docker(
    dependency_files=["go.mod", "go.sum"],
    build_images=["golang"],
    build_commands=["go build"],
    build_packages=["golang", "golang-*"],
    three_part_versions=["golang"],
)
GO_TOML = textwrap.dedent("""\
    [docker]
    dependency_files = ["go.mod", "go.sum"]
    build_images = ["golang"]
    build_commands = ["go build"]
    build_packages = ["golang", "golang-*"]
    three_part_versions = ["golang"]
""")

# A Dockerfile that follows every rule; each broken variant in the tests changes one thing.
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


# The stock upstream's: the stacks' Go build, on its own port.
GOOD_UPSTREAM_DOCKERFILE = textwrap.dedent("""\
    # syntax=docker/dockerfile:1
    FROM golang:1.26.8-bookworm AS build
    WORKDIR /src
    COPY go.mod ./
    RUN go mod download
    COPY *.go ./
    RUN CGO_ENABLED=0 go build -o /out/upstream .

    FROM debian:12.12-slim
    RUN useradd --system --uid 10001 --no-create-home app
    COPY --from=build /out/upstream /app/upstream
    ENV HOST=0.0.0.0 PORT=8099
    EXPOSE 8099
    USER 10001
    ENTRYPOINT ["/app/upstream"]
""")


def manifest_text(name: str, docker: str | None = GO_TOML) -> str:
    """A valid impl.toml for a stack named `name`, with `docker` as its [docker] section."""
    return VALID.split("[docker]")[0].replace('name = "demo"', f'name = "{name}"') + (docker or "")


def minimal_compose(stacks: tuple[str, ...] = ("demo",)) -> dict[str, Any]:
    """A compose file that passes every rule, as a dict to break."""
    services: dict[str, Any] = {
        "postgres": {
            "image": "postgres:15.18-bookworm",
            "cpus": 1,
            "mem_limit": "1g",
            "healthcheck": {"test": ["CMD", "pg_isready", "--host=127.0.0.1"]},
        },
        "upstream": {
            "build": "./loadtests/upstream",
            "cpus": 1,
            "mem_limit": "64m",
            "healthcheck": {"test": ["CMD", "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8099"]},
        },
        "k6": {"image": "grafana/k6:1.8.1", "profiles": ["loadtest"]},
    }
    for i, name in enumerate(stacks):
        services[name] = {
            "build": f"./{name}",
            "cpus": 1,
            "mem_limit": "512m",
            "ports": [f"{8081 + i}:8080"],
            "environment": {
                "DATABASE_URL": "postgres://bench:bench@postgres:5432/bench",
                "DB_POOL_SIZE": "10",
                "HOST": "0.0.0.0",
                "PORT": "8080",
                "STOCK_URL": "http://upstream:8099",
            },
            "depends_on": {
                "postgres": {"condition": "service_healthy"},
                "upstream": {"condition": "service_healthy"},
            },
            "healthcheck": {"test": ["CMD", "/app/server", "healthcheck"]},
        }
    return {"services": services}


def make_root(
    tmp_path: Path,
    compose: dict[str, Any] | str,
    stacks: tuple[str, ...] = ("demo",),
    dockerfile: str | None = GOOD_DOCKERFILE,
    docker: str | None = GO_TOML,
    upstream_dockerfile: str | None = GOOD_UPSTREAM_DOCKERFILE,
) -> Path:
    if upstream_dockerfile is not None:
        (tmp_path / "loadtests" / "upstream").mkdir(parents=True)
        (tmp_path / "loadtests" / "upstream" / "Dockerfile").write_text(upstream_dockerfile)
    for name in stacks:
        (tmp_path / name).mkdir()
        (tmp_path / name / "impl.toml").write_text(manifest_text(name, docker))
        if dockerfile is not None:
            (tmp_path / name / "Dockerfile").write_text(dockerfile)
    text = compose if isinstance(compose, str) else yaml.safe_dump(compose, sort_keys=False)
    (tmp_path / "compose.yaml").write_text(text)
    return tmp_path


def write_dockerfile(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "Dockerfile"
    path.write_text(textwrap.dedent(text))
    return path


def one_problem(problems: list[str], *fragments: str) -> str:
    """Exactly one problem, holding every fragment."""
    assert len(problems) == 1, problems
    for fragment in fragments:
        assert fragment in problems[0], problems
    return problems[0]
