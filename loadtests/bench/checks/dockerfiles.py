"""A stack's Dockerfile against this benchmark's rules, read with dockerfile-parse.

The rules: multi-stage, pinned bases, a dependency layer before the source, a non-root final
stage that copies its artefact from a build stage and holds no build tools, EXPOSE 8080 and
HOST=0.0.0.0. What they know of an ecosystem (its dependency files, build images, build
commands and packages) comes from the stack's impl.toml, [docker]; what is here is the base
operating systems' own (their package managers, compilers and headers).
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

from dockerfile_parse import DockerfileParser
from dockerfile_parse.parser import image_from
from dockerfile_parse.util import WordSplitter

from bench.checks.images import image_pin_problem, matches
from bench.manifest import Docker

# Compilers, build tools and headers of the base images' package managers, whatever the language.
OS_BUILD_PACKAGES = (
    "gcc",
    "g++",
    "gcc-*",
    "clang",
    "clang-*",
    "llvm",
    "llvm-*",
    "make",
    "cmake",
    "ninja-build",
    "build-essential",
    "build-base",
    "*-dev",
    "*-devel",
    "pkg-config",
    "pkgconf",
    "autoconf",
    "automake",
    "libtool",
)
OS_BUILD_COMMANDS = ("gcc", "cc", "make")
_INSTALL = re.compile(
    r"\b(apt-get|apt|aptitude)\s+(?:-\S+\s+)*install\b|\bapk\s+(?:-\S+\s+)*add\b|"
    r"\b(dnf|yum|microdnf)\s+(?:-\S+\s+)*install\b"
)


@dataclass(frozen=True)
class Instruction:
    line: int  # of its first line, from 1
    keyword: str  # upper case
    value: str  # continuation lines joined
    env: dict[str, str] = field(default_factory=dict, compare=False)  # in force after it, in its stage

    def words(self) -> list[str]:
        """Its arguments as the builder splits them: the JSON form, or shell-like words."""
        if self.value.lstrip().startswith("["):
            try:
                return [str(word) for word in json.loads(self.value)]
            except ValueError:
                pass
        return [word for word in WordSplitter(self.value).split() if word is not None]

    def flags(self) -> list[tuple[str, str]]:
        """Its leading `--name=value` options (`--mount` may come more than once)."""
        result = []
        for word in self.words():
            if not word.startswith("--"):
                break
            name, _, value = word[2:].partition("=")
            result.append((name, value))
        return result

    def operands(self) -> list[str]:
        words = self.words()
        return words[len(self.flags()) :]


@dataclass
class Stage:
    index: int
    line: int
    base: str  # with the global ARGs' defaults substituted
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)
    parent: Stage | None = None  # when FROM names an earlier stage

    def chain(self) -> list[Instruction]:
        """Its instructions, after those of the stages it is built FROM."""
        return (self.parent.chain() if self.parent else []) + self.instructions

    def root_base(self) -> str:
        return self.parent.root_base() if self.parent else self.base

    def env(self) -> dict[str, str]:
        inherited = self.parent.env() if self.parent else {}
        own = self.instructions[-1].env if self.instructions else {}
        return {**inherited, **own}


def read(text: str) -> list[Stage]:
    """The stages of a Dockerfile (instructions before the first FROM are the global ARGs)."""
    parser = DockerfileParser(fileobj=io.StringIO(text))
    structure = parser.structure
    contexts = parser.context_structure
    bases = list(parser.parent_images)
    stages: list[Stage] = []
    for item, context in zip(structure, contexts, strict=True):
        keyword = item["instruction"]
        if keyword == "COMMENT":
            continue
        line = item["startline"] + 1
        if keyword == "FROM":
            image, name = image_from(item["value"])
            base = bases[len(stages)] if len(bases) > len(stages) else (image or "")
            parent = next((s for s in stages if s.name and s.name.lower() == base.lower()), None)
            stages.append(Stage(len(stages), line, base, name, parent=parent))
        elif stages:
            stages[-1].instructions.append(Instruction(line, keyword, item["value"], dict(context.envs)))
    return stages


def dockerfile_problems(
    path: Path, where: str | None = None, docker: Docker | None = None, *, port: int = 8080
) -> list[str]:
    """Every rule the Dockerfile at `path` breaks; `docker` is its stack's [docker] section, `port`
    the one it must expose (a stack's 8080)."""
    where = where or str(path)
    try:
        stages = read(Path(path).read_text())
    except OSError as error:
        return [f"{where}: cannot read it: {error}"]
    if not stages:
        return [f"{where}: no FROM instruction"]
    problems = _heredoc_problems(stages, where)
    if len(stages) < 2:
        problems.append(
            f"{where}:{stages[0].line}: a single stage: build in one stage and copy the "
            "result into a separate final stage, so that no build tool ships"
        )
    three_part = docker.three_part_versions if docker else []
    for stage in stages:
        if stage.parent is None and (problem := image_pin_problem(stage.base, three_part)):
            problems.append(f"{where}:{stage.line}: FROM {problem}")
    problems += _final_stage_problems(stages, where, port)
    if docker is None:
        problems.append(
            f"{where}: its impl.toml has no [docker] section to tell its dependency files and "
            "build images (CONTRIBUTING.md, step 3): the dependency layer and build tools go unchecked"
        )
    else:
        problems += _build_tool_problems(stages[-1], docker, where)
        problems += _dependency_layer_problems(stages, docker, where)
    return problems


def _heredoc_problems(stages: list[Stage], where: str) -> list[str]:
    """dockerfile-parse reads a heredoc's body as instructions: say so rather than check those."""
    for inst in (inst for stage in stages for inst in stage.instructions):
        heredoc = next((w for w in inst.words() if w.startswith("<<") and not w.startswith("<<<")), None)
        if heredoc:
            return [
                f"{where}:{inst.line}: a heredoc ({heredoc}): these checks read Dockerfiles with "
                "dockerfile-parse, which does not support heredocs (containerbuildsystem/dockerfile-parse"
                "#145): write the commands in the instruction or in a script file"
            ]
    return []


def _final_stage_problems(stages: list[Stage], where: str, port: int = 8080) -> list[str]:
    problems = []
    final = stages[-1]
    chain = final.chain()
    users = [i for i in chain if i.keyword == "USER"]
    if not users:
        problems.append(f"{where}:{final.line}: the final stage runs as root: add a USER (an unprivileged uid)")
    elif users[-1].value.split(":")[0].strip() in ("root", "0"):
        problems.append(f"{where}:{users[-1].line}: the final stage runs as root: USER {users[-1].value}")

    exposed = {word.split("/")[0] for i in chain if i.keyword == "EXPOSE" for word in i.words()}
    if str(port) not in exposed:
        problems.append(f"{where}:{final.line}: the final stage does not EXPOSE {port}")

    env = final.env()
    if env.get("HOST") != "0.0.0.0":
        found = f" (it is {env['HOST']!r})" if "HOST" in env else ""
        problems.append(f"{where}:{final.line}: the final stage does not set ENV HOST=0.0.0.0{found}")

    if len(stages) >= 2 and final.parent is None:
        earlier = {s.name.lower() for s in stages[:-1] if s.name} | {str(s.index) for s in stages[:-1]}
        if not any(
            i.keyword in ("COPY", "ADD") and dict(i.flags()).get("from", "").lower() in earlier
            for i in final.instructions
        ):
            problems.append(
                f"{where}:{final.line}: the final stage copies nothing from a build stage (COPY --from=<stage>)"
            )
    return problems


def _command_pattern(command: str) -> re.Pattern[str]:
    """`go build` as words of a shell command: `CGO_ENABLED=0 go  build`, `./mvnw`, not `gopher`."""
    words = command.split()
    return re.compile(r"(?<![\w-])" + r"\s+".join(map(re.escape, words)) + r"(?![\w-])")


def _build_tool_problems(final: Stage, docker: Docker, where: str) -> list[str]:
    problems = []
    base = final.root_base()
    if matches(base, docker.build_images):
        problems.append(
            f"{where}:{final.line}: the final stage is based on {base}, an image with build "
            "tools: run on a runtime image (a JRE, a slim OS image, distroless)"
        )
    packages = (*OS_BUILD_PACKAGES, *docker.build_packages)
    commands = [_command_pattern(c) for c in (*OS_BUILD_COMMANDS, *docker.build_commands)]
    for inst in final.chain():
        if inst.keyword != "RUN":
            continue
        tools = sorted(_installed_build_packages(inst.value, packages))
        if tools:
            problems.append(
                f"{where}:{inst.line}: the final stage installs build tools ({', '.join(tools)}): "
                "build in an earlier stage and copy the result"
            )
            continue
        found = next((m for m in (c.search(inst.value) for c in commands) if m), None)
        if found:
            problems.append(
                f"{where}:{inst.line}: the final stage builds ({found.group(0)}): "
                "build in an earlier stage and copy the result"
            )
    return problems


def _installed_build_packages(command: str, patterns: tuple[str, ...]) -> set[str]:
    found = set()
    for segment in re.split(r"&&|\|\||;|\n", command):
        install = _INSTALL.search(segment)
        if not install:
            continue
        for word in segment[install.end() :].split():
            if word.startswith("-") or word == "\\":
                continue
            package = re.split(r"[=<>~]", word, maxsplit=1)[0]
            if any(fnmatchcase(package, p) for p in patterns):
                found.add(package)
    return found


def _is_dependency_file(source: str, docker: Docker) -> bool:
    name = source.rstrip("/").rsplit("/", 1)[-1]
    return any(fnmatchcase(name, pattern) for pattern in docker.dependency_files)


def _binds_dependency_files(inst: Instruction, docker: Docker) -> bool:
    for flag, value in inst.flags():
        if flag != "mount":
            continue
        options = dict(part.partition("=")[::2] for part in value.split(","))
        if options.get("type") == "bind" and _is_dependency_file(options.get("source", options.get("src", "")), docker):
            return True
    return False


def _dependency_layer_problems(stages: list[Stage], docker: Docker, where: str) -> list[str]:
    """Somewhere, the dependency files are copied (or bind-mounted) and fetched in a RUN before
    the source is copied, so that a source change reuses the dependency layer."""
    has_layer = False
    problems = []
    for stage in stages:
        copied = False
        source_line = None
        for inst in stage.instructions:
            if inst.keyword == "RUN" and source_line is None and (copied or _binds_dependency_files(inst, docker)):
                has_layer = True
            if inst.keyword not in ("COPY", "ADD") or any(name == "from" for name, _ in inst.flags()):
                continue
            sources = inst.operands()[:-1]
            if not sources:
                continue
            if all(_is_dependency_file(s, docker) for s in sources):
                if source_line is not None and not copied:
                    problems.append(
                        f"{where}:{inst.line}: the dependency files are copied after the "
                        f"source (line {source_line}): copy them first and fetch the "
                        "dependencies in their own layer"
                    )
                copied = True
            elif source_line is None:
                source_line = inst.line
    if not has_layer and not problems:
        files = ", ".join(docker.dependency_files)
        problems.append(
            f"{where}: no dependency layer: COPY the dependency files ({files}, from impl.toml "
            "[docker] dependency_files) and fetch the dependencies in a RUN before copying the source"
        )
    return problems
