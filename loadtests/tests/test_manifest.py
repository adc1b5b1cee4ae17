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
