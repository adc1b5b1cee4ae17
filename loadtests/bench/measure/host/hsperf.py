"""A JVM's performance counters, read from its hsperfdata file as jstat reads them, without
attaching to the JVM or starting a process per sample.

HotSpot keeps its counters in a memory-mapped file, /tmp/hsperfdata_USER/PID (unless started with
-XX:-UsePerfData). The file is a prologue (a magic number, the byte order, the offset and count of
the entries) followed by entries, each a header (its length, the offsets of its name and of its
data, its type, vector length, units and variability) with a NUL-terminated name and its value:
a 64-bit integer ('J') for every counter read here. The JVM writes the values in place; entries
are only ever appended, and appending changes the prologue's count. So the names are indexed
once, and each reading unpacks the few longs it needs from the mapping.
"""

from __future__ import annotations

import mmap
import pwd
import re
import struct
from dataclasses import dataclass
from pathlib import Path

MAGIC = 0xCAFEC0C0
ENTRY_HEADER = "iiiBBBBi"  # entry_length, name_offset, vector_length, type, flags, units, variability, data_offset
LONG = ord("J")

GC_TIME = re.compile(r"sun\.gc\.collector\.\d+\.time")
GC_COUNT = re.compile(r"sun\.gc\.collector\.\d+\.invocations")
HEAP_USED = re.compile(r"sun\.gc\.generation\.\d+\.space\.\d+\.used")
TICKS_PER_SECOND = "sun.os.hrt.frequency"
# Every method compilation the JIT has finished, C1's and C2's, OSR included (CompileBroker).
TOTAL_COMPILES = "sun.ci.totalCompiles"
# Every safepoint the VM reached and the ticks its threads spent stopped at them (what
# `-Xlog:safepoint` totals): the GC's pauses are among them, and so are a deoptimisation's, a
# biased lock's revocation's and a code cache sweep's, which no collector counter shows.
SAFEPOINTS = "sun.rt.safepoints"
SAFEPOINT_TIME = "sun.rt.safepointTime"
LIVE_THREADS = "java.threads.live"


class NotPerfData(ValueError):
    """The file is not (or not yet) a JVM's perf-data file."""


@dataclass(frozen=True)
class JvmReading:
    """A JVM's counters at one moment: every collector's pauses summed (what jstat's GCT sums),
    the heap's spaces in use, the compilations its JIT has finished, its safepoints and its live
    Java threads."""

    gc_ticks: int
    gc_pauses: int
    heap_used_bytes: int
    ticks_per_second: int
    compiles: int = 0
    safepoints: int = 0
    safepoint_ticks: int = 0
    live_threads: int = 0

    def since(self, before: JvmReading) -> JvmChange:
        """What the counters say happened between `before` and this reading (a counter that went
        back, as a restarted JVM's would, counts nothing)."""
        seconds_per_tick = 1 / (before.ticks_per_second or 1_000_000_000)
        return JvmChange(
            gc_pauses=max(self.gc_pauses - before.gc_pauses, 0),
            gc_pause_s=max(self.gc_ticks - before.gc_ticks, 0) * seconds_per_tick,
            compiles=max(self.compiles - before.compiles, 0),
            safepoints=max(self.safepoints - before.safepoints, 0),
            safepoint_s=max(self.safepoint_ticks - before.safepoint_ticks, 0) * seconds_per_tick,
        )


@dataclass(frozen=True)
class JvmChange:
    """A JVM's counters between two readings: collections and the time they paused it,
    compilations finished, safepoints and the time its threads stood stopped at them."""

    gc_pauses: int
    gc_pause_s: float
    compiles: int
    safepoints: int
    safepoint_s: float


def combined(readings: list[JvmReading]) -> JvmReading | None:
    """Several JVMs' readings as one (a stack runs one; its counters are summed, ticks kept in
    the first one's frequency, which HotSpot sets from the same clock for all); None for none."""
    if not readings:
        return None
    return JvmReading(
        gc_ticks=sum(r.gc_ticks for r in readings),
        gc_pauses=sum(r.gc_pauses for r in readings),
        heap_used_bytes=sum(r.heap_used_bytes for r in readings),
        ticks_per_second=readings[0].ticks_per_second,
        compiles=sum(r.compiles for r in readings),
        safepoints=sum(r.safepoints for r in readings),
        safepoint_ticks=sum(r.safepoint_ticks for r in readings),
        live_threads=sum(r.live_threads for r in readings),
    )


class PerfData:
    """One JVM's perf-data file, mapped read-only."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with path.open("rb") as file:
            self.map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        magic = int.from_bytes(self.map[:4], "big")
        if magic != MAGIC:
            self.close()
            raise NotPerfData(f"{path}: not a perf-data file (magic {magic:#x})")
        if not self.map[7]:
            self.close()
            raise NotPerfData(f"{path}: the JVM has not made its counters accessible yet")
        # Byte 4: 0 big-endian, 1 little-endian; every field after the magic is in that order.
        self.order = "<" if self.map[4] == 1 else ">"
        self.longs: dict[str, int] = {}
        self.entries = -1
        self._index()

    def _header(self) -> tuple[int, int]:
        """The first entry's offset and the number of entries."""
        entry_offset, entries = struct.unpack_from(self.order + "ii", self.map, 24)
        return entry_offset, entries

    def _index(self) -> None:
        """Every scalar long's data offset, by name."""
        offset, entries = self._header()
        header = struct.Struct(self.order + ENTRY_HEADER)
        longs: dict[str, int] = {}
        for _ in range(entries):
            length, name_at, vector, kind, _flags, _units, _variability, data_at = header.unpack_from(self.map, offset)
            if length <= 0:
                break
            end = self.map.find(b"\0", offset + name_at, offset + length)
            name = self.map[offset + name_at : end].decode("ascii", "replace")
            if kind == LONG and vector == 0:
                longs[name] = offset + data_at
            offset += length
        self.longs, self.entries = longs, entries

    def value(self, name: str) -> int | None:
        at = self.longs.get(name)
        return struct.unpack_from(self.order + "q", self.map, at)[0] if at is not None else None

    def total(self, names: re.Pattern[str]) -> int:
        return sum(
            struct.unpack_from(self.order + "q", self.map, at)[0] for n, at in self.longs.items() if names.fullmatch(n)
        )

    def read(self) -> JvmReading:
        # A counter the JVM created since the index was taken (a collector's first cycle) is found anew.
        if self._header()[1] != self.entries:
            self._index()
        return JvmReading(
            gc_ticks=self.total(GC_TIME),
            gc_pauses=self.total(GC_COUNT),
            heap_used_bytes=self.total(HEAP_USED),
            ticks_per_second=self.value(TICKS_PER_SECOND) or 1_000_000_000,
            compiles=self.value(TOTAL_COMPILES) or 0,
            safepoints=self.value(SAFEPOINTS) or 0,
            safepoint_ticks=self.value(SAFEPOINT_TIME) or 0,
            live_threads=self.value(LIVE_THREADS) or 0,
        )

    def close(self) -> None:
        self.map.close()


def perf_file(pid: int, proc: Path = Path("/proc"), tmp: Path = Path("/tmp")) -> Path | None:
    """Where a JVM of process `pid` keeps its counters (HotSpot writes them under /tmp whatever
    java.io.tmpdir says, in a directory named after the process's user); None when it keeps none
    there, as any process that is not a JVM."""
    try:
        user = pwd.getpwuid((proc / str(pid)).stat().st_uid).pw_name
    except (OSError, KeyError):
        return None
    found = tmp / f"hsperfdata_{user}" / str(pid)
    return found if found.is_file() else None


def open_jvms(pids: list[int], proc: Path = Path("/proc"), tmp: Path = Path("/tmp")) -> list[PerfData]:
    """The perf-data files of the JVMs among `pids`."""
    found = []
    for pid in pids:
        path = perf_file(pid, proc, tmp)
        if path is None:
            continue
        try:
            found.append(PerfData(path))
        except (OSError, ValueError, struct.error):
            # A JVM still starting has an empty or partial file; one that just ended, none.
            continue
    return found
