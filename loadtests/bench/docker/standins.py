"""Base images for `./bench docker`: pulled when a registry answers, else built here as stand-ins.

A stand-in is test infrastructure for a machine that reaches package registries but no registry
of images: a local image under exactly the name and tag a Dockerfile or compose.yaml pins, made
from a Debian root (debootstrap) and the host's toolchains, with the host's certificate
authorities so that builds inside reach the package registries as the host does. The recipes are
in loadtests/standins/; every stand-in carries a label that says what stands in, which the
command prints.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from bench import compose_file, paths, procs, system, tools
from bench.checks import dockerfiles, images
from bench.docker.engine import Engine
from bench.errors import BenchError

RECIPES = paths.ROOT / "loadtests" / "standins"
LABEL = "bench.stand-in"
# Every stand-in is built FROM this one (the recipes' ARG BASE); it is made first.
BASE = "debian:12.12-slim"
# Debian's releases by major version: the tag's number picks the suite debootstrap installs.
DEBIAN_SUITES = {"12": "bookworm", "13": "trixie"}
CACHE = tools.CACHE / "standins"


def _ca_bundle() -> Path:
    """The CA bundle the host trusts: SSL_CERT_FILE's when set, else Debian's."""
    return Path(os.environ.get("SSL_CERT_FILE") or "/etc/ssl/certs/ca-certificates.crt")


# Host commands a stand-in needs that Debian packages and the runner installs itself; the
# toolchains (go, rustc, node, mvn) are the stacks' own, which building them installs.
_DEBIAN_PACKAGES = {"debootstrap": "debootstrap"}


def _host_command(name: str) -> Path:
    found = shutil.which(name)
    if found is None and name in _DEBIAN_PACKAGES:
        system.apt_install([_DEBIAN_PACKAGES[name]], why=f"`{name}` (a stand-in base image)")
        found = shutil.which(name)
    if found is None:
        raise BenchError(
            f"a stand-in base image needs `{name}` on this machine: install it, or make the image pullable"
        )
    return Path(found).resolve()


def _output_of(command: list[str]) -> str:
    _host_command(command[0])
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip()


def _jdk() -> Path:
    """The host's JDK 25, where the Java stacks' impl.toml looks for it."""
    home = Path(os.environ.get("BENCH_JAVA_HOME") or "/usr/lib/jvm/temurin-25-jdk-amd64")
    if not (home / "bin" / "java").exists():
        raise BenchError(f"the Java stand-ins need a JDK 25 at {home}: install Temurin 25 or set BENCH_JAVA_HOME")
    return home


def _java_trust_store() -> Path:
    """The JDK's cacerts, followed to the file (on Debian a link to the system's Java trust store)."""
    return (_jdk() / "lib" / "security" / "cacerts").resolve()


def _maven_home() -> Path:
    return _host_command("mvn").parent.parent


def _npm() -> Path:
    npm = _host_command("node").parent.parent / "lib" / "node_modules" / "npm"
    if not npm.is_dir():
        raise BenchError(f"the node stand-in needs npm next to node, at {npm}")
    return npm


# Parts of host trees that no build needs: documentation, sources, the JDK's module archives.
_SKIPPED = ("share/doc", "share/man", "lib/rustlib/src", "jmods", "lib/src.zip", "man", "include")


@dataclass(frozen=True)
class StandIn:
    repository: str  # the image repository it stands in for, any tag
    recipe: str  # directory in loadtests/standins/
    what: str  # what stands in, as the command prints it
    # {name in the build context: host path}, resolved when the stand-in is built
    host_files: Callable[[], dict[str, Path]]


def _with_ca(**files: Callable[[], Path]) -> Callable[[], dict[str, Path]]:
    def resolve() -> dict[str, Path]:
        return {"ca-certificates.crt": _ca_bundle(), **{name: get() for name, get in files.items()}}

    return resolve


STANDINS: dict[str, StandIn] = {
    s.repository: s
    for s in (
        StandIn(
            "golang",
            "golang",
            "Debian bookworm minbase with the host's Go toolchain",
            _with_ca(go=lambda: Path(_output_of(["go", "env", "GOROOT"]))),
        ),
        StandIn(
            "rust",
            "rust",
            "Debian bookworm minbase with gcc and the host's Rust toolchain",
            _with_ca(rust=lambda: Path(_output_of(["rustc", "--print", "sysroot"]))),
        ),
        StandIn(
            "node",
            "node",
            "Debian bookworm minbase with the host's Node.js and npm",
            _with_ca(node=lambda: _host_command("node"), npm=_npm),
        ),
        StandIn("python", "python", "Debian bookworm minbase with Debian's Python 3.11 (3.11.2)", _with_ca()),
        StandIn(
            "maven",
            "maven",
            "Debian bookworm minbase (not Ubuntu noble) with the host's Temurin JDK 25 and Maven",
            _with_ca(jdk=_jdk, cacerts=_java_trust_store, maven=_maven_home),
        ),
        StandIn(
            "eclipse-temurin",
            "temurin-jre",
            "Debian bookworm minbase (not Ubuntu noble) with the host's Temurin JDK 25 as the JRE",
            _with_ca(jdk=_jdk, cacerts=_java_trust_store),
        ),
        StandIn(
            "postgres",
            "postgres",
            "Debian bookworm minbase with Debian's PostgreSQL 15 and the official entrypoint's contract",
            _with_ca(),
        ),
        StandIn(
            "grafana/k6",
            "k6",
            "Debian bookworm minbase with the runner's k6 build",
            _with_ca(k6=lambda: tools.ensure(tools.K6).resolve()),
        ),
    )
}


def required_images(root: Path, stack_dirs: Iterable[Path]) -> list[str]:
    """The pinned images the run needs: every stack's FROM lines (stages excluded), the stock
    upstream's (every stack's service waits for it), and the images of compose.yaml's services
    (PostgreSQL, k6), in a stable order."""
    found: list[str] = []
    for directory in [*stack_dirs, root / compose_file.UPSTREAM_CONTEXT]:
        for stage in dockerfiles.read((directory / "Dockerfile").read_text()):
            if stage.parent is None and stage.base not in found:
                found.append(stage.base)
    services = compose_file.services_of(compose_file.load(root / compose_file.COMPOSE_FILE))
    for service in services.values():
        image = service.get("image")
        if isinstance(image, str) and "build" not in service and image not in found:
            found.append(image)
    return found


@dataclass
class BaseImages:
    """What `ensure` found: the images pulled or present, and the stand-ins with what they are."""

    standins: dict[str, str]  # image → what stands in for it

    def announcement(self) -> str:
        if not self.standins:
            return "base images: all from their registry"
        listed = "; ".join(f"{image} = {what}" for image, what in self.standins.items())
        return f"built against stand-in base images: {listed}"


def ensure(engine: Engine, wanted: list[str], on_progress: Callable[[str], object]) -> BaseImages:
    """Every image of `wanted` present: pulled, or else its stand-in built (once per machine: a
    stand-in stays until `docker image rm`)."""
    result = BaseImages({})
    ordered = [BASE, *(image for image in wanted if image != BASE)]
    for image in ordered:
        label = engine.image_label(image, LABEL)
        if label is None:
            on_progress(f"pulling {image}")
            if engine.pull(image):
                continue
            on_progress(f"{image} cannot be pulled: building its stand-in")
            build(engine, image)
            label = engine.image_label(image, LABEL)
        if label and image in wanted:
            result.standins[image] = label
    return result


def build(engine: Engine, image: str) -> None:
    if images.repository(image) == images.repository(BASE):
        _import_debian(engine, image)
        return
    standin = STANDINS.get(images.repository(image))
    if standin is None:
        raise BenchError(
            f"{image} cannot be pulled and has no stand-in in {RECIPES.relative_to(paths.ROOT)}: "
            "make a registry reachable (docker pull) or add a recipe"
        )
    context = paths.HOME / "standins" / f"{standin.recipe}.tar"
    context.parent.mkdir(parents=True, exist_ok=True)
    try:
        _write_context(context, RECIPES / standin.recipe, standin.host_files())
        engine.build_from_tar(
            context, image, build_args={"BASE": BASE}, labels={LABEL: standin.what}, log_name=standin.recipe
        )
    finally:
        context.unlink(missing_ok=True)


def _skipped(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    parts = info.name.split("/", 1)
    inner = parts[1] if len(parts) == 2 else ""
    return None if any(inner == s or inner.startswith(s + "/") for s in _SKIPPED) else info


def _write_context(tar_path: Path, recipe: Path, host_files: dict[str, Path]) -> None:
    """The recipe's files and the host's, as one build context; links are followed, since a
    context cannot point outside itself (Debian's Maven is links into /usr/share/java)."""
    # GNU format: the docker CLI takes a PAX archive on stdin for a Dockerfile.
    with tarfile.open(tar_path, "w", format=tarfile.GNU_FORMAT, dereference=True) as tar:
        for entry in sorted(recipe.iterdir()):
            tar.add(entry, arcname=entry.name)
        for name, host_path in host_files.items():
            if not host_path.exists():
                raise BenchError(f"a stand-in needs {host_path}, which is missing on this machine")
            tar.add(host_path, arcname=name, filter=_skipped)


def _import_debian(engine: Engine, image: str) -> None:
    """`debootstrap --variant=minbase` of the tag's Debian release, imported as `image`."""
    version = images.tag(image).split(".")[0].split("-")[0]
    suite = DEBIAN_SUITES.get(version)
    if suite is None:
        raise BenchError(f"{image}: no Debian suite known for version {version!r} (bench/docker/standins.py)")
    archive = CACHE / f"debian-{suite}-minbase.tar"
    if not archive.exists():
        _host_command("debootstrap")
        root = CACHE / f"rootfs-{suite}-minbase"
        shutil.rmtree(root, ignore_errors=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        log = paths.LOGS / "docker" / f"debootstrap-{suite}.log"
        code = procs.run(
            ["debootstrap", "--variant=minbase", suite, str(root)], cwd=CACHE, env=dict(os.environ), log=log
        )
        if code != 0:
            raise BenchError(f"debootstrap {suite} failed; see {log}\n{procs.tail(log, 10)}")
        # The downloaded packages and indexes stay out of the image, as in Debian's slim images.
        for leftover in (root / "var/cache/apt/archives", root / "var/lib/apt/lists"):
            for item in leftover.glob("*"):
                if item.is_file():
                    item.unlink()
        partial = archive.with_suffix(".partial")
        with tarfile.open(partial, "w") as tar:
            tar.add(root, arcname=".")
        partial.rename(archive)
        shutil.rmtree(root)
    changes = ['CMD ["bash"]', f"LABEL {LABEL}={json.dumps(f'Debian {suite} minbase (debootstrap)')}"]
    engine.import_tar(archive, image, changes)
