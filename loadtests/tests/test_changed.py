"""`./bench test --changed BASE` selects exactly the stacks a change touches: sample diffs (lists of
changed paths, edits of compose.yaml and of a manifest), the repository's own compose.yaml and
manifests, and a real git history."""

import subprocess
import textwrap

import pytest
from click.testing import CliRunner

from bench import cli, manifest, paths
from bench.errors import BenchError
from bench.testing import changed
from bench.testing.changed import Change

KNOWN = {
    "go-gin": [],
    "java-spring": ["platform-threads", "n-plus-one"],
    "node-express": [],
    "rust-axum": [],
}
STACKS = set(KNOWN)

COMPOSE = textwrap.dedent("""\
    # The Docker path: PostgreSQL, one service per stack, and k6.

    x-stack: &stack
      cpus: 1
      mem_limit: 512m

    services:
      postgres:
        image: postgres:15.18-bookworm
        mem_limit: 1g

      go-gin:
        <<: *stack
        build: ./go-gin
        ports: ["8081:8080"]

      java-spring:
        <<: *stack
        build: ./java-spring
        ports: ["8083:8080"]

      # The load generator, started only on demand.
      k6:
        image: grafana/k6:1.8.1

    volumes:
      pgdata:
""")

MANIFEST = textwrap.dedent("""\
    name = "java-spring"
    display = "Java · Spring Boot"

    [run]
    command = "exec java -jar app.jar"
    [run.env]
    VIRTUAL_THREADS = "true"

    # The stack with one knob changed.
    [variants.platform-threads]
    description = "Tomcat's pool of 200 platform threads"
    scenarios = ["read-heavy", "join-filter"]
    env = { VIRTUAL_THREADS = "false" }

    [variants.n-plus-one]
    description = "Item lists load each category lazily"
    scenarios = [
      "read-heavy",
      "join-filter",
    ]
    [variants.n-plus-one.build]
    command = "mvn -Pn-plus-one package"
    artifact = "target/app.jar"
""")


def chosen(*changes: Change, known=KNOWN, stacks=STACKS) -> list[str]:
    return changed.select(changes, stacks).names(known)


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{old!r} is not in the sample once"
    return text.replace(old, new)


def compose_change(old: str, new: str) -> Change:
    return Change("compose.yaml", COMPOSE, edit(COMPOSE, old, new))


def manifest_change(old: str, new: str) -> Change:
    return Change("java-spring/impl.toml", MANIFEST, edit(MANIFEST, old, new))


@pytest.mark.parametrize(
    ("path", "stacks"),
    [
        ("go-gin/internal/api/server.go", ["go-gin"]),
        ("go-gin/Dockerfile", ["go-gin"]),
        ("node-express/package-lock.json", ["node-express"]),
        ("deploy/k8s/stacks/rust-axum/deployment.yaml", ["rust-axum"]),
        ("rust-axum/README.md", []),
        ("README.md", []),
        ("CONTRIBUTING.md", []),
        ("results.md", []),
        ("docs/method.md", []),
        ("results/raw/quick/go-gin-read-heavy.json", []),
        ("results/capacity.png", []),
        ("loadtests/README.md", []),
    ],
)
def test_a_stack_file_touches_its_stack_and_documentation_none(path, stacks):
    assert chosen(Change(path)) == stacks


@pytest.mark.parametrize(
    "path",
    [
        "spec/openapi.yaml",
        "spec/API.md",
        "spec/conformance/test_items.py",
        "db/seed.sql",
        "loadtests/bench/testing/pipeline.py",
        "loadtests/k6/lib/common.js",
        "loadtests/requirements.txt",
        "bench",
        ".ci/run",
        ".github/workflows/pull-request.yml",
        ".gitignore",
        "deploy/k8s/base/kustomization.yaml",
        "deploy/k8s/stacks/kustomization.yaml",
    ],
)
def test_a_shared_file_touches_every_stack(path):
    selection = changed.select([Change("go-gin/main.go"), Change(path)], STACKS)
    assert selection.shared == [path]
    assert selection.names(KNOWN) == sorted(KNOWN)


def test_stacks_touched_together_are_each_tested_once():
    changes = [Change("rust-axum/src/main.rs"), Change("go-gin/go.mod"), Change("go-gin/go.sum"), Change("docs/x.md")]
    selection = changed.select(changes, STACKS)
    assert selection.names(KNOWN) == ["go-gin", "rust-axum"]
    assert selection.touched["go-gin"] == ["go-gin/go.mod", "go-gin/go.sum"] and selection.docs == ["docs/x.md"]


def test_nothing_changed_selects_nothing():
    assert chosen() == []


def test_a_line_of_a_stacks_compose_service_touches_that_stack():
    assert chosen(compose_change('ports: ["8081:8080"]', 'ports: ["8091:8080"]')) == ["go-gin"]
    assert chosen(compose_change("build: ./java-spring", "build:\n      context: ./java-spring")) == ["java-spring"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("mem_limit: 512m", "mem_limit: 768m"),  # the block every stack's service is made of
        ("mem_limit: 1g", "mem_limit: 2g"),  # PostgreSQL, which every stack uses
        ("image: grafana/k6:1.8.1", "image: grafana/k6:1.9.0"),  # the Docker path's smoke
        ("  pgdata:\n", "  pgdata:\n  more:\n"),
    ],
)
def test_compose_outside_the_stacks_services_touches_every_stack(old, new):
    assert chosen(compose_change(old, new)) == sorted(KNOWN)


def test_comments_and_blank_lines_of_compose_touch_nothing():
    assert chosen(compose_change("# The load generator, started only on demand.", "# k6, on demand.")) == []
    assert chosen(compose_change("  java-spring:\n", "\n  java-spring:\n")) == []


def test_a_service_added_or_removed_touches_its_stack():
    added = '  rust-axum:\n    <<: *stack\n    build: ./rust-axum\n    ports: ["8086:8080"]\n\n'
    assert chosen(compose_change("  # The load generator", added + "  # The load generator")) == ["rust-axum"]
    removed = '  go-gin:\n    <<: *stack\n    build: ./go-gin\n    ports: ["8081:8080"]\n\n'
    assert chosen(compose_change(removed, "")) == ["go-gin"]


def test_edits_of_two_stacks_services_touch_both():
    after = edit(edit(COMPOSE, '"8081:8080"', '"8091:8080"'), '"8083:8080"', '"8093:8080"')
    assert chosen(Change("compose.yaml", COMPOSE, after)) == ["go-gin", "java-spring"]


def test_a_stack_service_that_defines_an_anchor_is_shared():
    anchored = edit(COMPOSE, "    build: ./go-gin\n", "    build: ./go-gin\n    healthcheck: &probe\n      test: [x]\n")
    edited = edit(anchored, "      test: [x]", "      test: [y]")
    assert chosen(Change("compose.yaml", anchored, edited)) == sorted(KNOWN)


def test_a_shells_and_in_a_stacks_healthcheck_is_no_anchor():
    probe = "    healthcheck:\n      test: [CMD, bash, -c, 'exec 3<>/dev/tcp/127.0.0.1/8080 && head -n 1 <&3']\n"
    before = edit(COMPOSE, "    build: ./go-gin\n", f"    build: ./go-gin\n{probe}")
    assert chosen(Change("compose.yaml", before, edit(before, "head -n 1", "head -n 2"))) == ["go-gin"]


def test_compose_added_or_deleted_whole_touches_every_stack():
    assert chosen(Change("compose.yaml", None, COMPOSE)) == sorted(KNOWN)
    assert chosen(Change("compose.yaml", COMPOSE, None)) == sorted(KNOWN)


def test_a_variants_table_touches_that_variant_alone():
    assert chosen(manifest_change('"Item lists load each', '"Item lists load every')) == ["java-spring@n-plus-one"]
    # Its sub-table and the lines of an array over several lines are the variant's too.
    assert chosen(manifest_change('"mvn -Pn-plus-one package"', '"mvn -Pnplus package"')) == ["java-spring@n-plus-one"]
    assert chosen(manifest_change('  "join-filter",\n', '  "join-filter",\n  "mixed",\n')) == ["java-spring@n-plus-one"]
    assert chosen(manifest_change('VIRTUAL_THREADS = "false" }', 'VIRTUAL_THREADS = "no" }')) == [
        "java-spring@platform-threads"
    ]


def test_two_variants_changed_are_both_tested_without_the_stack():
    after = edit(edit(MANIFEST, "Tomcat's pool", "Tomcat's own pool"), "load each", "load every")
    assert chosen(Change("java-spring/impl.toml", MANIFEST, after)) == [
        "java-spring@n-plus-one",
        "java-spring@platform-threads",
    ]


def test_the_stacks_own_tables_touch_the_stack_with_its_variants():
    assert chosen(manifest_change('VIRTUAL_THREADS = "true"', 'VIRTUAL_THREADS = "yes"')) == ["java-spring"]
    assert chosen(manifest_change('display = "Java · Spring Boot"', 'display = "Spring"')) == ["java-spring"]
    # A variant's lines beside another file of the stack: the stack, which brings every variant.
    variant = manifest_change('"Item lists load each', '"Item lists load every')
    assert chosen(variant, Change("java-spring/src/App.java")) == ["java-spring"]


def test_a_variant_added_is_tested_and_a_removed_one_is_not():
    new = '[variants.jdbc]\ndescription = "JDBC"\nscenarios = ["mixed"]\n'
    known = {**KNOWN, "java-spring": [*KNOWN["java-spring"], "jdbc"]}
    assert chosen(Change("java-spring/impl.toml", MANIFEST, MANIFEST + new), known=known) == ["java-spring@jdbc"]
    start = MANIFEST.index("[variants.n-plus-one]")
    removed = Change("java-spring/impl.toml", MANIFEST, MANIFEST[:start])
    known = {**KNOWN, "java-spring": ["platform-threads"]}
    assert changed.select([removed], STACKS).touched == {"java-spring@n-plus-one": ["java-spring/impl.toml"]}
    assert chosen(removed, known=known) == []


def test_variants_written_as_keys_of_one_table_are_told_apart():
    before = '[variants]\nslow = { description = "a", scenarios = ["mixed"] }\nfast.description = "b"\n'
    after = before.replace('"b"', '"c"')
    known = {"java-spring": ["slow", "fast"]}
    assert chosen(Change("java-spring/impl.toml", before, after), known=known) == ["java-spring@fast"]


def test_a_comment_of_a_manifest_touches_nothing():
    assert chosen(manifest_change("# The stack with one knob changed.", "# One knob changed.")) == []


def test_a_stack_deleted_since_touches_nothing_left():
    changes = [Change("elixir-phoenix/impl.toml", "name = 'elixir-phoenix'\n", None), Change("elixir-phoenix/mix.exs")]
    assert chosen(*changes, stacks=STACKS | {"elixir-phoenix"}) == []


def test_a_new_stack_is_tested():
    known = {**KNOWN, "kotlin-ktor": []}
    new = Change("kotlin-ktor/impl.toml", None, "name = 'kotlin-ktor'\n")
    assert chosen(new, known=known, stacks=set(known)) == ["kotlin-ktor"]


def test_each_service_of_the_repositorys_compose_file_is_its_stacks():
    text = (paths.ROOT / "compose.yaml").read_text()
    names = [stack.name for stack in manifest.discover()]
    owners = changed.compose_owners(text, set(names))
    lines = text.splitlines()
    for name in names:
        mine = [line for line, owner in zip(lines, owners, strict=True) if owner == name]
        assert mine[0] == f"  {name}:" and any(f"./{name}" in line for line in mine), name
    # The harness's services and the blocks the stacks' are made of are every stack's.
    shared = [line for line, owner in zip(lines, owners, strict=True) if owner == changed.EVERY]
    assert {"x-stack: &stack", "services:", "  postgres:", "  upstream:", "  k6:"} <= set(shared)


def test_each_variant_of_the_repositorys_manifests_is_told_apart():
    stacks = [stack for stack in manifest.discover() if stack.variants]
    assert stacks
    for stack in stacks:
        text = (stack.directory / manifest.MANIFEST).read_text()
        owners = set(changed.manifest_owners(stack.name, text))
        assert owners == {stack.name, None, *(f"{stack.name}@{variant}" for variant in stack.variants)}


def git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def repository(tmp_path):
    """A repository with two stacks and a compose file, its main branch one commit."""
    root = tmp_path / "repo"
    for name in ("go-gin", "rust-axum"):
        (root / name).mkdir(parents=True)
        (root / name / "impl.toml").write_text(f'name = "{name}"\n')
        (root / name / "main.txt").write_text("v1\n")
    (root / "compose.yaml").write_text(COMPOSE)
    (root / "README.md").write_text("# Demo\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    return root


def read(root, base="main"):
    diff = changed.read_changes(base, root)
    return {change.path: change for change in diff.changes}, diff


def test_git_changes_are_read_since_the_merge_base_committed_or_not(repository):
    root = repository
    git(root, "checkout", "-q", "-b", "topic")
    (root / "go-gin" / "main.txt").write_text("v2\n")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "two")
    # main moves on after the branch: what it changed is not this change's.
    git(root, "checkout", "-q", "main")
    (root / "rust-axum" / "main.txt").write_text("v3\n")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "three")
    git(root, "checkout", "-q", "topic")
    (root / "compose.yaml").write_text(edit(COMPOSE, '"8083:8080"', '"8093:8080"'))  # not committed
    (root / "notes.md").write_text("new\n")  # not even added
    changes, diff = read(root)
    assert sorted(changes) == ["compose.yaml", "go-gin/main.txt", "notes.md"]
    assert changes["compose.yaml"].before == COMPOSE and '"8093:8080"' in (changes["compose.yaml"].after or "")
    assert changes["go-gin/main.txt"].before is None  # only compose.yaml and the manifests are read
    assert diff.stacks_then == {"go-gin", "rust-axum"}
    known: dict[str, list[str]] = {"go-gin": [], "java-spring": [], "rust-axum": []}
    assert changed.select(diff.changes, set(known) | diff.stacks_then).names(known) == ["go-gin", "java-spring"]


def test_a_deleted_stack_is_known_from_the_merge_base(repository):
    root = repository
    git(root, "rm", "-q", "-r", "rust-axum")
    changes, diff = read(root)
    assert sorted(changes) == ["rust-axum/impl.toml", "rust-axum/main.txt"]
    assert changes["rust-axum/impl.toml"].after is None and diff.stacks_then == {"go-gin", "rust-axum"}


def test_an_unknown_base_is_a_clear_error(repository):
    with pytest.raises(BenchError, match="git knows no commit 'no-such-branch'"):
        changed.read_changes("no-such-branch", repository)


def test_the_description_says_why():
    selection = changed.select([Change("go-gin/a.go"), Change("go-gin/b.go"), Change("README.md")], STACKS)
    lines = changed.describe(selection, selection.names(KNOWN), "0123456789abcdef")
    assert lines == ["changed since 0123456789ab: go-gin", "  go-gin: go-gin/a.go, go-gin/b.go"]
    docs = changed.select([Change("README.md")], STACKS)
    assert "no stack (1 documentation files)" in changed.describe(docs, [], "0123456789abcdef")[0]
    shared = changed.select([Change("db/seed.sql"), Change("spec/API.md")], STACKS)
    assert "every stack, for db/seed.sql and 1 more" in changed.describe(shared, sorted(KNOWN), "01234567")[0]


def test_stacks_named_beside_changed_are_refused():
    result = CliRunner().invoke(cli.cli, ["test", "go-gin", "--changed", "HEAD"])
    assert result.exit_code == 2 and "name stacks or give --changed, not both" in result.output
    assert "--changed BASE" in CliRunner().invoke(cli.cli, ["test", "--help"]).output
