import textwrap

import pytest

from bench import manifest, paths
from bench.errors import BenchError

VALID = textwrap.dedent("""
    name = "demo"
    display = "Demo · test"
    language = "Shell"
    language_version = "5"
    framework = "none"
    framework_version = "0"
    server = "none"
    data_access = "none"
    [toolchain]
    check = "true"
    hint = "nothing to install"
    [env]
    GREETING = "${BENCH_TEST_GREETING:-hello}"
    [build]
    command = "touch out"
    artifact = "out"
    [test]
    command = "true"
    [run]
    command = "exec sleep 60"
    [run.env]
    ONLY_AT_RUN = "yes"
    [docker]
    dependency_files = ["deps.lock"]
    build_images = ["builder"]
""")


def write_stack(root, name="demo", text=VALID):
    directory = root / name
    directory.mkdir()
    (directory / "impl.toml").write_text(text)
    return directory


def test_load_reads_every_field(tmp_path):
    stack = manifest.load(write_stack(tmp_path))
    assert stack.name == "demo" and stack.build_artifact == "out" and stack.ready_timeout_s == 60
    assert stack.toolchain_apt == () and stack.fetch_command is None
    assert stack.directory == tmp_path / "demo" and stack.run_command == "exec sleep 60"
    assert stack.docker is not None and stack.docker.dependency_files == ["deps.lock"]
    assert stack.docker.build_commands == [] and stack.docker.three_part_versions == []


def test_environment_expands_defaults_and_keeps_run_env_for_run(tmp_path, monkeypatch):
    stack = manifest.load(write_stack(tmp_path))
    monkeypatch.delenv("BENCH_TEST_GREETING", raising=False)
    assert stack.environment()["GREETING"] == "hello"
    assert "ONLY_AT_RUN" not in stack.environment()
    monkeypatch.setenv("BENCH_TEST_GREETING", "hi")
    env = stack.environment({"PORT": "1"}, run=True)
    assert env["GREETING"] == "hi" and env["ONLY_AT_RUN"] == "yes" and env["PORT"] == "1"


@pytest.mark.parametrize(
    "value,environ,expected",
    [
        ("${A}", {"A": "1"}, "1"),
        ("${A:-x}", {}, "x"),
        ("${A:-x}", {"A": ""}, "x"),
        ("pre-${A}-post", {"A": "mid"}, "pre-mid-post"),
        ("$A stays", {"A": "1"}, "$A stays"),
    ],
)
def test_expand(value, environ, expected):
    assert manifest.expand(value, environ) == expected


def test_name_must_match_directory(tmp_path):
    directory = write_stack(tmp_path, name="other")
    with pytest.raises(BenchError, match="must equal the directory name"):
        manifest.load(directory)


def test_missing_field_is_named(tmp_path):
    directory = write_stack(tmp_path, text=VALID.replace('artifact = "out"\n', ""))
    with pytest.raises(BenchError, match=r"demo/impl.toml is not a valid manifest") as error:
        manifest.load(directory)
    assert str(error.value).splitlines()[1:] == ["  [build] `artifact` is missing: add it"]


def test_every_problem_is_named_with_what_to_do(tmp_path):
    text = (
        VALID.replace('[toolchain]\ncheck = "true"\nhint = "nothing to install"\n', "")
        .replace('command = "touch out"', 'comand = "touch out"')
        .replace('display = "Demo · test"', 'display = "  "')
        .replace("[run.env]", 'ready_timeout_s = "soon"\n[run.env]')
        .replace('build_images = ["builder"]', "build_images = []")
    )
    with pytest.raises(BenchError) as error:
        manifest.load(write_stack(tmp_path, text=text))
    assert str(error.value).splitlines()[1:] == [
        "  `display` is empty: give it a value",
        "  the [toolchain] section is missing: add it",
        "  [build] `command` is missing: add it",
        "  [build] `comand` is not a key of impl.toml: remove it or fix its spelling",
        "  [run] `ready_timeout_s`: input should be a valid number, unable to parse string as a number (found 'soon')",
        "  [docker] `build_images` is empty: give it a value",
    ]


def test_numbers_in_env_tables_are_strings_and_docker_is_optional(tmp_path):
    text = VALID.replace('ONLY_AT_RUN = "yes"', "ONLY_AT_RUN = 8080").split("[docker]")[0]
    stack = manifest.load(write_stack(tmp_path, text=text))
    assert stack.run_env == {"ONLY_AT_RUN": "8080"} and stack.docker is None


def test_invalid_toml_is_a_clear_error(tmp_path):
    directory = write_stack(tmp_path, text="name = ")
    with pytest.raises(BenchError, match="not valid TOML"):
        manifest.load(directory)


def test_discover_finds_only_directories_with_a_manifest(tmp_path):
    write_stack(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / ".hidden").mkdir()
    assert [s.name for s in manifest.discover(tmp_path)] == ["demo"]


def test_select_rejects_unknown_stacks(monkeypatch, tmp_path):
    write_stack(tmp_path)
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    with pytest.raises(BenchError, match="unknown stack nope: choose from demo"):
        manifest.select(["nope"])
    assert [s.name for s in manifest.select(["demo/"])] == ["demo"]


def test_every_stack_of_the_repository_has_a_valid_manifest():
    stacks = manifest.discover(paths.ROOT)
    assert stacks, "the repository has no stack"
    for stack in stacks:
        assert (stack.directory / "README.md").is_file(), f"{stack.name} has no README.md"
        assert (stack.directory / "Dockerfile").is_file(), f"{stack.name} has no Dockerfile"
        assert stack.docker is not None, f"{stack.name}'s impl.toml has no [docker] section"


def test_the_example_in_contributing_md_is_a_valid_manifest(tmp_path):
    guide = (paths.ROOT / "CONTRIBUTING.md").read_text()
    example = textwrap.dedent(guide.split("```toml\n", 1)[1].split("```", 1)[0])
    stack = manifest.load(write_stack(tmp_path, "kotlin-ktor", example))
    assert stack.docker is not None and stack.docker.build_images == ["gradle", "*:*jdk*"]


VARIANTS = textwrap.dedent("""
    [variants.platform-threads]
    description = "Tomcat's pool of 200 platform threads instead of virtual threads"
    scenarios = ["read-heavy", "join-filter"]
    claim = "study-threads"
    env = { VIRTUAL_THREADS = "false" }

    [variants.small-heap]
    description = "an 8 MB heap"
    scenarios = ["avatar"]
    run = "exec sleep 61"

    [variants.jdbc]
    description = "blocking JDBC on boundedElastic"
    scenarios = ["mixed"]
    build = { command = "touch out-jdbc", artifact = "out-jdbc" }
""")


def test_variants_change_one_knob_of_the_stack_and_are_named_stack_at_variant(tmp_path, monkeypatch):
    write_stack(tmp_path, text=VALID + VARIANTS)
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    base, threads, heap, jdbc = manifest.select(["demo", "demo@platform-threads", "demo@small-heap", "demo@jdbc"])
    assert [v.name for v in base.variant_stacks()] == ["demo@platform-threads", "demo@small-heap", "demo@jdbc"]
    assert (threads.name, threads.base_name, threads.variant) == ("demo@platform-threads", "demo", "platform-threads")
    assert threads.display == "Demo · test (platform-threads)" and threads.directory == base.directory
    env = threads.environment(run=True)
    assert env["VIRTUAL_THREADS"] == "false" and env["ONLY_AT_RUN"] == "yes"
    assert threads.run_command == base.run_command and heap.run_command == "exec sleep 61"
    # Only a variant with a build of its own builds apart from its stack.
    assert threads.build_key == heap.build_key == "demo" and jdbc.build_key == "demo@jdbc"
    assert jdbc.build_artifact == "out-jdbc" and base.build_artifact == "out"
    assert base.variants["platform-threads"].claim == "study-threads" and threads.variants == {}


def test_an_unknown_variant_says_which_there_are(tmp_path, monkeypatch):
    write_stack(tmp_path, text=VALID + VARIANTS)
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    with pytest.raises(BenchError, match="demo has no variant 'n-plus-one': its variants are platform-threads, small"):
        manifest.select(["demo@n-plus-one"])
    with pytest.raises(BenchError, match="unknown stack nope: choose from demo"):
        manifest.select(["nope@platform-threads"])


@pytest.mark.parametrize(
    ("table", "said"),
    [
        (
            '[variants.fast]\ndescripton = "x"\nscenarios = ["avatar"]\n',
            "[variants.fast] `descripton` is not a key of impl.toml: remove it or fix its spelling",
        ),
        ('[variants.fast]\nscenarios = ["avatar"]\n', "[variants.fast] `description` is missing: add it"),
        ('[variants.fast]\ndescription = "x"\nscenarios = ["avatr"]\n', "unknown scenario avatr: choose from"),
        (
            '[variants.fast]\ndescription = "x"\nscenarios = []\n',
            "[variants.fast] `scenarios` is empty: give it a value",
        ),
        ('[variants.Fast_1]\ndescription = "x"\nscenarios = ["avatar"]\n', "rename Fast_1"),
    ],
)
def test_a_misspelt_or_missing_variant_key_is_named_with_what_to_do(tmp_path, table, said):
    with pytest.raises(BenchError, match="is not a valid manifest") as raised:
        manifest.load(write_stack(tmp_path, text=VALID + table))
    assert said in str(raised.value)


def test_a_variant_of_a_stack_in_another_ecosystem(tmp_path, monkeypatch):
    # Node.js: a variant is an environment variable of its run, nothing Java-specific.
    node = VALID.replace('language = "Shell"', 'language = "JavaScript"') + textwrap.dedent("""
        [variants.cluster]
        description = "node:cluster with two workers"
        scenarios = ["read-heavy"]
        env = { WORKERS = "2" }
    """)
    write_stack(tmp_path, "node-demo", node.replace('name = "demo"', 'name = "node-demo"'))
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    (cluster,) = manifest.select(["node-demo@cluster"])
    assert cluster.language == "JavaScript" and cluster.environment(run=True)["WORKERS"] == "2"


def test_the_variant_example_in_contributing_md_is_a_valid_variant(tmp_path):
    guide = (paths.ROOT / "CONTRIBUTING.md").read_text()
    example = guide.split("## Adding a variant", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    stack = manifest.load(write_stack(tmp_path, text=VALID + example))
    (variant,) = stack.variant_stacks()
    assert variant.name == "demo@platform-threads" and variant.environment(run=True)["VIRTUAL_THREADS"] == "false"
