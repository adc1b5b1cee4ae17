"""What the kernel would do to a fake cgroup tree ($FAKE_CGROUP_ROOT, laid out like v1): the
fake processes charge their groups' counters themselves."""

import os
import time
from pathlib import Path

# The most of one core that any group a fake load generator charges may use over its run's real
# time (`keep_up`).
KEPT_UP_SHARE = 0.5


def _file(controller, role, name):
    root = Path(os.environ["FAKE_CGROUP_ROOT"])
    (found,) = root.glob(f"{controller}/bench-*/{role}")
    return found / name


def _write(path, text):
    """At once, as the kernel's counters change: a reader never sees the file empty."""
    part = path.with_name(f".{path.name}.{os.getpid()}")
    part.write_text(text)
    part.replace(path)


def charge_cpu(role, seconds):
    usage = _file("cpuacct", role, "cpuacct.usage")
    before = int(usage.read_text()) if usage.exists() else 0
    _write(usage, str(before + round(seconds * 1e9)))


def set_memory(role, current, peak):
    """Writing 0 to memory.max_usage_in_bytes resets the peak (as the runner does before a
    stage); the fakes then set what the stage reached."""
    _write(_file("memory", role, "memory.usage_in_bytes"), str(current))
    _write(_file("memory", role, "memory.max_usage_in_bytes"), str(peak))
    oom = _file("memory", role, "memory.oom_control")
    if not oom.exists():
        oom.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 0\n")


def has(role):
    """Whether the runner made the role's group (the stock upstream's exists while it runs)."""
    return any(Path(os.environ["FAKE_CGROUP_ROOT"]).glob(f"cpuacct/bench-*/{role}"))


def enabled():
    return bool(os.environ.get("FAKE_CGROUP_ROOT"))


def start_app():
    """The app arriving in its group: the counters the runner reads exist from then on."""
    for role in ("app", "loadgen", "postgres"):
        charge_cpu(role, 0)
    set_memory("app", 20 << 20, 30 << 20)


def keep_up(started, *charged_s):
    """Lasts until the busiest of the CPU seconds `charged_s` (each a group's, or groups' that
    share CPUs) is at most KEPT_UP_SHARE of one core since `started` (time.monotonic()). A fake
    load generator compresses time: its run takes far less than the duration it reports, while
    the runner divides CPU by the real time between its readings; this keeps the shares it
    computes those of a stack that keeps up, whatever the rate."""
    if enabled():
        time.sleep(max(0.0, max(charged_s) / KEPT_UP_SHARE - (time.monotonic() - started)))
