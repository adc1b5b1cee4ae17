import os
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parents[2])
HOME = Path(os.environ.get("BENCH_HOME") or ROOT / ".bench")
LOGS = HOME / "logs"
BIN = HOME / "bin"
DB_DIR = ROOT / "db"
SPEC_DIR = ROOT / "spec"


def ensure_dirs() -> None:
    for directory in (HOME, LOGS, BIN):
        directory.mkdir(parents=True, exist_ok=True)
