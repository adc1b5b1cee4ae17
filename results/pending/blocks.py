"""What the Blocks table of results/pending/README.md says of each block, read from its records.

Run from loadtests/ with the runner's Python (it validates with the runner's schema):

    ../.bench/venv/bin/python ../results/pending/blocks.py [RAW_DIR]

For each block (scenario × run) in RAW_DIR (results/pending/raw/quick by default): its records, the
commits and calibrations they name (a block is one machine and one calibration, so more than one
is an error), the time from its first record's start to its last record's, the steal over its
full-length ladder steps (median and highest; probes left out, as the steal rule has it), and the
records whose own full-length steps had a median steal over 5%. Every record is validated against
loadtests/bench/raw-result.schema.json first; a record that fails is named and the script exits 1.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "loadtests" / "bench" / "raw-result.schema.json"
# A record whose own steps lost more than this to the host is named beside the block's figures.
RECORD_STEAL_LIMIT = 0.05


def full_length_steal(record: dict) -> list[float]:
    return [
        step["host"]["steal_share"]
        for step in record["ladder"]["steps"]
        if step.get("probe") is False and step.get("host") and step["host"].get("steal_share") is not None
    ]


def main(raw_dir: Path) -> int:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    blocks: dict[tuple[str, int], list[tuple[Path, dict]]] = defaultdict(list)
    invalid = 0
    for path in sorted(raw_dir.glob("*.json")):
        record = json.loads(path.read_text())
        errors = sorted(validator.iter_errors(record), key=lambda error: list(error.path))
        if errors:
            invalid += 1
            print(f"{path.name}: {errors[0].message} at {'/'.join(map(str, errors[0].path))}")
        blocks[(record["scenario"], record["run"])].append((path, record))
    for (scenario, run), records in sorted(blocks.items(), key=lambda item: (item[0][1], item[0][0])):
        commits = {record["git_commit"][:7] for _, record in records}
        calibrations = {
            (round(record["calibration"]["cpu"]["sha256_mib_per_s"]), round(record["calibration"]["postgres"]["transactions_per_cpu_s"]))
            for _, record in records
        }
        starts = sorted(datetime.fromisoformat(record["started_at"]) for _, record in records)
        steal = [share for _, record in records for share in full_length_steal(record)]
        print(f"{scenario} run {run}: {len(records)} records, commit {', '.join(sorted(commits))}")
        if len(calibrations) > 1:
            invalid += 1
            print(f"  more than one calibration in one block: {sorted(calibrations)}")
        for sha256, pgbench in sorted(calibrations):
            cpu = records[0][1]["calibration"]["cpu"]
            print(f"  calibration: SHA-256 {sha256:,} MiB, Python {cpu['python_mloops_per_s']:.2f} M, pgbench {pgbench:,} per CPU s")
        print(f"  first record {starts[0]:%Y-%m-%d %H:%M}, last record started {starts[-1]:%H:%M}")
        if steal:
            print(f"  steal over {len(steal)} full-length steps: median {statistics.median(steal):.1%}, highest {max(steal):.1%}")
        for path, record in records:
            own = full_length_steal(record)
            if own and statistics.median(own) > RECORD_STEAL_LIMIT:
                print(f"  {record['stack']['name']}: own steps' steal {statistics.median(own):.1%} (highest {max(own):.1%})")
    return 1 if invalid else 0


if __name__ == "__main__":
    default = Path(__file__).resolve().parent / "raw" / "quick"
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else default))
