"""Installing what the machine lacks, from Debian's packages, idempotently."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from bench.errors import BenchError

_updated = False
_POLICY = Path("/usr/sbin/policy-rc.d")


def apt_install(packages: list[str], *, why: str, keep_services_down: bool = False, any_of: bool = False) -> None:
    """Installs Debian packages; with any_of, the first one that exists is enough."""
    global _updated
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise BenchError(
            f"{why} is missing: install {' or '.join(packages)} "
            "(the runner installs it itself when run as root on Debian)"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if not _updated:
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
        _updated = True
    # Debian starts a package's service on install; the runner wants the binaries only.
    placed_policy = False
    if keep_services_down and not _POLICY.exists():
        _POLICY.write_text("#!/bin/sh\nexit 101\n")
        _POLICY.chmod(0o755)
        placed_policy = True
    try:
        batches = [[p] for p in packages] if any_of else [packages]
        for batch in batches:
            result = subprocess.run(
                ["apt-get", "install", "-y", "-qq", *batch], env=env, capture_output=True, text=True
            )
            if result.returncode == 0:
                return
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError(f"could not install {' '.join(packages)} for {why}: {last}")
    finally:
        if placed_policy:
            _POLICY.unlink(missing_ok=True)


# Debian's paths: the results page's test (tests/test_site.py) drives this browser and driver.
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def ensure_chromium() -> tuple[Path, Path]:
    """Finds Debian's Chromium and its chromedriver, installing the packages when they are absent."""
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        apt_install(["chromium", "chromium-driver"], why="Chromium and chromedriver (the results page's test)")
        if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
            raise BenchError(f"{CHROMIUM} or {CHROMEDRIVER} is still missing after installing them")
    return CHROMIUM, CHROMEDRIVER
