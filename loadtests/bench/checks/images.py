"""Image references: is one pinned, and does it match a stack's patterns (e.g. its build images)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import fnmatchcase

# Images of no stack's ecosystem whose releases have three-part versions (alpine:3.22 still
# moves): the base and helper images compose.yaml or any Dockerfile may use. A stack names its
# own ecosystem's in impl.toml ([docker] three_part_versions).
THREE_PART_VERSIONS = frozenset({"alpine", "nginx", "redis", "haproxy", "k6"})
_DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")
_VERSION = re.compile(r"^v?(\d+(?:\.\d+)*)(_\d+)?")


def repository(ref: str) -> str:
    """The image name without tag or digest: `localhost:5000/rust:1.91` → `localhost:5000/rust`."""
    ref = ref.split("@")[0]
    return ref.rsplit(":", 1)[0] if ":" in ref.rsplit("/", 1)[-1] else ref


def tag(ref: str) -> str:
    """The tag, or "" when there is none."""
    return ref.split("@")[0][len(repository(ref)) + 1 :]


def short_name(ref: str) -> str:
    """The last part of the repository: `grafana/k6:1.8.1` → `k6`."""
    return repository(ref).rsplit("/", 1)[-1]


def image_pin_problem(ref: str, three_part: Iterable[str] = ()) -> str | None:
    """None when `ref` names one exact version (or a digest); else what is wrong with it.

    `three_part`: images whose exact versions have three parts, on top of THREE_PART_VERSIONS.
    """
    if _DIGEST.search(ref) or ref == "scratch":
        return None
    if "$" in ref:
        return f"{ref} holds a variable that has no default: pin it in the file"
    version = tag(ref)
    if not version:
        return f"{ref} has no tag (that means latest): pin an exact version tag"
    if version == "latest":
        return f"{ref} is not pinned: pin an exact version tag instead of latest"
    match = _VERSION.match(version)
    if not match:
        return f"{ref}: the tag {version!r} names no version: pin an exact version tag or a digest"
    parts = match.group(1).count(".") + 1
    wanted = 3 if short_name(ref) in THREE_PART_VERSIONS | set(three_part) else 2
    if parts < wanted and not match.group(2):
        return f"{ref}: {match.group(1)} is a moving tag, not an exact version: pin the full version"
    return None


def matches(ref: str, patterns: Iterable[str]) -> bool:
    """Whether `ref` is one of the images `patterns` name, as .dockerignore reads its lines: the
    last pattern that matches decides, and a pattern that starts with ! takes images back out.

    A pattern without a tag (`golang`) matches the repository with any tag, or its last part
    (`dotnet/sdk` matches `mcr.microsoft.com/dotnet/sdk:9.0`); one with a tag matches
    `repository:tag` (`python:*-slim*`, `*:*-jdk*`).
    """
    name, version = repository(ref), tag(ref)
    decision = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        pattern = pattern.removeprefix("!")
        if ":" in pattern.rsplit("/", 1)[-1]:
            hit = fnmatchcase(f"{name}:{version}", pattern)
        else:
            hit = fnmatchcase(name, pattern) or fnmatchcase(name, f"*/{pattern}")
        if hit:
            decision = not negated
    return decision
