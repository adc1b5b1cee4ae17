#!/usr/bin/env bash
# The avatar scenario as an open model: a fixed arrival RATE (requests/s) instead of as-fast-as-
# possible, with latency correction, so queueing delay is measured (no coordinated omission);
# by DURATION seconds (default 10), as one step of the runner's fixed-rate ladder.
#   RATE=5000 BASE_URL=http://127.0.0.1:8080 loadtests/oha/avatar-open.sh > avatar-open.json
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
oha=$(command -v oha || echo "$here/../../.bench/bin/oha")
[[ -x $oha ]] || { echo "oha not found: run ./bench setup (it builds oha into .bench/bin)" >&2; exit 1; }
exec "$oha" -z "${DURATION:-10}s" -w -c "${CONNECTIONS:-60}" -q "${RATE:-5000}" --latency-correction \
  --no-tui --redirect 0 --output-format json "${BASE_URL:-http://127.0.0.1:8080}/avatar"
