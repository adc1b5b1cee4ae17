#!/usr/bin/env bash
# A single-endpoint blast: one item by id (with its category) over random seeded ids, JSON on stdout.
#   BASE_URL=http://127.0.0.1:8080 loadtests/oha/item-by-id.sh > items.json
# DIALECT=hal sends the HAL dialect's path, /items/{id}?projection=inlineCategory (spec/hal.md);
# the default, api, sends /items/{id} (loadtests/k6/lib/dialects.js has the same table).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
oha=$(command -v oha || echo "$here/../../.bench/bin/oha")
[[ -x $oha ]] || { echo "oha not found: run ./bench setup (it builds oha into .bench/bin)" >&2; exit 1; }
# --rand-regex-url draws each URL from the pattern: ids 1..99999 (five digits, no leading zero);
# the query's "?" is escaped, the pattern being a regular expression.
case "${DIALECT:-api}" in
  api) query="" ;;
  hal) query='\?projection=inlineCategory' ;;
  *) echo "DIALECT must be api or hal, not $DIALECT" >&2; exit 1 ;;
esac
exec "$oha" -n "${REQUESTS:-100000}" -c "${CONNECTIONS:-50}" --no-tui --output-format json \
  --rand-regex-url "${BASE_URL:-http://127.0.0.1:8080}/items/[1-9][0-9]{0,4}$query"
