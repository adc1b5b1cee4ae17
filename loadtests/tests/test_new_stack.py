"""A new stack in an ecosystem the repository has never seen (.NET), added to a copy of the
repository the way CONTRIBUTING.md says: a directory with an impl.toml and a Dockerfile, a
service in compose.yaml, and its Kubernetes manifests written by `./bench k8s`. Nothing under
loadtests/ changes, and the runner's static checks take it in: the Dockerfile and compose
checks, and kustomize with kubeconform over deploy/k8s/."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from docker_roots import ROOT

from bench import manifest, tools
from bench.checks import docker_checks, k8s
from bench.compose_file import caps

NAME = "csharp-aspnet"

IMPL_TOML = textwrap.dedent(f"""\
    name = "{NAME}"
    display = "C# · ASP.NET Core"
    language = "C#"
    language_version = "13"
    framework = "ASP.NET Core minimal APIs"
    framework_version = "9.0.10"
    server = "Kestrel"
    data_access = "Npgsql 9.0.4"

    [toolchain]
    check = "dotnet --version"
    hint = "install the .NET 9 SDK"

    [build]
    fetch = "dotnet restore --locked-mode"
    command = "dotnet publish -c Release -o out --no-restore"
    artifact = "out/Api.dll"

    [test]
    command = "dotnet test"

    [run]
    command = "exec dotnet out/Api.dll"

    [docker]
    dependency_files = ["*.csproj", "packages.lock.json", "NuGet.config"]
    build_images = ["dotnet/sdk"]
    build_commands = ["dotnet build", "dotnet publish", "dotnet restore"]
    build_packages = ["dotnet-sdk-*"]
""")

DOCKERFILE = textwrap.dedent("""\
    FROM mcr.microsoft.com/dotnet/sdk:9.0.306-bookworm-slim AS build
    WORKDIR /src
    COPY Api.csproj packages.lock.json ./
    RUN dotnet restore --locked-mode
    COPY src ./src
    RUN dotnet publish -c Release -o /out --no-restore

    FROM mcr.microsoft.com/dotnet/aspnet:9.0.10-bookworm-slim
    WORKDIR /app
    COPY --from=build /out ./
    ENV HOST=0.0.0.0 PORT=8080 ASPNETCORE_HTTP_PORTS=8080
    EXPOSE 8080
    USER 1654
    ENTRYPOINT ["dotnet", "Api.dll"]
""")

SERVICE = textwrap.indent(
    textwrap.dedent(f"""\
    {NAME}:
      <<: *stack
      build: ./{NAME}
      ports: ["18088:8080"]  # far from the real stacks' 8081, 8082, …
      healthcheck:
        <<: *stack-probe
        test: ["CMD", "dotnet", "Api.dll", "healthcheck"]

"""),
    "  ",
)


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's files (as git lists them, build outputs left out), plus the new stack."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True
    )
    if listing.returncode != 0:
        pytest.skip("not a git checkout: nothing tells the repository's files from build outputs")
    target = tmp_path_factory.mktemp("repository")
    for name in filter(None, listing.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    stack = target / NAME
    stack.mkdir()
    (stack / "impl.toml").write_text(IMPL_TOML)
    (stack / "Dockerfile").write_text(DOCKERFILE)
    compose = target / "compose.yaml"
    compose.write_text(compose.read_text().replace("\nservices:\n", "\nservices:\n" + SERVICE, 1))
    return target


def bench(copy: Path, state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`./bench ARGS` in the copy, with a state of its own."""
    env = {**os.environ, "BENCH_ROOT": str(copy), "BENCH_HOME": str(state)}
    return subprocess.run(
        [sys.executable, "-m", "bench", *args], cwd=copy, env=env, capture_output=True, text=True, timeout=60
    )


def test_it_is_a_stack(copy):
    stack = manifest.load(copy / NAME)
    assert stack.docker is not None and stack.docker.build_images == ["dotnet/sdk"]
    assert NAME in [d.name for d in manifest.stack_dirs(copy)]


def test_it_passes_the_docker_checks(copy):
    hadolint = docker_checks.hadolint_binary() is not None
    assert docker_checks.check(copy, hadolint=hadolint) == []


def test_its_ecosystem_is_what_its_manifest_says(copy, tmp_path):
    # The rules hold for it as for the others: its SDK image may not be the final stage.
    broken = tmp_path / "Dockerfile"
    broken.write_text(DOCKERFILE.replace("dotnet/aspnet:9.0.10-bookworm-slim", "dotnet/sdk:9.0.306-bookworm-slim"))
    problems = docker_checks.dockerfile_problems(broken, "Dockerfile", manifest.load(copy / NAME).docker)
    assert len(problems) == 1 and "the final stage is based on mcr.microsoft.com/dotnet/sdk" in problems[0]


def test_its_kubernetes_manifests_are_written_from_compose_and_pass_the_k8s_checks(copy, tmp_path):
    validators = k8s.Validators(tools.ensure(tools.KUSTOMIZE), tools.ensure(tools.KUBECONFORM))
    names = [s.name for s in manifest.discover(copy)]
    # Before `./bench k8s`, the check says what to run.
    _, problems = k8s.check(validators, names, caps(copy), root=copy)
    assert problems == [
        f"deploy/k8s/stacks/{NAME}/kustomization.yaml is missing: run `./bench k8s {NAME}`",
        f"deploy/k8s/stacks/{NAME}/{NAME}.yaml is missing: run `./bench k8s {NAME}`",
    ]
    written = bench(copy, tmp_path / "state", "k8s", NAME)
    assert written.returncode == 0, written.stderr
    assert f"wrote deploy/k8s/stacks/{NAME}/{NAME}.yaml" in written.stdout
    count, problems = k8s.check(validators, names, caps(copy), root=copy)
    assert problems == [] and count == 3 + 5 + len(names)


@pytest.mark.parametrize("command", ["run", "test", "build", "fuzz", "serve", "k8s"])
def test_the_commands_list_it_in_their_help(copy, tmp_path, command):
    result = bench(copy, tmp_path / "state", command, "--help")
    assert result.returncode == 0, result.stderr
    listing = result.stdout.split("Stacks (top-level directories with an impl.toml):")[1]
    assert NAME in listing and "go-gin" in listing
