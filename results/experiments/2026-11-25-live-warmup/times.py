"""Where the suite's time went, from the raw files beside this script: warm-ups (settled or
capped, stepped down or not), ladder steps, and each job's share of the run's wall time (the
time from one record's start to the next one's).

    python3 times.py
"""

import json
import statistics
from datetime import datetime
from pathlib import Path

RAW = Path(__file__).with_name("raw") / "quick"
JAVA = ("java-",)

records = [json.loads(p.read_text()) for p in sorted(RAW.glob("*.json"))]
records.sort(key=lambda r: r["started_at"])
stacks = [r for r in records if r.get("steady_state")]
warm = [r["steady_state"] for r in stacks]
print(f"records: {len(records)}, with a warm-up: {len(stacks)}")
print(f"warm-ups: {sum(w['time_s'] for w in warm) / 60:.1f} min, settled {sum(w['reached'] for w in warm)} of {len(warm)}")
for label, pick in (("Java", True), ("others", False)):
    group = [r["steady_state"] for r in stacks if r["stack"]["name"].startswith(JAVA) == pick]
    settled = [w for w in group if w["reached"]]
    print(
        f"  {label}: {len(group)} warm-ups, {len(settled)} settled, median time {statistics.median(w['time_s'] for w in group):.1f} s"
    )
stepped = [
    (r["stack"]["name"], r["scenario"], sorted(set(r["steady_state"]["windows_rate_rps"]), reverse=True))
    for r in stacks
    if len(set(r["steady_state"].get("windows_rate_rps") or [])) > 1
]
print(f"stepped down: {len(stepped)}")
for name, scenario, rates in stepped:
    print(f"  {name} {scenario}: {' -> '.join(f'{x:g}' for x in rates)}")
steps = sum(len(r["ladder"]["steps"]) for r in records if r.get("ladder"))
print(f"ladder steps, the ceilings' included: {steps}")
starts = [datetime.fromisoformat(r["started_at"].replace("Z", "+00:00")) for r in records]
span = (starts[-1] - starts[0]).total_seconds() / 60
print(f"first record's start to last record's start: {span:.1f} min (the last job's own time not included)")
