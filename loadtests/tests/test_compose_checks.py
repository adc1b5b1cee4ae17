"""compose.yaml: its rules (bench.checks.compose_checks) and the caps read from it
(bench.compose_file)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from docker_roots import ROOT, make_root, minimal_compose, one_problem

from bench.checks.compose_checks import SCHEMA, compose_problems
from bench.compose_file import caps, parse_bytes, parse_cpus
from bench.errors import BenchError

# --------------------------------------------------------------------------- the real file


def test_the_real_compose_file_passes():
    assert compose_problems(ROOT) == []


def test_the_real_compose_file_has_a_service_per_stack_directory_and_ports_from_8081():
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    order = [
        "go-gin",
        "java-jersey",
        "java-spring",
        "java-bare-httpserver",
        "python-fastapi",
        "rust-axum",
        "node-express",
    ]
    for i, name in enumerate(order):
        assert services[name]["build"] == f"./{name}"
        assert services[name]["ports"] == [f"{8081 + i}:8080"]
        assert services[name]["depends_on"] == {
            "postgres": {"condition": "service_healthy"},
            "upstream": {"condition": "service_healthy"},
        }
        assert services[name]["environment"]["STOCK_URL"] == "http://upstream:8099"
    assert services["k6"]["profiles"] == ["loadtest"]


def test_the_real_upstream_service_is_built_from_its_source_and_publishes_no_host_port():
    upstream = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["upstream"]
    assert upstream["build"] == "./loadtests/upstream"
    assert "ports" not in upstream and "profiles" not in upstream
    assert "8099" in " ".join(upstream["healthcheck"]["test"])


def test_the_real_caps():
    assert caps(ROOT) == {"app": {"cpus": 1.0, "mem_bytes": 512 << 20}, "postgres": {"cpus": 1.0, "mem_bytes": 1 << 30}}


def test_the_vendored_schema_is_there_with_its_licence():
    assert SCHEMA.is_file()
    assert "Apache License" in (SCHEMA.parent / "LICENSE").read_text()
    assert "check-jsonschema" in (SCHEMA.parent / "README.md").read_text()


# --------------------------------------------------------------------------- broken files


def broken(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], stacks: tuple[str, ...] = ("demo",)
) -> list[str]:
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
    one_problem(compose_problems(make_root(tmp_path, "services: [unclosed\n")), "not valid YAML")


def test_a_stack_directory_without_a_service(tmp_path):
    root = make_root(tmp_path, minimal_compose(("demo",)), ("demo", "other"))
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
        s["demo"]["depends_on"] = ["postgres", "upstream"]  # the list form: service_started only

    problems = broken(tmp_path, change)
    assert len(problems) == 2, problems
    assert all("services.demo" in p and "condition: service_healthy" in p for p in problems)


def test_a_stack_without_depends_on(tmp_path):
    problems = broken(tmp_path, lambda s: s["demo"].pop("depends_on"))
    assert len(problems) == 2, problems
    assert "must wait for the database" in problems[0] and "must wait for the stock upstream" in problems[1]


def test_a_stack_depending_on_another_stack(tmp_path):
    def change(s):
        s["a"]["depends_on"]["b"] = {"condition": "service_started"}

    one_problem(
        broken(tmp_path, change, ("a", "b")),
        "services.a depends on b",
        "`docker compose up a` must start postgres, upstream and a only",
    )


def test_a_stack_that_does_not_wait_for_a_healthy_upstream(tmp_path):
    def change(s):
        s["demo"]["depends_on"]["upstream"] = {"condition": "service_started"}

    one_problem(broken(tmp_path, change), "services.demo", "upstream: condition: service_healthy")


def test_a_stack_without_a_stock_url(tmp_path):
    one_problem(broken(tmp_path, lambda s: s["demo"]["environment"].pop("STOCK_URL")), "no STOCK_URL")


def test_a_stock_url_that_does_not_name_the_upstream_service(tmp_path):
    def change(s):
        s["demo"]["environment"]["STOCK_URL"] = "http://127.0.0.1:8099"

    one_problem(broken(tmp_path, change), "STOCK_URL=http://127.0.0.1:8099", "`upstream` service")


def test_no_upstream_service(tmp_path):
    problems = broken(tmp_path, lambda s: s.pop("upstream"))
    assert "no `upstream` service" in problems[0], problems


def test_an_upstream_built_elsewhere_under_a_profile_without_caps_or_healthcheck(tmp_path):
    def change(s):
        s["upstream"].update(build="./loadtests/stock", profiles=["loadtest"])
        for key in ("cpus", "healthcheck"):
            s["upstream"].pop(key)

    problems = broken(tmp_path, change)
    assert len(problems) == 4, problems
    assert all("services.upstream" in p for p in problems)
    assert any("build it from ./loadtests/upstream" in p for p in problems)
    assert any("starts with them" in p for p in problems)


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


# --------------------------------------------------------------------------- caps


@pytest.mark.parametrize(
    "value,expected",
    [
        ("512m", 512 << 20),
        ("1g", 1 << 30),
        ("256M", 256 << 20),
        (1073741824, 1 << 30),
        ("1073741824", 1 << 30),
        ("1.5g", 3 << 29),
        ("64mb", 64 << 20),
        ("2GB", 2 << 30),
        ("512k", 512 << 10),
    ],
)
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
    assert caps(root) == {
        "app": {"cpus": 1.0, "mem_bytes": 512 << 20},
        "postgres": {"cpus": 2.0, "mem_bytes": 2 << 30},
        "c": {"cpus": 1.5, "mem_bytes": 1 << 30},
    }


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
    assert caps(make_root(tmp_path, text)) == {
        "app": {"cpus": 1.5, "mem_bytes": 256 << 20},
        "postgres": {"cpus": 1.0, "mem_bytes": 1 << 30},
    }


def test_caps_fails_clearly(tmp_path):
    compose = minimal_compose()
    compose["services"]["postgres"].pop("mem_limit")
    with pytest.raises(BenchError, match="service postgres has no mem_limit"):
        caps(make_root(tmp_path, compose))
    with pytest.raises(BenchError, match=r"compose\.yaml is missing"):
        caps(tmp_path / "nowhere")
