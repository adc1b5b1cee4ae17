#!/usr/bin/env bash
# A read scenario (read-heavy or join-filter) as one step of the runner's fixed-rate ladder: oha
# at a fixed RATE (requests/s) with latency correction (no coordinated omission), for DURATION
# seconds, each request's URL drawn from the scenario's seeded URL list, whose mix is its k6
# script's (loadtests/bench/measure/load/urls.py). JSON on stdout.
#   SCENARIO=join-filter RATE=1000 BASE_URL=http://127.0.0.1:8080 loadtests/oha/read-mix.sh > join-filter.json
# DIALECT=hal for a HAL stack (spec/hal.md); CONNECTIONS overrides the connections.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
oha=$(command -v oha || echo "$here/../../.bench/bin/oha")
[[ -x $oha ]] || { echo "oha not found: run ./bench setup (it builds oha into .bench/bin)" >&2; exit 1; }
python="${BENCH_HOME:-$here/../../.bench}/venv/bin/python"
[[ -x $python ]] || { echo "the runner's Python not found: run ./bench setup first" >&2; exit 1; }
urls=$(mktemp)
trap 'rm -f "$urls"' EXIT
(cd "$here/.." && "$python" -m bench.measure.load.generators urls "${SCENARIO:-join-filter}" "${BASE_URL:-http://127.0.0.1:8080}" \
  --dialect "${DIALECT:-api}") > "$urls"
"$oha" -z "${DURATION:-10}s" -w -c "${CONNECTIONS:-110}" -q "${RATE:-1000}" --latency-correction \
  --no-tui --redirect 0 --output-format json --urls-from-file "$urls"
