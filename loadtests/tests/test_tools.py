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
