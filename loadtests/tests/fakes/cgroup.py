"""What the kernel would do to a fake cgroup tree ($FAKE_CGROUP_ROOT, laid out like v1): the
fake processes charge their groups' counters themselves."""

import os
from pathlib import Path


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
