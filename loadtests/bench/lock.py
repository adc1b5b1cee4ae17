"""One runner at a time per state directory: two would fight over the cluster and ports."""

from __future__ import annotations

import fcntl
import os
from types import TracebackType

from bench import paths
from bench.errors import BenchError


class Lock:
    def __init__(self) -> None:
        paths.ensure_dirs()
        self.file = (paths.HOME / "lock").open("a+")

    def __enter__(self) -> Lock:
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.file.seek(0)
            holder = self.file.read().strip() or "?"
            raise BenchError(
                f"another ./bench is already running (pid {holder}) with state in {paths.HOME}: "
                "wait for it to finish, or set BENCH_HOME to use a separate state directory"
            ) from None
        self.file.seek(0)
        self.file.truncate()
        self.file.write(str(os.getpid()))
        self.file.flush()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.file.seek(0)
        self.file.truncate()
        fcntl.flock(self.file, fcntl.LOCK_UN)
        self.file.close()
