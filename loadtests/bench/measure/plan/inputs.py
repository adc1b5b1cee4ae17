"""The fingerprints of what a record's figures follow from (RawResult.inputs): its stack's sources,
the runner's measuring code, the database, the spec and compose.yaml, each a sha256 of its files'
paths and contents as git would track them (ignored build outputs and caches never count).

`--resume` keeps a record whose inputs equal today's (bench.measure.plan.plan.kept_records): a
publication measured over several sittings can take docs, report and page work between them, and a
change to one stack measures that stack again, not every other."""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench import paths
from bench.manifest import Stack
from bench.records import Inputs

# The runner's measuring code: every file `./bench run` executes or hands to a load generator to
# measure, as git pathspecs from the repository's root. A module of the package that is in none of
# these must be in NOT_MEASURING (tests/test_resume_inputs.py checks every module a run loads).
RUNNER: tuple[str, ...] = (
    "loadtests/bench/__init__.py",
    "loadtests/bench/compose_file.py",
    "loadtests/bench/errors.py",
    "loadtests/bench/manifest.py",
    "loadtests/bench/paths.py",
    "loadtests/bench/ports.py",
    "loadtests/bench/postgres.py",
    "loadtests/bench/procs.py",
    "loadtests/bench/profiles.py",
    "loadtests/bench/scenarios.py",
    "loadtests/bench/stacks.py",
    "loadtests/bench/system.py",
    "loadtests/bench/tools.py",
    "loadtests/bench/training.py",
    "loadtests/bench/upstream.py",
    "loadtests/bench/judgement",
    "loadtests/bench/measure",
    "loadtests/bench/records",
    # What the load generators run, and the stock upstream the outbound scenario calls.
    "loadtests/k6",
    "loadtests/oha",
    "loadtests/pgbench/*.sql",
    "loadtests/upstream",
    # The runner's Python dependencies, pinned (httpx, psycopg, pydantic: they read and record).
    "loadtests/requirements.txt",
)

# Modules of the package left out of RUNNER: a change to them alters no figure of a record.
NOT_MEASURING: tuple[str, ...] = (
    # Options made into a RunRequest (bench.measure.run.request, measured); what they choose that
    # bears on a figure (profile, CPU split) is compared from each record's header. Help texts,
    # and the other commands' modules, which the group loads with it.
    "bench.cli",
    # What the run prints, and the lock that keeps two runs apart.
    "bench.console",
    "bench.lock",
    # results.md and the page, rendered from the records after the run.
    "bench.report",
    # `./bench test`, `./bench fuzz`, `./bench docker`, `./bench k8s`, the schema's generator, and
    # the timing of `./bench test`'s phases: never loaded by a run.
    "bench.checks",
    "bench.conformance",
    "bench.docker",
    "bench.fuzz",
    "bench.k8s_stack",
    "bench.phases",
    "bench.schema",
    "bench.testing",
)

DATABASE = ("db",)
# The contract the stacks implement (API.md, hal.md, their OpenAPI descriptions), not the suites that
# test a stack against it: spec/conformance and spec/fuzz never run in `./bench run`, and a case added
# there moves no figure; a stack it makes change is measured again by its own sources.
SPEC = ("spec", ":(exclude)spec/conformance", ":(exclude)spec/fuzz")
COMPOSE = ("compose.yaml",)
# A stack's directory as a record's input: every file but its prose (README.md and the like), so a
# stack's README can be rewritten between a publication's sittings without measuring it again.
STACK = (".", ":(exclude,glob)**/*.md")


def listed(pathspecs: Sequence[str], root: Path | None = None) -> list[str] | None:
    """The files of `pathspecs` git tracks or would track under `root` (the repository's by
    default), relative to it and sorted; None if it is not a git checkout."""
    where = root if root is not None else paths.ROOT
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *pathspecs],
        cwd=where,
        capture_output=True,
    )
    if listing.returncode != 0:
        return None
    return sorted({n for n in listing.stdout.decode().split("\0") if n and (where / n).is_file()})


def digest(pathspecs: Sequence[str], root: Path | None = None) -> str | None:
    """The sha256 of `pathspecs`' files (listed), each by its relative path and its contents."""
    where = root if root is not None else paths.ROOT
    names = listed(pathspecs, where)
    if names is None:
        return None
    hashed = hashlib.sha256()
    for name in names:
        content = (where / name).read_bytes()
        # The length keeps a file's end from reading as the next one's name.
        hashed.update(b"%s\0%d\0" % (name.encode(), len(content)) + content)
    return hashed.hexdigest()


@dataclass
class Fingerprints:
    """Today's inputs, hashed once as a `./bench run` is planned: what every record shares, and each
    stack's sources."""

    runner: str
    database: str
    spec: str
    compose: str
    stacks: dict[str, str | None] = field(default_factory=dict)

    def of(self, stack: Stack | None) -> Inputs:
        """The inputs of a record of `stack`: None for a ceiling, or a --target run's stack, whose
        sources here are not what it runs."""
        if stack is None:
            return self.expected(None)
        if stack.name not in self.stacks:
            self.stacks[stack.name] = stack_digest(stack)
        return self.expected(stack.name)

    def expected(self, name: str | None) -> Inputs:
        """What a record of the stack called `name` (None: a ceiling) measured today would carry;
        a stack not fingerprinted today has a stack digest of None, which no record of it equals."""
        return Inputs(
            stack=self.stacks.get(name) if name is not None else None,
            runner=self.runner,
            database=self.database,
            spec=self.spec,
            compose=self.compose,
        )


def today(measured: Iterable[Stack]) -> Fingerprints | None:
    """The fingerprints of this tree, its `measured` stacks' included; None outside a git checkout,
    where nothing tells sources from outputs."""
    shared = [digest(specs) for specs in (RUNNER, DATABASE, SPEC, COMPOSE)]
    runner, database, spec, compose = shared
    if runner is None or database is None or spec is None or compose is None:
        return None
    return Fingerprints(runner, database, spec, compose, {stack.name: stack_digest(stack) for stack in measured})


def stack_digest(stack: Stack) -> str | None:
    """The digest of `stack`'s directory (STACK): its sources, manifest and build files, not its
    prose; None outside a git checkout."""
    return digest(STACK, stack.directory)


def measured_pathspecs(measured: Iterable[Stack]) -> list[str]:
    """Every input a run of the `measured` stacks measures from, as git pathspecs from the
    repository's root: the runner's measuring code, db/, spec/, compose.yaml and the stacks'
    directories."""
    # A stack outside the repository (a test's) has no place in its history to be dirty in.
    directories = sorted(
        {str(s.directory.relative_to(paths.ROOT)) for s in measured if s.directory.is_relative_to(paths.ROOT)}
    )
    prose = [f":(exclude,glob){directory}/**/*.md" for directory in directories]
    return [*RUNNER, *DATABASE, *SPEC, *COMPOSE, *directories, *prose]


def uncommitted(measured: Iterable[Stack]) -> list[str]:
    """The measured inputs' files (the `measured` stacks' sources among them) that differ from
    HEAD, untracked ones included: a record measured from them would name a commit that does not
    hold what measured it."""
    changed: set[str] = set()
    searches: list[tuple[Path, list[str]]] = [(paths.ROOT, [*RUNNER, *DATABASE, *SPEC, *COMPOSE])]
    for stack in measured:
        searches.append((stack.directory, list(STACK)))
    for where, specs in searches:
        for command in (
            ["diff", "--name-only", "-z", "HEAD"],
            ["ls-files", "-z", "--full-name", "--others", "--exclude-standard"],
        ):
            out = subprocess.run(["git", *command, "--", *specs], cwd=where, capture_output=True)
            if out.returncode != 0:
                continue
            changed.update(n for n in out.stdout.decode().split("\0") if n)
    return sorted(changed)
