"""`./bench setup`: everything installed ahead of time."""

from __future__ import annotations

import click

from bench import paths, procs
from bench.cli.group import cli
from bench.console import console
from bench.errors import BenchError
from bench.lock import Lock


@cli.command()
@click.option("--no-tools", is_flag=True, help="Skip building the load generators (oha, k6).")
def setup(no_tools: bool) -> None:
    """Install what the repository needs, skipping what is already there.

    PostgreSQL's server binaries and Chromium with its chromedriver (for the results page's
    test), from Debian's packages when absent; every stack's toolchain check and dependency
    download; and the pinned load generators oha and k6 (built from their registries into
    .bench/bin). Every other command does the part it needs by itself, so this is only a way
    to do it all ahead of time.
    """
    from bench import manifest, postgres, stacks, system, tools

    with Lock():
        with console.status("PostgreSQL"):
            bindir = postgres.ensure_installed()
        console.print(f"PostgreSQL {postgres.server_version(bindir)}: {bindir}")
        with console.status("Chromium and chromedriver"):
            browser, driver = system.ensure_chromium()
        console.print(f"Chromium and chromedriver (the results page's test): {browser}, {driver}")
        for stack in manifest.discover():
            with console.status(f"{stack.name}: toolchain and dependencies"):
                stacks.check_toolchain(stack)
                if stack.fetch_command:
                    log = paths.LOGS / f"{stack.name}-fetch.log"
                    code = procs.run(stack.fetch_command, cwd=stack.directory, env=stack.environment(), log=log)
                    if code != 0:
                        raise BenchError(
                            f"{stack.name}: downloading dependencies failed; see {log}\n{procs.tail(log, 10)}"
                        )
            console.print(f"{stack.name}: toolchain ready")
        if not no_tools:
            for tool in tools.TOOLS:
                with console.status(f"{tool.name} {tool.version}") as status:
                    path = tools.ensure(tool, on_progress=status.update)
                console.print(f"{tool.name} {tool.version}: {path}")
