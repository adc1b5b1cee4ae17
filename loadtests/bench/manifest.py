"""Stacks are discovered from their manifests, `IMPL/impl.toml`: adding one never touches the runner.

The manifest's keys are the models below (CONTRIBUTING.md shows a complete one). A manifest
that does not fit them is refused with one line per problem: the file, the key, what to do.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PositiveFloat,
    PrivateAttr,
    StringConstraints,
    ValidationError,
    field_validator,
)
from pydantic_core import ErrorDetails

from bench import paths
from bench.errors import BenchError

_EXPANSION = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
MANIFEST = "impl.toml"
GUIDE = "CONTRIBUTING.md, step 3"


def expand(value: str, environ: dict[str, str]) -> str:
    """Expands ${NAME} and ${NAME:-default} the way a shell would, and nothing else."""
    return _EXPANSION.sub(lambda m: environ.get(m.group(1)) or (m.group(2) or ""), value)


Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Patterns = Annotated[list[Text], Field(min_length=1)]
# A variant is named on the command line as STACK@VARIANT: lower case, digits and hyphens.
VARIANT_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
VARIANT_SEPARATOR = "@"


class Section(BaseModel):
    # A misspelt key is an error, not a silently ignored line; numbers in [env] become strings.
    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)


class Toolchain(Section):
    check: Text  # exits 0 when the toolchain is usable
    hint: Text  # said when it is not
    apt: tuple[Text, ...] = ()  # Debian packages that provide it, installed when root


class Build(Section):
    command: Text
    artifact: Text  # its absence forces a build
    fetch: Text | None = None  # warms the dependency cache (./bench setup)


class OwnTests(Section):
    command: Text


class Run(Section):
    command: Text
    ready_timeout_s: PositiveFloat = 60.0
    env: dict[str, str] = Field(default_factory=dict)


class Docker(Section):
    """What the Docker checks know of the stack's ecosystem (bench.checks.dockerfiles)."""

    # Dependency manifests and lock files (glob patterns): copied, and the dependencies fetched
    # in a RUN, before the source.
    dependency_files: Patterns
    # Images that carry the toolchain, never the final stage: `repository` (any tag) or
    # `repository:tag` glob patterns; a later `!pattern` takes an image back out.
    build_images: Patterns
    # Commands that build ("go build"): the final stage runs none of them.
    build_commands: list[Text] = Field(default_factory=list)
    # Packages of the toolchain (glob patterns): the final stage installs none of them.
    build_packages: list[Text] = Field(default_factory=list)
    # Images whose exact tags have three version parts (1.26.8): a tag with two still moves.
    three_part_versions: list[Text] = Field(default_factory=list)


class Training(Section):
    """A training run that makes a file the variant's run reads (a JVM's AOT cache): the runner
    starts `command` on a database of its own, walks the API (bench.training), stops it with
    SIGTERM and expects `artifact` written at its exit (docs/method.md, "Variants that train")."""

    command: Text  # starts the stack, as [run] command does (`exec`, so that SIGTERM reaches it)
    artifact: Text  # what the training writes; its absence, or a changed source or runtime, trains again
    # Prints the runtime the artifact belongs to ("$JAVA_HOME/bin/java" -version): a JVM ignores an
    # AOT cache made by another, so a change of this output trains again.
    runtime: Text


class Variant(Section):
    """The stack with one knob changed (docs/method.md, "Variants"): measured beside it, and held to
    the whole contract like it."""

    description: Text  # one line: the knob and its setting
    scenarios: Annotated[list[Text], Field(min_length=1)]  # where it is measured
    claim: Text | None = None  # the published claim it tests (docs/study.md), if any
    env: dict[str, str] = Field(default_factory=dict)  # added to the stack's [run.env]
    run: Text | None = None  # a run command of its own (JVM flags, say); the stack's otherwise
    build: Build | None = None  # a build of its own (a build profile, a feature flag)
    train: Training | None = None  # a training run after the build (an AOT cache)

    @field_validator("scenarios")
    @classmethod
    def _known_scenarios(cls, names: list[str]) -> list[str]:
        from bench.scenarios import SCENARIOS

        unknown = [n for n in names if n not in SCENARIOS]
        if unknown:
            raise ValueError(f"unknown scenario {', '.join(unknown)}: choose from {', '.join(SCENARIOS)}")
        return names


class Manifest(Section):
    name: Text  # = the directory name
    display: Text  # for tables
    language: Text
    language_version: Text
    framework: Text
    framework_version: Text
    server: Text  # the HTTP server underneath
    data_access: Text
    # The representation the stack serves: "api" (spec/API.md) or "hal" (Spring Data REST's,
    # spec/hal.md). The load scripts and the conformance profile follow it.
    dialect: Literal["api", "hal"] = "api"
    toolchain: Toolchain
    env: dict[str, str] = Field(default_factory=dict)  # for build, test and run
    build: Build
    test: OwnTests
    run: Run
    docker: Docker | None = None  # checked by the Docker checks, where its absence is a problem
    variants: dict[str, Variant] = Field(default_factory=dict)

    @field_validator("variants")
    @classmethod
    def _variant_names(cls, variants: dict[str, Variant]) -> dict[str, Variant]:
        bad = [name for name in variants if not VARIANT_NAME.fullmatch(name)]
        if bad:
            raise ValueError(f"variant names are lower case, digits and hyphens: rename {', '.join(bad)}")
        return variants


class Stack(Manifest):
    """A stack: its manifest, and the directory it lives in."""

    _directory: Path = PrivateAttr()
    _base: str | None = PrivateAttr(default=None)
    _variant: str | None = PrivateAttr(default=None)
    _own_build: bool = PrivateAttr(default=False)
    _variant_scenarios: tuple[str, ...] | None = PrivateAttr(default=None)
    _training: Training | None = PrivateAttr(default=None)

    @property
    def directory(self) -> Path:
        return self._directory

    @property
    def base_name(self) -> str:
        """The stack's own name: a variant's is the stack it varies."""
        return self._base or self.name

    @property
    def variant(self) -> str | None:
        return self._variant

    @property
    def variant_scenarios(self) -> tuple[str, ...] | None:
        """The scenarios a variant is measured in (its [variants] table's); None for a stack."""
        return self._variant_scenarios

    @property
    def training(self) -> Training | None:
        """A variant's training run (its [variants] table's `train`); None for most."""
        return self._training

    @property
    def training_record(self) -> Path | None:
        """Where its training's record lies, beside the artifact (bench.training); None for a
        stack or variant that does not train."""
        if self._training is None:
            return None
        return self._directory / f"{self._training.artifact}.training.json"

    @property
    def build_key(self) -> str:
        """Whose build this is: a variant without a build of its own runs the stack's."""
        return self.name if self._own_build else self.base_name

    def with_variant(self, name: str) -> Stack:
        """This stack with the variant `name` applied, named STACK@VARIANT everywhere."""
        if name not in self.variants:
            known = ", ".join(self.variants) or "none"
            raise BenchError(f"{self.name} has no variant {name!r}: its variants are {known} (its impl.toml)")
        chosen = self.variants[name]
        varied = self.model_copy(
            update={
                "name": f"{self.name}{VARIANT_SEPARATOR}{name}",
                "display": f"{self.display} ({name})",
                "run": self.run.model_copy(
                    update={"command": chosen.run or self.run.command, "env": {**self.run.env, **chosen.env}}
                ),
                "build": chosen.build or self.build,
                "variants": {},
            }
        )
        varied._directory = self._directory
        varied._base = self.name
        varied._variant = name
        varied._own_build = chosen.build is not None
        varied._variant_scenarios = tuple(chosen.scenarios)
        varied._training = chosen.train
        return varied

    def variant_stacks(self) -> list[Stack]:
        return [self.with_variant(name) for name in self.variants]

    # The names the rest of the runner reads.
    @property
    def toolchain_check(self) -> str:
        return self.toolchain.check

    @property
    def toolchain_hint(self) -> str:
        return self.toolchain.hint

    @property
    def toolchain_apt(self) -> tuple[str, ...]:
        return self.toolchain.apt

    @property
    def build_command(self) -> str:
        return self.build.command

    @property
    def build_artifact(self) -> str:
        return self.build.artifact

    @property
    def fetch_command(self) -> str | None:
        return self.build.fetch

    @property
    def test_command(self) -> str:
        return self.test.command

    @property
    def run_command(self) -> str:
        return self.run.command

    @property
    def run_env(self) -> dict[str, str]:
        return self.run.env

    @property
    def ready_timeout_s(self) -> float:
        return self.run.ready_timeout_s

    def environment(self, extra: dict[str, str] | None = None, *, run: bool = False) -> dict[str, str]:
        environ = dict(os.environ)
        for key, value in self.env.items():
            environ[key] = expand(value, environ)
        if run:
            for key, value in self.run_env.items():
                environ[key] = expand(value, environ)
        environ.update(extra or {})
        return environ


def _where(path: Path) -> str:
    return str(path.relative_to(paths.ROOT)) if path.is_relative_to(paths.ROOT) else str(path)


def _key(location: tuple[int | str, ...]) -> str:
    """('run', 'env', 'X') as the TOML reader sees it: `[run.env] X`."""
    names = [str(part) for part in location]
    if len(names) == 1:
        return f"`{names[0]}`"
    return f"[{'.'.join(names[:-1])}] `{names[-1]}`"


def _is_section(location: tuple[int | str, ...]) -> bool:
    model: type[BaseModel] = Manifest
    for part in location:
        field = model.model_fields.get(str(part))
        annotation = field.annotation if field else None
        if not (isinstance(annotation, type) and issubclass(annotation, Section)):
            return False
        model = annotation
    return True


def _problem(error: ErrorDetails) -> str:
    key = _key(error["loc"])
    kind = error["type"]
    if kind == "missing" and _is_section(error["loc"]):
        return f"the [{'.'.join(map(str, error['loc']))}] section is missing: add it"
    if kind == "missing":
        return f"{key} is missing: add it"
    if kind == "extra_forbidden":
        return f"{key} is not a key of {MANIFEST}: remove it or fix its spelling"
    if kind in ("string_too_short", "too_short"):
        return f"{key} is empty: give it a value"
    if kind == "value_error":
        # Our own validators' messages: they name the value and what to do, in its own case.
        return f"{key}: {error.get('ctx', {}).get('error', error['msg'])}"
    return f"{key}: {error['msg'].lower()} (found {error['input']!r})"


def parse(data: dict[str, Any], where: str) -> Stack:
    """A manifest from its TOML, or a BenchError naming every problem in it."""
    try:
        return Stack.model_validate(data)
    except ValidationError as error:
        problems = [_problem(e) for e in error.errors()]
        raise BenchError(
            f"{where} is not a valid manifest ({GUIDE}, shows a complete one):\n"
            + "\n".join(f"  {p}" for p in problems)
        ) from None


def load(directory: Path) -> Stack:
    path = directory / MANIFEST
    where = _where(path)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise BenchError(f"{where} is not valid TOML: {error}") from None
    stack = parse(data, where)
    if stack.name != directory.name:
        raise BenchError(f"{where}: name = {stack.name!r} must equal the directory name {directory.name!r}")
    stack._directory = directory
    return stack


def stack_dirs(root: Path | None = None) -> list[Path]:
    """The stacks' directories: top-level directories with an impl.toml."""
    root = root or paths.ROOT
    return sorted(d for d in root.iterdir() if d.is_dir() and not d.name.startswith(".") and (d / MANIFEST).is_file())


def discover(root: Path | None = None) -> list[Stack]:
    return [load(d) for d in stack_dirs(root)]


def select(names: Sequence[str]) -> list[Stack]:
    """The stacks named (all when none is), each as NAME or NAME@VARIANT."""
    stacks = discover()
    if not names:
        if not stacks:
            raise BenchError("no stack found: a stack is a top-level directory with an impl.toml")
        return stacks
    by_name = {s.name: s for s in stacks}
    wanted = [n.rstrip("/").partition(VARIANT_SEPARATOR) for n in names]
    unknown = [stack for stack, _, _ in wanted if stack not in by_name]
    if unknown:
        raise BenchError(f"unknown stack {', '.join(unknown)}: choose from {', '.join(by_name) or 'none'}")
    return [by_name[stack].with_variant(variant) if variant else by_name[stack] for stack, _, variant in wanted]
