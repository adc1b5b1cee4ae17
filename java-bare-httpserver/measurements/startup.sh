#!/usr/bin/env bash
# Start-up of one jar, as README.md ("JSON: hand-written, measured") reports it: launches JAR
# with ../jvm.options and -Xmx$XMX, then prints the wall and CPU time from launch to the first
# 200 of /health, the time of the first request that reads a JSON body (a PUT of a valid
# category to an absent id: parsed, validated, 404, nothing written) and the resident peak.
#
#   measurements/startup.sh target/java-bare-httpserver.jar 32m     (from the stack directory)
#
# Needs DATABASE_URL of a seeded database (default: the runner's, `./bench db start`).
set -euo pipefail
jar=${1:?usage: startup.sh JAR [XMX]}
xmx=${2:-32m}
port=${PORT:-18086}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
log=$(mktemp)

started=$(date +%s%N)
DATABASE_URL=${DATABASE_URL:-postgres://bench:bench@127.0.0.1:${BENCH_PG_PORT:-54329}/bench} PORT=$port \
  "$java" @"$here/../jvm.options" -Xmx"$xmx" -jar "$jar" > "$log" 2>&1 &
pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$port/health"; do
  kill -0 $pid 2>/dev/null || { echo "did not start: $(tail -3 "$log")"; exit 1; }
  sleep 0.005
done
healthy=$(date +%s%N)
cpu_ms=$(awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' /proc/$pid/stat)
first_body=$(curl -s -o /dev/null -w '%{http_code} in %{time_total} s' -X PUT \
  -H 'Content-Type: application/json' -d '{"code":"X","name":"y"}' "http://127.0.0.1:$port/categories/999999999")
hwm_kib=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
echo "$(basename "$jar") -Xmx$xmx: healthy after $(( (healthy - started) / 1000000 )) ms wall, ${cpu_ms} ms CPU;" \
  "first body read: $first_body; VmHWM $hwm_kib KiB"
kill -TERM $pid
wait $pid || true
rm -f "$log"
