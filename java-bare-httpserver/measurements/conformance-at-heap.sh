#!/usr/bin/env bash
# The heap floor, as README.md ("Memory", "JSON: hand-written, measured") reports it: the whole
# conformance suite, resilience cases included and CONFORMANCE_STRICT=1 as `./bench test` runs
# it, against JAR started by hand with ../jvm.options, -Xmx$XMX and any further JVM flags (a
# collector: README.md, "Variants"), on a freshly reset database of the runner's cluster, its
# STOCK_URL naming the suite's fake stock upstream on UPSTREAM_PORT (PORT + 1). Prints
# the suite's summary, whether the server survived, its resident peak, how many OutOfMemoryError
# lines it logged, and the first failed cases.
#
#   java-bare-httpserver/measurements/conformance-at-heap.sh java-bare-httpserver/target/java-bare-httpserver.jar 8m
#   java-bare-httpserver/measurements/conformance-at-heap.sh java-bare-httpserver/target/java-bare-httpserver.jar 8m -XX:-UseSerialGC -XX:+UseG1GC
#
# CASES, when set, is a pytest -k expression that runs only those cases on the fresh JVM: CASES=burst
# runs the burst of 200 stock calls alone, with nothing before it to have grown the heap.
#
# Run from the repository root, with BENCH_HOME and BENCH_PG_PORT set as for ./bench.
set -euo pipefail
jar=$(realpath "${1:?usage: conformance-at-heap.sh JAR XMX [JVM-FLAG...]}")
xmx=${2:?usage: conformance-at-heap.sh JAR XMX [JVM-FLAG...]}
flags=("${@:3}")
port=${PORT:-18086}
upstream_port=${UPSTREAM_PORT:-$((port + 1))}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
python=${BENCH_HOME:-.bench}/venv/bin/python
log=$(mktemp)

./bench db start > /dev/null
./bench db reset > /dev/null
cluster() { PYTHONPATH=loadtests "$python" -c "from bench import postgres; c = postgres.cluster(); print(c.$1())"; }
db_url=$(cluster url)
db_stop=$(cluster stop_command)
db_start=$(cluster start_command)

DATABASE_URL=$db_url PORT=$port STOCK_URL=http://127.0.0.1:$upstream_port "$java" @"$here/../jvm.options" -Xmx"$xmx" "${flags[@]}" -jar "$jar" > "$log" 2>&1 &
pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$port/health"; do
  kill -0 $pid 2>/dev/null || { echo "-Xmx$xmx: did not start: $(tail -3 "$log")"; exit 1; }
  sleep 0.05
done
BASE_URL=http://127.0.0.1:$port CONFORMANCE_STRICT=1 CONFORMANCE_UPSTREAM_PORT=$upstream_port \
  BENCH_DB_STOP=$db_stop BENCH_DB_START=$db_start \
  "$python" -m pytest spec/conformance -q -p no:cacheprovider ${CASES:+-k "$CASES"} > "$log.pytest" 2>&1 || true
eval "$db_start" > /dev/null 2>&1 || true  # the resilience cases stop it; leave it running
if kill -0 $pid 2>/dev/null; then
  state="server alive, VmHWM $(awk '/VmHWM/ {print $2}' /proc/$pid/status) KiB"
else
  state="server ended"
fi
echo "$(basename "$jar") -Xmx$xmx ${flags[*]}: $(tail -1 "$log.pytest"); $state; OutOfMemoryError lines: $(grep -c OutOfMemoryError "$log" || true)"
grep -E '^(FAILED|ERROR) ' "$log.pytest" | head -3 || true
kill -TERM $pid 2>/dev/null || true
wait $pid || true
rm -f "$log" "$log.pytest"
