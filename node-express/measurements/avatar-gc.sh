#!/usr/bin/env bash
# The avatar at a fixed rate, as a ladder step sends it (oha, --latency-correction, connections
# for the rate at the 10 ms objective), against this stack or plain-http-avatar.mjs pinned to CPU
# 0, oha on CPU 1; 5 s of warm-up, then SECONDS_MEASURED s read by gc-monitor.mjs (the event
# loop's delay and the collector's pauses) and by oha. README.md, "The avatar's tail latency".
#
#   node-express/measurements/avatar-gc.sh express 2000
#   node-express/measurements/avatar-gc.sh plain 2000
#   node-express/measurements/avatar-gc.sh express 2000 --max-semi-space-size=64
#
# PRELOAD=node-express/measurements/promoted-allocations.mjs (an absolute path) profiles instead.
#
# Run from the repository root, with BENCH_HOME and BENCH_PG_PORT set as for ./bench (the stack
# checks its database at start; the avatar never asks it).
set -euo pipefail
server=${1:?usage: avatar-gc.sh express|plain RATE [NODE-FLAG...]}
rate=${2:?usage: avatar-gc.sh express|plain RATE [NODE-FLAG...]}
flags=("${@:3}")
port=${PORT:-18090}
seconds=${SECONDS_MEASURED:-15}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
oha=${BENCH_HOME:-.bench}/bin/oha
python=${BENCH_HOME:-.bench}/venv/bin/python
connections=$((rate * 10 / 1000 + 10))
((connections < 16)) && connections=16
case $server in
  express) script=$here/../server.js ;;
  plain) script=$here/plain-http-avatar.mjs ;;
  *) echo "avatar-gc.sh: the server is express or plain, not $server" >&2; exit 2 ;;
esac
log=$(mktemp)
out=$(mktemp)

./bench db start > /dev/null
db_url=$(PYTHONPATH=loadtests "$python" -c "from bench import postgres; print(postgres.cluster().url())")
(cd "$here/.." && PORT=$port HOST=127.0.0.1 DATABASE_URL=$db_url NODE_ENV=production \
  NODE_OPTIONS="--max-old-space-size=384 --import ${PRELOAD:-$here/gc-monitor.mjs}" \
  exec taskset -c 0 node "${flags[@]}" "$script") > "$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$log" "$out"' EXIT
until curl -s -o /dev/null "http://127.0.0.1:$port/avatar"; do
  kill -0 $pid 2>/dev/null || { echo "$server did not start: $(tail -3 "$log")"; exit 1; }
  sleep 0.1
done
run_oha() {
  taskset -c 1 "$oha" -z "$1s" -w -c $connections -q "$rate" --latency-correction --no-tui --redirect 0 \
    --output-format json "http://127.0.0.1:$port/avatar"
}
run_oha 5 > /dev/null
kill -USR2 $pid
cpu_before=$(awk '{print $14 + $15}' /proc/$pid/stat)
run_oha "$seconds" > "$out"
cpu_after=$(awk '{print $14 + $15}' /proc/$pid/stat)
kill -USR2 $pid
sleep 0.2
"$python" - "$out" "$server ${flags[*]}" "$rate" $((cpu_after - cpu_before)) "$seconds" "$(getconf CLK_TCK)" << 'PY'
import json, sys
path, label, rate, ticks, seconds, hz = sys.argv[1:]
data = json.load(open(path))
p = data["latencyPercentiles"]
print(
    f"{label} at {rate} req/s: {data['summary']['requestsPerSec']:.0f} req/s, "
    f"p50 {p['p50'] * 1000:.2f} p99 {p['p99'] * 1000:.2f} p99.9 {p['p99.9'] * 1000:.2f} ms, "
    f"{int(ticks) / int(hz) / float(seconds):.0%} of a core"
)
PY
grep 'event-loop delay' "$log" | tail -1
