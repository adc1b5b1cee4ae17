"""ESLint over the runner's JavaScript and actionlint over the GitHub workflows: the commands of
two steps of the runner's row in `./bench test` (bench.testing.runner), each tool installed on
first use.

ESLint is node-express's version, locked in loadtests/eslint/ with its config, and installed there
by `npm ci` into node_modules/ (ignored), as node-express installs its own. actionlint is built
with Go into the runner's tools, like kustomize and kubeconform (bench.tools).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from bench import paths, procs, tools
from bench.errors import BenchError

RUNNER_DIR = paths.ROOT / "loadtests"
ESLINT_DIR = RUNNER_DIR / "eslint"
# Relative to loadtests/, where ESLint runs: its config's patterns are relative to the directory
# it runs in, since it is given with --config.
ESLINT_TARGETS = ("bench/report/site_assets/site.js", "k6")
# ESLint 10's own floor; older Nodes fail inside ESLint with a stack trace instead.
NODE_MINIMUM = (20, 19)
# npm ci removes node_modules/ first: the stamp inside it goes with the install it stands for.
LOCK_STAMP = ".bench-lock-sha256"
WORKFLOWS = paths.ROOT / ".github" / "workflows"

Progress = Callable[[str], object]
Command = tuple[list[str], Path]  # the command, and the directory it runs in


def eslint(on_progress: Progress) -> Command:
    """ESLint from the lock in loadtests/eslint/, installed when the lock changed."""
    node, npm = shutil.which("node"), shutil.which("npm")
    hint = f"install Node.js {'.'.join(map(str, NODE_MINIMUM))} or newer with npm"
    if node is None or npm is None:
        raise BenchError(f"ESLint needs Node.js and npm: {hint}")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    if _version(version) < NODE_MINIMUM:
        raise BenchError(f"ESLint needs a newer Node.js than {version or 'the one on PATH'}: {hint}")
    digest = hashlib.sha256((ESLINT_DIR / "package-lock.json").read_bytes()).hexdigest()
    stamp = ESLINT_DIR / "node_modules" / LOCK_STAMP
    if not stamp.is_file() or stamp.read_text().strip() != digest:
        on_progress("ESLint: npm ci in loadtests/eslint (once per lock)")
        paths.ensure_dirs()
        log = paths.LOGS / "install-eslint.log"
        # ESLint is all dev dependencies: --include=dev even where NODE_ENV=production.
        command = [npm, "ci", "--include=dev", "--no-audit", "--no-fund"]
        if procs.run(command, cwd=ESLINT_DIR, env=dict(os.environ), log=log, timeout_s=600) != 0:
            raise BenchError(f"npm ci in {ESLINT_DIR} failed; see {log}")
        stamp.write_text(f"{digest}\n")
    config = ESLINT_DIR / "eslint.config.js"
    binary = ESLINT_DIR / "node_modules" / "eslint" / "bin" / "eslint.js"
    return [node, str(binary), "--config", str(config), "--max-warnings", "0", *ESLINT_TARGETS], RUNNER_DIR


def actionlint(on_progress: Progress) -> Command:
    """actionlint over every workflow, built once per machine. Its shellcheck and pyflakes passes
    are off: it runs them only where they happen to be installed, and a check must say the same
    on every machine."""
    binary = tools.ensure(tools.ACTIONLINT, on_progress=on_progress)
    workflows = sorted(str(path) for pattern in ("*.yml", "*.yaml") for path in WORKFLOWS.glob(pattern))
    if not workflows:
        raise BenchError(f"no workflow in {WORKFLOWS} for actionlint to check")
    return [str(binary), "-no-color", "-shellcheck=", "-pyflakes=", *workflows], paths.ROOT


CHECKS: dict[str, Callable[[Progress], Command]] = {"eslint": eslint, "actionlint": actionlint}


def _version(text: str) -> tuple[int, ...]:
    """(20, 19) from "v20.19.2"; () from anything else."""
    try:
        return tuple(int(part) for part in text.lstrip("v").split(".")[:2])
    except ValueError:
        return ()
