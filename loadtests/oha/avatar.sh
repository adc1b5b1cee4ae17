#!/usr/bin/env bash
# The avatar scenario of the original article: 100,000 GET /avatar at 10 connections, the 302
# itself measured (redirects not followed), JSON on stdout.
#   BASE_URL=http://127.0.0.1:8080 loadtests/oha/avatar.sh > avatar.json
# REQUESTS and CONNECTIONS override the counts.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
oha=$(command -v oha || echo "$here/../../.bench/bin/oha")
[[ -x $oha ]] || { echo "oha not found: run ./bench setup (it builds oha into .bench/bin)" >&2; exit 1; }
exec "$oha" -n "${REQUESTS:-100000}" -c "${CONNECTIONS:-10}" --no-tui --redirect 0 --output-format json \
  "${BASE_URL:-http://127.0.0.1:8080}/avatar"
