"""`./bench test --changed BASE`: the stacks that the changes since git revision BASE touch.

The changes are read from where HEAD left BASE (their merge base) to the working tree, committed
or not, untracked files included: what a pull request from this checkout would change. A path
touches

- one stack: anything in its directory, its manifests (deploy/k8s/stacks/NAME/) and its service in
  compose.yaml; lines of its impl.toml inside a [variants.VARIANT] table touch that variant alone
  (STACK@VARIANT), as long as nothing else of the stack changed;
- no stack: the documentation (Markdown files, outside spec/, which is the contract; docs/;
  results/), which no stack's row reads: the runner's own row, which still runs, checks what
  reads it (the report, the guide's manifest);
- every stack: anything else, which every stack's row runs or reads: spec/, db/, the runner
  (loadtests/), ./bench, .ci/, .github/, and compose.yaml outside the stacks' own services (the
  shared x- blocks, PostgreSQL, the stock upstream, k6).

In compose.yaml and impl.toml only lines that say something count: comments and blank lines
change nothing that runs. A stack's service that defines a YAML anchor is shared: another
service may be made of it.
"""

from __future__ import annotations

import difflib
import re
import subprocess
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bench import manifest, paths
from bench.compose_file import COMPOSE_FILE
from bench.console import console
from bench.errors import BenchError
from bench.manifest import MANIFEST, VARIANT_SEPARATOR, Stack

K8S_STACKS = ("deploy", "k8s", "stacks")
DOCS_DIRS = ("docs", "results")
SPEC = paths.SPEC_DIR.name
# A line's owner when it touches every stack; None is a line that touches nothing.
EVERY = "*"

_YAML_KEY = re.compile(r"""^(\s*)(?:"([^"]+)"|'([^']+)'|([^\s#'"\-][^:#]*?))\s*:(?:\s|$)""")
# An anchor stands before a node: a key's value or a list item (a shell's && in a string is none).
_YAML_ANCHOR = re.compile(r"(?:^\s*(?:-\s+)?|:\s+)&[A-Za-z0-9_]")
_TOML_TABLE = re.compile(r"^\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_TOML_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')"""
_TOML_KEY = re.compile(rf"^\s*({_TOML_KEY_PART}(?:\s*\.\s*{_TOML_KEY_PART})*)\s*=")


@dataclass(frozen=True)
class Change:
    """One changed path, from the repository's root. `before` and `after` are its text at the merge
    base and now (None where it did not exist), read for compose.yaml and the manifests only."""

    path: str
    before: str | None = None
    after: str | None = None


@dataclass
class Selection:
    touched: dict[str, list[str]] = field(default_factory=dict)  # STACK or STACK@VARIANT: its paths
    shared: list[str] = field(default_factory=list)  # paths that touch every stack
    docs: list[str] = field(default_factory=list)  # paths that touch none

    def names(self, known: Mapping[str, Collection[str]]) -> list[str]:
        """What to test among `known` (each stack now, with its variants), as manifest.select reads
        it: every stack when a shared path changed; else each touched stack, which brings its
        variants, and each touched variant of a stack that is not. What no longer exists is left
        out: a deleted stack or variant has nothing left to test."""
        if self.shared:
            return sorted(known)
        chosen = [name for name in known if name in self.touched]
        for name in self.touched:
            stack, separator, variant = name.partition(VARIANT_SEPARATOR)
            if separator and stack in known and stack not in self.touched and variant in known[stack]:
                chosen.append(name)
        return sorted(chosen)


def select(changes: Iterable[Change], stacks: Collection[str]) -> Selection:
    """`stacks`: the stacks' names at the merge base and now, so that a path of a stack deleted
    since touches that stack, not every stack."""
    selection = Selection()
    for change in changes:
        owners = touched_by(change, stacks)
        if owners is None:
            selection.docs.append(change.path)
        elif EVERY in owners:
            selection.shared.append(change.path)
        for owner in sorted((owners or set()) - {EVERY}):
            selection.touched.setdefault(owner, []).append(change.path)
    return selection


def touched_by(change: Change, stacks: Collection[str]) -> set[str] | None:
    """The stacks and variants one change touches (EVERY among them for every stack); None for
    the documentation."""
    parts = PurePosixPath(change.path).parts
    top = parts[0]
    if top in DOCS_DIRS or (change.path.endswith(".md") and top != SPEC):
        return None
    if top in stacks:
        if parts[1:] == (MANIFEST,) and change.before is not None and change.after is not None:
            return _by_lines(change.before, change.after, lambda text: manifest_owners(top, text))
        return {top}
    if parts[: len(K8S_STACKS)] == K8S_STACKS and len(parts) > len(K8S_STACKS) + 1:
        name = parts[len(K8S_STACKS)]
        return {name if name in stacks else EVERY}
    if change.path == COMPOSE_FILE and change.before is not None and change.after is not None:
        return _by_lines(change.before, change.after, lambda text: compose_owners(text, stacks))
    return {EVERY}


def compose_owners(text: str, stacks: Collection[str]) -> list[str | None]:
    """Each line's owner in compose.yaml: the stack whose service it is in, EVERY for the rest
    of the file, None for comments and blank lines."""
    owners: list[str | None] = []
    section = service = None
    child_indent: int | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            owners.append(None)
            continue
        indent = len(line) - len(line.lstrip())
        key = _YAML_KEY.match(line)
        name = next((group for group in key.groups()[1:] if group), None) if key else None
        if indent == 0:
            section, service, child_indent = name, None, None
        elif section == "services":
            child_indent = indent if child_indent is None else child_indent
            if indent < child_indent or (indent == child_indent and name is None):
                service = None  # not a service's key: YAML that the schema check will refuse
            elif indent == child_indent:
                service = name
        owners.append(service if section == "services" and service in stacks else EVERY)
    anchored = {owner for owner, line in zip(owners, text.splitlines(), strict=True) if _YAML_ANCHOR.search(line)}
    return [EVERY if owner in anchored and owner != EVERY else owner for owner in owners]


def manifest_owners(stack: str, text: str) -> list[str | None]:
    """Each line's owner in a stack's impl.toml: STACK@VARIANT inside a [variants.VARIANT] table
    (or a `variants.VARIANT` key), the stack elsewhere, None for comments and blank lines. A line
    that is neither a table nor a key continues the key before it (an array over several lines)."""
    owners: list[str | None] = []
    table: list[str] = []
    owner = stack
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            owners.append(None)
            continue
        header = _TOML_TABLE.match(line)
        key = None if header else _TOML_KEY.match(line)
        if header:
            table = _dotted(header[1])
            # The [variants] header itself is the stack's: it holds every variant.
            owner = _variant_owner(stack, table) if len(table) > 1 else stack
        elif key:
            owner = _variant_owner(stack, table + _dotted(key[1]))
        owners.append(owner)
    return owners


def _dotted(key: str) -> list[str]:
    return [part.strip("\"'") for part in re.findall(_TOML_KEY_PART, key)]


def _variant_owner(stack: str, key: list[str]) -> str:
    return f"{stack}{VARIANT_SEPARATOR}{key[1]}" if len(key) > 1 and key[0] == "variants" else stack


def _by_lines(before: str, after: str, owners_of: Callable[[str], list[str | None]]) -> set[str]:
    """The owners of the lines removed from `before` and of those added in `after`."""
    old, new = before.splitlines(), after.splitlines()
    old_owners, new_owners = owners_of(before), owners_of(after)
    found: set[str | None] = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            found.update(old_owners[i1:i2], new_owners[j1:j2])
    return {owner for owner in found if owner is not None}


@dataclass(frozen=True)
class Diff:
    merge_base: str
    changes: list[Change]
    stacks_then: set[str]  # the stacks at the merge base


def read_changes(base: str, root: Path) -> Diff:
    """The changes from where HEAD left `base` to the working tree, committed or not."""
    if _git(root, "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}") is None:
        raise BenchError(
            f"--changed {base}: git knows no commit {base!r} in {root} (fetch it first, e.g. git fetch origin {base})"
        )
    merge_base = _git(root, "merge-base", base, "HEAD")
    if merge_base is None:
        raise BenchError(
            f"--changed {base}: HEAD and {base} have no common commit here (a shallow clone? fetch more history)"
        )
    merge_base = merge_base.strip()
    listed = (_git(root, "diff", "--name-only", "--no-renames", "-z", merge_base, "--") or "").split("\0")
    listed += (_git(root, "ls-files", "--others", "--exclude-standard", "-z") or "").split("\0")
    changes = []
    for path in sorted({p for p in listed if p}):
        parts = PurePosixPath(path).parts
        if path == COMPOSE_FILE or (len(parts) == 2 and parts[1] == MANIFEST):
            on_disk = root / path
            after = on_disk.read_text(errors="replace") if on_disk.is_file() else None
            changes.append(Change(path, _git(root, "show", f"{merge_base}:{path}"), after))
        else:
            changes.append(Change(path))
    tree = (_git(root, "ls-tree", "-r", "--name-only", "-z", merge_base) or "").split("\0")
    stacks_then = {path.split("/")[0] for path in tree if path.count("/") == 1 and path.endswith(f"/{MANIFEST}")}
    return Diff(merge_base, changes, stacks_then)


def _git(root: Path, *args: str) -> str | None:
    """git's output, or None where it failed (an unknown revision, a path absent at a commit)."""
    try:
        result = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, errors="replace", timeout=120
        )
    except FileNotFoundError:
        raise BenchError("--changed needs git on PATH") from None
    return result.stdout if result.returncode == 0 else None


def describe(selection: Selection, names: list[str], merge_base: str) -> list[str]:
    """What was found and why, a line each, for the console."""
    since = f"changed since {merge_base[:12]}"
    if selection.shared:
        more = f" and {len(selection.shared) - 1} more" if len(selection.shared) > 1 else ""
        return [f"{since}: every stack, for {selection.shared[0]}{more} (shared by every stack)"]
    if not names:
        what = f"{len(selection.docs)} documentation files" if selection.docs else "nothing"
        return [f"{since}: no stack ({what}); the runner's own checks still run"]
    lines = [f"{since}: {', '.join(names)}"]
    for name in names:
        touching = selection.touched[name]
        more = f" and {len(touching) - 3} more" if len(touching) > 3 else ""
        lines.append(f"  {name}: {', '.join(touching[:3])}{more}")
    return lines


def stacks_changed_since(base: str) -> list[Stack]:
    """The stacks and variants to test for the changes since `base`, each said with its paths."""
    diff = read_changes(base, paths.ROOT)
    known = {stack.name: list(stack.variants) for stack in manifest.discover()}
    selection = select(diff.changes, set(known) | diff.stacks_then)
    names = selection.names(known)
    for line in describe(selection, names, diff.merge_base):
        console.print(line, markup=False)
    # manifest.select reads no name as every stack.
    return manifest.select(names) if names else []
