"""The load generators are built once per machine and linked into .bench/bin."""

import shutil

import pytest

from bench import paths, tools
from bench.errors import BenchError


@pytest.fixture
def homes(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "HOME", tmp_path / "state")
    monkeypatch.setattr(paths, "LOGS", tmp_path / "state" / "logs")
    monkeypatch.setattr(paths, "BIN", tmp_path / "state" / "bin")
    monkeypatch.setattr(tools, "CACHE", tmp_path / "cache")
    return tmp_path


def test_a_cached_build_is_linked_without_building(homes):
    cached = tools.OHA.cached
    cached.parent.mkdir(parents=True)
    cached.write_text("#!/bin/sh\n")
    path = tools.ensure(tools.OHA)
    assert path == paths.BIN / "oha" and path.is_symlink() and path.resolve() == cached.resolve()
    assert tools.ensure(tools.OHA) == path


def test_the_cache_is_keyed_by_version(homes):
    assert f"oha-{tools.OHA.version}" in str(tools.OHA.cached)
    assert f"k6-{tools.K6.version}" in str(tools.K6.cached)


def test_a_missing_toolchain_is_a_clear_error(homes, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(BenchError, match="install Rust"):
        tools.ensure(tools.OHA)


def test_vegeta_is_built_with_its_version_stamped_in(homes):
    command = tools.VEGETA.install_command()
    assert command == [
        "go",
        "install",
        f"-ldflags=-X main.Version=v{tools.VEGETA.version}",
        f"github.com/tsenart/vegeta/v12@v{tools.VEGETA.version}",
    ]
    assert tools.K6.install_command() == ["go", "install", f"go.k6.io/k6@v{tools.K6.version}"]
    assert tools.VEGETA in tools.TOOLS


def test_each_load_generator_is_asked_its_version_its_own_way_and_named(tmp_path):
    from bench.measure.host import environment

    def tool(name, answers):
        path = tmp_path / name
        path.write_text(f'#!/bin/sh\ncase "$1" in {answers} ;; *) exit 2 ;; esac\n')
        path.chmod(0o755)
        return path

    versions = environment.tool_versions(
        None,
        {
            "k6": tool("k6", 'version) echo "k6 v1.8.1 (go1.26.8, linux/amd64)"'),
            "oha": tool("oha", '--version) echo "oha 1.16.0"'),
            # As `go install` builds it with the version stamped in (tools.VEGETA).
            "vegeta": tool("vegeta", '-version) printf "Version: v12.13.0\\nCommit: \\n"'),
        },
    )
    assert (versions.k6, versions.oha, versions.vegeta) == (
        "k6 v1.8.1 (go1.26.8, linux/amd64)",
        "oha 1.16.0",
        "vegeta v12.13.0",
    )
